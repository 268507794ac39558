// SPDX-License-Identifier: MIT
// Histogram release: the cells come from public information only, the whole histogram is charged
// once (add/remove: the per-cell ε; replace: twice that), every cell gets exact discrete noise with
// the stated variance, and answers derived from the cells carry valid error bars at no cost.
#include "core/strategies/derived_answers.h"
#include "core/strategies/histogram.h"
#include "tests/strategies/cps_table.h"
#include "tests/test_rows.h"
#include "tests/testutils.h"

using namespace pbx;
using namespace pbx::strategies;
using data::Neighbouring;
using mechanisms::DiscreteNoiseKind;

class TestHistogram : public QObject
{
    Q_OBJECT

    data::Table m_cps;

private slots:
    void initTestCase() { m_cps = test::loadCps(); }

    void parallelComposition()
    {
        const std::vector<double> parts = {0.5, 1.0, 0.25, 1.0};
        QCOMPARE(*parallelCompositionCost(parts, Neighbouring::AddRemove), 1.0);
        // Replace: the safe rule 2·max.
        QCOMPARE(*parallelCompositionCost(parts, Neighbouring::Replace), 2.0);
        // Replace with the parts' own replace costs: max(two largest add/remove sums, max replace).
        const std::vector<double> replace = {0.5, 0.5, 0.5, 0.5};
        QVERIFY(*parallelCompositionCost(parts, Neighbouring::Replace, replace) >= 2.0);
        const std::vector<double> bmi(4, 1.0); // four BMI cells, each a count charged ε = 1
        QCOMPARE(*parallelCompositionCost(bmi, Neighbouring::AddRemove), 1.0);
        QVERIFY(*parallelCompositionCost(bmi, Neighbouring::Replace, bmi) >= 2.0);
        PBX_VERIFY_ERROR(parallelCompositionCost(std::vector<double>{-1.0}, Neighbouring::AddRemove),
                         InvalidArgument, "costs");
    }

    void chargedOnce()
    {
        auto ar = planHistogram(DiscreteNoiseKind::Laplace, 1.0, Neighbouring::AddRemove);
        QVERIFY(ar.ok());
        QVERIFY(ar->charge <= 1.0);
        QVERIFY(ar->charge > 0.999999);
        QCOMPARE(ar->cell.sensitivity(), std::uint64_t{1});
        auto rep = planHistogram(DiscreteNoiseKind::Laplace, 1.0, Neighbouring::Replace);
        QVERIFY(rep->charge <= 1.0);
        // Under replace each cell gets ε/2: scale 2 instead of 1.
        PBX_FUZZY_COMPARE(rep->cell.parameter().toDouble(), 2.0, 1e-9);
        PBX_FUZZY_COMPARE(rep->charge, 2.0 * rep->cell.cost(), 1e-15);
        auto gauss = planHistogram(DiscreteNoiseKind::Gaussian, 0.5, Neighbouring::AddRemove);
        QVERIFY(gauss->charge <= 0.5);
        PBX_FUZZY_COMPARE(gauss->cellVariance, 1.0, 1e-9); // σ² = Δ²/(2ρ) = 1
        QCOMPARE(strategyErrorCode(
                     planHistogram(DiscreteNoiseKind::Laplace, 0.0, Neighbouring::AddRemove).error()),
                 kInvalidEpsilon);
        // Discrete Laplace variance at t = 1: 2e^{-1}/(1 − e^{-1})².
        const double e1 = std::exp(-1.0);
        PBX_FUZZY_COMPARE(ar->cellVariance, 2 * e1 / ((1 - e1) * (1 - e1)), 1e-9);
    }

