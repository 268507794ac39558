// SPDX-License-Identifier: MIT
// iReduct, the batch baseline (Xiao, Bender, Hay & Gehrke 2011; pbx's reconstruction in
// docs/accuracy-first.md): the accuracy test, the spend never above ε, the generalised sensitivity
// by overlap rule, and the two failure modes of Rogers et al. (2023, §1) on the worked batches of
// an independent NumPy implementation of the same procedure (200 seeded runs each; the means are
// statistical, so they are compared within a few standard errors).
#include "core/simulation/ireduct.h"
#include "core/simulation/relative_error_lab.h"
#include "tests/testutils.h"

#include <cmath>
#include <numeric>

using namespace pbx;
using simulation::IReductOverlap;
using simulation::IReductSettings;
using simulation::IReductStop;

namespace {

struct BatchSummary
{
    int allGood = 0;
    int exhausted = 0;
    double spentMean = 0.0, spentMin = 1e300, spentMax = 0.0;
    double goodMean = 0.0;
    std::vector<double> lastScales; ///< run 0's final scales
};

/// 200 runs of `counts` at ε = 1, α = 0.1, β = 0.05, γ = 0.9, overlapping counts.
void summarise(const std::vector<double> &counts, double startScale, BatchSummary &out)
{
    IReductSettings s;
    s.startScale = startScale;
    const int runs = 200;
    for (int r = 0; r < runs; ++r) {
        auto noise = mechanisms::NoiseSource::seeded(100 + static_cast<std::uint64_t>(r), 0);
        const auto run = simulation::runIReduct(counts, s, noise).value();
        (run.stop == IReductStop::AllGood ? out.allGood : out.exhausted) += 1;
        out.spentMean += run.epsilonSpent / runs;
        out.spentMin = std::min(out.spentMin, run.epsilonSpent);
        out.spentMax = std::max(out.spentMax, run.epsilonSpent);
        out.goodMean += static_cast<double>(std::count(run.good.begin(), run.good.end(), true)) / runs;
        if (r == 0)
            out.lastScales = run.scales;
        // Pointwise: the realised loss never exceeds ε, and it is the sum of the final levels.
        QVERIFY(run.epsilonSpent <= s.epsilon);
        PBX_FUZZY_COMPARE(run.epsilonSpent, std::accumulate(run.epsilons.begin(), run.epsilons.end(), 0.0),
                          1e-12);
        for (std::size_t i = 0; i < counts.size(); ++i) {
            QCOMPARE(run.good[i],
                     simulation::isCertifiedCount(run.released[i], run.scales[i], s.alpha, s.beta));
            QVERIFY(run.scales[i] <= startScale * (1 + 1e-12));
        }
    }
}

std::vector<double> geometricCounts()
{
    std::vector<double> counts;
    for (int i = 0; i < 40; ++i)
        counts.push_back(std::round(20.0 * std::pow(1000.0, i / 39.0)));
    return counts;
}

} // namespace

class TestIReduct : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void certificationTest();
    void batchTooSmallLeavesBudget();
    void batchTooLargeLeavesCountsUncertified();
    void smallCountIsNeverCertified();
    void overlapRules();
    void refusals();
    void labRow();
};

void TestIReduct::certificationTest()
{
    // λ = 10, β = 0.05: w = 10·ln 20 = 29.957; certified iff y − w > 0 and w ≤ 0.1·(y − w), i.e.
    // y ≥ 11·w = 329.53.
    QVERIFY(simulation::isCertifiedCount(330.0, 10.0, 0.1, 0.05));
    QVERIFY(!simulation::isCertifiedCount(329.0, 10.0, 0.1, 0.05));
    QVERIFY(!simulation::isCertifiedCount(-400.0, 10.0, 0.1, 0.05));
    QVERIFY(simulation::isCertifiedCount(30.0, 1.0, 0.5, 0.05)); // w = 3.0: 3.0 ≤ 0.5·27.0
}

