// SPDX-License-Identifier: MIT
// Labs ▸ Output DP: the filter-path demonstration, the sparse-vector figure computed off the GUI
// thread (with cancel), the early-stopping presets and the crossover table; a screenshot of
// every tab.
#include "core/accounting/optimal_composition.h"
#include "core/mechanisms/noise_source.h"
#include "core/odp/crossover.h"
#include "core/odp/early_stop_filters.h"
#include "core/odp/early_stopping.h"
#include "core/odp/ptr_iqr.h"
#include "core/odp/sparse_vector.h"
#include "tests/ui/uitestutils.h"
#include "ui/charts/odpcellchart.h"
#include "ui/charts/odplinechart.h"
#include "ui/charts/ptrflowdiagram.h"
#include "ui/odp/odplabdialog.h"

#include <QComboBox>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>

using namespace pbx::ui;

class TestOdpLab : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void cellBars();
    void sparseVectorTimeline();
    void ptrGammaMarks();
    void crossoverCurves();
    void recoverySimulation();
    void filterPath();
    void sparseVectorFigure();
    void earlyStopping();
    void crossover();
    void ptrAndRecovery();
};

// The first tab: the toy coin mechanism and the sparse vector's cells, drawn from the core's
// guarantees; a realised cell is highlighted and what it returned is E* − E(cell).
void TestOdpLab::cellBars()
{
    OdpLabDialog lab;
    lab.show();
    auto *chart = lab.cellChart();
    QCOMPARE(chart->barCount(), 2); // the coin: ⊥ and ℝ
    QCOMPARE(chart->barValue(0), 0.0);
    QCOMPARE(chart->barValue(1), 1.0);
    QVERIFY(!chart->realised());
    QVERIFY(lab.coinButton()->isEnabled());
    lab.coinButton()->click();
    QVERIFY(chart->realised());
    lab.cellRealised()->setCurrentIndex(1); // ⊥: the whole ε comes back
    QCOMPARE(chart->realised(), std::optional<int>(0));
    QCOMPARE(*chart->returned(), 1.0);
    QVERIFY(!pbx::test::saveScreenshot(lab, QStringLiteral("odplab-cells-coin")).isEmpty());

    lab.cellPreset()->setCurrentIndex(1); // sparse vector, c = 4, ε_SVT = 0.5
    QVERIFY(!lab.coinButton()->isEnabled());
    const auto split = pbx::odp::lyuSplit(0.5, 4);
    QVERIFY(split.ok());
    const pbx::odp::SvtParameters p{split->epsilon1, split->epsilon2, 4, 1.0};
    QCOMPARE(chart->barCount(), 5);
    for (int j = 0; j <= 4; ++j)
        QCOMPARE(chart->barValue(j), pbx::odp::svtCellCost(p, j));
    QCOMPARE(chart->worstCase(), pbx::odp::svtCellCost(p, 4));
    lab.cellRealised()->setCurrentIndex(2); // j = 1
    QCOMPARE(*chart->returned(), pbx::odp::svtCellCost(p, 4) - pbx::odp::svtCellCost(p, 1));
    QVERIFY(chart->annotation().contains(QStringLiteral("returned")));
    QVERIFY(!pbx::test::saveScreenshot(lab, QStringLiteral("odplab-cells-svt")).isEmpty());

    lab.cellPreset()->setCurrentIndex(3); // PTR-IQR as two filter entries, noisy, ε = 1
    QCOMPARE(chart->barCount(), 3);
    QCOMPARE(chart->barValue(0), 2.0);
    QCOMPARE(chart->barValue(1), 3.0);
    QCOMPARE(chart->barValue(2), 2.0);
}

