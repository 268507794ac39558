// SPDX-License-Identifier: MIT
// Early-stopped iterative mechanisms (Hartmann et al. 2023, Lemma 11 and Theorem 15): the
// Gaussian example (T9), Theorem 15 against brute-force enumeration of prefix-free families
// (T10), example B with its tuning, hostile inputs.
#include "core/filters/rdp_filter.h"
#include "core/odp/early_stop_filters.h"
#include "core/odp/early_stopping.h"
#include "tests/testutils.h"

#include <functional>

using namespace pbx;
using namespace pbx::odp;

class TestOdpEarlyStop : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void gaussianExample();
    void theorem15AgainstEnumeration_data();
    void theorem15AgainstEnumeration();
    void singleStopIsTheHockeyStick();
    void exampleB();
    void exampleBUnderFilters();
    void gridRoundsUp();
    void cells();
    void hostileInputs();
};

void TestOdpEarlyStop::gaussianExample()
{
    // T9: z = 30, stops 100, 200, …, 1000, δ = 1e-5, δ'_j = δ/10.
    std::vector<std::int64_t> stops;
    for (int j = 1; j <= 10; ++j)
        stops.push_back(100 * j);
    IterativeSteps steps{IterativeSteps::Kind::Gaussian, 30.0};
    auto plan = lemma11Plan(stops, steps, StepComposition::Gaussian, 1e-5, DeltaSplit::Equal);
    QVERIFY2(plan.ok(), plan.ok() ? "" : plan.error().message.c_str());
    const double expected[] = {1.447988, 2.113005, 2.641144, 3.097640, 3.508025,
                               3.885482, 4.237882, 4.570376, 4.886554, 5.189037};
    for (int j = 0; j < 10; ++j)
        QVERIFY2(std::abs(plan->costs[static_cast<std::size_t>(j)] - expected[j]) < 1e-6,
                 qPrintable(QString::number(plan->costs[static_cast<std::size_t>(j)], 'g', 10)));
    QVERIFY(std::abs(plan->dpEpsilon - 4.652985) < 1e-6);
    QVERIFY(std::abs(plan->worstEpsilon() - 5.189037) < 1e-6);
    PBX_FUZZY_COMPARE(plan->delta, 1e-5, 1e-12);
    QVERIFY(plan->delta >= 1e-5);
    auto prop = lemma11Plan(stops, steps, StepComposition::Gaussian, 1e-5, DeltaSplit::Proportional);
    const double proportional[]
        = {1.5676, 2.2136, 2.7150, 3.1425, 3.5231, 3.8704, 4.1928, 4.4954, 4.7820, 5.0551};
    for (int j = 0; j < 10; ++j)
        QVERIFY(std::abs(prop->costs[static_cast<std::size_t>(j)] - proportional[j]) < 1e-4);
}

namespace {
/// The oracle: the maximum over prefix-free families of Σ_j [P0(S_j) − e^{E_j} P1(S_j)] by
/// walking the whole tree of randomized-response outputs (4 symbols a step; no Markov reduction).
double enumerate(const std::vector<std::int64_t> &stops, const std::vector<double> &eps,
                 const std::vector<double> &deltas, const std::vector<double> &costs)
{
    std::function<double(std::size_t, double, double)> walk = [&](std::size_t depth, double p0, double p1) {
        double gain = 0.0;
        bool atStop = false;
        std::size_t j = 0;
        for (; j < stops.size(); ++j)
            if (static_cast<std::size_t>(stops[j]) == depth) {
                atStop = true;
                break;
            }
        if (atStop) {
            gain = std::max(0.0, p0 - std::exp(costs[j]) * p1);
            if (j + 1 == stops.size())
                return gain;
        }
        const double e = eps[depth];
        const double d = deltas[depth];
        const double hi = (1 - d) * std::exp(e) / (1 + std::exp(e));
        const double lo = (1 - d) / (1 + std::exp(e));
        const double children = walk(depth + 1, p0 * d, 0.0) + walk(depth + 1, 0.0, p1 * d)
                                + walk(depth + 1, p0 * hi, p1 * lo) + walk(depth + 1, p0 * lo, p1 * hi);
        return atStop ? std::max(gain, children) : children;
    };
    return walk(0, 1.0, 1.0);
}
} // namespace

