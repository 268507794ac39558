// SPDX-License-Identifier: MIT
// A chart never shows a stale curve as if it were the new result. While a job
// runs its charts are greyed (no colour left in them), and the labs keep their last finished
// results until a new run finishes, also when the lab is closed and opened again.
#include "core/session/session.h"
#include "ui/charts/comparisoncharts.h"
#include "ui/charts/growingchart.h"
#include "ui/charts/labchart.h"
#include "ui/charts/odplinechart.h"
#include "ui/comparison/comparisonview.h"
#include "ui/growing/growinglabdialog.h"
#include "ui/lab/labdialog.h"
#include "ui/mainwindow.h"
#include "ui/odp/odplabdialog.h"
#include "ui/sessiondocument.h"
#include "ui/strategies/strategieslabdialog.h"
#include "uitestutils.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QImage>
#include <QLabel>
#include <QMenuBar>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QtTest/QtTest>

#include <algorithm>

using pbx::ui::MainWindow;

namespace {

/// Pixels of `widget` with a clear colour (channels more than 60 apart): curves, legends' glyphs.
/// A chart's pending rebuild (its coalescing timer) is done first, so the count never depends on
/// whether that timer fired before the grab.
int colouredPixels(QWidget *widget)
{
    if (auto *chart = qobject_cast<pbx::ui::ChartFrame *>(widget))
        chart->flush();
    const QImage image = widget->grab().toImage();
    int count = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            const int hi = std::max({c.red(), c.green(), c.blue()});
            const int lo = std::min({c.red(), c.green(), c.blue()});
            if (hi - lo > 60)
                ++count;
        }
    return count;
}

QAction *actionNamed(QWidget *window, const QString &text)
{
    for (QAction *action : window->findChildren<QAction *>())
        if (action->text() == text)
            return action;
    return nullptr;
}

} // namespace