    void cellsArePublic()
    {
        auto region = countHistogram(pbx::test::PublicRows(m_cps), {"region", {}});
        QVERIFY(region.ok());
        QCOMPARE(region->labels.size(), std::size_t{4});
        double total = 0;
        for (const auto c : region->counts)
            total += double(c);
        QCOMPARE(total, 28155.0);
        auto edges = unitEdges(0, 20);
        QVERIFY(edges.ok());
        auto education = countHistogram(pbx::test::PublicRows(m_cps), {"education", *edges});
        QVERIFY(education.ok());
        QCOMPARE(education->counts.size(), std::size_t{21});
        // Empty cells stay (two for education).
        QCOMPARE(std::count(education->counts.begin(), education->counts.end(), 0), 2);
        auto predicate = data::Predicate::compile("region == \"south\"", m_cps);
        QVERIFY(predicate.ok());
        auto south = countHistogram(pbx::test::PublicRows(m_cps), {"ethnicity", {}}, *predicate);
        QCOMPARE(south->counts[0] + south->counts[1], region->counts[2]);
        // Bad bins.
        QCOMPARE(strategyErrorCode(countHistogram(pbx::test::PublicRows(m_cps), {"wage", {}}).error()),
                 kInvalidBounds);
        QCOMPARE(
            strategyErrorCode(countHistogram(pbx::test::PublicRows(m_cps), {"wage", {0, 500, 400}}).error()),
            kInvalidBounds);
        QCOMPARE(strategyErrorCode(countHistogram(pbx::test::PublicRows(m_cps), {"region", {0, 1}}).error()),
                 kInvalidBounds);
        QCOMPARE(strategyErrorCode(unitEdges(3, 3).error()), kInvalidBounds);
        QCOMPARE(strategyErrorCode(unitEdges(0.5, 3).error()), kInvalidBounds);
        QCOMPARE(countHistogram(pbx::test::PublicRows(m_cps), {"nope", {}}).error().code,
                 ErrorCode::NotFound);
        // Values outside the edges are clipped into the end cells: every row is counted once.
        auto wage = countHistogram(pbx::test::PublicRows(m_cps), {"wage", {0, 250, 500, 1000}});
        QCOMPARE(wage->counts[0] + wage->counts[1] + wage->counts[2], std::int64_t{28155});
    }

    void releaseAndDerive()
    {
        const auto counts = *countHistogram(pbx::test::PublicRows(m_cps), {"region", {}});
        const auto plan = *planHistogram(DiscreteNoiseKind::Laplace, 0.5, Neighbouring::AddRemove);
        mechanisms::SeededRandomBits bits(5, 0);
        // Measured per-cell variance over 4000 releases matches the plan's (within 5%).
        double sumSq = 0.0;
        int inside = 0;
        const int runs = 4000;
        HistogramRelease last;
        for (int r = 0; r < runs; ++r) {
            auto rel = releaseHistogram(counts, plan, 0.05, bits);
            QVERIFY(rel.ok());
            for (std::size_t i = 0; i < 4; ++i) {
                const double d = double(rel->noisy[i] - counts.counts[i]);
                sumSq += d * d;
                inside += std::fabs(d) <= double(rel->halfWidth);
            }
            // A derived sum of all cells covers the total at ≥ 95%.
            last = *rel;
        }
        PBX_FUZZY_COMPARE(sumSq / (4.0 * runs), plan.cellVariance, 0.05);
        QVERIFY(inside >= 0.95 * 4 * runs);
        auto sum = deriveAnswer(last, plan, {DerivedKind::Sum, {0, 1, 2, 3}, {}}, 0.05);
        QVERIFY(sum.ok());
        PBX_FUZZY_COMPARE(sum->variance, 4 * plan.cellVariance, 1e-12);
        QVERIFY(sum->low <= sum->value && sum->value <= sum->high);
        auto range = deriveAnswer(last, plan, {DerivedKind::Range, {1, 2}, {}}, 0.05);
        QCOMPARE(range->value, double(last.noisy[1] + last.noisy[2]));
        auto diff = deriveAnswer(last, plan, {DerivedKind::Difference, {0}, {1}}, 0.05);
        QCOMPARE(diff->value, double(last.noisy[0] - last.noisy[1]));
        auto share = deriveAnswer(last, plan, {DerivedKind::Share, {2}, {0, 1, 2, 3}}, 0.05);
        QVERIFY(share.ok());
        const double trueShare = double(counts.counts[2]) / 28155.0;
        QVERIFY(share->low <= trueShare && trueShare <= share->high);
        PBX_VERIFY_ERROR(deriveAnswer(last, plan, {DerivedKind::Share, {2}, {0, 1}}, 0.05), InvalidArgument,
                         "of:");
        PBX_VERIFY_ERROR(deriveAnswer(last, plan, {DerivedKind::Difference, {0}, {0}}, 0.05), InvalidArgument,
                         "minus:");
        PBX_VERIFY_ERROR(deriveAnswer(last, plan, {DerivedKind::Sum, {9}, {}}, 0.05), InvalidArgument,
                         "cells:");
        PBX_VERIFY_ERROR(deriveAnswer(last, plan, {DerivedKind::Range, {2, 1}, {}}, 0.05), InvalidArgument,
                         "cells:");
        // Coverage of a derived sum over many releases.
        int covered = 0;
        for (int r = 0; r < 2000; ++r) {
            auto rel = *releaseHistogram(counts, plan, 0.05, bits);
            auto s = *deriveAnswer(rel, plan, {DerivedKind::Sum, {0, 1, 2}, {}}, 0.05);
            const double truth = double(counts.counts[0] + counts.counts[1] + counts.counts[2]);
            covered += s.low <= truth && truth <= s.high;
        }
        QVERIFY(covered >= 1900);
    }
};

QTEST_GUILESS_MAIN(TestHistogram)
#include "tst_histogram.moc"
