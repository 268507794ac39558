// SPDX-License-Identifier: MIT
// What the GUI remembers between runs (AppSettings): the window geometry and dock layout, the last
// dataset, and File ▸ Open recent. Each test starts from empty settings of its own.
#include "tests/testutils.h"
#include "ui/appsettings.h"
#include "ui/mainwindow.h"
#include "ui/panels/querybuilder.h"
#include "uitestutils.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QMenu>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using namespace pbx;
using pbx::ui::AppSettings;
using pbx::ui::MainWindow;

namespace {

/// A seeded session on CPS1988 with one answered count, saved to `path`.
void saveOneQuerySession(MainWindow &window, const QString &path)
{
    session::SessionSettings settings;
    settings.seed = 7;
    QVERIFY(window.openDataset(QStringLiteral("cps1988")).ok());
    QVERIFY(window.startNewSession(settings).ok());
    window.queryBuilder()->setAbsoluteTarget(200.0);
    window.ask();
    auto saved = window.saveSessionTo(path);
    QVERIFY2(saved.ok(), saved.ok() ? "" : saved.error().message.c_str());
}

QStringList menuPaths(QMenu *menu)
{
    QStringList paths;
    for (QAction *action : menu->actions())
        if (action->data().isValid())
            paths << action->data().toString();
    return paths;
}

} // namespace

class TestAppSettings : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        // Settings of this test alone, under CTest's XDG_CONFIG_HOME.
        QCoreApplication::setOrganizationName(QStringLiteral("pbx-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("appsettings"));
    }

    void init() { QSettings().clear(); }

    void recentSessionsNewestFirstAndOpenable()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString first = dir.filePath(QStringLiteral("first.json"));
        const QString second = dir.filePath(QStringLiteral("second.json"));
        MainWindow window;
        window.resize(1400, 900);
        QVERIFY(AppSettings::recentSessions().isEmpty());
        saveOneQuerySession(window, first);
        QCOMPARE(AppSettings::recentSessions(), QStringList{first});
        saveOneQuerySession(window, second);
        QCOMPARE(AppSettings::recentSessions(), (QStringList{second, first}));

        // Opening moves a session to the top; the menu lists what the settings hold.
        MainWindow other;
        QVERIFY(other.openSessionFile(first).ok());
        QCOMPARE(AppSettings::recentSessions(), (QStringList{first, second}));
        QMenu *menu = other.recentSessionsMenu();
        QVERIFY(menu);
        QMetaObject::invokeMethod(menu, "aboutToShow");
        QCOMPARE(menuPaths(menu), (QStringList{first, second}));
        QVERIFY(menu->actions().constFirst()->text().contains(QStringLiteral("first.json")));

        // A file that no longer exists is not offered.
        QVERIFY(QFile::remove(second));
        QCOMPARE(AppSettings::recentSessions(), QStringList{first});
        QMetaObject::invokeMethod(menu, "aboutToShow");
        QCOMPARE(menuPaths(menu), QStringList{first});

        // At most maxRecentSessions, newest first.
        for (int i = 0; i < AppSettings::maxRecentSessions + 3; ++i) {
            const QString path = dir.filePath(QStringLiteral("s%1.json").arg(i));
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            AppSettings::addRecentSession(path);
        }
        const QStringList recent = AppSettings::recentSessions();
        QCOMPARE(recent.size(), AppSettings::maxRecentSessions);
        QCOMPARE(recent.constFirst(),
                 dir.filePath(QStringLiteral("s%1.json").arg(AppSettings::maxRecentSessions + 2)));

        AppSettings::clearRecentSessions();
        QVERIFY(AppSettings::recentSessions().isEmpty());
        QMetaObject::invokeMethod(menu, "aboutToShow");
        QVERIFY(menuPaths(menu).isEmpty());
        QCOMPARE(menu->actions().size(), 1); // "No recent sessions", disabled
        QVERIFY(!menu->actions().constFirst()->isEnabled());
    }

    // File dialogs start in a folder that exists (a missing Documents folder used to be pre-filled
    // as the file name "Documents"), and then where the last file was opened or saved.
    void fileDialogsStartInAnExistingFolder()
    {
        QVERIFY(QFileInfo(AppSettings::startFolder()).isDir());
        QTemporaryDir dir;
        const QString session = dir.filePath(QStringLiteral("s.json"));
        auto window = std::make_unique<MainWindow>();
        saveOneQuerySession(*window, session);
        QCOMPARE(QDir(AppSettings::startFolder()), QDir(dir.path()));
        QSettings().setValue(QStringLiteral("files/lastFolder"), dir.filePath(QStringLiteral("gone")));
        QVERIFY(QFileInfo(AppSettings::startFolder()).isDir());
        QVERIFY(!AppSettings::startFolder().endsWith(QStringLiteral("gone")));
    }

    void lastDatasetIsRemembered()
    {
        QVERIFY(AppSettings::lastDataset().isEmpty());
        MainWindow window;
        QVERIFY(window.openDataset(QStringLiteral("cps1988")).ok());
        QCOMPARE(AppSettings::lastDataset(), QStringLiteral("cps1988"));

        // A CSV opened by a relative path is remembered by its absolute path.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile csv(dir.filePath(QStringLiteral("tiny.csv")));
        QVERIFY(csv.open(QIODevice::WriteOnly));
        csv.write("x,g\n1,a\n2,b\n3,a\n");
        csv.close();
        const QString previous = QDir::currentPath();
        QVERIFY(QDir::setCurrent(dir.path()));
        const bool opened = window.openDataset(QStringLiteral("tiny.csv")).ok();
        QDir::setCurrent(previous);
        QVERIFY(opened);
        QCOMPARE(AppSettings::lastDataset(), dir.filePath(QStringLiteral("tiny.csv")));

        // A dataset that fails to open is not remembered.
        PBX_VERIFY_ERROR(window.openDataset(dir.filePath(QStringLiteral("missing.csv"))), NotFound,
                         "missing.csv");
        QCOMPARE(AppSettings::lastDataset(), dir.filePath(QStringLiteral("tiny.csv")));
    }

    void windowLayoutSurvivesARestart()
    {
        QRect savedGeometry;
        {
            MainWindow window;
            QVERIFY(!window.rememberLayout()); // nothing saved yet: the default layout
            window.resize(1024, 700);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            auto *gaugeDock = window.findChild<QDockWidget *>(QStringLiteral("gaugeDock"));
            QVERIFY(gaugeDock);
            gaugeDock->hide();
            savedGeometry = window.geometry();
            QVERIFY(window.close());
        }
        MainWindow again;
        QVERIFY(again.rememberLayout());
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QCOMPARE(again.size(), savedGeometry.size());
        auto *gaugeDock = again.findChild<QDockWidget *>(QStringLiteral("gaugeDock"));
        QVERIFY(gaugeDock);
        QVERIFY(!gaugeDock->isVisible());
        QVERIFY(again.findChild<QDockWidget *>(QStringLiteral("datasetDock"))->isVisible());

        // A window that does not remember its layout (tests, --screenshot) saves nothing.
        QSettings().clear();
        {
            MainWindow window;
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QVERIFY(window.close());
        }
        MainWindow fresh;
        QVERIFY(!fresh.rememberLayout());
    }
};

QTEST_MAIN(TestAppSettings)
#include "tst_appsettings.moc"
