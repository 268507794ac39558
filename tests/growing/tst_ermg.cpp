// SPDX-License-Identifier: MIT
// ERMG's teaching box (output-perturbation logistic regression, Chaudhuri, Monteleoni & Sarwate 2011):
// the sensitivity with Newton's tolerance, the Gaussian σ under BBImprover and BBScheduler zCDP on
// CPS1988, the solver and the features (docs/growing-databases.md, "ERMG").
#include "core/datasets/cps1988_ermg.h"
#include "core/growing/bb_improver.h"
#include "core/growing/ermg.h"
#include "core/growing/growing_error.h"
#include "tests/strategies/cps_table.h"
#include "tests/test_rows.h"
#include "tests/testutils.h"

#include <cmath>

using namespace pbx;
using namespace pbx::growing;

class TestErmg : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sensitivityAndNoise()
    {
        // Δ = 2/(tλ) + 2·tol/λ, rounded up.
        PBX_FUZZY_COMPARE(ermSensitivity(1000, 0.01, 1e-10), 0.2 + 2e-8, 1e-12);
        QVERIFY(ermSensitivity(1000, 0.01, 1e-10) >= 0.2 + 2e-8);
        PBX_FUZZY_COMPARE(ermSensitivity(1000, 0.01, 1e-3), 0.2 + 0.2, 1e-12);
        // BBImprover (a = 0.1, ρ = 0.024356 from (1, 10⁻⁶) by CKS, n = 1000): σ_t = 90.6 at t = 1000,
        // 20.2 at t = 28,155.
        Budget approx;
        approx.kind = BudgetKind::Approx;
        ImproverConfig ic;
        ic.startSize = 1000;
        ic.decay = 0.1;
        ic.budget = approx;
        auto improver = BBImprover::create(ic);
        QVERIFY(improver.ok());
        QVERIFY(std::fabs(ermNoiseScale(1000, 0.01, 1e-10, improver->step(1000).rho) - 90.62) < 0.01);
        QVERIFY(std::fabs(ermNoiseScale(28155, 0.01, 1e-10, improver->step(28155).rho) - 20.18) < 0.01);
        // BBScheduler zcdp-equalised, γ = 1: ρ_i = 0.75ρ·4^{−i} at t_i = 1000·2^i → σ = 1.0464 in every
        // epoch.
        auto rho = zcdpBudget(approx);
        QVERIFY(rho.ok());
        for (int i = 0; i < 5; ++i) {
            const double sigma
                = ermNoiseScale(std::uint64_t(1000) << i, 0.01, 1e-10, 0.75 * *rho * std::pow(0.25, i));
            QVERIFY2(std::fabs(sigma - 1.0464) < 1e-4, qPrintable(QString::number(sigma, 'g', 8)));
        }
    }

    void solverOnCps()
    {
        const auto cps = test::loadCps();
        auto data = cpsErmData(pbx::test::PublicRows(cps));
        QVERIFY(data.ok());
        QCOMPARE(data->features.cols(), Eigen::Index{9});
        QCOMPARE(data->features.rows(), Eigen::Index{28155});
        QVERIFY(data->features.rowwise().norm().maxCoeff() <= 1.0 + 1e-15); // ‖x‖ ≤ 1 by public bounds
        QVERIFY((data->labels.array().abs() == 1.0).all());
        const Eigen::Index t = 5000;
        auto fit = fitLogistic(data->features.topRows(t), data->labels.head(t), 0.01, 1e-10);
        QVERIFY(fit.ok());
        QVERIFY(fit->gradientNorm <= 0.5e-10);
        QVERIFY(fit->iterations < 20);
        // The minimiser beats a perturbed point.
        const double best = logisticRisk(fit->theta, data->features.topRows(t), data->labels.head(t), 0.01);
        Eigen::VectorXd moved = fit->theta;
        moved(0) += 1e-3;
        QVERIFY(logisticRisk(moved, data->features.topRows(t), data->labels.head(t), 0.01) > best);
        // Excess risk of the noisy release at σ = 1.046: ≈ 0.1 (useful), at σ = 90.6: hundreds (useless).
        std::mt19937_64 rng(3);
        const auto small
            = excessRisk(fit->theta, 1.0464, data->features.topRows(t), data->labels.head(t), 0.01, 200, rng);
        QVERIFY(small.mean > 0.05 && small.mean < 0.15);
        const auto large
            = excessRisk(fit->theta, 90.6, data->features.topRows(t), data->labels.head(t), 0.01, 50, rng);
        QVERIFY(large.mean > 100.0);
        // Refusals.
        QCOMPARE(growingErrorCode(
                     fitLogistic(data->features.topRows(t), data->labels.head(t), 0.0, 1e-10).error()),
                 kInvalidConfig);
        QCOMPARE(growingErrorCode(
                     fitLogistic(data->features.topRows(t), data->labels.head(t), 0.01, 1e-12).error()),
                 kInvalidConfig);
    }
};

QTEST_GUILESS_MAIN(TestErmg)
#include "tst_ermg.moc"