void TestOdpEarlyStop::theorem15AgainstEnumeration_data()
{
    QTest::addColumn<std::vector<std::int64_t>>("stops");
    QTest::addColumn<std::vector<double>>("eps");
    QTest::addColumn<std::vector<double>>("costs");
    QTest::addColumn<double>("expected");
    QTest::addColumn<double>("lemma11");
    QTest::newRow("(2,3,5) 0.4x5") << std::vector<std::int64_t>{2, 3, 5} << std::vector<double>(5, 0.4)
                                   << std::vector<double>{0.6, 0.8, 1.2} << 0.070744627001 << 0.178070339051;
    QTest::newRow("(1,2,4) 0.5x4") << std::vector<std::int64_t>{1, 2, 4} << std::vector<double>(4, 0.5)
                                   << std::vector<double>{0.3, 0.6, 1.0} << 0.127736350635 << 0.335464196788;
    QTest::newRow("(2,4) hetero") << std::vector<std::int64_t>{2, 4}
                                  << std::vector<double>{0.3, 0.5, 0.2, 0.4} << std::vector<double>{0.5, 0.9}
                                  << 0.092674878455 << 0.148158184589;
    QTest::newRow("(1,3,4) hetero") << std::vector<std::int64_t>{1, 3, 4}
                                    << std::vector<double>{0.2, 0.6, 0.3, 0.5}
                                    << std::vector<double>{0.1, 0.7, 1.1} << 0.077121427957 << 0.179391134657;
    QTest::newRow("(3,5) 0.5x5") << std::vector<std::int64_t>{3, 5} << std::vector<double>(5, 0.5)
                                 << std::vector<double>{0.5, 0.5} << 0.259932198888 << 0.412384105687;
}

void TestOdpEarlyStop::theorem15AgainstEnumeration()
{
    QFETCH(std::vector<std::int64_t>, stops);
    QFETCH(std::vector<double>, eps);
    QFETCH(std::vector<double>, costs);
    QFETCH(double, expected);
    QFETCH(double, lemma11);
    const std::vector<double> deltas(eps.size(), 0.0);
    auto backward = theorem15Delta(stops, eps, deltas, costs, 0.1);
    QVERIFY(backward.ok());
    QVERIFY(std::abs(*backward - expected) < 1e-12);
    QVERIFY(std::abs(enumerate(stops, eps, deltas, costs) - expected) < 1e-12);
    // Eq. (4): Lemma 11's δ for the same costs is Σ_j of the single-stop δs.
    double sum = 0.0;
    for (std::size_t j = 0; j < stops.size(); ++j) {
        const std::vector<double> prefix(eps.begin(), eps.begin() + stops[j]);
        sum += *theorem15Delta({stops[j]}, prefix, std::vector<double>(prefix.size(), 0.0), {costs[j]}, 0.1);
    }
    QVERIFY(std::abs(sum - lemma11) < 1e-11);
    QVERIFY(*backward < sum);
}

void TestOdpEarlyStop::singleStopIsTheHockeyStick()
{
    const std::vector<double> eps{0.1, 0.2, 0.3, 0.5, 1.0};
    const std::vector<double> withDelta(5, 1e-6);
    const std::vector<double> pure(5, 0.0);
    QVERIFY(std::abs(*theorem15Delta({5}, eps, withDelta, {1.0}, 0.1) - 0.187764235770) < 1e-12);
    QVERIFY(std::abs(*theorem15Delta({5}, eps, withDelta, {1.5}, 0.1) - 0.067755426155) < 1e-12);
    QVERIFY(std::abs(*theorem15Delta({5}, eps, pure, {1.0}, 0.1) - 0.187760174579) < 1e-12);
    QVERIFY(std::abs(*theorem15Delta({5}, eps, pure, {1.5}, 0.1) - 0.0677507649181) < 1e-12);
    // With δ_i > 0 it matches Murtagh–Vadhan's 1 − Π(1−δ_i)(1 − δ_RR) and the enumeration.
    QVERIFY(std::abs(enumerate({5}, eps, withDelta, {1.0}) - 0.187764235770) < 1e-12);
}

