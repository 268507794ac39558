// SPDX-License-Identifier: MIT
// Budget recovery (Hartmann et al. 2023, Algorithm 5, Theorem 17, Corollary 18): the ℓ2 noise
// sampler, sensitivities and cell costs (T11), the CPS1988 plan (T12), the Fig. 2 table (T13),
// hostile inputs.
#include "core/datasets/cps1988_recovery.h"
#include "core/mechanisms/random_bits.h"
#include "core/odp/budget_recovery.h"
#include "resources/dataset_catalog.h"
#include "tests/test_rows.h"
#include "tests/testutils.h"

#include <random>

using namespace pbx;
using namespace pbx::odp;

class TestOdpRecovery : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void noiseSampler();
    void iterationBudget();
    void sensitivityHolds();
    void cellCosts();
    void cps1988Plan();
    void figure2();
    void hostileInputs();
};

void TestOdpRecovery::noiseSampler()
{
    // d = 9, β = 50: ‖b‖ ~ Gamma(9, 50): mean 0.18, variance 0.0036; the mean vector is 0.
    mechanisms::SeededRandomBits bits(17, 0);
    const int runs = 40000;
    double sum = 0.0;
    double sumSq = 0.0;
    Eigen::VectorXd mean = Eigen::VectorXd::Zero(9);
    for (int i = 0; i < runs; ++i) {
        const Eigen::VectorXd b = sampleL2LaplaceNoise(9, 50.0, bits);
        sum += b.norm();
        sumSq += b.squaredNorm();
        mean += b;
    }
    const double m = sum / runs;
    const double var = sumSq / runs - m * m;
    QVERIFY(std::abs(m - 0.18) < 4 * std::sqrt(0.0036 / runs));
    QVERIFY(std::abs(var - 0.0036) < 0.0036 * 0.05);
    QVERIFY((mean / runs).norm() < 0.005);
}

void TestOdpRecovery::iterationBudget()
{
    QCOMPARE(gradientDescentSteps(0.01, 1e-12, 1.0), std::int64_t{1576});
}

void TestOdpRecovery::sensitivityHolds()
{
    // Replace one record (random features, flipped label): ‖Δθ‖ ≤ 2/(nΛ), |Δ error| ≤ 1/(2nΛ).
    std::mt19937_64 rng(4);
    std::normal_distribution<double> normal;
    const int n = 400;
    const int d = 4;
    LabelledRows train{Eigen::MatrixXd(n, d), Eigen::VectorXd(n)};
    LabelledRows test{Eigen::MatrixXd(100, d), Eigen::VectorXd(100)};
    auto fill = [&](LabelledRows &rows) {
        for (Eigen::Index i = 0; i < rows.x.rows(); ++i) {
            Eigen::VectorXd x(d);
            for (int k = 0; k < d; ++k)
                x[k] = normal(rng);
            rows.x.row(i) = x.normalized() * std::min(1.0, std::abs(normal(rng)));
            rows.y[i] = x[0] + 0.5 * normal(rng) > 0 ? 1.0 : -1.0;
        }
    };
    fill(train);
    fill(test);
    for (double lambda : {0.01, 0.1}) {
        auto base = fitLogistic(train, lambda);
        QVERIFY(base.ok());
        QVERIFY(base->gradientNorm <= 1e-12);
        for (int trial = 0; trial < 5; ++trial) {
            LabelledRows other = train;
            other.x.row(trial) = -other.x.row(trial + 7);
            other.y[trial] = -other.y[trial];
            auto moved = fitLogistic(other, lambda);
            const double bound = 2.0 / (n * lambda);
            QVERIFY((moved->theta - base->theta).norm() <= bound);
            QVERIFY(std::abs(meanAbsoluteError(moved->theta, test) - meanAbsoluteError(base->theta, test))
                    <= bound / 4);
        }
    }
}