void TestIReduct::batchTooSmallLeavesBudget()
{
    // Five large counts at λ_max = 100: every run certifies all five and stops with ≈ 0.89 of ε
    // unused (reference: all good 200/200, mean spent 0.1054, min 0.0931, max 0.1130; run 0's
    // final scales 100, 90, 59.05, 43.05, 22.88).
    BatchSummary b;
    summarise({5000, 3000, 2000, 1500, 800}, 100.0, b);
    QCOMPARE(b.allGood, 200);
    QCOMPARE(b.goodMean, 5.0);
    PBX_FUZZY_COMPARE(b.spentMean, 0.1054, 0.02);
    QVERIFY(b.spentMin > 0.09 && b.spentMax < 0.12);
    QCOMPARE(b.lastScales.front(), 100.0); // 5000 at λ_max is certified at once: never reduced
}

void TestIReduct::batchTooLargeLeavesCountsUncertified()
{
    // 40 counts from 20 to 20,000 at λ_max = 400: the budget runs out in every run with about 18
    // counts certified, fewer than the 26 an oracle knowing the true counts could certify within
    // ε = 1 (cost of a count c ≈ (1 + r)·ln(1/β)/(r·c)); the worst-first rule spends on the small
    // counts (reference: exhausted 200/200, mean spent 0.9981, mean #good 17.91; run 0 ends with
    // the six smallest counts at λ = 25.84).
    BatchSummary b;
    summarise(geometricCounts(), 400.0, b);
    QCOMPARE(b.exhausted, 200);
    PBX_FUZZY_COMPARE(b.spentMean, 0.9981, 0.003);
    QVERIFY2(std::fabs(b.goodMean - 17.91) < 0.5, qPrintable(QString::number(b.goodMean)));
    for (int i = 0; i < 6; ++i)
        PBX_FUZZY_COMPARE(b.lastScales[static_cast<std::size_t>(i)], 25.84, 1e-3);
}

void TestIReduct::smallCountIsNeverCertified()
{
    // (1000, 980, 500, 20): the count 20 alone would cost ≈ 1.65 > ε; iReduct drives it to
    // λ = 1.20 and still fails it (reference: exhausted 200/200, mean spent 0.9741, mean #good
    // 3.00).
    BatchSummary b;
    summarise({1000, 980, 500, 20}, 100.0, b);
    QCOMPARE(b.exhausted, 200);
    QCOMPARE(b.goodMean, 3.0);
    PBX_FUZZY_COMPARE(b.spentMean, 0.9741, 0.003);
    PBX_FUZZY_COMPARE(b.lastScales[3], 1.20, 0.01);
}

void TestIReduct::overlapRules()
{
    // The same large batch under the three rules: a partition lets each count spend up to ε
    // (add/remove) or ε/2 (replace-one), so more counts are certified than with overlapping counts.
    const auto counts = geometricCounts();
    double good[3] = {0, 0, 0};
    const IReductOverlap rules[3] = {IReductOverlap::Overlapping, IReductOverlap::PartitionAddRemove,
                                     IReductOverlap::PartitionReplaceOne};
    for (int k = 0; k < 3; ++k) {
        IReductSettings s;
        s.startScale = 400.0;
        s.overlap = rules[k];
        auto noise = mechanisms::NoiseSource::seeded(5, 0);
        const auto run = simulation::runIReduct(counts, s, noise).value();
        good[k] = static_cast<double>(std::count(run.good.begin(), run.good.end(), true));
        const double top = *std::max_element(run.epsilons.begin(), run.epsilons.end());
        auto sorted = run.epsilons;
        std::sort(sorted.rbegin(), sorted.rend());
        const double expected = k == 0   ? std::accumulate(sorted.begin(), sorted.end(), 0.0)
                                : k == 1 ? top
                                         : sorted[0] + sorted[1];
        PBX_FUZZY_COMPARE(run.epsilonSpent, expected, 1e-12);
        QVERIFY(run.epsilonSpent <= 1.0);
    }
    QVERIFY(good[1] > good[0]);
    QVERIFY(good[2] > good[0]);
    QVERIFY(good[1] >= good[2]);
}

