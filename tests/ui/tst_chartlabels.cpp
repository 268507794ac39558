// SPDX-License-Identifier: MIT
// Charts never elide a tick label, never overlap two, never cover the plot with
// their legend and never clip the last marker, in the main window, the docked comparison, the
// noise-reduction view and every lab, at a projector's 1024×700 and at 1600×1000. What Qt drew is
// read back from each chart's scene (chartinspect.h). Screenshots of each go to the screenshot
// folder.
#include "chartinspect.h"
#include "core/session/session.h"
#include "ui/charts/axisticks.h"
#include "ui/charts/presentation.h"
#include "ui/comparison/comparisonview.h"
#include "ui/growing/growinglabdialog.h"
#include "ui/lab/labdialog.h"
#include "ui/mainwindow.h"
#include "ui/odp/odplabdialog.h"
#include "ui/odp/svtrequestdialog.h"
#include "ui/panels/datasetpanel.h"
#include "ui/panels/querybuilder.h"
#include "ui/risk/privacyriskview.h"
#include "ui/sessiondocument.h"
#include "ui/strategies/strategieslabdialog.h"
#include "uitestutils.h"

#include <QAction>
#include <QDockWidget>
#include <QHeaderView>
#include <QScopeGuard>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QValueAxis>
#include <QtTest/QtTest>

using pbx::ui::MainWindow;
namespace test = pbx::test;

namespace {

const QList<QSize> kSizes{QSize(1024, 700), QSize(1600, 1000)};

QString suffix(QSize size)
{
    return QStringLiteral("_%1").arg(size.width());
}

/// Lets coalesced chart updates and layouts run, then reads the charts under `root`.
QStringList problemsAfterLayout(QWidget *root)
{
    QTest::qWait(150);
    return test::chartProblems(root);
}

#define VERIFY_NO_PROBLEMS(root, where)                                                                      \
    do {                                                                                                     \
        const QStringList found = problemsAfterLayout(root);                                                 \
        QVERIFY2(found.isEmpty(),                                                                            \
                 qPrintable(QStringLiteral("%1:\n  ").arg(where) + found.join(QStringLiteral("\n  "))));     \
    } while (false)

/// A main window on cps1988 with three counts asked (the path chart has steps to label).
void openWithRequests(MainWindow &w, QSize size)
{
    QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
    w.resize(size);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    for (int i = 0; i < 3; ++i)
        w.ask();
    QVERIFY(w.document()->session().events().size() >= 3);
}

} // namespace

