// SPDX-License-Identifier: MIT
// BBImprover (Cummings et al. 2018): the normaliser, the per-step table, the total over 10⁹ steps,
// the crossover with BBScheduler (docs/growing-databases.md), bad configurations.
#include "core/growing/bb_improver.h"
#include "core/growing/growing_error.h"
#include "tests/testutils.h"

#include <cmath>

using namespace pbx;
using namespace pbx::growing;

namespace {

ImproverConfig improverConfig(std::size_t k = 1)
{
    ImproverConfig c;
    c.startSize = 1000;
    c.decay = 0.1;
    c.budget = Budget{BudgetKind::Approx, 1.0, 0.0, 1e-6, ZcdpConversion::Cks}; // ρ = 0.024356
    c.beta = 0.05;
    c.box.queries = k;
    return c;
}

} // namespace

class TestBBImprover : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void normaliser()
    {
        auto b = BBImprover::create(improverConfig());
        QVERIFY(b.ok());
        QVERIFY(std::fabs(b->normaliser() - 5.012374) < 5e-7);
        // An upper bound of the Hurwitz zeta ζ(1.1, 1000) = 5.012123.
        QVERIFY(b->normaliser() > 5.012123);
    }

    void perStepTable()
    {
        auto one = *BBImprover::create(improverConfig(1));
        auto ten = *BBImprover::create(improverConfig(10));
        const auto s = one.step(1000);
        QVERIFY(std::fabs(s.rho - 2.4354e-6) < 5e-11);
        QVERIFY(std::fabs(s.epsilon - 2.2070e-3) < 5e-8);
        PBX_FUZZY_COMPARE(s.beta, 0.05 * 1000.0 / (1000.0 * 1001.0), 1e-14);
        QVERIFY(std::fabs(s.alphaBlackBox - 4.48783) < 6e-6);
        QVERIFY(std::fabs(ten.step(1000).alphaBlackBox - 55.31151) < 6e-5);
        QVERIFY(std::fabs(one.step(28155).epsilon - 3.5200e-4) < 5e-9);
        QVERIFY(std::fabs(one.step(28155).alphaBlackBox - 1.67287) < 6e-6);
        QVERIFY(std::fabs(ten.step(28155).alphaBlackBox - 19.05206) < 6e-5);
        QVERIFY(std::fabs(one.step(10000000).epsilon - 1.3925e-5) < 5e-10);
        QVERIFY(std::fabs(one.step(10000000).alphaBlackBox - 0.20340) < 6e-6);
        QVERIFY(std::fabs(ten.step(10000000).alphaBlackBox - 2.19940) < 6e-5);
        QCOMPARE(s.staleness, 0.0);
        // The improving guarantee: α_t falls with t.
        QVERIFY(one.step(100000).bound < one.step(10000).bound);
    }

    // Σρ_t never exceeds ρ: the loop sum to 10⁷ is below the reported cumulative, which is ≤ ρ for
    // horizons up to 10⁹ steps and beyond.
    void totalNeverExceedsBudget()
    {
        auto b = *BBImprover::create(improverConfig());
        long double sum = 0.0L;
        long double sumTo1e6 = 0.0L;
        for (std::uint64_t t = 1000; t <= 10000000; ++t) {
            sum += b.step(t).rho;
            if (t == 1000000)
                sumTo1e6 = sum;
        }
        QVERIFY(std::fabs((double)sumTo1e6 - 0.012149) < 5e-7);
        QVERIFY((long double)b.cumulative(1000000) >= sumTo1e6);
        QVERIFY((long double)b.cumulative(10000000) >= sum);
        for (const std::uint64_t horizon :
             {std::uint64_t{1000}, std::uint64_t{1000000}, std::uint64_t{1000000000}, std::uint64_t{1} << 53})
            QVERIFY(b.cumulative(horizon) <= 0.024356);
        // With a = 0.1 the tail decays slowly: 10⁹ steps spend at most ≈ 75 % of ρ
        // ((n^{-a} − T^{-a})/a + n^{-1-a}, divided by Z).
        QVERIFY(std::fabs(b.cumulative(1000000000) / 0.024356 - 0.7487) < 2e-4);
        // Thinned runs (every m = 100 rows) pay m·ρ_{t+m−1} per run: still within the budget.
        auto thin = improverConfig();
        thin.every = 100;
        auto bt = *BBImprover::create(thin);
        long double thinSum = 0.0L;
        for (std::uint64_t t = 1000; t <= 100000000; t += 100)
            thinSum += bt.step(t).rho;
        QVERIFY(thinSum <= (long double)bt.cumulative(100000099));
        QVERIFY(bt.step(1000).staleness > 0.0);
    }

    void crossoverWithScheduler()
    {
        SchedulerConfig s;
        s.startSize = 1000;
        s.schedule = ScheduleKind::ZcdpEqualised;
        s.budget = Budget{BudgetKind::Zcdp, 0.0, 0.024356, 0.0, {}};
        s.beta = 0.05;
        s.box.queries = 1;
        auto gamma = optimalGamma(s, 1000, 0.01, 4.0, 2000);
        QVERIFY(gamma.ok());
        QVERIFY(std::fabs(gamma->gamma - 0.059) < 5e-4);
        QVERIFY(std::fabs(gamma->worstBound - 0.1358) < 5e-5);
        s.gamma = gamma->gamma;
        auto t = improverCrossover(improverConfig(1), s, 1000000000000ull);
        QVERIFY(t.ok() && t->has_value());
        QVERIFY(std::fabs(double(**t) / 5523996.0 - 1.0) < 0.02);
        // On CPS1988 (28,155 rows) BBImprover never wins.
        auto none = improverCrossover(improverConfig(1), s, 28155);
        QVERIFY(none.ok() && !none->has_value());
    }

    void badConfigurations()
    {
        auto c = improverConfig();
        c.decay = 1.0;
        auto e = validate(c);
        QCOMPARE(growingErrorCode(e.error()), kInvalidDecay);
        QVERIFY(e.error().message.find("schedule.a") != std::string::npos);
        c = improverConfig();
        c.budget = Budget{BudgetKind::Pure, 1.0, 0.0, 0.0, {}};
        e = validate(c);
        QCOMPARE(growingErrorCode(e.error()), kInvalidSchedule);
        QVERIFY(e.error().message.find("budget.kind") != std::string::npos);
        c = improverConfig();
        c.startSize = 0;
        QCOMPARE(growingErrorCode(validate(c).error()), kInvalidStartSize);
        c = improverConfig();
        c.every = 0;
        QVERIFY(validate(c).error().message.find("schedule.every") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestBBImprover)
#include "tst_bbimprover.moc"
