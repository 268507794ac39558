// SPDX-License-Identifier: MIT
// Brownian noise reduction (Whitehouse et al. 2022; docs/accuracy-first.md §3.1, §4.4, §6.5 item 2):
// the bridge sampler reproduces Cov(B_{T_i}, B_{T_j}) = min(T_i, T_j), and the zCDP increments
// telescope to Δ²/(2·T_stop).
#include "core/math/directed_rounding.h"
#include "core/mechanisms/brownian_noise_reduction.h"
#include "tests/testutils.h"

#include <cmath>
#include <vector>

using namespace pbx::mechanisms;

class TestBrownianNoiseReduction : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void bridgeCovariance_data();
    void bridgeCovariance();
    void coordinatesAreIndependent();
    void rhoTelescopes_data();
    void rhoTelescopes();
    void timeForRho();
    void refusesInvalidSteps_data();
    void refusesInvalidSteps();
    void invalidStarts();
    void resumeContinuesTheSamePath();
    void release();
    void privacyLoss();
};

void TestBrownianNoiseReduction::bridgeCovariance_data()
{
    QTest::addColumn<std::vector<double>>("times");
    QTest::addColumn<int>("paths");
    QTest::newRow("widely spaced") << std::vector<double>{400.0, 100.0, 25.0, 9.0, 1.0} << 100000;
    std::vector<double> geometric;
    for (int k = 0; k < 8; ++k)
        geometric.push_back(std::pow(0.97 * 0.97, k) * 50.0); // σ ratio 0.97 (§5.3 grid)
    QTest::newRow("geometric 0.97") << geometric << 100000;
    // q = 1 − 10⁻⁶ steps: the bridge variance T_{k+1}(1 − q) must come from the ratio (§6.2).
    QTest::newRow("near-one ratio") << std::vector<double>{2.0, 2.0 * (1 - 1e-6), 1.0, 1.0 * (1 - 1e-6)}
                                    << 100000;
}

// Zero-mean jointly Gaussian (X, Y): the estimator (1/n)ΣXY of Cov has variance (T_i·T_j + c²)/n.
void TestBrownianNoiseReduction::bridgeCovariance()
{
    QFETCH(std::vector<double>, times);
    QFETCH(int, paths);
    const std::size_t m = times.size();
    std::vector<double> sums(m * m, 0.0);
    std::vector<double> b(m);
    auto noise = NoiseSource::seeded(2024, 0);
    for (int p = 0; p < paths; ++p) {
        auto path = BrownianNoiseReduction::start(1, times[0], noise).value();
        b[0] = path.noise()[0];
        for (std::size_t k = 1; k < m; ++k) {
            QVERIFY(path.reduceTo(times[k], noise).ok());
            b[k] = path.noise()[0];
        }
        for (std::size_t i = 0; i < m; ++i)
            for (std::size_t j = 0; j <= i; ++j)
                sums[i * m + j] += b[i] * b[j];
    }
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j <= i; ++j) {
            const double got = sums[i * m + j] / paths;
            const double expected = std::min(times[i], times[j]);
            const double se = std::sqrt((times[i] * times[j] + expected * expected) / paths);
            QVERIFY2(std::fabs(got - expected) <= 4.5 * se,
                     qPrintable(QStringLiteral("Cov(B_%1, B_%2) = %3, expected %4 ± %5")
                                    .arg(i)
                                    .arg(j)
                                    .arg(got)
                                    .arg(expected)
                                    .arg(4.5 * se)));
        }
}

void TestBrownianNoiseReduction::coordinatesAreIndependent()
{
    // d = 3: each coordinate is its own Brownian path; cross-coordinate covariances vanish.
    const int paths = 50000;
    const double t1 = 9.0, t2 = 4.0;
    double sameCoordinate = 0.0, crossCoordinate = 0.0, crossTime = 0.0;
    auto noise = NoiseSource::seeded(99, 0);
    for (int p = 0; p < paths; ++p) {
        auto path = BrownianNoiseReduction::start(3, t1, noise).value();
        const std::vector<double> first = path.noise();
        QVERIFY(path.reduceTo(t2, noise).ok());
        const auto &second = path.noise();
        sameCoordinate += first[1] * second[1];
        crossCoordinate += first[0] * second[2];
        crossTime += second[0] * second[1];
    }
    const double se = std::sqrt(t1 * t2 / paths);
    QVERIFY(std::fabs(sameCoordinate / paths - t2) <= 4.5 * std::sqrt((t1 * t2 + t2 * t2) / paths));
    QVERIFY(std::fabs(crossCoordinate / paths) <= 4.5 * se);
    QVERIFY(std::fabs(crossTime / paths) <= 4.5 * std::sqrt(t2 * t2 / paths));
}

