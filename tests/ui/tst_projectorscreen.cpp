// SPDX-License-Identifier: MIT
// On a projector's screen (1024×768, or 1280×720; PBX_TEST_SCREEN) the first
// window fits the screen, Ask is visible without scrolling, with presentation mode off and on, and
// a layout saved on a bigger screen is not restored as is. The screen is a real one for Qt: the
// offscreen platform is given its geometry through a config file before the application starts.
#include "testscreen.h"
#include "ui/appsettings.h"
#include "ui/mainwindow.h"
#include "ui/panels/querybuilder.h"
#include "uitestutils.h"

#include <QAbstractScrollArea>
#include <QAction>
#include <QApplication>
#include <QFile>
#include <QPushButton>
#include <QScreen>
#include <QScrollBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using pbx::test::testScreen;
using pbx::ui::AppSettings;
using pbx::ui::MainWindow;

namespace {

/// The window's frame lies inside the screen's available area.
void verifyInsideScreen(const QWidget &window, const char *what)
{
    const QRect available = window.screen()->availableGeometry();
    QVERIFY2(available.contains(window.frameGeometry()),
             qPrintable(QStringLiteral("%1: %2×%3 at (%4, %5) outside %6×%7")
                            .arg(QLatin1String(what))
                            .arg(window.frameGeometry().width())
                            .arg(window.frameGeometry().height())
                            .arg(window.frameGeometry().x())
                            .arg(window.frameGeometry().y())
                            .arg(available.width())
                            .arg(available.height())));
}

/// Ask is shown whole inside the window, and the query does not scroll sideways to reach it.
void verifyAskVisible(MainWindow &w, const char *what)
{
    QPushButton *ask = w.queryBuilder()->askButton();
    QVERIFY2(ask->isVisible(), what);
    const QRect inWindow(ask->mapTo(&w, QPoint(0, 0)), ask->size());
    QVERIFY2(w.rect().contains(inWindow), what);
    QVERIFY2(ask->visibleRegion().boundingRect().size() == ask->size(), what);
    for (QWidget *p = w.queryBuilder()->parentWidget(); p; p = p->parentWidget())
        if (auto *area = qobject_cast<QAbstractScrollArea *>(p))
            QVERIFY2(!area->horizontalScrollBar()->isVisible(), what);
}

} // namespace

class TestProjectorScreen : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("pbx-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("projectorscreen"));
        QSettings().clear(); // a fresh home folder
        QCOMPARE(QGuiApplication::primaryScreen()->availableGeometry().size(), testScreen());
    }

    void firstWindowFitsTheScreen()
    {
        MainWindow w;
        QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTest::qWait(100);
        verifyInsideScreen(w, "main window");
        QCOMPARE(w.frameGeometry().size(), QSize(1400, 900).boundedTo(testScreen()));
        verifyAskVisible(w, "Ask, presentation mode off");

        QAction *presentation = w.findChild<QAction *>(QStringLiteral("presentationModeAction"));
        QVERIFY(presentation);
        presentation->setChecked(true);
        QTest::qWait(100);
        const QString size = pbx::test::testScreenName();
        QVERIFY(!pbx::test::saveScreenshot(w, QStringLiteral("projector_presentation_") + size).isEmpty());
        verifyInsideScreen(w, "main window in presentation mode");
        verifyAskVisible(w, "Ask, presentation mode on");
        presentation->setChecked(false);
        QVERIFY(!pbx::test::saveScreenshot(w, QStringLiteral("projector_first_window_") + size).isEmpty());
    }

    /// A layout saved at 1400×900 (a laptop) is not brought back on the projector: it kept dock
    /// sizes made for 1400 px, which hid Ask behind a sideways scroll bar.
    void layoutFromABiggerScreenIsNotRestored()
    {
        {
            MainWindow laptop; // as saved on a 1400×900 screen (not shown: this screen is smaller)
            laptop.resize(1400, 900);
            AppSettings::saveWindowLayout(laptop);
        }
        MainWindow w;
        QVERIFY(!w.rememberLayout());
        QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
        w.show();
        QTest::qWait(100);
        verifyInsideScreen(w, "main window after a bigger screen's layout");
        verifyAskVisible(w, "Ask after a bigger screen's layout");
    }

    /// A layout saved on this screen comes back.
    void layoutThatFitsIsRestored()
    {
        {
            MainWindow here;
            here.resize(900, 640);
            here.show();
            QTest::qWait(50);
            AppSettings::saveWindowLayout(here);
        }
        MainWindow w;
        QVERIFY(w.rememberLayout());
        QCOMPARE(w.size(), QSize(900, 640));
    }
};

int main(int argc, char **argv)
{
    return pbx::test::runOnTestScreen<TestProjectorScreen>(argc, argv);
}

#include "tst_projectorscreen.moc"