void TestOdpRecovery::cellCosts()
{
    // The CPS1988 split: n = 22524, m = 5631, Λ = 0.01, ε_p = 2, ε_t = 0.5.
    RecoveryParameters p;
    auto c = calibrateRecovery(p, 22524, 5631);
    QVERIFY(c.ok());
    PBX_FUZZY_COMPARE(c->modelSensitivity, 8.879418e-03, 1e-6);
    PBX_FUZZY_COMPARE(c->trainSensitivity, 2.219854e-03, 1e-6);
    PBX_FUZZY_COMPARE(c->testSensitivity, 1.775884e-04, 1e-6);
    PBX_FUZZY_COMPARE(c->testNoise, 4.439709e-03, 1e-6);
    PBX_FUZZY_COMPARE(c->testNoise * std::log(10.0), 0.010223, 1e-4);
    // Corollary 18 (ε_t ≤ ε_p): release ε_p, ⊥ ε_t.
    PBX_FUZZY_COMPARE(c->releaseCost, 2.0, 1e-15);
    PBX_FUZZY_COMPARE(c->bottomCost, 0.5, 1e-9);
    QVERIFY(c->bottomCost >= 0.5);
    QVERIFY(c->testCanSave);
    auto g = recoveryGuarantee(*c);
    QVERIFY(g.validate().ok());
    QCOMPARE(g.worstEpsilon(), c->releaseCost);
    // ε_t ≥ ε_p: allowed, but the test cannot save (Theorem 17: both cells ≤ max(ε_p, ε_t)).
    p.epsilonTest = 3.0;
    auto big = calibrateRecovery(p, 22524, 5631);
    QVERIFY(!big->testCanSave);
    QVERIFY(big->releaseCost <= 3.0 + 1e-12);
    QVERIFY(big->bottomCost <= 3.0 + 1e-12);
    // A general s: E(release) = max(ε_p, Δ_test/s), E(⊥) = max(min(ε_p, Δ_train/s), Δ_test/s).
    p.epsilonTest = 0.5;
    p.testNoise = 1e-4;
    auto general = calibrateRecovery(p, 22524, 5631);
    PBX_FUZZY_COMPARE(general->releaseCost, 2.0, 1e-12); // 1.7759 < 2
    PBX_FUZZY_COMPARE(general->bottomCost, 2.0, 1e-12);  // min(2, 22.2) = 2
}

void TestOdpRecovery::cps1988Plan()
{
    auto table = resources::loadDataset("cps1988");
    QVERIFY(table.ok());
    auto full = cps1988Recovery(pbx::test::PublicRows(*table), "full", 500.0);
    QVERIFY(full.ok());
    QCOMPARE(full->train.x.rows(), Eigen::Index{22524});
    QCOMPARE(full->test.x.rows(), Eigen::Index{5631});
    auto fit = fitLogistic(full->train, 0.01);
    QVERIFY(fit.ok());
    QVERIFY(fit->gradientNorm < 1e-14);
    const double theta[] = {-0.26598971, 0.56155045,  0.56011498,  -0.44575890, 0.37173233,
                            0.01336877,  -0.45251003, -0.09087907, -1.18216852};
    for (int i = 0; i < 9; ++i)
        QVERIFY(std::abs(fit->theta[i] - theta[i]) < 1e-6);
    const double mae = meanAbsoluteError(fit->theta, full->test);
    QVERIFY(std::abs(mae - 0.480956) < 1e-6);
    auto weak = cps1988Recovery(pbx::test::PublicRows(*table), "weak", 500.0);
    auto weakFit = fitLogistic(weak->train, 0.01);
    const double weakTheta[] = {0.25433067, -0.49523174, 0.04874926, -0.34918561, -0.05696629};
    for (int i = 0; i < 5; ++i)
        QVERIFY(std::abs(weakFit->theta[i] - weakTheta[i]) < 1e-6);
    const double weakMae = meanAbsoluteError(weakFit->theta, weak->test);
    QVERIFY(std::abs(weakMae - 0.495564) < 1e-6);
    RecoveryParameters p;
    auto c = calibrateRecovery(p, 22524, 5631);
    PBX_FUZZY_COMPARE(recoveryPassProbability(mae, 0.49, c->testNoise), 0.934795, 2e-5);
    PBX_FUZZY_COMPARE(recoveryPassProbability(weakMae, 0.49, c->testNoise), 0.142790, 2e-4);
    // Algorithm 5 end to end once, then 2000 runs of the weak model from its fit: P[pass] ≈
    // 0.1445 (MC in the reference, 4000 runs); within 4 standard errors; each ⊥ costs 0.5.
    mechanisms::SeededRandomBits once(98, 0);
    auto single = runRecovery(weak->train, weak->test, p, once);
    QVERIFY(single.ok());
    int passes = 0;
    const int runs = 2000;
    for (int i = 0; i < runs; ++i) {
        mechanisms::SeededRandomBits bits(99, static_cast<std::uint64_t>(i));
        auto run = perturbAndTest(*weakFit, 22524, weak->test, p, bits);
        QVERIFY(run.ok());
        passes += run->released;
        QCOMPARE(run->cost, run->released ? c->releaseCost : c->bottomCost);
        if (i == 0) // the model noise is data-independent in size; ẽ is near the true error
            QVERIFY(std::abs(run->noisyError - weakMae) < 0.1);
    }
    const double rate = passes / double(runs);
    QVERIFY2(std::abs(rate - 0.1445) < 4 * std::sqrt(0.1445 * 0.8555 / runs),
             qPrintable(QString::number(rate)));
}