void TestOdpEarlyStop::exampleB()
{
    // 100 pure ε₀ = 0.05 steps, stops 20, …, 100, δ = 1e-6.
    const std::vector<std::int64_t> stops{20, 40, 60, 80, 100};
    IterativeSteps steps{IterativeSteps::Kind::EpsDelta, 0.0, 0.05, 0.0};
    auto basic = lemma11Plan(stops, steps, StepComposition::Basic, 0.0, DeltaSplit::Equal);
    QVERIFY(basic.ok());
    for (int j = 0; j < 5; ++j)
        PBX_FUZZY_COMPARE(basic->costs[static_cast<std::size_t>(j)], 1.0 * (j + 1), 1e-14);
    QCOMPARE(basic->delta, 0.0);
    auto kov = lemma11Plan(stops, steps, StepComposition::Kov, 1e-6, DeltaSplit::Equal);
    QVERIFY(kov.ok());
    const double expected[] = {0.898351, 1.394911, 1.777398, 2.088141, 2.373870};
    for (int j = 0; j < 5; ++j)
        QVERIFY(std::abs(kov->costs[static_cast<std::size_t>(j)] - expected[j]) < 1e-6);
    QVERIFY(std::abs(kov->dpEpsilon - 2.207533) < 1e-6);
    auto exact = lemma11Plan(stops, steps, StepComposition::Exact, 1e-6, DeltaSplit::Equal);
    QVERIFY(exact.ok());
    for (int j = 0; j < 5; ++j) // Murtagh–Vadhan = KOV for homogeneous steps
        PBX_FUZZY_COMPARE(exact->costs[static_cast<std::size_t>(j)], kov->costs[static_cast<std::size_t>(j)],
                          1e-9);
    const std::vector<double> eps(100, 0.05);
    const std::vector<double> zeros(100, 0.0);
    auto delta = theorem15Delta(stops, eps, zeros, kov->costs);
    QVERIFY(std::abs(*delta - 7.370599e-07) < 1e-12);
    auto tuned = tuneWithTheorem15(stops, steps, StepComposition::Kov, 1e-6);
    QVERIFY(tuned.ok());
    QVERIFY(std::abs(tuned->scale - 1.329022) < 1e-6);
    const double tunedCosts[] = {0.896232, 1.386853, 1.759464, 2.070138, 2.347747};
    for (int j = 0; j < 5; ++j)
        QVERIFY(std::abs(tuned->costs[static_cast<std::size_t>(j)] - tunedCosts[j]) < 1e-6);
    QVERIFY(tuned->delta <= 1e-6);
    QVERIFY(std::abs(tuned->delta - 1e-6) < 1e-12);
}

void TestOdpEarlyStop::exampleBUnderFilters()
{
    // Example B under a privacy filter instead (Hartmann et al. 2023 §5.3: early stopping "can also
    // be done with privacy filters"): the budget a Rényi filter (24 orders, δ/24) must be given to
    // let the 0.05-steps continue to k, against an independent Python evaluation of the same rule
    // (min over the grid of the improved conversion of k·r(α), r the tight ε-DP curve), 1e-8.
    const std::vector<std::int64_t> stops{20, 40, 60, 80, 100};
    IterativeSteps steps{IterativeSteps::Kind::EpsDelta, 0.0, 0.05, 0.0};
    auto budgets = filterBudgetsForStops(stops, steps, 1e-6);
    QVERIFY(budgets.ok());
    const double rdp[] = {0.976101824, 1.553996137, 1.979593794, 2.335001330, 2.655784192};
    const double zcdp[] = {1.2003940002, 1.7122581363, 2.1108421273, 2.4507880005, 2.7532608849};
    const double tunedOdp[] = {0.896232, 1.386853, 1.759464, 2.070138, 2.347747}; // exampleB
    for (std::size_t j = 0; j < 5; ++j) {
        const auto &b = (*budgets)[j];
        QCOMPARE(b.k, stops[j]);
        PBX_FUZZY_COMPARE(b.rdpEpsilon, rdp[j], 1e-8);
        PBX_FUZZY_COMPARE(b.zcdpEpsilon, zcdp[j], 1e-8);
        QVERIFY(b.rdpEpsilon < b.zcdpEpsilon); // the RDP filter is the better filter here
        QVERIFY(tunedOdp[j] < b.rdpEpsilon);   // and output DP beats it at every stopping point
    }
    // The filter itself agrees: with that budget it admits the k steps; a hair less refuses one.
    for (std::size_t j : {std::size_t(0), std::size_t(4)}) {
        const double eps = (*budgets)[j].rdpEpsilon;
        for (double budget : {eps, eps * (1 - 1e-6)}) {
            auto filter = pbx::filters::RdpFilter::create(budget, 1e-6).value();
            std::int64_t admitted = 0;
            while (admitted < stops[j]
                   && filter->charge({pbx::filters::ChargeKind::PureEpsilon, 0.05, 0.0}).ok())
                ++admitted;
            QCOMPARE(admitted == stops[j], budget == eps);
        }
    }
    // Gaussian steps (z = 1): the line α/2 per step.
    auto gaussian
        = filterBudgetsForStops(stops, IterativeSteps{IterativeSteps::Kind::Gaussian, 1.0, 0.0, 0.0}, 1e-6);
    QVERIFY(gaussian.ok());
    PBX_FUZZY_COMPARE(gaussian->front().rdpEpsilon, 35.207356814, 1e-8);
    PBX_FUZZY_COMPARE(gaussian->back().rdpEpsilon, 107.077586272, 1e-8);
    // (ε₀, δ₀) steps with δ₀ > 0 have no Rényi curve: refused with the reason.
    PBX_VERIFY_ERROR(
        filterBudgetsForStops(stops, IterativeSteps{IterativeSteps::Kind::EpsDelta, 0.0, 0.05, 1e-9}, 1e-6),
        Unsupported, "Rényi");
    PBX_VERIFY_ERROR(filterBudgetsForStops(stops, steps, 0.0), InvalidArgument, "delta");
}

