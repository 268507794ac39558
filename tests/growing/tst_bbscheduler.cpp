// SPDX-License-Identifier: MIT
// BBScheduler (Cummings et al. 2018): epoch boundaries, the four per-epoch schedules, the staleness
// lemma, the worked table for n = 1000, γ = 1, ε = 1 (docs/growing-databases.md), the optimal γ,
// the cumulative privacy for 10⁶ epochs, and bad configurations refused with the field named.
#include "core/growing/bb_scheduler.h"
#include "core/growing/growing_error.h"
#include "tests/testutils.h"

#include <cmath>

using namespace pbx;
using namespace pbx::growing;

namespace {

SchedulerConfig schedulerConfig(ScheduleKind kind)
{
    SchedulerConfig c;
    c.startSize = 1000;
    c.gamma = 1.0;
    c.schedule = kind;
    c.beta = 0.05;
    c.box.kind = BlackBoxKind::LaplaceK;
    c.box.queries = 10;
    if (scheduleIsZcdp(kind)) {
        c.budget.kind = BudgetKind::Approx;
        c.budget.epsilon = 1.0;
        c.budget.delta = 1e-6;
    } else {
        c.budget.kind = BudgetKind::Pure;
        c.budget.epsilon = 1.0;
    }
    return c;
}

std::vector<EpochPlan> eightEpochs(ScheduleKind kind)
{
    auto s = BBScheduler::create(schedulerConfig(kind));
    if (!s)
        qFatal("%s", s.error().message.c_str());
    std::vector<EpochPlan> out;
    for (int i = 0; i < 8; ++i)
        out.push_back(*s->nextEpoch());
    return out;
}

bool hasCodeAndField(const Error &e, std::string_view code, std::string_view field)
{
    return growingErrorCode(e) == code && e.message.find(field) != std::string::npos;
}

} // namespace

