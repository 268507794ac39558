// SPDX-License-Identifier: MIT
// Calibration of the Laplace and Gaussian mechanisms to an absolute accuracy target: the noise
// scale and cost formulas (docs/accuracy-first.md §5.1), and the empirical coverage of the error bar.
#include "core/math/normal.h"
#include "core/mechanisms/additive_noise.h"
#include "tests/testutils.h"

#include <cmath>

using pbx::mechanisms::AdditiveNoiseMechanism;
using pbx::mechanisms::NoiseKind;
using pbx::mechanisms::NoiseSource;

class TestCalibration : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void quantileConstants();
    void scaleAndCost_data();
    void scaleAndCost();
    void coverage_data();
    void coverage();
    void forCostInvertsCost_data();
    void forCostInvertsCost();
    void invalidInputs();
};

void TestCalibration::quantileConstants()
{
    // docs/accuracy-first.md §5.1 constants.
    PBX_FUZZY_COMPARE(pbx::math::normalQuantile(0.975), 1.959963984540054, 1e-12);
    PBX_FUZZY_COMPARE(pbx::math::normalQuantile(0.995), 2.5758293035489004, 1e-12);
    QVERIFY(std::isinf(pbx::math::normalQuantile(1.0)));
    QVERIFY(std::isnan(pbx::math::normalQuantile(1.5)));
}

void TestCalibration::scaleAndCost_data()
{
    QTest::addColumn<NoiseKind>("kind");
    QTest::addColumn<double>("error");
    QTest::addColumn<double>("beta");
    QTest::addColumn<double>("sensitivity");
    QTest::addColumn<double>("expectedScale");
    QTest::addColumn<double>("expectedCost");
    // Laplace: b = a/ln(1/β), ε = Δ/b. ln 20 = 2.995732273553991, ln 100 = 4.605170185988092.
    QTest::newRow("laplace a=40 β=0.05 Δ=1")
        << NoiseKind::Laplace << 40.0 << 0.05 << 1.0 << 40.0 / 2.995732273553991 << 2.995732273553991 / 40.0;
    QTest::newRow("laplace a=5 β=0.01 Δ=2") << NoiseKind::Laplace << 5.0 << 0.01 << 2.0
                                            << 5.0 / 4.605170185988092 << 2.0 * 4.605170185988092 / 5.0;
    // Gaussian: σ = a/Φ⁻¹(1−β/2), ρ = Δ²/(2σ²).
    QTest::newRow("gaussian a=40 β=0.05 Δ=1")
        << NoiseKind::Gaussian << 40.0 << 0.05 << 1.0 << 40.0 / 1.959963984540054
        << std::pow(1.959963984540054 / 40.0, 2) / 2.0;
    QTest::newRow("gaussian a=100 β=0.01 Δ=4000")
        << NoiseKind::Gaussian << 100.0 << 0.01 << 4000.0 << 100.0 / 2.5758293035489004
        << std::pow(4000.0 * 2.5758293035489004 / 100.0, 2) / 2.0;
}

void TestCalibration::scaleAndCost()
{
    QFETCH(NoiseKind, kind);
    QFETCH(double, error);
    QFETCH(double, beta);
    QFETCH(double, sensitivity);
    QFETCH(double, expectedScale);
    QFETCH(double, expectedCost);
    auto m = AdditiveNoiseMechanism::forAbsoluteError(kind, error, beta, sensitivity);
    QVERIFY(m.ok());
    PBX_FUZZY_COMPARE(m->scale(), expectedScale, 1e-12);
    PBX_FUZZY_COMPARE(m->cost(), expectedCost, 1e-12);
    QVERIFY(m->cost() >= expectedCost * (1 - 1e-15)); // rounded up, never down
    QVERIFY(m->halfWidth(beta) <= error * (1 + 1e-14));
}