void TestOdpEarlyStop::gridRoundsUp()
{
    // A coarser grid rounds every ε_i up, so δ can only grow (conservative).
    const std::vector<double> eps{0.3, 0.5, 0.2, 0.4};
    const std::vector<double> zeros(4, 0.0);
    const double fine = *theorem15Delta({2, 4}, eps, zeros, {0.5, 0.9}, 0.1);
    const double coarse = *theorem15Delta({2, 4}, eps, zeros, {0.5, 0.9}, 0.25);
    QVERIFY(coarse >= fine);
}

void TestOdpEarlyStop::cells()
{
    const std::vector<std::int64_t> stops{20, 40, 60};
    auto g = earlyStopGuarantee(stops, {0.5, 0.8, 1.0}, 1e-6);
    QVERIFY(g.ok());
    QCOMPARE(g->worstEpsilon(), 1.0);
    QCOMPARE(earlyStopCell(stops, 20), 0);
    QCOMPARE(earlyStopCell(stops, 21), 1); // cancelled between stops: the next stop's cost
    QCOMPARE(earlyStopCell(stops, 60), 2);
}

void TestOdpEarlyStop::hostileInputs()
{
    IterativeSteps steps{IterativeSteps::Kind::EpsDelta, 0.0, 0.05, 0.0};
    QCOMPARE(lemma11Plan({}, steps, StepComposition::Kov, 1e-6, DeltaSplit::Equal).error().code,
             ErrorCode::InvalidArgument);
    auto notIncreasing = lemma11Plan({20, 20}, steps, StepComposition::Kov, 1e-6, DeltaSplit::Equal);
    QCOMPARE(notIncreasing.error().code, ErrorCode::InvalidArgument);
    QVERIFY(QString::fromStdString(notIncreasing.error().message).startsWith(QStringLiteral("stops")));
    PBX_VERIFY_ERROR(lemma11Plan({0, 20}, steps, StepComposition::Kov, 1e-6, DeltaSplit::Equal),
                     InvalidArgument, "stops");
    PBX_VERIFY_ERROR(lemma11Plan({20}, steps, StepComposition::Kov, 0.0, DeltaSplit::Equal), InvalidArgument,
                     "delta"); // KOV needs δ > 0
    PBX_VERIFY_ERROR(lemma11Plan({20}, IterativeSteps{IterativeSteps::Kind::EpsDelta, 0.0, -1.0, 0.0},
                                 StepComposition::Basic, 0.0, DeltaSplit::Equal),
                     InvalidArgument, "step-epsilon");
    QCOMPARE(lemma11Plan({20}, steps, StepComposition::Gaussian, 1e-6, DeltaSplit::Equal).error().code,
             ErrorCode::Unsupported);
    PBX_VERIFY_ERROR(theorem15Delta({2}, {0.1, 0.1}, {0.0, 0.0}, {std::nan("")}), InvalidArgument, "costs");
    PBX_VERIFY_ERROR(theorem15Delta({2}, {0.1, 0.2}, {0.0, 0.0}, {0.1}), InvalidArgument,
                     "grid"); // heterogeneous needs a grid
    QCOMPARE(theorem15Delta({2}, {0.1, 0.1}, {0.0, 0.0}, {0.1}, 1e-9).error().code, ErrorCode::Unsupported);
}

QTEST_APPLESS_MAIN(TestOdpEarlyStop)
#include "tst_odpearlystop.moc"
