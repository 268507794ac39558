// SPDX-License-Identifier: MIT
// Laplace noise reduction (Koufogiannis et al.; Ligett et al. 2017; docs/accuracy-first.md §2.1 and
// §6.5 item 3): backward construction and forward ("gradual release") sampler. Reference numbers:
// the MC check of §2.1–2.2 (2·10⁵ samples, grid 0.1, 0.2, 0.35, 0.5, 1.0) found P(η_k = η_{k+1}) =
// 0.2478, 0.3271, 0.4908, 0.2490 against the exact (ε_k/ε_{k+1})² = 0.25, 0.3265, 0.49, 0.25, and
// for the forward sampler (e1/e2 = 0.4) a mean stay probability 0.1597 against (e1/e2)² = 0.16.
// KS tests use the 1 % critical value 1.63/√n (seeded, so each outcome is fixed).
#include "core/mechanisms/laplace_noise_reduction.h"
#include "tests/nr/nrtestutils.h"
#include "tests/testutils.h"

#include <cmath>
#include <vector>

using namespace pbx::mechanisms;
using pbx::test::binomialStandardError;
using pbx::test::ksCritical1Percent;
using pbx::test::ksStatistic;
using pbx::test::laplaceCdf;

namespace {
QString ksMessage(double d, double critical, const QString &what)
{
    return QStringLiteral("%1: KS D = %2, 1 %% critical value %3").arg(what).arg(d).arg(critical);
}
} // namespace

class TestLaplaceNoiseReduction : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void backwardMarginals_data();
    void backwardMarginals();
    void forwardStep_data();
    void forwardStep();
    void forwardMatchesBackward();
    void classChain();
    void vectorQuery();
    void extremes();
    void invalid();
};

void TestLaplaceNoiseReduction::backwardMarginals_data()
{
    QTest::addColumn<std::vector<double>>("grid");
    QTest::addColumn<double>("sensitivity");
    QTest::addColumn<int>("samples");
    QTest::newRow("§2.1 grid, Δ1=1") << std::vector<double>{0.1, 0.2, 0.35, 0.5, 1.0} << 1.0 << 200000;
    QTest::newRow("§2.1 grid, Δ1=2") << std::vector<double>{0.1, 0.2, 0.35, 0.5, 1.0} << 2.0 << 100000;
    QTest::newRow("geometric 30 levels") << [] {
        std::vector<double> g;
        for (int k = 0; k < 30; ++k)
            g.push_back(0.05 * std::pow(20.0, k / 29.0)); // §4.4's 30-level grid, ε 0.05 → 1
        return g;
    }() << 1.0 << 50000;
}

void TestLaplaceNoiseReduction::backwardMarginals()
{
    QFETCH(std::vector<double>, grid);
    QFETCH(double, sensitivity);
    QFETCH(int, samples);
    const std::size_t levels = grid.size();
    std::vector<std::vector<double>> eta(levels, std::vector<double>(samples));
    std::vector<int> stays(levels, 0);
    auto noise = NoiseSource::seeded(11, 0);
    for (int s = 0; s < samples; ++s) {
        const auto path = laplaceNoiseReductionBackward(grid, sensitivity, noise).value();
        QCOMPARE(path.size(), levels);
        for (std::size_t k = 0; k < levels; ++k) {
            eta[k][s] = path[k];
            if (k + 1 < levels && path[k] == path[k + 1])
                ++stays[k];
        }
    }
    const double critical = ksCritical1Percent(samples);
    for (std::size_t k = 0; k < levels; ++k) {
        const double b = sensitivity / grid[k];
        const double d = ksStatistic(eta[k], [b](double x) { return laplaceCdf(x, b); });
        QVERIFY2(d < critical, qPrintable(ksMessage(d, critical, QStringLiteral("level %1").arg(k))));
        if (k + 1 < levels) {
            const double p = (grid[k] / grid[k + 1]) * (grid[k] / grid[k + 1]);
            const double freq = static_cast<double>(stays[k]) / samples;
            QVERIFY2(
                std::fabs(freq - p) <= 4.0 * binomialStandardError(p, samples),
                qPrintable(
                    QStringLiteral("P(η_%1 = η_%2) = %3, expected %4").arg(k).arg(k + 1).arg(freq).arg(p)));
        }
    }
}