void TestOdpRecovery::figure2()
{
    // T13: s·ln 10 at ε_t = 0.1, 80/20 split.
    const double n[] = {1000, 10000, 28155, 100000, 1000000};
    const double lambda[] = {1e-4, 1e-3, 1e-2, 1e-1};
    const double expected[5][4] = {{143.911568, 14.391157, 1.439116, 0.143912},
                                   {14.391157, 1.439116, 0.143912, 0.014391},
                                   {5.111404, 0.511140, 0.051114, 0.005111},
                                   {1.439116, 0.143912, 0.014391, 0.001439},
                                   {0.143912, 0.014391, 0.001439, 0.000144}};
    for (int i = 0; i < 5; ++i)
        for (int j = 0; j < 4; ++j)
            QVERIFY(std::abs(testNoiseQuantile95(n[i], lambda[j], 0.1) - expected[i][j]) < 6e-7);
}

void TestOdpRecovery::hostileInputs()
{
    RecoveryParameters p;
    auto expectField = [&](const RecoveryParameters &q, std::size_t n, std::size_t m, const char *field) {
        auto c = calibrateRecovery(q, n, m);
        QVERIFY(!c.ok());
        QCOMPARE(c.error().code, ErrorCode::InvalidArgument);
        QVERIFY2(QString::fromStdString(c.error().message).startsWith(QString::fromUtf8(field)),
                 c.error().message.c_str());
    };
    RecoveryParameters q = p;
    q.lambda = 0.0;
    expectField(q, 10, 10, "lambda");
    q = p;
    q.lambda = -1.0;
    expectField(q, 10, 10, "lambda");
    q = p;
    q.tau = 1.5;
    expectField(q, 10, 10, "tau");
    q = p;
    q.tau = -0.1;
    expectField(q, 10, 10, "tau");
    q = p;
    q.epsilonModel = std::nan("");
    expectField(q, 10, 10, "eps-p");
    q = p;
    q.epsilonTest = 0.0;
    expectField(q, 10, 10, "eps-t");
    expectField(p, 0, 10, "train");
    expectField(p, 10, 0, "test");
    q = p;
    q.relation = data::Neighbouring::AddRemove;
    expectField(q, 10, 10, "add/remove");
    LabelledRows bad{Eigen::MatrixXd::Constant(2, 2, 1.0), Eigen::VectorXd::Constant(2, 1.0)}; // norm √2 > 1
    QCOMPARE(fitLogistic(bad, 0.1).error().code, ErrorCode::InvalidArgument);
    LabelledRows empty{Eigen::MatrixXd(0, 2), Eigen::VectorXd(0)};
    mechanisms::SeededRandomBits bits(1, 0);
    PBX_VERIFY_ERROR(runRecovery(empty, empty, p, bits), InvalidArgument, "train");
}

QTEST_APPLESS_MAIN(TestOdpRecovery)
#include "tst_odprecovery.moc"
