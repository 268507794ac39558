// SPDX-License-Identifier: MIT
// Labs ▸ Relative-error lab on CPS1988: Run goes through QtConcurrent with progress and ends with
// one table row per method × filter holding the core's numbers (the same settings run directly
// through runRelativeErrorLab), and a chart with one named curve per row and its spread; Cancel
// stops a big run early and its results are ignored; closing the dialog cancels and waits; the
// main window opens the lab on the session's table. Screenshot of the lab with results.
#include "core/simulation/relative_error_lab.h"
#include "ui/charts/labchart.h"
#include "ui/lab/labdialog.h"
#include "ui/mainwindow.h"
#include "ui/sessiondocument.h"
#include "uitestutils.h"

#include <QElapsedTimer>
#include <QGraphicsView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QtTest/QtTest>

using namespace pbx;
using pbx::ui::LabDialog;

namespace {

std::shared_ptr<const data::Table> cps1988()
{
    static std::shared_ptr<const data::Table> table = [] {
        auto loaded = ui::SessionDocument::loadTable(QStringLiteral("cps1988"));
        if (!loaded.ok())
            qFatal("cannot load cps1988: %s", loaded.error().message.c_str());
        return std::move(loaded).value();
    }();
    return table;
}

simulation::LabSettings smallSettings()
{
    simulation::LabSettings s; // α = 10 %, 95 %, ε = 1, δ = 1e-6, cap 0.1, seed 1
    s.repetitions = 4;
    s.queriesPerRepetition = 50;
    s.seed = 7;
    return s;
}

double raw(const QTableWidget *table, int row, int column, int role = LabDialog::RawValueRole)
{
    return table->item(row, column)->data(role).toDouble();
}

} // namespace