void TestLaplaceNoiseReduction::forwardStep_data()
{
    QTest::addColumn<double>("e1");
    QTest::addColumn<double>("e2");
    QTest::addColumn<double>("sensitivity");
    QTest::newRow("§2.2 e1/e2 = 0.4") << 0.4 << 1.0 << 1.0;
    QTest::newRow("doubling") << 0.1 << 0.2 << 1.0;
    QTest::newRow("small step") << 0.5 << 0.55 << 1.0;
    QTest::newRow("huge step") << 1.0 << 20.0 << 1.0;
    QTest::newRow("Δ1=5") << 0.4 << 1.0 << 5.0;
}

// η_1 ~ Lap(Δ1/e1) by NoiseSource::laplace (inversion, independent of the samplers under test).
void TestLaplaceNoiseReduction::forwardStep()
{
    QFETCH(double, e1);
    QFETCH(double, e2);
    QFETCH(double, sensitivity);
    const int samples = 200000;
    auto noise = NoiseSource::seeded(12, 0);
    std::vector<double> eta2(samples);
    int stays = 0;
    for (int s = 0; s < samples; ++s) {
        const double eta1 = noise.laplace(sensitivity / e1);
        eta2[s] = laplaceNoiseReductionForwardStep(eta1, e1, e2, sensitivity, noise).value();
        if (eta2[s] == eta1)
            ++stays;
    }
    const double b = sensitivity / e2;
    const double d = ksStatistic(eta2, [b](double x) { return laplaceCdf(x, b); });
    const double critical = ksCritical1Percent(samples);
    QVERIFY2(d < critical, qPrintable(ksMessage(d, critical, QStringLiteral("η_2 vs Lap(Δ1/e2)"))));
    const double p = (e1 / e2) * (e1 / e2);
    const double freq = static_cast<double>(stays) / samples;
    QVERIFY2(std::fabs(freq - p) <= 4.0 * binomialStandardError(p, samples),
             qPrintable(QStringLiteral("mean stay probability %1, expected (e1/e2)² = %2").arg(freq).arg(p)));
}

void TestLaplaceNoiseReduction::forwardMatchesBackward()
{
    // The joint law of (η_1, η_2) must agree: compare η_1 − η_2 by a two-sample KS test (§2.2
    // found p = 0.78). Both samples carry the same atom at 0 (the stay), which only makes the
    // continuous-distribution critical value conservative.
    const int samples = 100000;
    const double e1 = 0.4, e2 = 1.0;
    auto noise = NoiseSource::seeded(13, 0);
    std::vector<double> forward(samples), backward(samples);
    for (int s = 0; s < samples; ++s) {
        const double eta1 = noise.laplace(1.0 / e1);
        forward[s] = eta1 - laplaceNoiseReductionForwardStep(eta1, e1, e2, 1.0, noise).value();
        const auto path = laplaceNoiseReductionBackward({e1, e2}, 1.0, noise).value();
        backward[s] = path[0] - path[1];
    }
    const double d = pbx::test::ksTwoSample(forward, backward);
    const double critical = pbx::test::ksTwoSampleCritical1Percent(samples, samples);
    QVERIFY2(d < critical,
             qPrintable(ksMessage(d, critical, QStringLiteral("η_1 − η_2, forward vs backward"))));
}