// The query timeline: one seeded run on the public vector, its cost staircase ε₁ + jε₂/c and a ⊤
// mark per flagged entry, equal to the core's run with the same seed.
void TestOdpLab::sparseVectorTimeline()
{
    OdpLabDialog lab;
    lab.tabs()->setCurrentIndex(2);
    lab.show();
    auto *timeline = lab.svtTimeline();
    QCOMPARE(timeline->curveCount(), 5); // staircase, cut-off, ⊤, ⊥, large entries
    // The defaults: N = 100, L = 3 at 1000, T = 500, c = 10, ε = 1, seed 1.
    std::vector<std::int64_t> f(100, 0);
    for (int l = 0; l < 3; ++l)
        f[static_cast<std::size_t>((l * 100 + 50) / 3)] = 1000;
    const auto split = pbx::odp::lyuSplit(0.5, 10);
    const pbx::odp::SvtParameters p{split->epsilon1, split->epsilon2, 10, 1.0};
    auto source = pbx::mechanisms::NoiseSource::seeded(1, 0);
    auto run = pbx::odp::releaseLargeEntries(f, 500, p, 1.0, source.bits());
    QVERIFY(run.ok());
    QCOMPARE(run->j, 3); // well separated: the three large entries, nothing else
    QCOMPARE(timeline->pointCount(2), run->j);
    QCOMPARE(timeline->pointCount(3), static_cast<int>(run->answers.size()) - run->j);
    const int last = timeline->pointCount(0) - 1;
    QCOMPARE(timeline->point(0, last).x(), static_cast<double>(run->answers.size()));
    QCOMPARE(timeline->point(0, last).y(), pbx::odp::svtCellCost(p, run->j));
    QCOMPARE(timeline->point(0, 0).y(), p.epsilon1);
    QCOMPARE(timeline->point(1, 0).y(), p.epsilon1 + p.epsilon2);     // the cut-off level E(c)
    QCOMPARE(timeline->point(2, 2).y(), pbx::odp::svtCellCost(p, 3)); // the third ⊤
    QVERIFY(!pbx::test::saveScreenshot(lab, QStringLiteral("odplab-svt-timeline")).isEmpty());
}

// The pass-probability curves with the dataset's γ marked, per preset.
void TestOdpLab::ptrGammaMarks()
{
    OdpLabDialog lab;
    lab.tabs()->setCurrentIndex(3);
    lab.show();
    auto *chart = lab.ptrChart();
    QCOMPARE(chart->point(3, 0).x(), 223.0);
    QCOMPARE(chart->point(4, 0).x(), 171.0);
    const double t = *pbx::odp::ptrThreshold(0.1, 1e-6, 2);
    QCOMPARE(chart->point(0, 50).x(), 100.0);
    QCOMPARE(chart->point(0, 50).y(), pbx::odp::ptrPassProbability(100, 0.1, t));
    QVERIFY(std::abs(t - 132.223634) < 1e-6); // docs/output-dp.md §4.5
    // The flow diagram: M1 passes on the full data (case 1); its boxes list the four accountings.
    QCOMPARE(lab.ptrFlow()->realisedCase(), 0);
    QCOMPARE(lab.ptrFlow()->caseLines(0).size(), 4);
    QCOMPARE(lab.ptrFlow()->caseLines(1).at(1), QStringLiteral("two cells: 3ε"));
    QCOMPARE(lab.ptrFlow()->caseLines(2).at(3), QStringLiteral("two entries: 2ε"));
    QCOMPARE(lab.ptrFlow()->caseLines(2).at(0), QStringLiteral("DP of S: 3ε"));
    lab.ptrPreset()->setCurrentIndex(1);
    QCOMPARE(lab.ptrFlow()->realisedCase(), 2); // both ⊥ on the subgroup
    QCOMPARE(chart->point(3, 0).x(), 3.0);
    QCOMPARE(chart->point(4, 0).x(), 8.0);
    QVERIFY(!pbx::test::saveScreenshot(lab, QStringLiteral("odplab-ptr-subgroup")).isEmpty());
}

// The crossover line chart of the selected cell: simple kε₀, the KOV ladder and the optimal curve,
// with k_min marked.
void TestOdpLab::crossoverCurves()
{
    OdpLabDialog lab;
    lab.tabs()->setCurrentIndex(6);
    lab.show();
    auto *chart = lab.crossoverChart();
    QCOMPARE(chart->curveCount(), 4);
    QCOMPARE(chart->point(3, 0).x(), 16.0); // ε₀ = 0.1, δ = 1e-5: k_min = 16
    QCOMPARE(chart->point(0, 15).y(), 16 * 0.1);
    const double optimal = *pbx::accounting::kovOptimalEpsilon(0.1, 0.0, 16, 1e-5);
    QVERIFY(optimal < 1.6);
    QCOMPARE(chart->point(2, 15).y(), optimal);
    lab.crossoverTable()->setCurrentCell(6, 6); // ε₀ = 2, δ = 1e-9
    QCOMPARE(chart->point(3, 0).x(), static_cast<double>(*pbx::odp::crossoverK(2.0, 1e-9)));
    QVERIFY(!pbx::test::saveScreenshot(lab, QStringLiteral("odplab-crossover-curves")).isEmpty());
}