class TestLab : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    /// Before a run the chart says what to do in a box in the middle of its view (Qt's plot area of
    /// a chart without axes is stale: at 1024×768 the box sat in the view's lower right corner).
    void emptyChartMessageIsCentred()
    {
        LabDialog lab;
        lab.setTable(cps1988());
        lab.show();
        lab.resize(1024, 740); // maximised on a 1024×768 screen under a window manager
        QTest::qWait(50);
        QVERIFY(QTest::qWaitForWindowExposed(&lab));
        QTest::qWait(100);
        QLabel *box = nullptr;
        for (QLabel *label : lab.findChildren<QLabel *>())
            if (label->isVisible() && label->text().startsWith(QStringLiteral("Nothing to draw yet")))
                box = label;
        QVERIFY(box);
        auto *view = box->parentWidget()->findChild<QGraphicsView *>();
        QVERIFY(view);
        const QPoint boxCentre = box->mapTo(&lab, box->rect().center());
        const QPoint viewCentre = view->mapTo(&lab, view->rect().center());
        QVERIFY2((boxCentre - viewCentre).manhattanLength() <= 24,
                 qPrintable(QStringLiteral("box centre (%1, %2), view centre (%3, %4)")
                                .arg(boxCentre.x())
                                .arg(boxCentre.y())
                                .arg(viewCentre.x())
                                .arg(viewCentre.y())));
    }

    void runFillsTableAndChartWithTheCoresNumbers()
    {
        LabDialog lab;
        lab.setTable(cps1988());
        lab.setSettings(smallSettings());
        lab.resize(1400, 900);
        lab.show();
        QVERIFY(QTest::qWaitForWindowExposed(&lab));
        QVERIFY(lab.runButton()->isEnabled());
        QVERIFY(!lab.cancelButton()->isEnabled());

        QSignalSpy finished(&lab, &LabDialog::runFinished);
        QTest::mouseClick(lab.runButton(), Qt::LeftButton);
        QVERIFY(lab.isRunning());
        QVERIFY(!lab.runButton()->isEnabled());
        QVERIFY(lab.cancelButton()->isEnabled());
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.first().first().toBool(), true);
        QVERIFY(!lab.isRunning());
        QVERIFY(lab.runButton()->isEnabled());
        QCOMPARE(lab.progressBar()->value(), lab.progressBar()->maximum());

        // The core's numbers for the same settings (deterministic for a seed, whatever the
        // number of threads).
        auto workload = simulation::countCells(*cps1988());
        QVERIFY(workload.ok());
        auto expected = simulation::runRelativeErrorLab(*workload, lab.settings(),
                                                        simulation::defaultLabMethods(), {}, 2);
        QVERIFY2(expected.ok(), expected.ok() ? "" : expected.error().message.c_str());
        QCOMPARE(expected->size(), std::size_t{8});

        const QTableWidget *table = lab.resultsTable();
        QCOMPARE(table->rowCount(), 8);
        QCOMPARE(lab.results().size(), std::size_t{8});
        for (int row = 0; row < 8; ++row) {
            const auto &e = (*expected)[static_cast<std::size_t>(row)];
            QCOMPARE(table->item(row, LabDialog::MethodColumn)->text(), LabDialog::methodName(e.method));
            QCOMPARE(table->item(row, LabDialog::FilterColumn)->text(),
                     LabDialog::filterName(e.method.filter));
            QCOMPARE(raw(table, row, LabDialog::AnsweredColumn), e.answeredMean);
            QCOMPARE(raw(table, row, LabDialog::AnsweredColumn, LabDialog::RawValueRole + 1), e.answeredSd);
            QCOMPARE(raw(table, row, LabDialog::WithinColumn), e.withinAlpha.value_or(-1.0));
            QCOMPARE(raw(table, row, LabDialog::AttemptedColumn), e.attemptedMean);
            QCOMPARE(raw(table, row, LabDialog::EpsilonColumn), e.epsilonSpentMean);
            QVERIFY(table->item(row, LabDialog::AnsweredColumn)->text().contains(QStringLiteral("±")));
        }

        // One named curve per method × filter (the origin plus one point per query), each with
        // its ±1 sd bar at the end.
        auto *chart = lab.chart();
        chart->flush();
        QCOMPARE(chart->curveCount(), 8);
        QCOMPARE(chart->errorBarCount(), 8);
        const QStringList names = chart->curveNames();
        QCOMPARE(names.size(), 8);
        QCOMPARE(QSet<QString>(names.begin(), names.end()).size(), 8);
        QVERIFY(names.contains(QStringLiteral("Brownian NR · brownian-zCDP")));
        QVERIFY(names.contains(QStringLiteral("Doubling Laplace · pure ε")));
        for (int i = 0; i < 8; ++i)
            QCOMPARE(chart->pointCount(i), smallSettings().queriesPerRepetition + 1);

        // Maximised on a 1024×768 screen under a window manager the results do not scroll
        // sideways and every row is told apart: the filter column stays (before, it gave way
        // first and three rows read "Brownian NR", two "Laplace NR"); each method's tooltip
        // names method and filter as the chart's legend does.
        lab.resize(1024, 740);
        QTest::qWait(100);
        QCOMPARE(lab.resultsTable()->horizontalScrollBar()->maximum(), 0);
        QVERIFY(!lab.resultsTable()->isColumnHidden(LabDialog::FilterColumn));
        QVERIFY(!lab.resultsTable()->isColumnHidden(LabDialog::AnsweredColumn));
        QVERIFY(!lab.resultsTable()->isColumnHidden(LabDialog::EpsilonColumn));
        for (int row = 0; row < 8; ++row)
            QVERIFY(
                names.contains(table->item(row, LabDialog::MethodColumn)->toolTip().section(u'\n', 0, 0)));
        lab.resize(1400, 900);

        // Running again replaces the rows (same seed: the same numbers).
        QTest::mouseClick(lab.runButton(), Qt::LeftButton);
        QVERIFY(finished.wait(120000));
        QCOMPARE(table->rowCount(), 8);
        QCOMPARE(raw(table, 4, LabDialog::AnsweredColumn), (*expected)[4].answeredMean);

        // A longer run for the screenshot: 30 repetitions × 500 queries.
        auto longer = smallSettings();
        longer.repetitions = 30;
        longer.queriesPerRepetition = 500;
        lab.setSettings(longer);
        QTest::mouseClick(lab.runButton(), Qt::LeftButton);
        QVERIFY(finished.wait(300000));
        QCOMPARE(finished.last().first().toBool(), true);
        QCOMPARE(table->rowCount(), 8);
        // iReduct's row says how its repetitions ended, below the table, whole (not elided).
        const auto &batch = lab.results().back().batch;
        QVERIFY(batch.has_value());
        QCOMPARE(batch->allGood + batch->budgetExhausted, 30);
        const auto *outcomeLabel = lab.findChild<QLabel *>(QStringLiteral("labBatchOutcome"));
        QVERIFY(outcomeLabel && outcomeLabel->isVisible());
        QVERIFY(outcomeLabel->text().contains(
            QStringLiteral("in %1 the budget ran out first").arg(batch->budgetExhausted)));
        QVERIFY(outcomeLabel->height() >= outcomeLabel->heightForWidth(outcomeLabel->width()));
        lab.chart()->flush();
        QVERIFY(!test::saveScreenshot(lab, QStringLiteral("lab_results")).isEmpty());
    }

    void cancelStopsABigRunAndIgnoresIt()
    {
        LabDialog lab;
        lab.setTable(cps1988());
        auto settings = smallSettings();
        settings.repetitions = 2000; // far longer than the test waits
        settings.queriesPerRepetition = 500;
        lab.setSettings(settings);
        QSignalSpy finished(&lab, &LabDialog::runFinished);
        QElapsedTimer clock;
        clock.start();
        QTest::mouseClick(lab.runButton(), Qt::LeftButton);
        QVERIFY(lab.isRunning());
        // Let it get going (past the workload), then cancel.
        QTRY_VERIFY_WITH_TIMEOUT(lab.progressBar()->value() > 20, 60000);
        QTest::mouseClick(lab.cancelButton(), Qt::LeftButton);
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.first().first().toBool(), false);
        QVERIFY2(clock.elapsed() < 60000, "the job did not stop early");
        QVERIFY(!lab.isRunning());
        QCOMPARE(lab.resultsTable()->rowCount(), 0);
        QVERIFY(lab.results().empty());
        lab.chart()->flush();
        QCOMPARE(lab.chart()->curveCount(), 0);
        QVERIFY(lab.statusLabel()->text().contains(QStringLiteral("Cancelled")));
        QVERIFY(lab.runButton()->isEnabled());
    }

    void closingCancelsAndWaits()
    {
        auto lab = std::make_unique<LabDialog>();
        lab->setTable(cps1988());
        auto settings = smallSettings();
        settings.repetitions = 2000;
        lab->setSettings(settings);
        lab->show();
        QVERIFY(QTest::qWaitForWindowExposed(lab.get()));
        lab->run();
        QVERIFY(lab->isRunning());
        QTest::qWait(200);
        QElapsedTimer clock;
        clock.start();
        lab->close(); // cancels and waits
        QVERIFY(!lab->isRunning());
        QVERIFY(clock.elapsed() < 30000);
        lab->run();
        lab.reset(); // the destructor cancels and waits too
    }

    void invalidSettingsAreNotRun()
    {
        LabDialog lab;
        lab.setTable(cps1988());
        auto settings = smallSettings();
        settings.split.expostEpsilonShare = 0.0; // invalid split
        lab.setSettings(settings);
        QSignalSpy finished(&lab, &LabDialog::runFinished);
        lab.run();
        QVERIFY(!lab.isRunning());
        // The split's own message, not a generic failure; nothing was started or shown.
        QCOMPARE(lab.statusLabel()->text(),
                 QStringLiteral("Not run: the unified filter's ex-post shares of ε and δ must lie strictly "
                                "between 0 and 1"));
        QVERIFY(lab.results().empty());
        QCOMPARE(lab.resultsTable()->rowCount(), 0);
        QCOMPARE(finished.count(), 0);
        QVERIFY(lab.runButton()->isEnabled());
    }

    void mainWindowOpensTheLabOnTheSessionsTable()
    {
        ui::MainWindow w;
        QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
        LabDialog *lab = w.relativeErrorLab();
        QVERIFY(lab);
        QCOMPARE(w.relativeErrorLab(), lab);
        QVERIFY(lab->runButton()->isEnabled());
        const auto labels = lab->findChildren<QLabel *>();
        bool named = false;
        bool banner = false;
        for (const QLabel *label : labels) {
            named = named || label->text().contains(QStringLiteral("cps1988"));
            banner = banner
                     || label->text().contains(
                         QStringLiteral("true counts are read to score accuracy, never to stop"));
        }
        QVERIFY(named);
        QVERIFY(banner);
    }
};

QTEST_MAIN(TestLab)
#include "tst_lab.moc"