void TestLaplaceNoiseReduction::classChain()
{
    // Several forward steps in a row: the marginal at every level is Lap(Δ1/ε).
    const std::vector<double> levels{0.1, 0.3, 0.6, 1.0};
    const int samples = 100000;
    std::vector<std::vector<double>> eta(levels.size(), std::vector<double>(samples));
    auto noise = NoiseSource::seeded(14, 0);
    for (int s = 0; s < samples; ++s) {
        auto nr = LaplaceNoiseReduction::start(levels[0], 1.0, noise).value();
        eta[0][s] = nr.noise()[0];
        for (std::size_t k = 1; k < levels.size(); ++k) {
            QVERIFY(nr.reduceTo(levels[k], noise).ok());
            eta[k][s] = nr.noise()[0];
        }
        if (s == 0) {
            QCOMPARE(nr.epsilon(), 1.0);
            QCOMPARE(nr.expostEpsilon(), 1.0); // ε_k, δ = 0 (§2.1)
            QCOMPARE(nr.steps(), 4);
            QVERIFY(nr.scale() >= 1.0);
            PBX_FUZZY_COMPARE(nr.scale(), 1.0, 1e-15);
            QCOMPARE(nr.release(5.0).value(), 5.0 + nr.noise()[0]);
            const auto refused = nr.reduceTo(1.0, noise);
            QVERIFY(!refused.ok());
            QCOMPARE(refused.error().code, pbx::ErrorCode::InvalidArgument);
            PBX_VERIFY_ERROR(nr.reduceTo(0.5, noise), InvalidArgument, "ε strictly above the current one");
            QCOMPARE(nr.epsilon(), 1.0);
        }
    }
    const double critical = ksCritical1Percent(samples);
    for (std::size_t k = 0; k < levels.size(); ++k) {
        const double b = 1.0 / levels[k];
        const double d = ksStatistic(eta[k], [b](double x) { return laplaceCdf(x, b); });
        QVERIFY2(d < critical,
                 qPrintable(ksMessage(d, critical, QStringLiteral("level ε = %1").arg(levels[k]))));
    }
}

void TestLaplaceNoiseReduction::vectorQuery()
{
    // d = 4, Δ1 = 2: every coordinate is its own reduction; pooled coordinates follow Lap(Δ1/ε).
    const int samples = 25000;
    auto noise = NoiseSource::seeded(15, 0);
    std::vector<double> pooled;
    pooled.reserve(4 * samples);
    for (int s = 0; s < samples; ++s) {
        auto nr = LaplaceNoiseReduction::start(0.2, 2.0, noise, 4).value();
        QVERIFY(nr.reduceTo(0.5, noise).ok());
        for (double x : nr.noise())
            pooled.push_back(x);
        if (s == 0) {
            QCOMPARE(nr.dimension(), std::size_t(4));
            PBX_VERIFY_ERROR(nr.release(1.0), InvalidArgument, "one-dimensional");
            PBX_VERIFY_ERROR(nr.releaseVector({1.0, 2.0}), InvalidArgument, "dimension");
            QCOMPARE(nr.releaseVector({1, 2, 3, 4}).value()[2], 3.0 + nr.noise()[2]);
        }
    }
    const double d = ksStatistic(pooled, [](double x) { return laplaceCdf(x, 4.0); });
    QVERIFY2(d < ksCritical1Percent(pooled.size()),
             qPrintable(ksMessage(d, ksCritical1Percent(pooled.size()), QStringLiteral("pooled"))));
}

void TestLaplaceNoiseReduction::extremes()
{
    auto noise = NoiseSource::seeded(16, 0);
    // A wildly implausible current noise: e^{−ε·a} would underflow without the normalisation.
    for (int i = 0; i < 1000; ++i) {
        const double eta2 = laplaceNoiseReductionForwardStep(1e6, 1.0, 2.0, 1.0, noise).value();
        QVERIFY(std::isfinite(eta2));
        QVERIFY(eta2 != 1e6); // stay probability e^{−10⁶}/2 = 0
        QVERIFY(eta2 > -60.0 && eta2 < 60.0);
    }
    // Sign symmetry: the same stream gives the mirrored draw.
    auto s1 = NoiseSource::seeded(17, 0), s2 = NoiseSource::seeded(17, 0);
    for (int i = 0; i < 100; ++i) {
        const double x = 0.37 * (i + 1);
        QCOMPARE(laplaceNoiseReductionForwardStep(-x, 0.3, 0.9, 1.0, s1).value(),
                 -laplaceNoiseReductionForwardStep(x, 0.3, 0.9, 1.0, s2).value());
    }
    // η_1 = 0: finite draws, no division by zero.
    for (int i = 0; i < 100; ++i)
        QVERIFY(std::isfinite(laplaceNoiseReductionForwardStep(0.0, 0.3, 0.9, 1.0, noise).value()));
    // Levels one ulp apart: the rounded rates may coincide; the step then stays put.
    const double e = 0.3;
    const double next = std::nextafter(e, 1.0);
    QVERIFY(std::isfinite(laplaceNoiseReductionForwardStep(1.5, e, next, 1.0, noise).value()));
}