void TestCalibration::coverage_data()
{
    QTest::addColumn<NoiseKind>("kind");
    QTest::addColumn<double>("beta");
    for (double beta : {0.05, 0.01, 0.2}) {
        QTest::addRow("laplace β=%g", beta) << NoiseKind::Laplace << beta;
        QTest::addRow("gaussian β=%g", beta) << NoiseKind::Gaussian << beta;
    }
}

// The requirement: over 10⁵ draws the error bar covers the truth with frequency within
// ±0.5 % of 1 − β. (The binomial sd at β = 0.2 is 0.13 %, so ±0.5 % is a > 3.7σ band.)
void TestCalibration::coverage()
{
    QFETCH(NoiseKind, kind);
    QFETCH(double, beta);
    const double truth = 1234.0, error = 25.0;
    auto m = AdditiveNoiseMechanism::forAbsoluteError(kind, error, beta, 1.0).value();
    auto noise = NoiseSource::seeded(20261121, kind == NoiseKind::Laplace ? 1 : 2);
    const int draws = 100000;
    int covered = 0;
    for (int i = 0; i < draws; ++i)
        covered += std::fabs(m.release(truth, noise) - truth) <= m.halfWidth(beta);
    const double rate = static_cast<double>(covered) / draws;
    QVERIFY2(std::fabs(rate - (1.0 - beta)) <= 0.005,
             qPrintable(QStringLiteral("coverage %1, expected %2 ± 0.005").arg(rate).arg(1.0 - beta)));
}

void TestCalibration::forCostInvertsCost_data()
{
    QTest::addColumn<NoiseKind>("kind");
    QTest::addColumn<double>("cost");
    QTest::addColumn<double>("sensitivity");
    QTest::newRow("laplace ε=0.1 Δ=1") << NoiseKind::Laplace << 0.1 << 1.0;
    QTest::newRow("laplace ε=0.37 Δ=5000") << NoiseKind::Laplace << 0.37 << 5000.0;
    QTest::newRow("gaussian ρ=0.01746890477 Δ=1") << NoiseKind::Gaussian << 0.01746890477 << 1.0;
    QTest::newRow("gaussian ρ=1e-6 Δ=2500") << NoiseKind::Gaussian << 1e-6 << 2500.0;
}

void TestCalibration::forCostInvertsCost()
{
    QFETCH(NoiseKind, kind);
    QFETCH(double, cost);
    QFETCH(double, sensitivity);
    auto m = AdditiveNoiseMechanism::forCost(kind, cost, sensitivity).value();
    PBX_FUZZY_COMPARE(m.cost(), cost, 1e-14);
    const double expectedScale
        = kind == NoiseKind::Laplace ? sensitivity / cost : sensitivity / std::sqrt(2 * cost);
    QVERIFY(m.scale() >= expectedScale); // more noise is the safe side
}

void TestCalibration::invalidInputs()
{
    PBX_VERIFY_ERROR(AdditiveNoiseMechanism::forAbsoluteError(NoiseKind::Laplace, 0.0, 0.05, 1.0),
                     InvalidArgument, "the error target");
    PBX_VERIFY_ERROR(AdditiveNoiseMechanism::forAbsoluteError(NoiseKind::Laplace, 1.0, 1.0, 1.0),
                     InvalidArgument, "the confidence");
    PBX_VERIFY_ERROR(AdditiveNoiseMechanism::forAbsoluteError(NoiseKind::Gaussian, NAN, 0.05, 1.0),
                     InvalidArgument, "the error target");
    PBX_VERIFY_ERROR(AdditiveNoiseMechanism::forCost(NoiseKind::Gaussian, -1.0, 1.0), InvalidArgument,
                     "the privacy cost");
    PBX_VERIFY_ERROR(AdditiveNoiseMechanism::forCost(NoiseKind::Gaussian, 1.0, INFINITY), InvalidArgument,
                     "the sensitivity");
    PBX_VERIFY_ERROR(AdditiveNoiseMechanism::withScale(NoiseKind::Laplace, 0.0, 1.0), InvalidArgument,
                     "the noise scale");
}

QTEST_APPLESS_MAIN(TestCalibration)
#include "tst_calibration.moc"