class TestChartLabels : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    /// The fitter alone: the chart's own format while it fits, then shorter formats, then fewer
    /// ticks, each label distinct.
    void fitTicksChoosesFormatAndTicks()
    {
        QValueAxis axis;
        axis.setRange(0.0, 0.021834);
        axis.setTickCount(6); // 0, 0.0043668, …: "%.3g" gives "0.00437" (7 characters)
        QFont font;
        font.setPixelSize(12);
        pbx::ui::AxisRoom room;
        room.orientation = Qt::Vertical;
        room.length = 300.0;
        room.metrics = QFontMetricsF(font);
        const pbx::ui::TickFit own{QStringLiteral("%.3g"), 6, 0.0, false};
        room.labelWidth = room.metrics.horizontalAdvance(QStringLiteral("0.00437")) + 1;
        pbx::ui::TickFit fit = pbx::ui::fitTicks(&axis, own, room);
        QVERIFY(fit.fits);
        QCOMPARE(fit.format, QStringLiteral("%.3g"));
        QCOMPARE(fit.tickCount, 6);
        room.labelWidth = room.metrics.horizontalAdvance(QStringLiteral("0.0044")) + 1;
        fit = pbx::ui::fitTicks(&axis, own, room);
        QVERIFY(fit.fits);
        QCOMPARE(fit.format, QStringLiteral("%.2g"));
        QCOMPARE(pbx::ui::tickLabel(fit.format, 0.0043668), QStringLiteral("0.0044"));
        // A short axis: six labels one line apart do not fit, two do (0 and the top).
        room.length = 2.5 * room.metrics.height();
        fit = pbx::ui::fitTicks(&axis, own, room);
        QVERIFY(fit.fits);
        QCOMPARE(fit.tickCount, 2);
        // A horizontal axis with dynamic ticks every 1 over 0…40 in 240 px: every 5th (30 px apart;
        // every 2nd would be 12 px apart, less than a label and its gap).
        QValueAxis x;
        x.setTickType(QValueAxis::TicksDynamic);
        x.setTickAnchor(0.0);
        x.setTickInterval(1.0);
        x.setRange(0.0, 40.0);
        room.orientation = Qt::Horizontal;
        room.length = 240.0;
        fit = pbx::ui::fitTicks(&x, pbx::ui::TickFit{QStringLiteral("%d"), 0, 1.0, false}, room);
        QVERIFY(fit.fits);
        QCOMPARE(fit.format, QStringLiteral("%d"));
        QCOMPARE(fit.interval, 5.0);
        QCOMPARE(pbx::ui::tickValues(&x).size(), 41);
    }

    /// The main window's path chart (ε and ρ axes) and, raised, the noise-reduction view. Before
    /// the fix the ρ axis read "0.0…" at 1024 px.
    void mainWindowAndNoiseReduction()
    {
        for (const QSize size : kSizes) {
            MainWindow w;
            openWithRequests(w, size);
            QVERIFY(
                !test::saveScreenshot(w, QStringLiteral("chartlabels_mainwindow") + suffix(size)).isEmpty());
            VERIFY_NO_PROBLEMS(&w, QStringLiteral("main window %1").arg(size.width()));
            w.noiseReductionDock()->raise();
            QVERIFY(!test::saveScreenshot(w, QStringLiteral("chartlabels_noisereduction") + suffix(size))
                         .isEmpty());
            VERIFY_NO_PROBLEMS(&w, QStringLiteral("noise reduction %1").arg(size.width()));
        }
    }

    /// The comparison docked below the main window, after its job has finished.
    void dockedComparison()
    {
        for (const QSize size : kSizes) {
            MainWindow w;
            openWithRequests(w, size);
            QDockWidget *dock = w.comparisonDock();
            dock->show();
            dock->setFloating(false);
            w.addDockWidget(Qt::BottomDockWidgetArea, dock);
            QTRY_VERIFY_WITH_TIMEOUT(!w.comparisonView()->isBusy(), 60000);
            QVERIFY(
                !test::saveScreenshot(w, QStringLiteral("chartlabels_comparison") + suffix(size)).isEmpty());
            VERIFY_NO_PROBLEMS(&w, QStringLiteral("docked comparison %1").arg(size.width()));
        }
    }

    /// The relative-error lab after a short run.
    void relativeErrorLab()
    {
        for (const QSize size : kSizes) {
            MainWindow w;
            QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
            pbx::ui::LabDialog *lab = w.relativeErrorLab();
            auto settings = lab->settings();
            settings.repetitions = 4;
            settings.queriesPerRepetition = 60;
            lab->setSettings(settings);
            lab->resize(lab->sizeHint().boundedTo(size));
            lab->show();
            QVERIFY(QTest::qWaitForWindowExposed(lab));
            QSignalSpy finished(lab, &pbx::ui::LabDialog::runFinished);
            lab->run();
            QVERIFY(finished.wait(60000));
            QVERIFY(!test::saveScreenshot(*lab, QStringLiteral("chartlabels_lab") + suffix(size)).isEmpty());
            VERIFY_NO_PROBLEMS(lab, QStringLiteral("relative-error lab %1").arg(size.width()));
        }
    }

    /// Every tab of the output-DP lab (the sparse-vector figure and the recovery simulation
    /// computed first).
    void odpLab()
    {
        for (const QSize size : kSizes) {
            pbx::ui::OdpLabDialog lab;
            lab.resize(lab.sizeHint().boundedTo(size));
            lab.show();
            QVERIFY(QTest::qWaitForWindowExposed(&lab));
            lab.tabs()->setCurrentIndex(2);
            lab.computeSvtFigure();
            lab.waitForSvtFigure();
            QTRY_VERIFY(!lab.svtRunning());
            lab.tabs()->setCurrentIndex(5);
            lab.recoveryTabs()->setCurrentIndex(1);
            lab.startRecoverySimulation();
            lab.waitForRecoverySimulation();
            QTRY_VERIFY(!lab.recoverySimulationRunning());
            for (int tab = 0; tab < lab.tabs()->count(); ++tab) {
                lab.tabs()->setCurrentIndex(tab);
                for (int sub = 0; sub < (tab == 5 ? lab.recoveryTabs()->count() : 1); ++sub) {
                    if (tab == 5)
                        lab.recoveryTabs()->setCurrentIndex(sub);
                    QVERIFY(!test::saveScreenshot(lab,
                                                  QStringLiteral("chartlabels_odplab_%1_%2").arg(tab).arg(sub)
                                                      + suffix(size))
                                 .isEmpty());
                    VERIFY_NO_PROBLEMS(
                        &lab,
                        QStringLiteral("output-DP lab %1, tab %2.%3").arg(size.width()).arg(tab).arg(sub));
                }
            }
        }
    }

    /// Every tab of the strategies lab, each run once on cps1988.
    void strategiesLab()
    {
        auto table = pbx::ui::SessionDocument::loadTable(QStringLiteral("cps1988"));
        QVERIFY(table.ok());
        for (const QSize size : kSizes) {
            pbx::ui::StrategiesLabDialog lab;
            lab.setTable(std::move(table).value());
            table = pbx::ui::SessionDocument::loadTable(QStringLiteral("cps1988"));
            lab.resize(lab.sizeHint().boundedTo(size));
            lab.show();
            QVERIFY(QTest::qWaitForWindowExposed(&lab));
            for (int tab = 0; tab < lab.tabs()->count(); ++tab) {
                lab.tabs()->setCurrentIndex(tab);
                lab.run(tab);
                lab.waitForJob();
                QTRY_VERIFY(!lab.isRunning());
                QVERIFY(!test::saveScreenshot(lab, QStringLiteral("chartlabels_strategies_%1").arg(tab)
                                                       + suffix(size))
                             .isEmpty());
                VERIFY_NO_PROBLEMS(&lab,
                                   QStringLiteral("strategies lab %1, tab %2").arg(size.width()).arg(tab));
            }
        }
    }

    /// The growing-database lab after a short simulation.
    void growingLab()
    {
        for (const QSize size : kSizes) {
            pbx::ui::GrowingLabDialog lab;
            lab.resize(lab.sizeHint().boundedTo(size));
            lab.show();
            QVERIFY(QTest::qWaitForWindowExposed(&lab));
            lab.repetitionsSpin()->setValue(lab.repetitionsSpin()->minimum());
            lab.run();
            lab.waitForRun();
            QTRY_VERIFY(!lab.isRunning());
            QVERIFY(!test::saveScreenshot(lab, QStringLiteral("chartlabels_growinglab") + suffix(size))
                         .isEmpty());
            VERIFY_NO_PROBLEMS(&lab, QStringLiteral("growing lab %1").arg(size.width()));
        }
    }

    /// The sparse-vector request's legend keeps whole names ("worst case E* = 0.5 (reser…" before).
    void svtRequestLegend()
    {
        MainWindow w;
        QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
        pbx::session::SessionSettings settings;
        settings.epsilon = 2.0;
        settings.delta = 1e-6;
        settings.filter = pbx::filters::FilterKind::Odp;
        QVERIFY(w.startNewSession(settings).ok());
        w.resize(1024, 700);
        w.show();
        auto *action = w.findChild<QAction *>(QStringLiteral("svtRequestAction"));
        QVERIFY(action && action->isEnabled());
        action->trigger();
        auto *dialog = w.findChild<pbx::ui::SvtRequestDialog *>(QStringLiteral("svtRequestDialog"));
        QVERIFY(dialog);
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        // As narrow as the dialog goes, where QLegend used to elide the entries.
        dialog->resize(dialog->minimumSizeHint().width(), dialog->height());
        QVERIFY(!test::saveScreenshot(*dialog, QStringLiteral("chartlabels_svtrequest")).isEmpty());
        VERIFY_NO_PROBLEMS(dialog, QStringLiteral("sparse-vector request"));
    }

    /// Switched to presentation mode while open, the privacy-risk dialog grows with its fonts and
    /// its axis titles and legends stay whole ("true-posit…" before).
    void privacyRiskInPresentationMode()
    {
        MainWindow w;
        QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
        w.resize(1024, 700);
        w.show();
        pbx::ui::PrivacyRiskView *risk = w.showPrivacyRisk();
        QVERIFY(QTest::qWaitForWindowExposed(risk));
        VERIFY_NO_PROBLEMS(risk, QStringLiteral("privacy risk"));
        const QSize normal = risk->size();
        pbx::ui::Presentation::instance().setEnabled(true);
        QTest::qWait(200);
        const QStringList found = problemsAfterLayout(risk);
        const QSize presented = risk->size();
        QVERIFY(
            !test::saveScreenshot(*risk, QStringLiteral("chartlabels_privacyrisk_presentation")).isEmpty());
        pbx::ui::Presentation::instance().setEnabled(false);
        QVERIFY2(found.isEmpty(), qPrintable(found.join(u'\n')));
        QVERIFY2(presented.width() > normal.width() && presented.height() > normal.height(),
                 qPrintable(QStringLiteral("%1x%2 -> %3x%4")
                                .arg(normal.width())
                                .arg(normal.height())
                                .arg(presented.width())
                                .arg(presented.height())));
    }

    /// The dataset panel's header names are whole at 1024 px ("Bounds / cate…" before).
    void datasetHeaderWhole_data()
    {
        QTest::addColumn<bool>("presentation");
        QTest::newRow("normal") << false;
        QTest::newRow("presentation mode") << true;
    }

    void datasetHeaderWhole()
    {
        QFETCH(bool, presentation);
        pbx::ui::Presentation::instance().setEnabled(presentation);
        const auto restore = qScopeGuard([] { pbx::ui::Presentation::instance().setEnabled(false); });
        MainWindow w;
        QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
        w.resize(1024, 700);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTest::qWait(100);
        auto *view = w.datasetPanel()->findChild<QTableView *>();
        QVERIFY(view);
        QHeaderView *header = view->horizontalHeader();
        int checked = 0;
        for (int c = 0; c < header->count(); ++c) {
            if (header->isSectionHidden(c))
                continue;
            const QString text = view->model()->headerData(c, Qt::Horizontal).toString();
            QVERIFY2(header->sectionSize(c) >= header->sectionSizeHint(c),
                     qPrintable(QStringLiteral("'%1': %2 px < %3 px")
                                    .arg(text)
                                    .arg(header->sectionSize(c))
                                    .arg(header->sectionSizeHint(c))));
            // The header's text is not cut by the view's edge: sections that start in view show
            // their whole name (further ones are scrolled to).
            const int start = header->sectionViewportPosition(c);
            const int textEnd = start + header->fontMetrics().horizontalAdvance(text) + 8;
            if (start < header->viewport()->width())
                QVERIFY2(textEnd <= header->viewport()->width(),
                         qPrintable(QStringLiteral("'%1' ends at %2 px of %3")
                                        .arg(text)
                                        .arg(textEnd)
                                        .arg(header->viewport()->width())));
            ++checked;
        }
        QVERIFY(checked >= 3);
    }
};

QTEST_MAIN(TestChartLabels)
#include "tst_chartlabels.moc"
