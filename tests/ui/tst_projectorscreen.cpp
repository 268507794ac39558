// SPDX-License-Identifier: MIT
// On a projector's screen (1024×768, or 1280×720; PBX_TEST_SCREEN) the first
// window fits the screen, Ask is visible without scrolling, with presentation mode off and on, and
// a layout saved on a bigger screen is not restored as is; with Help ▸ Lessons open and at every
// step of every shipped lesson, the windows on screen fit it and Ask stays visible. The screen is a real one
// for Qt: the offscreen platform is given its geometry through a config file before the application starts.
#include "testscreen.h"
#include "ui/appsettings.h"
#include "ui/lessons/lessonrunner.h"
#include "ui/lessons/lessonspanel.h"
#include "ui/mainwindow.h"
#include "ui/panels/querybuilder.h"
#include "uitestutils.h"

#include <QAbstractScrollArea>
#include <QAction>
#include <QApplication>
#include <QDockWidget>
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

/// The widget under `root` whose minimum width is the largest, for messages: what makes it scroll.
QString widestChild(QWidget *root)
{
    QWidget *widest = nullptr;
    int most = 0;
    for (QWidget *child : root->findChildren<QWidget *>()) {
        if (!child->isVisible())
            continue;
        const int need = std::max(child->minimumWidth(), child->minimumSizeHint().width());
        // The deepest widget that needs most: a child needing as much as its parent names it.
        if (need >= most && need > 0) {
            most = need;
            widest = child;
        }
    }
    return widest ? QStringLiteral("%1 '%2' needs %3 px of %4")
                        .arg(QString::fromLatin1(widest->metaObject()->className()), widest->objectName())
                        .arg(most)
                        .arg(root->width())
                  : QString();
}

/// Ask is shown whole inside the window, and the query does not scroll sideways to reach it.
void verifyAskVisible(MainWindow &w, const char *what)
{
    QPushButton *ask = w.queryBuilder()->askButton();
    QVERIFY2(ask->isVisible(), what);
    const QRect inWindow(ask->mapTo(&w, QPoint(0, 0)), ask->size());
    QVERIFY2(w.rect().contains(inWindow), what);
    const auto docks = [&w] {
        QStringList out;
        for (QDockWidget *dock : w.findChildren<QDockWidget *>())
            if (dock->isVisible() && !dock->visibleRegion().isEmpty())
                out << QStringLiteral("%1 %2×%3 at %4 (min %5)")
                           .arg(dock->windowTitle())
                           .arg(dock->width())
                           .arg(dock->height())
                           .arg(dock->x())
                           .arg(dock->minimumSizeHint().width());
        return out.join(QStringLiteral("; "));
    };
    QVERIFY2(ask->visibleRegion().boundingRect().size() == ask->size(),
             qPrintable(QStringLiteral("%1: Ask shows %2×%3 of %4×%5; %6")
                            .arg(QLatin1String(what))
                            .arg(ask->visibleRegion().boundingRect().width())
                            .arg(ask->visibleRegion().boundingRect().height())
                            .arg(ask->width())
                            .arg(ask->height())
                            .arg(docks())));
    for (QWidget *p = w.queryBuilder()->parentWidget(); p; p = p->parentWidget())
        if (auto *area = qobject_cast<QAbstractScrollArea *>(p))
            QVERIFY2(!area->horizontalScrollBar()->isVisible(),
                     qPrintable(QStringLiteral("%1: the query scrolls sideways (%2)")
                                    .arg(QLatin1String(what), widestChild(area->viewport()))));
}