void TestLaplaceNoiseReduction::invalid()
{
    auto noise = NoiseSource::seeded(18, 0);
    using Grid = std::vector<double>;
    PBX_VERIFY_ERROR(laplaceNoiseReductionBackward(Grid{}, 1.0, noise), InvalidArgument, "ε grid");
    PBX_VERIFY_ERROR(laplaceNoiseReductionBackward(Grid{0.1, 0.1}, 1.0, noise), InvalidArgument, "ε grid");
    PBX_VERIFY_ERROR(laplaceNoiseReductionBackward(Grid{0.2, 0.1}, 1.0, noise), InvalidArgument, "ε grid");
    PBX_VERIFY_ERROR(laplaceNoiseReductionBackward(Grid{0.0, 0.1}, 1.0, noise), InvalidArgument,
                     "ε on the grid");
    PBX_VERIFY_ERROR(laplaceNoiseReductionBackward(Grid{0.1, HUGE_VAL}, 1.0, noise), InvalidArgument,
                     "ε on the grid");
    PBX_VERIFY_ERROR(laplaceNoiseReductionBackward(Grid{0.1}, 0.0, noise), InvalidArgument, "sensitivity");
    QCOMPARE(laplaceNoiseReductionBackward(Grid{0.1}, 1.0, noise).value().size(), std::size_t(1));
    PBX_VERIFY_ERROR(laplaceNoiseReductionForwardStep(1.0, 0.5, 0.5, 1.0, noise), InvalidArgument,
                     "ε strictly above the current one");
    PBX_VERIFY_ERROR(laplaceNoiseReductionForwardStep(1.0, 0.5, 0.4, 1.0, noise), InvalidArgument,
                     "ε strictly above the current one");
    PBX_VERIFY_ERROR(laplaceNoiseReductionForwardStep(std::nan(""), 0.5, 1.0, 1.0, noise), InvalidArgument,
                     "Laplace noise");
    PBX_VERIFY_ERROR(laplaceNoiseReductionForwardStep(1.0, 0.0, 1.0, 1.0, noise), InvalidArgument,
                     "ε levels");
    PBX_VERIFY_ERROR(laplaceNoiseReductionForwardStep(1.0, 0.5, 1.0, -1.0, noise), InvalidArgument,
                     "sensitivity");
    PBX_VERIFY_ERROR(LaplaceNoiseReduction::start(0.0, 1.0, noise), InvalidArgument,
                     "ε must be a finite number");
    PBX_VERIFY_ERROR(LaplaceNoiseReduction::start(1.0, 0.0, noise), InvalidArgument, "sensitivity");
    PBX_VERIFY_ERROR(LaplaceNoiseReduction::start(1.0, 1.0, noise, 0), InvalidArgument, "dimension");
    PBX_VERIFY_ERROR(LaplaceNoiseReduction::resume({}, 1.0, 1.0), InvalidArgument, "dimension");
    PBX_VERIFY_ERROR(LaplaceNoiseReduction::resume({1.0}, -1.0, 1.0), InvalidArgument,
                     "ε must be a finite number");
    const auto resumed = LaplaceNoiseReduction::resume({1.5}, 0.5, 1.0, 2);
    QVERIFY(resumed.ok());
    QCOMPARE(resumed->noise()[0], 1.5);
    QCOMPARE(resumed->steps(), 2);
}

QTEST_APPLESS_MAIN(TestLaplaceNoiseReduction)
#include "tst_laplacenr.moc"