void TestBrownianNoiseReduction::rhoTelescopes_data()
{
    QTest::addColumn<double>("sensitivity");
    QTest::addColumn<std::vector<double>>("times");
    QTest::addColumn<std::vector<double>>("increments");
    // docs/accuracy-first.md §4.4: "T = 100, 50, 25, 10 with Δ = 1 charges 0.005, 0.005, 0.01, 0.03,
    // and the sum 0.05 equals 1/(2·10)" (the first entry is the first release, Δ²/(2T_1)).
    QTest::newRow("docs §4.4") << 1.0 << std::vector<double>{100.0, 50.0, 25.0, 10.0}
                               << std::vector<double>{0.005, 0.005, 0.01, 0.03};
    // Δ = 2: 4/16, 2·(1/4 − 1/8), 2·(1 − 1/4); total 4/(2·1) = 2.
    QTest::newRow("Δ=2") << 2.0 << std::vector<double>{8.0, 4.0, 1.0} << std::vector<double>{0.25, 0.25, 1.5};
    // A near-one ratio: ½(1/x − 1) = ½(1 − x)/x with 1 − x exact (x = fl(1 − 2⁻⁴⁰)).
    const double x = 1.0 - 0x1.0p-40;
    QTest::newRow("near-one ratio") << 1.0 << std::vector<double>{1.0, x}
                                    << std::vector<double>{0.5, 0.5 * 0x1.0p-40 / x};
}

void TestBrownianNoiseReduction::rhoTelescopes()
{
    QFETCH(double, sensitivity);
    QFETCH(std::vector<double>, times);
    QFETCH(std::vector<double>, increments);
    double sum = brownianRho(sensitivity, times[0]).value();
    PBX_FUZZY_COMPARE(sum, increments[0], 1e-14);
    QVERIFY(sum >= increments[0]);
    for (std::size_t k = 1; k < times.size(); ++k) {
        const double step = brownianStepRho(sensitivity, times[k - 1], times[k]).value();
        PBX_FUZZY_COMPARE(step, increments[k], 1e-14);
        sum = pbx::math::addRoundUp(sum, step);
    }
    const double total = brownianTotalRho(sensitivity, times.back()).value();
    const double exact = sensitivity * sensitivity / (2.0 * times.back());
    PBX_FUZZY_COMPARE(total, exact, 1e-14);
    PBX_FUZZY_COMPARE(sum, total, 1e-13);
    QVERIFY(total >= exact); // rounded up
    // Paying step by step never charges less than the telescoped total (each step rounds up).
    QVERIFY(sum >= exact);
}

void TestBrownianNoiseReduction::timeForRho()
{
    // T = Δ²/(2ρ), rounded up (more noise).
    const double t = brownianTimeForRho(1.0, 0.05).value();
    QVERIFY(t >= 10.0);
    PBX_FUZZY_COMPARE(t, 10.0, 1e-15);
    const double t2 = brownianTimeForRho(3.0, 0.01746890477).value();
    QVERIFY(t2 * 2.0 * 0.01746890477 >= 9.0 * (1 - 1e-16));
    PBX_FUZZY_COMPARE(brownianRho(3.0, t2).value(), 0.01746890477, 1e-14);
    PBX_VERIFY_ERROR(brownianTimeForRho(0.0, 0.1), InvalidArgument, "sensitivity");
    PBX_VERIFY_ERROR(brownianTimeForRho(1.0, 0.0), InvalidArgument, "ρ");
    PBX_VERIFY_ERROR(brownianTimeForRho(1.0, 1e-320), InvalidArgument,
                     "ρ is too small"); // the time would overflow
    QVERIFY(!brownianRho(-1.0, 1.0).ok());
    QVERIFY(!brownianRho(1.0, 0.0).ok());
    QCOMPARE(brownianStepRho(1.0, 10.0, 10.0).error().code, pbx::ErrorCode::InvalidArgument);
    PBX_VERIFY_ERROR(brownianStepRho(1.0, 10.0, 20.0), InvalidArgument,
                     "time strictly below the current one");
    PBX_VERIFY_ERROR(brownianStepRho(1.0, 10.0, 0.0), InvalidArgument, "Brownian times");
}

void TestBrownianNoiseReduction::refusesInvalidSteps_data()
{
    QTest::addColumn<double>("next");
    QTest::newRow("same time") << 10.0;
    QTest::newRow("larger time") << 11.0;
    QTest::newRow("zero") << 0.0;
    QTest::newRow("negative") << -1.0;
    QTest::newRow("NaN") << std::nan("");
    QTest::newRow("infinity") << HUGE_VAL;
}

