// SPDX-License-Identifier: MIT
// Predicted vs measured range errors on CPS1988 (education k = 21, experience k = 73): every
// measured average lies within 3 standard errors of the exact prediction; the census analogue
// of the BMI example; exponential-mechanism quantiles and smooth sensitivity of the wage median.
#include "core/strategies/bmi_example.h"
#include "core/strategies/quantiles.h"
#include "core/strategies/range_simulation.h"
#include "tests/strategies/cps_table.h"
#include "tests/test_rows.h"
#include "tests/testutils.h"

using namespace pbx;
using namespace pbx::strategies;
using data::Neighbouring;

class TestCps : public QObject
{
    Q_OBJECT

    data::Table m_cps;

private slots:
    void initTestCase() { m_cps = test::loadCps(); }

    void rangeStrategiesMeasuredAsPredicted()
    {
        struct Case
        {
            const char *column;
            int lo, hi;
            RangeStrategy strategy;
            int runs;
        };
        const Case cases[] = {
            {"education", 0, 20, {RangeStrategyKind::Identity}, 2000},
            {"education", 0, 20, {RangeStrategyKind::Tree, 3, true, true}, 1000},
            {"education", 0, 20, {RangeStrategyKind::Haar}, 1000},
            {"experience", -8, 64, {RangeStrategyKind::Identity}, 1000},
            {"experience", -8, 64, {RangeStrategyKind::Tree, 2, true, false}, 300},
            {"experience", -8, 64, {RangeStrategyKind::Tree, 2, true, true}, 1000},
            {"experience", -8, 64, {RangeStrategyKind::Tree, 16, true, true}, 1000},
            {"experience", -8, 64, {RangeStrategyKind::Haar}, 1000},
        };
        for (const auto &c : cases) {
            const auto leaves = test::integerHistogram(m_cps, c.column, c.lo, c.hi);
            const auto k = leaves.size();
            const auto workload = *allRanges(k);
            auto predicted = predictRangeErrors(c.strategy, k, workload, 1.0, Neighbouring::AddRemove);
            QVERIFY(predicted.ok());
            auto measured = measureRangeErrors(c.strategy, leaves, workload, 1.0, Neighbouring::AddRemove, {},
                                               c.runs, 5);
            QVERIFY(measured.ok());
            const double z = (measured->average - predicted->average) / measured->standardError;
            QVERIFY2(std::fabs(z) < 3.0, qPrintable(QStringLiteral("%1 %2: measured %3 ± %4, predicted %5")
                                                        .arg(QLatin1StringView(c.column))
                                                        .arg(QString::fromStdString(c.strategy.label()))
                                                        .arg(measured->average)
                                                        .arg(measured->standardError)
                                                        .arg(predicted->average)));
            // By range length too: the lab's measured points against the predicted line. Lengths
            // with few ranges are noisy, so the check is at 4.5 s.e. over every length measured (fixed seed).
            QCOMPARE(measured->byLength.size(), k);
            for (std::size_t L = 0; L < k; ++L) {
                const double zL
                    = (measured->byLength[L] - predicted->byLength[L]) / measured->byLengthStandardError[L];
                QVERIFY2(std::fabs(zL) < 4.5,
                         qPrintable(QStringLiteral("%1 %2 L=%3: measured %4 ± %5, predicted %6")
                                        .arg(QLatin1StringView(c.column))
                                        .arg(QString::fromStdString(c.strategy.label()))
                                        .arg(L + 1)
                                        .arg(measured->byLength[L])
                                        .arg(measured->byLengthStandardError[L])
                                        .arg(predicted->byLength[L])));
            }
        }
        // Education has two empty cells, experience six (docs/strategies-inference.md).
        const auto edu = test::integerHistogram(m_cps, "education", 0, 20);
        QCOMPARE(std::count(edu.begin(), edu.end(), 0.0), 2);
        const auto exp = test::integerHistogram(m_cps, "experience", -8, 64);
        QCOMPARE(std::count(exp.begin(), exp.end(), 0.0), 6);
    }

    void censusAnalogue()
    {
        auto cells = bmiCensusCells(pbx::test::PublicRows(m_cps), 500.0);
        QVERIFY(cells.ok());
        QCOMPARE((*cells)[0], 1499.0);
        QCOMPARE((*cells)[1], 733.0);
        QCOMPARE((*cells)[2], 12054.0);
        QCOMPARE((*cells)[3], 13869.0);
        auto sim = simulateBmi(*cells, 1.0, Neighbouring::AddRemove, 20000, 3);
        QVERIFY(sim.ok());
        QCOMPARE(sim->violationProbability, 0.0);
        // Far from the constraints, clipping and the order projection change nothing.
        QCOMPARE(sim->methods[3].measured, sim->methods[2].measured);
        QCOMPARE(sim->methods[4].measured, sim->methods[2].measured);
        QVERIFY(std::fabs(sim->methods[2].measured - 12.0) < 4 * sim->methods[2].standardError);
    }

    void wageMedian()
    {
        const pbx::test::PublicRows rows(m_cps);
        const auto wage = rows->numeric(*m_cps.columnIndex("wage"));
        std::vector<double> w(wage.begin(), wage.end());
        auto sorted = w;
        std::sort(sorted.begin(), sorted.end());
        const double median = std::min(5000.0, sorted[(sorted.size() + 1) / 2 - 1]);
        QCOMPARE(median, 522.32);
        const double expected[][3] = {{1.0, 0.359, 229.6}, {0.1, 1.904, 243.2}, {0.01, 9.524, 360.7}};
        for (const auto &e : expected) {
            auto d = continuousQuantileDistribution(w, 0.5, e[0], 0, 5000);
            QVERIFY(d.ok());
            QVERIFY(std::fabs(expectedAbsoluteError(*d, median) - e[1]) < 0.0006);
            QVERIFY(std::fabs(expectedRankError(*d, 0.5) - e[2]) < 0.06);
        }
        auto s1 = medianSmoothSensitivity(w, smoothSensitivityBeta(1.0, 2.0), 0, 5000);
        QVERIFY(s1->value < 1e-16 && s1->value > 1e-18);
        QCOMPARE(s1->argmax, std::size_t{231});
        auto s01 = medianSmoothSensitivity(w, smoothSensitivityBeta(0.1, 2.0), 0, 5000);
        QVERIFY(std::fabs(s01->value - 6.091e-2) < 1e-4);
        QCOMPARE(s01->argmax, std::size_t{248});
        // Education median 12: the discrete mechanism puts 1 − 5e-193 on it.
        const auto edu = rows->numeric(*m_cps.columnIndex("education"));
        std::vector<double> grid;
        for (int v = 0; v <= 20; ++v)
            grid.push_back(v);
        auto g = gridQuantileDistribution({edu.begin(), edu.end()}, 0.5, 1.0, grid);
        QVERIFY(g.ok());
        QVERIFY(g->probabilities[12] > 1.0 - 1e-15);
        QVERIFY(std::fabs(g->probabilities[13] / 5.201e-193 - 1.0) < 1e-3);
        QCOMPARE(g->utilities[11], -9663.5);
    }
};

QTEST_GUILESS_MAIN(TestCps)
#include "tst_cps.moc"