/// Every window on screen (the main window, a lab a lesson step opened, the floating comparison)
/// lies inside the screen, Ask is visible and the lessons dock lies inside the main window.
void verifyEverythingFits(MainWindow &w, const QString &where)
{
    const QByteArray what = where.toUtf8();
    for (QWidget *window : QApplication::topLevelWidgets())
        if (window->isVisible() && window->windowType() != Qt::Popup && window->windowType() != Qt::ToolTip)
            verifyInsideScreen(*window, qPrintable(where + QStringLiteral(": ") + window->windowTitle()));
    verifyAskVisible(w, what.constData());
    QDockWidget *lessons = w.findChild<QDockWidget *>(QStringLiteral("lessonsDock"));
    QVERIFY2(lessons && lessons->isVisible(), what.constData());
    QVERIFY2(w.rect().contains(QRect(lessons->mapTo(&w, QPoint(0, 0)), lessons->size())), what.constData());
    // The lessons' own buttons are shown whole, not squeezed under the tab bar or over the text
    // (in presentation mode's one-column layout the lessons' tab group had ~250 px).
    QVERIFY2(!lessons->visibleRegion().isEmpty(),
             qPrintable(where + QStringLiteral(": the lessons are hidden")));
    for (QPushButton *button : lessons->findChildren<QPushButton *>())
        if (button->isVisible())
            QVERIFY2(button->visibleRegion().boundingRect().size() == button->size(),
                     qPrintable(QStringLiteral("%1: the lessons' '%2' shows %3 px of %4 high")
                                    .arg(where, button->text())
                                    .arg(button->visibleRegion().boundingRect().height())
                                    .arg(button->height())));
}

void setPresentation(MainWindow &w, bool on)
{
    auto *action = w.findChild<QAction *>(QStringLiteral("presentationModeAction"));
    QVERIFY(action);
    action->setChecked(on);
    QTest::qWait(100);
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

    /// Help ▸ Lessons and every step of every shipped lesson, presentation mode off and on: the
    /// lessons dock beside the query, the main window, the labs and views the steps open all fit
    /// the screen and Ask stays visible without sideways scrolling. Before, the lessons' button
    /// rows ("Start lesson | Your lessons folder | Reload", "Reveal answer | ← Back | Next →")
    /// made the left dock column about 310 px wide at 1024 px, and the query scrolled sideways
    /// with Ask cut at its right edge.
    void lessonsFitTheScreen()
    {
        MainWindow w;
        QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        pbx::ui::LessonsPanel *panel = w.showLessons();
        QTest::qWait(100);
        const QString screen = pbx::test::testScreenName();
        QVERIFY(!pbx::test::saveScreenshot(w, QStringLiteral("projector_lessons_") + screen).isEmpty());
        verifyEverythingFits(w, QStringLiteral("the lessons list"));
        setPresentation(w, true);
        verifyEverythingFits(w, QStringLiteral("the lessons list, presentation mode"));
        setPresentation(w, false);
        int walked = 0;
        for (int i = 0; i < panel->entries().size(); ++i) {
            if (!panel->entries()[i].shipped || !panel->entries()[i].lesson)
                continue;
            QVERIFY(panel->startLesson(i));
            const auto &lesson = *panel->runner()->lesson();
            for (int k = 0; k < static_cast<int>(lesson.steps.size()); ++k) {
                QCOMPARE(panel->runner()->currentStep(), k);
                panel->revealAnswer();
                QTest::qWait(100);
                const QString where
                    = QStringLiteral("lesson %1 step %2").arg(QString::fromStdString(lesson.id)).arg(k + 1);
                QVERIFY(!pbx::test::saveScreenshot(w, QStringLiteral("projector_lesson_%1_%2_%3")
                                                          .arg(QString::fromStdString(lesson.id))
                                                          .arg(k + 1)
                                                          .arg(screen))
                             .isEmpty());
                verifyEverythingFits(w, where);
                setPresentation(w, true);
                verifyEverythingFits(w, where + QStringLiteral(", presentation mode"));
                setPresentation(w, false);
                ++walked;
                panel->next();
            }
            QVERIFY(!panel->runner()->isRunning());
        }
        QVERIFY(walked >= 20);
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
        QVERIFY(QTest::qWaitForWindowExposed(&w)); // under a window manager: framed
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