// Budget recovery's simulation mode on public CPS1988, off the GUI thread: the non-private test
// errors, the expected cost against ε_t and the noisy-error densities (docs/output-dp.md §6.6).
void TestOdpLab::recoverySimulation()
{
    OdpLabDialog lab;
    lab.tabs()->setCurrentIndex(5);
    lab.recoveryTabs()->setCurrentIndex(1);
    lab.show();
    QCOMPARE(lab.recoverySweepChart()->curveCount(), 0); // nothing read before it is asked for
    lab.startRecoverySimulation();
    QVERIFY(lab.recoverySimulationRunning());
    lab.waitForRecoverySimulation();
    QTRY_VERIFY(!lab.recoverySimulationRunning());
    QTRY_COMPARE(lab.recoverySweepChart()->curveCount(), 4); // full, weak, E(released), E(⊥)
    QVERIFY(lab.recoverySimulationText().contains(QStringLiteral("full 0.480956")));
    QVERIFY(lab.recoverySimulationText().contains(QStringLiteral("weak 0.495564")));
    // ε_t = 0.5 is the eighth sweep point: s = 4.439709e-3, P[pass] = 0.934795 (full), 0.142790 (weak).
    const QPointF full = lab.recoverySweepChart()->point(0, 7);
    const QPointF weak = lab.recoverySweepChart()->point(1, 7);
    QCOMPARE(full.x(), 0.5);
    QVERIFY(std::abs(full.y() - (0.934795 * 2.0 + (1 - 0.934795) * 0.5)) < 1e-4);
    QVERIFY(std::abs(weak.y() - (0.142790 * 2.0 + (1 - 0.142790) * 0.5)) < 1e-4);
    QCOMPARE(lab.recoverySweepChart()->point(3, 7).y(), 0.5); // E(⊥) = ε_t
    QCOMPARE(lab.recoveryDensityChart()->curveCount(), 3);    // two densities and τ
    QCOMPARE(lab.recoveryDensityChart()->point(2, 0).x(), 0.49);
    QVERIFY(!pbx::test::saveScreenshot(lab, QStringLiteral("odplab-recovery-simulation")).isEmpty());
}

void TestOdpLab::filterPath()
{
    OdpLabDialog lab;
    lab.tabs()->setCurrentIndex(1);
    lab.show();
    // reserved, settled, plain DP (stops before request 6), certificate
    QCOMPARE(lab.filterChart()->curveCount(), 4);
    QCOMPARE(lab.filterChart()->pointCount(2), 6); // origin + requests 1–5
    QCOMPARE(lab.filterChart()->pointCount(1), 10);
    QCOMPARE(lab.deltaChart()->curveCount(), 1);
    QVERIFY(!pbx::test::saveScreenshot(lab, QStringLiteral("odplab-filter")).isEmpty());
}

void TestOdpLab::sparseVectorFigure()
{
    OdpLabDialog lab;
    lab.tabs()->setCurrentIndex(2);
    lab.show();
    lab.computeSvtFigure();
    lab.waitForSvtFigure();
    QTRY_VERIFY(!lab.svtRunning());
    QTRY_COMPARE(lab.svtChart()->curveCount(), 4); // DP, filter, ODP, P(j = 0)
    QCOMPARE(lab.svtChart()->pointCount(0), 21);   // DP, L = 0 … 20
    // The drawn rows are the core's exact quadrature (docs/output-dp.md §3.6, table 3.6a).
    const auto split = pbx::odp::lyuSplit(0.5, 10);
    const pbx::odp::SvtParameters p{split->epsilon1, split->epsilon2, 10, 1.0};
    for (int l : {1, 5, 20}) {
        const auto row = pbx::odp::svtFigureRow(100, l, 1000.0, 500.0, p, 0.5);
        QVERIFY(row.ok());
        QCOMPARE(lab.svtChart()->point(3, l).y(), row->pNothing);
        QCOMPARE(lab.svtChart()->point(0, l).y(), row->dpStd);
    }
    QCOMPARE(lab.svtChart()->pointCount(2), 21); // P(j = 0) < 1 for every L here
    QCOMPARE(lab.svtChart()->point(2, 20).y(),
             pbx::odp::svtFigureRow(100, 20, 1000.0, 500.0, p, 0.5)->odpStd);
    QVERIFY(!pbx::test::saveScreenshot(lab, QStringLiteral("odplab-svt")).isEmpty());
    // Cancel right after a start: the job stops and the chart keeps the last result.
    lab.computeSvtFigure();
    lab.cancelSvtFigure();
    lab.waitForSvtFigure();
    QTRY_VERIFY(!lab.svtRunning());
    QCOMPARE(lab.svtChart()->curveCount(), 4);
}

