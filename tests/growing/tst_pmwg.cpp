// SPDX-License-Identifier: MIT
// PMWG (Cummings et al. 2018): the multiplicative-weights and uniform-update test vectors, the
// CPS1988 universes, the theory-mode constants, the practical lab default on a CPS1988 stream
// (hard queries at the cap, realised privacy below the worst case), and refusals
// (docs/growing-databases.md, "PMWG").
#include "core/datasets/cps1988_pmwg.h"
#include "core/growing/growing_error.h"
#include "core/growing/pmwg.h"
#include "tests/strategies/cps_table.h"
#include "tests/test_rows.h"
#include "tests/testutils.h"

#include <cmath>
#include <random>

using namespace pbx;
using namespace pbx::growing;

class TestPmwg : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void multiplicativeWeightsVectors()
    {
        std::vector<double> x{0.25, 0.25, 0.25, 0.25};
        const std::vector<double> q{1, 1, 0, 0};
        multiplicativeWeightsUpdate(x, q, 0.8, 0.25); // v = 0.8 > ⟨q, x̂⟩ = 0.5: r = 1 − q
        PBX_FUZZY_COMPARE(x[0], 0.281088250443, 1e-11);
        PBX_FUZZY_COMPARE(x[1], 0.281088250443, 1e-11);
        PBX_FUZZY_COMPARE(x[2], 0.218911749557, 1e-11);
        auto one = x;
        uniformUpdate(one, 100, 1);
        PBX_FUZZY_COMPARE(one[0], 0.280780445983, 1e-11);
        PBX_FUZZY_COMPARE(one[2], 0.219219554017, 1e-11);
        auto five = x;
        uniformUpdate(five, 100, 5);
        PBX_FUZZY_COMPARE(five[0], 0.279607857565, 1e-11);
        PBX_FUZZY_COMPARE(five[3], 0.220392142435, 1e-11);
        // The batch form equals five single steps.
        auto steps = x;
        for (std::uint64_t t = 100; t < 105; ++t)
            uniformUpdate(steps, t, 1);
        PBX_FUZZY_COMPARE(steps[0], five[0], 1e-14);
    }

    void theoryConstants()
    {
        PmwgConfig c;
        c.mode = PmwgMode::Theory;
        c.alpha = 0.1;
        c.universeSize = 4800;
        QVERIFY(std::fabs(c.resolved().c0 - 13562.2) < 0.05);
        PBX_FUZZY_COMPARE(c.resolved().threshold, 0.075, 1e-14);
        PBX_FUZZY_COMPARE(c.resolved().eta, 0.025, 1e-14);
        c.universeSize = 160;
        QVERIFY(std::fabs(c.resolved().c0 - 8120.0) < 0.5);
        // σ_n of the theory mode at n = 28,155, pure ε = 1, p = 0 and ½ (N = 160): 1.346 and 2.019.
        c.startSize = 28155;
        c.exponent = 0.0;
        QVERIFY(std::fabs(Pmwg::create(c)->sigmaN() - 1.346) < 5e-4);
        c.exponent = 0.5;
        QVERIFY(std::fabs(Pmwg::create(c)->sigmaN() - 2.019) < 5e-4);
    }

    void universes()
    {
        const auto cps = test::loadCps();
        for (const auto &[name, cells, nonEmpty] :
             {std::tuple{"small", std::size_t{160}, std::size_t{145}},
              std::tuple{"full", std::size_t{4800}, std::size_t{2043}}}) {
            auto u = cpsUniverse(pbx::test::PublicRows(cps), name);
            QVERIFY(u.ok());
            QCOMPARE(u->cells, cells);
            std::vector<bool> seen(u->cells, false);
            for (const auto c : u->rowCells)
                seen[c] = true;
            QCOMPARE(std::size_t(std::count(seen.begin(), seen.end(), true)), nonEmpty);
        }
        auto bad = universeShape("tiny");
        QCOMPARE(growingErrorCode(bad.error()), kInvalidUniverse);
        QVERIFY(bad.error().message.find("pmwg.universe") != std::string::npos);
    }

    // The lab default: N = 160, n = 14,000, stream to 28,155, ε = 1, p = ½, c_0 = 40, T = 0.05,
    // η = 0.3, 40 checkpoints × 25 queries. The cap binds (67 hard queries); the realised privacy is
    // about half the worst case; PMW's error is below the Laplace baseline's.
    void practicalLabDefault()
    {
        const auto cps = test::loadCps();
        auto u = cpsUniverse(pbx::test::PublicRows(cps), "small");
        PmwgConfig c;
        c.budget = Budget{BudgetKind::Pure, 1.0, 0.0, 0.0, {}};
        double realised = 0.0, error = 0.0;
        const int runs = 4;
        for (int seed = 0; seed < runs; ++seed) {
            auto run = simulatePmwg(c, *u, pbx::test::PublicRows(cps), "random", 28155, 40, 25,
                                    std::uint64_t(seed));
            QVERIFY2(run.ok(), run.ok() ? "" : run.error().message.c_str());
            QVERIFY(std::fabs(run->sigmaN - 281.0 / 14000.0) < 1e-9);
            QCOMPARE(run->queries, std::size_t{1000});
            QCOMPARE(run->checkpoints.back().cap, std::uint64_t{67});
            QCOMPARE(run->hardQueries.size(), std::size_t{67});
            for (const auto &cp : run->checkpoints)
                QVERIFY(cp.hard <= cp.cap);
            QVERIFY(run->realisedEpsilon <= run->worstCase);
            QVERIFY(run->worstCase <= 1.0);
            realised += run->realisedEpsilon / runs;
            error += run->meanAbsError / runs;
            QVERIFY(std::fabs(run->laplaceBaselineMeanError - 0.0495) < 5e-4);
        }
        QVERIFY(std::fabs(realised - 0.519) < 0.03);
        QVERIFY(std::fabs(error - 0.036) < 0.01);
    }

    void realisedInTheBudgetsUnit()
    {
        // Under a zCDP budget the realised privacy is (49/18)Σ f(s_i)² over the NSG rounds opened, in ρ
        // like the worst case; the pure ex-post loss f(n) + (7/3)Σf(e_i) is kept beside it.
        PmwgConfig c;
        c.startSize = 1000;
        c.universeSize = 4;
        c.budget.kind = BudgetKind::Zcdp;
        c.budget.rho = 0.5;
        auto pm = Pmwg::create(c);
        QVERIFY(pm.ok());
        const double fn = 1.0 / (1000.0 * pm->sigmaN());
        const std::vector<double> truth{0.7, 0.1, 0.1, 0.1};
        const std::vector<double> q{1.0, 0.0, 0.0, 0.0};
        std::mt19937_64 rng(4);
        auto a = pm->query(q, truth, rng); // opens the first round at t = n
        QVERIFY(a.ok());
        QVERIFY(pm->realisedRho() >= 49.0 / 18.0 * fn * fn * (1.0 - 1e-12));
        for (int k = 0; k < 200; ++k) {
            pm->arrive(10);
            QVERIFY(pm->query(q, truth, rng).ok());
        }
        QCOMPARE(pm->realised(), pm->realisedRho());
        QVERIFY(pm->realised() <= pm->worstCase());
        QVERIFY(pm->worstCase() <= 0.5);
        QVERIFY(pm->realisedEpsilon() > 0.0);
        // A pure budget reports ε.
        c.budget = Budget{};
        auto pure = Pmwg::create(c);
        QVERIFY(pure->query(q, truth, rng).ok());
        QCOMPARE(pure->realised(), pure->realisedEpsilon());
        QVERIFY(pure->realised() <= pure->worstCase());
    }

    void refusals()
    {
        PmwgConfig c;
        c.budget = Budget{BudgetKind::Pure, 1.0, 0.0, 0.0, {}};
        auto code = [&](const PmwgConfig &x) { return std::string(growingErrorCode(validate(x).error())); };
        auto p = c;
        p.exponent = 1.0;
        QCOMPARE(code(p), std::string(kInvalidNoiseExponent));
        p = c;
        p.c0 = 0.5;
        QCOMPARE(code(p), std::string(kInvalidCap));
        p = c;
        p.threshold = 0.0;
        QCOMPARE(code(p), std::string(kInvalidThreshold));
        p = c;
        p.eta = 1.5;
        QCOMPARE(code(p), std::string(kInvalidLearningRate));
        p = c;
        p.mode = PmwgMode::Theory;
        p.alpha = 1.0;
        QCOMPARE(code(p), std::string(kInvalidAlpha));
        p = c;
        p.universeSize = 1;
        QCOMPARE(code(p), std::string(kInvalidUniverse));
        auto pm = Pmwg::create(c);
        std::mt19937_64 rng(1);
        std::vector<double> q(160, 0.0), truth(160, 1.0 / 160);
        q[3] = 2.0;
        QCOMPARE(growingErrorCode(pm->query(q, truth, rng).error()), kInvalidQuery);
        QCOMPARE(growingErrorCode(pm->query(std::vector<double>(10, 0.0), truth, rng).error()),
                 kInvalidQuery);
    }
};

QTEST_APPLESS_MAIN(TestPmwg)
#include "tst_pmwg.moc"