void TestIReduct::refusals()
{
    auto noise = mechanisms::NoiseSource::seeded(1, 0);
    IReductSettings s;
    s.startScale = 4.0; // five overlapping counts need λ_max ≥ 5 within ε = 1
    PBX_VERIFY_ERROR(simulation::runIReduct({100, 200, 300, 400, 500}, s, noise), InvalidArgument,
                     "λ_max ≥ 5");
    s.overlap = IReductOverlap::PartitionAddRemove; // one person, one count: λ_max ≥ 1
    QVERIFY(simulation::runIReduct({100, 200, 300, 400, 500}, s, noise).ok());
    s = {};
    s.step = 0.995;
    PBX_VERIFY_ERROR(simulation::runIReduct({100}, s, noise), InvalidArgument, "γ");
    s = {};
    s.beta = 1.0;
    PBX_VERIFY_ERROR(simulation::runIReduct({100}, s, noise), InvalidArgument, "β");
    PBX_VERIFY_ERROR(simulation::runIReduct({}, {}, noise), InvalidArgument, "no counts");
    PBX_VERIFY_ERROR(simulation::runIReduct({std::nan("")}, {}, noise), InvalidArgument, "finite");
    // The default λ_max, 10·m/ε, spends a tenth of ε in the first round.
    auto run = simulation::runIReduct({1e9, 2e9}, {}, noise).value();
    QCOMPARE(run.stop, IReductStop::AllGood);
    QCOMPARE(run.rounds, 1);
    PBX_FUZZY_COMPARE(run.scales[0], 20.0, 1e-12);
    PBX_FUZZY_COMPARE(run.epsilonSpent, 0.1, 1e-12);
}

void TestIReduct::labRow()
{
    // The relative-error lab's ireduct row: the first n cells of each repetition as the batch.
    std::vector<simulation::CellQuery> cells;
    for (int i = 0; i < 60; ++i)
        cells.push_back({"cell " + std::to_string(i), std::round(30.0 * std::pow(400.0, i / 59.0))});
    const simulation::Workload w{cells, 20000.0};
    const std::vector<simulation::LabMethod> method{{session::ReleaseMethod::LaplaceNr,
                                                     filters::FilterKind::Basic,
                                                     simulation::LabProcedure::IReductBatch}};
    QCOMPARE(simulation::labMethodName(method.front()), std::string("ireduct"));
    simulation::LabSettings s;
    s.repetitions = 20;
    for (int queries : {3, 60}) {
        s.queriesPerRepetition = queries;
        auto results = simulation::runRelativeErrorLab(w, s, method).value();
        const auto &r = results.front();
        QVERIFY(r.batch.has_value());
        QCOMPARE(r.batch->allGood + r.batch->budgetExhausted, 20);
        QCOMPARE(r.attemptedMean, double(queries));
        QCOMPARE(r.answeredCurve.size(), std::size_t(queries));
        PBX_FUZZY_COMPARE(r.answeredCurve.back(), r.answeredMean, 1e-12);
        QVERIFY(r.epsilonSpentMean <= s.epsilon);
        PBX_FUZZY_COMPARE(r.epsilonCurve.back(), r.epsilonSpentMean, 1e-9);
        QVERIFY(!r.withinAlpha || *r.withinAlpha >= 0.9);
        if (queries == 3) // three cells: too small a batch in most repetitions
            QVERIFY(r.batch->allGood > r.batch->budgetExhausted);
        else // sixty, down to 30 people: too large in every one
            QCOMPARE(r.batch->budgetExhausted, 20);
    }
    s.ireductStep = 1.0;
    PBX_VERIFY_ERROR(simulation::runRelativeErrorLab(w, s, method), InvalidArgument, "--ireduct-step");
    s = {};
    s.ireductStartScale = 10.0; // 60 overlapping counts need λ_max ≥ 60 within ε = 1
    s.queriesPerRepetition = 60;
    PBX_VERIFY_ERROR(simulation::runRelativeErrorLab(w, s, method), InvalidArgument, "--ireduct-start-scale");
}

QTEST_APPLESS_MAIN(TestIReduct)
#include "tst_ireduct.moc"