void TestOdpLab::earlyStopping()
{
    OdpLabDialog lab;
    lab.tabs()->setCurrentIndex(4);
    lab.show();
    // DP, Lemma 11 (equal), the realised stop, its return, Lemma 11 (∝ k), basic, Theorem 15, and
    // the budget a Rényi filter needs to reach each stop (seed 003 §5.3: early stopping with filters)
    auto *chart = lab.earlyStopChart();
    QCOMPARE(chart->curveCount(), 8);
    const auto filters = pbx::odp::filterBudgetsForStops(
        {20, 40, 60, 80, 100},
        pbx::odp::IterativeSteps{pbx::odp::IterativeSteps::Kind::EpsDelta, 0.0, 0.05, 0.0}, 1e-6);
    QVERIFY(filters.ok());
    for (int j = 0; j < 5; ++j)
        QCOMPARE(chart->point(7, j).y(), (*filters)[static_cast<std::size_t>(j)].rdpEpsilon);
    QVERIFY(chart->curveName(7).startsWith(QStringLiteral("Rényi filter")));
    QCOMPARE(chart->pointCount(1), 5);
    pbx::odp::IterativeSteps steps;
    steps.stepEpsilon = 0.05;
    const std::vector<std::int64_t> stops{20, 40, 60, 80, 100};
    const auto plan = pbx::odp::lemma11Plan(stops, steps, pbx::odp::StepComposition::Kov, 1e-6,
                                            pbx::odp::DeltaSplit::Equal);
    QVERIFY(plan.ok());
    for (int j = 0; j < 5; ++j)
        QCOMPARE(chart->point(1, j).y(), plan->costs[static_cast<std::size_t>(j)]);
    QCOMPARE(chart->point(0, 0).y(), plan->dpEpsilon);
    // Realised stop j = 2 (k = 40): marked at E_2, the return drawn up to the DP line.
    QCOMPARE(chart->point(2, 0), QPointF(40.0, plan->costs[1]));
    QCOMPARE(chart->point(3, 1).y(), plan->dpEpsilon);
    QVERIFY(chart->curveName(3).startsWith(QStringLiteral("returned")));
    const auto proportional = pbx::odp::lemma11Plan(stops, steps, pbx::odp::StepComposition::Kov, 1e-6,
                                                    pbx::odp::DeltaSplit::Proportional);
    QCOMPARE(chart->point(4, 4).y(), proportional->costs[4]);
    lab.setEarlyStop(5); // running to the end costs more than plain DP (δ split over every stop)
    QVERIFY(chart->curveName(3).startsWith(QStringLiteral("overpaid")));
    QVERIFY(plan->costs[4] > plan->dpEpsilon);
    QVERIFY(!pbx::test::saveScreenshot(lab, QStringLiteral("odplab-earlystop")).isEmpty());
    auto *preset = lab.findChildren<QComboBox *>().last();
    preset->setCurrentIndex(1);
    QCOMPARE(chart->curveCount(),
             6); // Gaussian: DP, Lemma 11 (equal), stop, return, Lemma 11 (∝ k), Rényi filter
    QCOMPARE(chart->pointCount(1), 10);
    QVERIFY(!pbx::test::saveScreenshot(lab, QStringLiteral("odplab-earlystop-gauss")).isEmpty());
}

void TestOdpLab::crossover()
{
    OdpLabDialog lab;
    lab.tabs()->setCurrentIndex(6);
    lab.show();
    QCOMPARE(lab.crossoverTable()->item(2, 2)->text(), QStringLiteral("16")); // ε₀ = 0.1, δ = 1e-5
    QCOMPARE(lab.crossoverTable()->item(6, 6)->text(), QStringLiteral("164"));
    QVERIFY(!pbx::test::saveScreenshot(lab, QStringLiteral("odplab-crossover")).isEmpty());
}

void TestOdpLab::ptrAndRecovery()
{
    OdpLabDialog lab;
    lab.tabs()->setCurrentIndex(3);
    lab.show();
    QCOMPARE(lab.ptrChart()->curveCount(), 5); // three ε, γ₁ and γ₂
    // Noisy mode, in units of ε: DP 3/3/3, Lemma 10 3/3/2, two entries 2/3/2.
    QCOMPARE(lab.ptrCosts()->item(0, 2)->text(), QStringLiteral("3ε"));
    QCOMPARE(lab.ptrCosts()->item(1, 2)->text(), QStringLiteral("2ε"));
    QCOMPARE(lab.ptrCosts()->item(3, 0)->text(), QStringLiteral("2ε"));
    QCOMPARE(lab.ptrCosts()->item(3, 1)->text(), QStringLiteral("3ε"));
    QVERIFY(!pbx::test::saveScreenshot(lab, QStringLiteral("odplab-ptr")).isEmpty());
    lab.tabs()->setCurrentIndex(5);
    QCOMPARE(lab.recoveryChart()->curveCount(), 5);
    QVERIFY(!pbx::test::saveScreenshot(lab, QStringLiteral("odplab-recovery")).isEmpty());
}

QTEST_MAIN(TestOdpLab)
#include "tst_odplab.moc"