class TestComputingState : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    /// The relative-error lab: results survive closing and reopening, stay (greyed) while a new
    /// run is in progress and after it is cancelled. Before the fix a run cleared them at once.
    void labKeepsItsResults()
    {
        MainWindow w;
        QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
        w.show();
        QAction *open = actionNamed(&w, QStringLiteral("&Relative-error lab…"));
        QVERIFY(open);
        open->trigger();
        pbx::ui::LabDialog *lab = w.relativeErrorLab();
        QVERIFY(QTest::qWaitForWindowExposed(lab));
        auto settings = lab->settings();
        settings.repetitions = 4;
        settings.queriesPerRepetition = 50;
        lab->setSettings(settings);
        QSignalSpy finished(lab, &pbx::ui::LabDialog::runFinished);
        lab->run();
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.takeFirst().first().toBool(), true);
        const std::size_t methods = lab->results().size();
        QVERIFY(methods >= 4);
        const double firstAnswered = lab->results().front().answeredMean;
        lab->chart()->flush();
        const int curves = lab->chart()->curveCount();
        QCOMPARE(curves, static_cast<int>(methods));

        // Closed and opened again from the menu: the same results.
        lab->close();
        QTest::qWait(50);
        open->trigger();
        QVERIFY(QTest::qWaitForWindowExposed(lab));
        QCOMPARE(lab->results().size(), methods);
        QCOMPARE(lab->resultsTable()->rowCount(), static_cast<int>(methods));
        lab->chart()->flush();
        QCOMPARE(lab->chart()->curveCount(), curves);
        QVERIFY(!lab->chart()->isComputing());
        const int colouredBefore = colouredPixels(lab->chart());
        QVERIFY2(colouredBefore > 200, qPrintable(QString::number(colouredBefore)));

        // A long run: the previous results stay, greyed, while it runs.
        settings.repetitions = 2000;
        settings.queriesPerRepetition = 500;
        lab->setSettings(settings);
        lab->run();
        QVERIFY(lab->isRunning());
        QTest::qWait(100);
        QCOMPARE(lab->results().size(), methods);
        QCOMPARE(lab->results().front().answeredMean, firstAnswered);
        QCOMPARE(lab->resultsTable()->rowCount(), static_cast<int>(methods));
        QVERIFY(!lab->resultsTable()->isEnabled());
        lab->chart()->flush();
        QCOMPARE(lab->chart()->curveCount(), curves);
        QVERIFY(lab->chart()->isComputing());
        const int colouredWhileRunning = colouredPixels(lab->chart());
        QVERIFY2(colouredWhileRunning < colouredBefore / 20,
                 qPrintable(QStringLiteral("%1 coloured pixels while running, %2 before")
                                .arg(colouredWhileRunning)
                                .arg(colouredBefore)));
        QVERIFY(!pbx::test::saveScreenshot(*lab, QStringLiteral("computing_lab_running")).isEmpty());

        // Cancelled: the previous results, in colour again.
        lab->cancel();
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.takeFirst().first().toBool(), false);
        QCOMPARE(lab->results().size(), methods);
        QCOMPARE(lab->resultsTable()->rowCount(), static_cast<int>(methods));
        QVERIFY(lab->resultsTable()->isEnabled());
        QVERIFY(!lab->chart()->isComputing());
        QVERIFY(lab->statusLabel()->text().contains(QStringLiteral("previous run")));
        QVERIFY(colouredPixels(lab->chart()) > colouredBefore / 2);
    }

    /// The comparison's four charts are greyed from the moment a job starts until it draws them.
    void comparisonChartsGreyWhileComputing()
    {
        MainWindow w;
        QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
        w.resize(1400, 900);
        w.show();
        for (int i = 0; i < 3; ++i)
            w.ask();
        QDockWidget *dock = w.comparisonDock();
        dock->show();
        pbx::ui::ComparisonView *view = w.comparisonView();
        QTRY_VERIFY_WITH_TIMEOUT(!view->isBusy(), 60000);
        QTRY_VERIFY(view->hasResults());
        const QList<pbx::ui::ChartFrame *> charts{view->compositionChart(), view->profileChart(),
                                                  view->rdpChart(), view->pldChart()};
        for (auto *chart : charts)
            QVERIFY(!chart->isComputing());
        view->recomputeNow();
        for (auto *chart : charts)
            QVERIFY2(chart->isComputing(), chart->metaObject()->className());
        QTRY_VERIFY_WITH_TIMEOUT(!view->isBusy(), 60000);
        for (auto *chart : charts)
            QVERIFY2(!chart->isComputing(), chart->metaObject()->className());
    }

    /// The growing-database lab: every chart its Monte Carlo draws in (timeline, accuracy, the
    /// PMWG / NSG tab's three) is greyed from Run until the job finishes, showing the last finished
    /// simulation of the same input meanwhile; a cancel restores it in colour.
    void growingLabGreyWhileRunning()
    {
        pbx::ui::GrowingLabDialog lab;
        lab.resize(1600, 1000);
        lab.show();
        QVERIFY(QTest::qWaitForWindowExposed(&lab));
        // BBScheduler, n = 1000, γ = 1, ε = 1, ten queries, to CPS1988's last row: 40 runs, seed 3.
        lab.startSizeSpin()->setValue(1000);
        lab.gammaSpin()->setValue(1.0);
        lab.epsilonSpin()->setValue(1.0);
        lab.horizonSpin()->setValue(28155);
        lab.repetitionsSpin()->setValue(40);
        lab.seedSpin()->setValue(3);
        const QList<pbx::ui::ChartFrame *> charts{lab.timelineChart(), lab.accuracyChart(), lab.pmwgChart(),
                                                  lab.pmwgPrivacyChart(), lab.pmwgErrorChart()};
        auto runToEnd = [&lab] {
            lab.waitForRun();
            return QTest::qWaitFor([&] { return !lab.isRunning(); }) && lab.simulation().has_value();
        };
        QVERIFY(lab.run());
        QVERIFY(runToEnd());
        pbx::ui::GrowingChart *accuracy = lab.accuracyChart();
        accuracy->flush();
        const auto measured = accuracy->points(QStringLiteral("measured"));
        QCOMPARE(measured.size(), std::size_t(10)); // five epochs, a step each
        for (auto *chart : charts)
            QVERIFY(!chart->isComputing());
        const int colouredBefore = colouredPixels(accuracy);
        QVERIFY2(colouredBefore > 500, qPrintable(QString::number(colouredBefore)));

        // Run again (the same input): until the job's result arrives, every chart is greyed and
        // the last simulation stays drawn (its finish is delivered by the event loop, not before).
        QVERIFY(lab.run());
        for (auto *chart : charts)
            QVERIFY2(chart->isComputing(), chart->metaObject()->className());
        QVERIFY(lab.simulation().has_value());
        accuracy->flush();
        QCOMPARE(accuracy->points(QStringLiteral("measured")), measured);
        const int colouredWhileRunning = colouredPixels(accuracy);
        QVERIFY2(colouredWhileRunning < colouredBefore / 20,
                 qPrintable(QStringLiteral("%1 coloured pixels while running, %2 before")
                                .arg(colouredWhileRunning)
                                .arg(colouredBefore)));
        QVERIFY(lab.statusText().contains(QStringLiteral("greyed")));
        QVERIFY(!pbx::test::saveScreenshot(lab, QStringLiteral("computing_growinglab_running")).isEmpty());
        QVERIFY(runToEnd());
        for (auto *chart : charts)
            QVERIFY2(!chart->isComputing(), chart->metaObject()->className());
        QVERIFY(colouredPixels(accuracy) > colouredBefore / 2);

        // Cancelled: the previous simulation, in colour again.
        QVERIFY(lab.run());
        QVERIFY(accuracy->isComputing());
        lab.cancel();
        lab.waitForRun();
        QTRY_VERIFY(!lab.isRunning());
        for (auto *chart : charts)
            QVERIFY2(!chart->isComputing(), chart->metaObject()->className());
        QVERIFY(lab.simulation().has_value());
        QVERIFY2(
            lab.statusText().startsWith(QStringLiteral("Cancelled: the previous simulation stays shown")),
            qPrintable(lab.statusText()));
        accuracy->flush();
        QCOMPARE(accuracy->points(QStringLiteral("measured")), measured);
        QVERIFY(colouredPixels(accuracy) > colouredBefore / 2);

        // NSG (12 seeded orders): its tab's K(t) chart and privacy bars greyed in the same way.
        lab.algorithmCombo()->setCurrentIndex(lab.algorithmCombo()->findData(QStringLiteral("nsg")));
        lab.repetitionsSpin()->setValue(12);
        QVERIFY(lab.run());
        QVERIFY(runToEnd());
        const int hardBefore = colouredPixels(lab.pmwgChart());
        const int barsBefore = colouredPixels(lab.pmwgPrivacyChart());
        QVERIFY2(hardBefore > 300 && barsBefore > 300,
                 qPrintable(QStringLiteral("%1 %2").arg(hardBefore).arg(barsBefore)));
        QVERIFY(lab.run());
        QVERIFY(lab.pmwgChart()->isComputing() && lab.pmwgPrivacyChart()->isComputing());
        QVERIFY(colouredPixels(lab.pmwgChart()) < hardBefore / 20);
        QVERIFY(colouredPixels(lab.pmwgPrivacyChart()) < barsBefore / 20);
        QVERIFY(runToEnd());
        QVERIFY(colouredPixels(lab.pmwgChart()) > hardBefore / 2);
        // A changed input while running: its plan is drawn at once, in colour.
        QVERIFY(lab.run());
        lab.nsgCapSpin()->setValue(12.0);
        for (auto *chart : charts)
            QVERIFY2(!chart->isComputing(), chart->metaObject()->className());
        QVERIFY(!lab.simulation().has_value());
        lab.waitForRun();
        QTRY_VERIFY(!lab.isRunning());
    }

    /// The output-DP lab's sparse-vector figure and the strategies lab's charts are greyed while
    /// their jobs run and keep the last result.
    void labChartsGreyWhileComputing()
    {
        pbx::ui::OdpLabDialog odp;
        odp.tabs()->setCurrentIndex(2);
        odp.show();
        odp.computeSvtFigure();
        odp.waitForSvtFigure();
        QTRY_VERIFY(!odp.svtRunning());
        QCOMPARE(odp.svtChart()->curveCount(), 4);
        QVERIFY(!odp.svtChart()->isComputing());
        odp.computeSvtFigure();
        QVERIFY(odp.svtChart()->isComputing());
        QCOMPARE(odp.svtChart()->curveCount(), 4); // the last figure stays
        odp.waitForSvtFigure();
        QTRY_VERIFY(!odp.svtRunning());
        QTRY_VERIFY(!odp.svtChart()->isComputing());

        auto table = pbx::ui::SessionDocument::loadTable(QStringLiteral("cps1988"));
        QVERIFY(table.ok());
        pbx::ui::StrategiesLabDialog strategies;
        strategies.setTable(std::move(table).value());
        strategies.show();
        strategies.tabs()->setCurrentIndex(2);
        strategies.run(2);
        const auto charts = strategies.tabs()->widget(2)->findChildren<pbx::ui::ChartFrame *>();
        QVERIFY(!charts.isEmpty());
        for (auto *chart : charts)
            QVERIFY(chart->isComputing());
        strategies.waitForJob();
        QTRY_VERIFY(!strategies.isRunning());
        for (auto *chart : charts)
            QVERIFY(!chart->isComputing());
    }
};

QTEST_MAIN(TestComputingState)
#include "tst_computingstate.moc"