class TestBBScheduler : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void epochBoundaries()
    {
        std::uint64_t t = 1000;
        std::vector<std::uint64_t> starts{t};
        for (std::uint64_t i = 0; i < 8; ++i) {
            t = *nextEpochStart(1000, 1.0, i, t);
            starts.push_back(t);
        }
        QCOMPARE(starts,
                 (std::vector<std::uint64_t>{1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000, 256000}));
        // The max(t_i + 1, ·) guard when nγ < 1.
        QCOMPARE(*nextEpochStart(10, 0.05, 0, 10), std::uint64_t{11});
        QCOMPARE(*nextEpochStart(10, 0.05, 1, 11), std::uint64_t{12});
        // Past 2^53 rows: refused.
        auto overflow = nextEpochStart(1000, 1.0, 60, std::uint64_t{1} << 52);
        QVERIFY(!overflow);
        QCOMPARE(growingErrorCode(overflow.error()), kEpochOverflow);
    }

    void stalenessLemma()
    {
        PBX_FUZZY_COMPARE(epochStaleness(1000, 1999), 1.0 - 1000.0 / 1999.0, 1e-15);
        QVERIFY(std::fabs(epochStaleness(1000, 1999) - 0.499749875) < 1e-9);
        QCOMPARE(epochStaleness(10, 10), 0.0);
        PBX_FUZZY_COMPARE(staleness(1000, 1500), 500.0 / 1500.0, 1e-15);
        PBX_FUZZY_COMPARE(staleness(1000, 1500, 0.2), 500.0 / 1500.0 * 0.8, 1e-15);
        // The lemma is tight: q(x_{t_i}) = 0 and every new row satisfies q.
        const double before = 0.0, after = 500.0 / 1500.0;
        PBX_FUZZY_COMPARE(std::fabs(after - before), staleness(1000, 1500, before), 1e-15);
        // A full epoch's staleness is below γ/(1+γ).
        for (const double g : {0.01, 0.3, 1.0, 5.0}) {
            std::uint64_t start = 5000;
            for (std::uint64_t i = 0; i < 10; ++i) {
                const std::uint64_t next = *nextEpochStart(5000, g, i, start);
                QVERIFY(epochStaleness(start, next - 1) < g / (1.0 + g));
                start = next;
            }
        }
    }

    void laplaceBlackBox()
    {
        BlackBox box;
        box.queries = 10;
        QVERIFY(std::fabs(box.alpha(0.5, 1000, 0.025) - 0.119829) < 5e-7);
        PBX_FUZZY_COMPARE(box.alpha(0.5, 1000, 0.025), 0.02 * std::log(400.0), 1e-14);
        QVERIFY(laplaceKScale(10, 0.5, 1000) >= 0.02);
        BlackBox small{BlackBoxKind::SmallDb, 1000, 4800, 1};
        PBX_FUZZY_COMPARE(small.alpha(1.0, 500, 0.025), 1.239, 1e-3); // vacuous at this size
    }

    void workedTableGeometric()
    {
        const auto e = eightEpochs(ScheduleKind::Geometric);
        const double alpha[] = {0.11983, 0.13369, 0.14756, 0.16142, 0.17528, 0.18914, 0.20301, 0.21687};
        const double bound[] = {0.61958, 0.63357, 0.64749, 0.66139, 0.67527, 0.68914, 0.70300, 0.71687};
        for (int i = 0; i < 8; ++i) {
            QCOMPARE(e[i].start, std::uint64_t(1000) << i);
            QCOMPARE(e[i].last, (std::uint64_t(2000) << i) - 1);
            PBX_FUZZY_COMPARE(e[i].privacy.epsilon, std::ldexp(1.0, -(i + 1)), 1e-12);
            QVERIFY(e[i].privacy.epsilon <= std::ldexp(1.0, -(i + 1))); // never above the exact term
            PBX_FUZZY_COMPARE(e[i].privacy.cumulative, 1.0 - std::ldexp(1.0, -(i + 1)), 1e-12);
            PBX_FUZZY_COMPARE(e[i].privacy.epsilon * double(e[i].start), 500.0, 1e-12);
            PBX_FUZZY_COMPARE(e[i].privacy.beta, 0.05 * std::ldexp(1.0, -(i + 1)), 1e-12);
            QVERIFY(std::fabs(e[i].alphaBlackBox - alpha[i]) < 6e-6);
            QVERIFY(std::fabs(e[i].bound - bound[i]) < 6e-6);
        }
        PBX_FUZZY_COMPARE(e[7].privacy.cumulative, 0.99609375, 1e-12);
    }

    void workedTablePolynomial()
    {
        const auto e = eightEpochs(ScheduleKind::Polynomial);
        const double eps[] = {0.607927, 0.151982, 0.067547, 0.037995, 0.024317, 0.016887, 0.012407, 0.009499};
        const double bound[] = {0.59509, 0.73616, 0.79578, 0.78186, 0.73169, 0.67357, 0.62200, 0.58187};
        for (int i = 0; i < 8; ++i) {
            QVERIFY(std::fabs(e[i].privacy.epsilon - eps[i]) < 6e-7);
            QVERIFY(std::fabs(e[i].bound - bound[i]) < 6e-6);
        }
        QVERIFY(std::fabs(e[7].privacy.cumulative - 0.9285612615) < 1e-9);
    }

    void workedTableZcdp()
    {
        const auto eq = eightEpochs(ScheduleKind::ZcdpEqualised);
        const double eps[] = {0.191139, 0.095569, 0.047785, 0.023892, 0.011946, 0.005973, 0.002987, 0.001493};
        const double cum[] = {0.018267, 0.022834, 0.023975, 0.024261, 0.024332, 0.024350, 0.024354, 0.024356};
        for (int i = 0; i < 8; ++i) {
            QVERIFY(std::fabs(eq[i].privacy.epsilon - eps[i]) < 1e-6);
            QVERIFY(std::fabs(eq[i].privacy.cumulative - cum[i]) < 1e-6);
            QVERIFY(std::fabs(eq[i].privacy.epsilon * double(eq[i].start) - 191.14) < 0.01);
            // The box's ε never exceeds √(2ρ_i): ε²/2 ≤ ρ_i.
            QVERIFY(eq[i].privacy.epsilon * eq[i].privacy.epsilon / 2.0 <= eq[i].privacy.rho);
        }
        QVERIFY(std::fabs(eq[0].bound - 0.81321) < 6e-6);
        QVERIFY(std::fabs(eq[7].bound - 1.06731) < 6e-6);
        const auto geo = eightEpochs(ScheduleKind::ZcdpGeometric);
        const double epsT[] = {156.06, 220.71, 312.13, 441.42, 624.26, 882.83, 1248.51, 1765.66};
        for (int i = 0; i < 8; ++i)
            QVERIFY(std::fabs(geo[i].privacy.epsilon * double(geo[i].start) - epsT[i]) < 0.006);
        QVERIFY(std::fabs(geo[0].bound - 0.88366) < 6e-6);
        QVERIFY(std::fabs(geo[7].bound - 0.56141) < 6e-6);
    }

    void approxBudgetConversion()
    {
        Budget cks{BudgetKind::Approx, 1.0, 0.0, 1e-6, ZcdpConversion::Cks};
        QVERIFY(std::fabs(*zcdpBudget(cks) - 0.024356) < 5e-7);
        Budget simple = cks;
        simple.conversion = ZcdpConversion::Simple;
        QVERIFY(std::fabs(*zcdpBudget(simple) - 0.017469) < 5e-7);
    }

    void planTruncatesAtTheHorizon()
    {
        auto plan = planEpochs(schedulerConfig(ScheduleKind::Geometric), 28155);
        QVERIFY(plan.ok());
        QCOMPARE(plan->size(), std::size_t{5});
        QCOMPARE(plan->back().start, std::uint64_t{16000});
        QCOMPARE(plan->back().last, std::uint64_t{28155});
        // The truncated last epoch (Monte Carlo table of docs/growing-databases.md): 0.607.
        QVERIFY(std::fabs(plan->back().bound - 0.607) < 5e-4);
        auto bad = planEpochs(schedulerConfig(ScheduleKind::Geometric), 999);
        QVERIFY(!bad);
        QVERIFY(hasCodeAndField(bad.error(), kInvalidConfig, "stream.end"));
    }

    void optimalGammaLaplace()
    {
        SchedulerConfig c = schedulerConfig(ScheduleKind::Geometric);
        c.box.queries = 1;
        auto one = optimalGamma(c, 1000);
        QVERIFY(one.ok());
        QVERIFY(std::fabs(one->gamma - 0.0900) < 5e-4);
        QVERIFY(std::fabs(one->worstBound - 0.1482) < 5e-5);
        // At that γ the bound creeps up like (ln t): epoch 39 starts at t = 28,796 with 0.1897.
        c.gamma = one->gamma;
        auto s = BBScheduler::create(c);
        EpochPlan e;
        for (int i = 0; i < 40; ++i)
            e = *s->nextEpoch();
        QCOMPARE(e.start, std::uint64_t{28796});
        QVERIFY(std::fabs(e.bound - 0.1897) < 5e-5);
        c.box.queries = 10;
        auto ten = optimalGamma(c, 1000);
        QVERIFY(std::fabs(ten->gamma - 0.3770) < 5e-4);
        QVERIFY(std::fabs(ten->worstBound - 0.5141) < 5e-5);
    }

    // The total never exceeds the budget for a horizon of 10⁶ epochs: each used parameter is ≤ its
    // exact series term (checked in long double), and the reported cumulative bounds their sum from
    // above while staying ≤ the budget.
    void cumulativeNeverExceedsBudgetMillionEpochs()
    {
        for (const auto kind : {ScheduleKind::Geometric, ScheduleKind::Polynomial,
                                ScheduleKind::ZcdpEqualised, ScheduleKind::ZcdpGeometric}) {
            for (const double gamma : {1.0, 0.01, 0.0005}) {
                Budget budget = scheduleIsZcdp(kind) ? Budget{BudgetKind::Zcdp, 0.0, 0.024356, 0.0, {}}
                                                     : Budget{BudgetKind::Pure, 1.0, 0.0, 0.0, {}};
                auto s = PrivacySchedule::create(kind, gamma, budget, 0.05);
                QVERIFY(s.ok());
                const long double total = scheduleIsZcdp(kind) ? 0.024356L : 1.0L;
                const double r = 1.0 / (1.0 + gamma);
                const long double ratio
                    = kind == ScheduleKind::ZcdpEqualised ? (long double)(r * r) : (long double)r;
                long double exactSum = 0.0L;
                for (std::uint64_t i = 0; i < 1000000; ++i) {
                    const auto e = s->next();
                    const double used = scheduleIsZcdp(kind) ? e.rho : e.epsilon;
                    long double term;
                    if (kind == ScheduleKind::Polynomial)
                        term = 6.0L
                               / (3.14159265358979323846264L * 3.14159265358979323846264L
                                  * (long double)(i + 1) * (long double)(i + 1));
                    else
                        term = (1.0L - ratio) * std::pow(ratio, (long double)i);
                    if (!((long double)used <= total * term * (1.0L + 1e-17L)))
                        QFAIL(qPrintable(QStringLiteral("epoch %1 of %2 uses more than its term")
                                             .arg(i)
                                             .arg(QString::fromUtf8(scheduleKindName(kind).data()))));
                    exactSum += used;
                    if (!(e.cumulative <= (double)total
                          && (long double)e.cumulative >= exactSum * (1.0L - 1e-15L)))
                        QFAIL(qPrintable(QStringLiteral("cumulative wrong at epoch %1").arg(i)));
                }
                QVERIFY(exactSum <= total);
                QVERIFY(s->cumulative() <= double(total));
            }
        }
    }

    void badConfigurationsNameTheField()
    {
        auto c = schedulerConfig(ScheduleKind::Geometric);
        c.gamma = 0.0;
        QVERIFY(hasCodeAndField(validate(c).error(), kInvalidGamma, "schedule.gamma"));
        c.gamma = -1.0;
        QVERIFY(hasCodeAndField(validate(c).error(), kInvalidGamma, "schedule.gamma"));
        c.gamma = NAN;
        QVERIFY(hasCodeAndField(validate(c).error(), kInvalidGamma, "schedule.gamma"));
        c.gamma = 1e-300; // 1/(1+γ) rounds to 1
        QVERIFY(hasCodeAndField(validate(c).error(), kInvalidGamma, "schedule.gamma"));
        c = schedulerConfig(ScheduleKind::Geometric);
        c.startSize = 0;
        QVERIFY(hasCodeAndField(validate(c).error(), kInvalidStartSize, "stream.start_size"));
        c = schedulerConfig(ScheduleKind::Geometric);
        c.schedule = ScheduleKind::ZcdpEqualised; // a pure budget for a zCDP schedule
        QVERIFY(hasCodeAndField(validate(c).error(), kInvalidSchedule, "schedule.kind"));
        c = schedulerConfig(ScheduleKind::ZcdpEqualised);
        c.schedule = ScheduleKind::Polynomial; // an approx budget for a pure schedule
        QVERIFY(hasCodeAndField(validate(c).error(), kInvalidSchedule, "schedule.kind"));
        c = schedulerConfig(ScheduleKind::Geometric);
        c.budget.epsilon = -1.0;
        QVERIFY(hasCodeAndField(validate(c).error(), kInvalidBudget, "budget.epsilon"));
        c = schedulerConfig(ScheduleKind::ZcdpEqualised);
        c.budget.delta = 1.0;
        QVERIFY(hasCodeAndField(validate(c).error(), kInvalidBudget, "budget.delta"));
        c = schedulerConfig(ScheduleKind::Geometric);
        c.beta = 1.0;
        QVERIFY(hasCodeAndField(validate(c).error(), kInvalidBeta, "beta"));
        c = schedulerConfig(ScheduleKind::Geometric);
        c.box.queries = 0;
        QVERIFY(hasCodeAndField(validate(c).error(), kInvalidBlackBox, "black_box.queries"));
        QVERIFY(hasCodeAndField(parseScheduleKind("harmonic").error(), kInvalidSchedule, "schedule.kind"));
        QVERIFY(validate(schedulerConfig(ScheduleKind::Polynomial)).ok());
    }
};

QTEST_APPLESS_MAIN(TestBBScheduler)
#include "tst_bbscheduler.moc"