void TestBrownianNoiseReduction::refusesInvalidSteps()
{
    QFETCH(double, next);
    auto noise = NoiseSource::seeded(1, 1);
    auto path = BrownianNoiseReduction::start(2, 10.0, noise).value();
    const std::vector<double> before = path.noise();
    const auto result = path.reduceTo(next, noise);
    QVERIFY(!result.ok());
    QCOMPARE(result.error().code, pbx::ErrorCode::InvalidArgument);
    QCOMPARE(path.time(), 10.0);
    QCOMPARE(path.steps(), 1);
    QVERIFY(path.noise() == before);
}

void TestBrownianNoiseReduction::invalidStarts()
{
    auto noise = NoiseSource::seeded(1, 2);
    PBX_VERIFY_ERROR(BrownianNoiseReduction::start(0, 1.0, noise), InvalidArgument, "dimension");
    PBX_VERIFY_ERROR(BrownianNoiseReduction::start(1, 0.0, noise), InvalidArgument, "start time");
    PBX_VERIFY_ERROR(BrownianNoiseReduction::start(1, std::nan(""), noise), InvalidArgument, "start time");
    PBX_VERIFY_ERROR(BrownianNoiseReduction::resume({}, 1.0), InvalidArgument, "dimension");
    PBX_VERIFY_ERROR(BrownianNoiseReduction::resume({std::nan("")}, 1.0), InvalidArgument,
                     "saved Brownian noise");
    PBX_VERIFY_ERROR(BrownianNoiseReduction::resume({1.0}, -1.0), InvalidArgument, "saved Brownian time");
    PBX_VERIFY_ERROR(BrownianNoiseReduction::resume({1.0}, 1.0, 0), InvalidArgument, "step");
}

void TestBrownianNoiseReduction::resumeContinuesTheSamePath()
{
    // A reopened session continues the same path: restoring (B_k, T_k) and drawing the next step
    // from the same stream gives exactly the uninterrupted path (§6.1 rule 6).
    auto s0 = NoiseSource::seeded(7, 0);
    auto path = BrownianNoiseReduction::start(1, 100.0, s0).value();
    auto s1 = NoiseSource::seeded(7, 1);
    QVERIFY(path.reduceTo(50.0, s1).ok());
    auto resumed = BrownianNoiseReduction::resume(path.noise(), path.time(), path.steps()).value();
    auto s2a = NoiseSource::seeded(7, 2);
    auto s2b = NoiseSource::seeded(7, 2);
    QVERIFY(path.reduceTo(10.0, s2a).ok());
    QVERIFY(resumed.reduceTo(10.0, s2b).ok());
    QCOMPARE(resumed.noise()[0], path.noise()[0]);
    QCOMPARE(resumed.steps(), 3);
    QCOMPARE(path.time(), 10.0);
    QVERIFY(path.standardDeviation() >= std::sqrt(10.0));
    PBX_FUZZY_COMPARE(path.standardDeviation(), std::sqrt(10.0), 1e-15);
}

void TestBrownianNoiseReduction::release()
{
    auto noise = NoiseSource::seeded(3, 3);
    auto scalar = BrownianNoiseReduction::start(1, 4.0, noise).value();
    QCOMPARE(scalar.release(10.0).value(), 10.0 + scalar.noise()[0]);
    PBX_VERIFY_ERROR(scalar.releaseVector({1.0, 2.0}), InvalidArgument, "dimension");
    auto vector = BrownianNoiseReduction::start(2, 4.0, noise).value();
    PBX_VERIFY_ERROR(vector.release(1.0), InvalidArgument, "one-dimensional");
    const auto y = vector.releaseVector({1.0, 2.0}).value();
    QCOMPARE(y[0], 1.0 + vector.noise()[0]);
    QCOMPARE(y[1], 2.0 + vector.noise()[1]);
}

void TestBrownianNoiseReduction::privacyLoss()
{
    // L_T = ‖v‖²/(2T) + ⟨v, B⟩/T (§3.2): v = (3, 4), B = (1, −2), T = 5 → (12.5 + 3 − 8)/5 = 1.5.
    PBX_FUZZY_COMPARE(brownianPrivacyLoss({3.0, 4.0}, {1.0, -2.0}, 5.0).value(), 1.5, 1e-15);
    PBX_VERIFY_ERROR(brownianPrivacyLoss({1.0}, {1.0, 2.0}, 1.0), InvalidArgument, "dimension");
    PBX_VERIFY_ERROR(brownianPrivacyLoss({}, {}, 1.0), InvalidArgument, "dimension");
    PBX_VERIFY_ERROR(brownianPrivacyLoss({1.0}, {1.0}, 0.0), InvalidArgument, "Brownian time");
}

QTEST_APPLESS_MAIN(TestBrownianNoiseReduction)
#include "tst_brownian.moc"
