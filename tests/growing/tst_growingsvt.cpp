// SPDX-License-Identifier: MIT
// ATG/NATG/NSG on the count scale (Cummings et al. 2018, §4): the loss bounds against the exact
// worst-case log-ratios, the hard-query cap, NSG's worst case and σ_n, the fraction-scale
// counter-example, the simulated mechanism and its refusals (docs/growing-databases.md).
#include "core/growing/growing_error.h"
#include "core/growing/growing_svt.h"
#include "core/growing/nsg_run.h"
#include "tests/testutils.h"

#include <cmath>

using namespace pbx;
using namespace pbx::growing;

class TestGrowingSvt : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void atgLossBounds()
    {
        const NoiseUnit unit{1000, 0.002, 0.5};
        QVERIFY(validate(unit).ok());
        PBX_FUZZY_COMPARE(unit.f(1000), 0.5, 1e-14);
        // Equal to the exact worst-case log-likelihood ratios (numerical integration) to 4 decimals.
        QVERIFY(std::fabs(atgLoss(unit, 1000, 1000) - 1.0) < 1e-4);
        QVERIFY(std::fabs(atgLoss(unit, 1000, 100000) - 0.55) < 1e-4);
        QVERIFY(std::fabs(atgLoss(unit, 1000, 1000000) - 0.5158) < 1e-4);
        QVERIFY(atgLoss(unit, 1000, 1000) >= 1.0); // rounded up
        QVERIFY(std::fabs(atgLoss(unit, 1000, std::nullopt) - 0.5) < 1e-14);
        QVERIFY(std::fabs(natgLoss(unit, 1000, 1000) - (0.5 + 4.0 / 3.0 * 0.5)) < 1e-12);
        // The naive fraction-scale design loses far more than it claims.
        QVERIFY(std::fabs(naiveFractionScaleLoss(unit, 1000, 100000) - 3.0250) < 1e-4);
        QVERIFY(std::fabs(naiveFractionScaleLoss(unit, 1000, 1000000) - 8.4136) < 1e-4);
    }

    void capAndWorstCase()
    {
        const HardQueryCap cap{true, 10.0};
        QCOMPARE(cap.at(1000, 1000), std::uint64_t{10});
        QCOMPARE(cap.at(1000, 2000), std::uint64_t{16});
        QCOMPARE(cap.at(1000, 2718), std::uint64_t{19});
        QCOMPARE(cap.at(1000, 10000), std::uint64_t{33});
        Budget pure{BudgetKind::Pure, 1.0, 0.0, 0.0, {}};
        auto sigma = nsgSigmaForBudget(1000, 0.5, cap, pure);
        QVERIFY(sigma.ok());
        PBX_FUZZY_COMPARE(*sigma, 0.071, 1e-12);
        const NoiseUnit unit{1000, *sigma, 0.5};
        const double worst = nsgWorstCaseEpsilon(unit, cap);
        QVERIFY(worst <= 1.0 + 1e-12 && worst > 1.0 - 1e-9);
        // Earliest placement of the hard queries the cap allows: Σ (n/τ)^{1−p} = 29.30… ≤ 30.
        // The first time each level k of the cap is reached, by bisection (the cap is monotone in t).
        std::vector<std::uint64_t> times;
        double sum = 0.0;
        const std::uint64_t horizon = 100000000;
        for (std::uint64_t k = 1; k <= cap.at(1000, horizon); ++k) {
            std::uint64_t lo = 1000, hi = horizon;
            while (lo < hi) {
                const std::uint64_t mid = lo + (hi - lo) / 2;
                if (cap.at(1000, mid) >= k)
                    hi = mid;
                else
                    lo = mid + 1;
            }
            times.push_back(lo);
            sum += std::sqrt(1000.0 / double(lo));
        }
        QVERIFY(std::fabs(sum - 29.3026) < 0.31); // the tail beyond 10⁸ adds ≤ 0.30
        QVERIFY(sum <= 30.0);
        QVERIFY(nsgRealisedLoss(unit, times) <= worst);
        // Constant cap: f(n)(1 + 7c/3).
        const HardQueryCap constant{false, 3.0};
        QCOMPARE(constant.at(1000, 1000000), std::uint64_t{3});
        PBX_FUZZY_COMPARE(nsgWorstCaseEpsilon(NoiseUnit{1000, 0.002, 1.0}, constant), 0.5 * 8.0, 1e-12);
        // zCDP: σ_n grows like √c_0 instead of c_0.
        Budget z{BudgetKind::Zcdp, 0.0, 0.5, 0.0, {}};
        auto sz = nsgSigmaForBudget(1000, 0.5, cap, z);
        QVERIFY(sz.ok());
        QVERIFY(nsgWorstCaseRho(NoiseUnit{1000, *sz, 0.5}, cap) <= 0.5);
        QVERIFY(nsgWorstCaseRho(NoiseUnit{1000, *sz, 0.5}, cap) > 0.5 * (1.0 - 1e-9));
    }

    void realisedRhoAndRounds()
    {
        // σ_n = 0.002, n = 1000, p = ½: f(1000) = 0.5, f(10⁵) = 0.05. Rounds opened at 1000 (halted at
        // 10⁵) and at 10⁵ (still open): ρ = (49/18)(0.5² + 0.05²) = 0.6873611…
        const NoiseUnit unit{1000, 0.002, 0.5};
        const std::vector<std::uint64_t> starts{1000, 100000};
        const std::vector<std::uint64_t> halts{100000};
        PBX_FUZZY_COMPARE(nsgRealisedRho(unit, starts), 49.0 / 18.0 * (0.25 + 0.0025), 1e-12);
        QVERIFY(nsgRealisedRho(unit, starts) >= 49.0 / 18.0 * (0.25 + 0.0025)); // rounded up
        const auto rounds = nsgRounds(unit, starts, halts);
        QCOMPARE(rounds.size(), std::size_t{2});
        PBX_FUZZY_COMPARE(rounds[0].atgCost, 0.55, 1e-12); // f(s) + f(t_h), the ATG test vector
        PBX_FUZZY_COMPARE(rounds[0].cost, 0.5 + 4.0 / 3.0 * 0.05, 1e-12);
        QVERIFY(!rounds[1].halt);
        PBX_FUZZY_COMPARE(rounds[1].atgCost, 0.05, 1e-12); // an open round costs f(s)
        // A transcript within the cap stays within the zCDP worst case: every round opened right after
        // the previous hard answer, hard answers as early as the time cap allows.
        const HardQueryCap cap{true, 10.0};
        std::vector<std::uint64_t> early{1000};
        for (std::uint64_t t = 1000; t <= 2000000 && early.size() < 200; ++t)
            while (early.size() <= cap.at(1000, t) && early.size() < 200)
                early.push_back(t);
        QVERIFY(nsgRealisedRho(unit, early) <= nsgWorstCaseRho(unit, cap));
        // NSG's σ_n for ε = 1, c_0 = 10, p = ½, n = 1000: (1 + (7/3)·30)/1000 = 0.071.
        NsgConfig config;
        config.cap = cap;
        auto fitted = nsgNoiseUnit(config);
        QVERIFY(fitted.ok());
        PBX_FUZZY_COMPARE(fitted->sigmaN, 0.071, 1e-9);
        PBX_FUZZY_COMPARE(nsgWorstCase(*fitted, config), 1.0, 1e-9);
        QVERIFY(nsgWorstCase(*fitted, config) <= 1.0);
        // Refusals name the field.
        config.cap.reset();
        QCOMPARE(growingErrorCode(nsgNoiseUnit(config).error()), kCapRequired);
        config.cap = cap;
        config.exponent = 1.0;
        QCOMPARE(growingErrorCode(nsgNoiseUnit(config).error()), kInvalidNoiseExponent);
        config.exponent = 0.5;
        config.threshold = 1.5;
        QCOMPARE(growingErrorCode(nsgNoiseUnit(config).error()), kInvalidThreshold);
    }

    void simulatedMechanism()
    {
        const HardQueryCap cap{false, 3.0};
        auto v = GrowingSparseVector::create(NoiseUnit{1000, 1e-4, 0.5}, cap);
        QVERIFY(v.ok());
        std::mt19937_64 rng(5);
        // Far above the threshold with tiny noise: ⊤ until the cap binds, then nothing is answered.
        int hard = 0, unanswered = 0;
        for (std::uint64_t t = 1000; t < 1010; ++t) {
            auto a = v->query(t, 0.9, 0.1, rng);
            QVERIFY(a.ok());
            hard += a->hard;
            unanswered += !a->answered;
            if (a->hard)
                QVERIFY(std::fabs(*a->numeric - 0.9) < 0.01);
        }
        QCOMPARE(hard, 3);
        QCOMPARE(unanswered, 7);
        QCOMPARE(v->hardTimes(), (std::vector<std::uint64_t>{1000, 1001, 1002}));
        QVERIFY(v->realisedLoss() <= v->worstCaseLoss());
        // Far below: ⊥ and no cost beyond the open round.
        auto w = GrowingSparseVector::create(NoiseUnit{1000, 1e-4, 0.5}, cap);
        for (std::uint64_t t = 1000; t < 1100; ++t)
            QVERIFY(!w->query(t, 0.1, 0.9, rng)->hard);
        PBX_FUZZY_COMPARE(w->realisedLoss(), 1.0 / (1000 * 1e-4), 1e-12);
        // Refusals.
        auto back = w->query(1050, 0.1, 0.9, rng);
        QCOMPARE(growingErrorCode(back.error()), kTimeNotMonotone);
        QCOMPARE(growingErrorCode(w->query(2000, 1.5, 0.9, rng).error()), kInvalidQuery);
        QCOMPARE(growingErrorCode(w->query(2000, 0.5, NAN, rng).error()), kInvalidThreshold);
    }

    void badConfigurations()
    {
        QCOMPARE(growingErrorCode(validate(NoiseUnit{1000, 0.0, 0.5}).error()), kInvalidNoiseUnit);
        QCOMPARE(growingErrorCode(validate(NoiseUnit{1000, 0.01, 1.5}).error()), kInvalidNoiseExponent);
        QCOMPARE(growingErrorCode(validate(NoiseUnit{0, 0.01, 0.5}).error()), kInvalidStartSize);
        // A growing cap with p = 1 would make the privacy sum diverge.
        QCOMPARE(growingErrorCode(validate(HardQueryCap{true, 10.0}, 1.0).error()), kInvalidNoiseExponent);
        QCOMPARE(growingErrorCode(validate(HardQueryCap{true, 0.0}, 0.5).error()), kInvalidCap);
        QCOMPARE(growingErrorCode(validate(HardQueryCap{false, 0.5}, 0.5).error()), kInvalidCap);
        QVERIFY(validate(HardQueryCap{false, 2.0}, 1.0).ok());
    }
};

QTEST_APPLESS_MAIN(TestGrowingSvt)
#include "tst_growingsvt.moc"
