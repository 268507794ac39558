// SPDX-License-Identifier: MIT
// Accounting and calibration of the discrete mechanisms: costs rounded up, calibration to an
// absolute target against independently summed exact tails, the exact (ε, δ) curve (CKS 2020
// Thm 7) against a brute-force hockey-stick sum, and the grid defence for real-valued queries
// (exact snapping, its sensitivity bound, the error bar, and outputs that carry no low-order bits).
#include "core/mechanisms/additive_noise.h"
#include "core/mechanisms/discrete_mechanisms.h"
#include "core/privacy/analytic_gaussian.h"
#include "core/privacy/cks_conversion.h"
#include "tests/sampling/sampling_stats.h"
#include "tests/testutils.h"

#include <cmath>
#include <cstring>

using namespace pbx::mechanisms;
using pbx::ErrorCode;

namespace {
constexpr auto kLaplace = DiscreteNoiseKind::Laplace;
constexpr auto kGaussian = DiscreteNoiseKind::Gaussian;

/// Exact pmf of the noise (long double; the Gaussian normaliser by direct summation).
struct ExactNoise
{
    DiscreteNoiseKind kind;
    long double parameter;
    long double norm = 1.0L;

    ExactNoise(DiscreteNoiseKind k, long double p) : kind(k), parameter(p)
    {
        if (kind == kGaussian)
            norm = pbx::test::gaussianNormaliserDirect(p);
    }
    long double pmf(std::int64_t y) const
    {
        if (kind == kLaplace)
            return pbx::test::laplacePmf(parameter, y);
        return std::exp(-static_cast<long double>(y) * y / (2.0L * parameter)) / norm;
    }
    std::int64_t reach() const
    {
        const long double width = kind == kLaplace ? 60.0L * parameter : 40.0L * std::sqrt(parameter);
        return static_cast<std::int64_t>(width) + 40;
    }
    /// P(|Z| > a) = 2 Σ_{y > a} p(y), small terms first.
    long double tail(std::int64_t a) const
    {
        long double s = 0.0L;
        for (std::int64_t y = a + reach(); y > a; --y)
            s += pmf(y);
        return 2.0L * s;
    }
    /// Σ_y max(0, p(y) − e^ε p(y − Δ)): the hockey-stick divergence of Z vs Δ + Z.
    long double hockeyStick(std::int64_t sensitivity, long double epsilon) const
    {
        long double s = 0.0L;
        const std::int64_t r = reach() + sensitivity;
        for (std::int64_t y = -r; y <= r; ++y)
            s += std::max(0.0L, pmf(y) - std::exp(epsilon) * pmf(y - sensitivity));
        return s;
    }
};
} // namespace

class TestDiscreteMechanisms : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void costs_data();
    void costs();
    void forCost_data();
    void forCost();
    void forAbsoluteError_data();
    void forAbsoluteError();
    void deltaForEpsilon_data();
    void deltaForEpsilon();
    void epsilonForDelta_data();
    void epsilonForDelta();
    void releaseRange();
    void invalidArguments();
    void snap_data();
    void snap();
    void snapSensitivityIsCeilDeltaOverGrid_data();
    void snapSensitivityIsCeilDeltaOverGrid();
    void gridCalibration_data();
    void gridCalibration();
    void gridOutputsCarryNoLowBits();
    void gridInvalid();
};

// ---- costs ---------------------------------------------------------------------------------

void TestDiscreteMechanisms::costs_data()
{
    QTest::addColumn<DiscreteNoiseKind>("kind");
    QTest::addColumn<quint64>("num");
    QTest::addColumn<quint64>("den");
    QTest::addColumn<quint64>("sensitivity");
    QTest::addColumn<double>("expected");
    // ε = Δ/t; ρ = Δ²/(2σ²).
    QTest::newRow("laplace t=2 Δ=1") << kLaplace << 2ull << 1ull << 1ull << 0.5;
    QTest::newRow("laplace t=10/3 Δ=3") << kLaplace << 10ull << 3ull << 3ull << 0.9;
    QTest::newRow("gaussian σ²=4 Δ=1") << kGaussian << 4ull << 1ull << 1ull << 0.125;
    QTest::newRow("gaussian σ²=25/2 Δ=2") << kGaussian << 25ull << 2ull << 2ull << 0.16;
}

void TestDiscreteMechanisms::costs()
{
    QFETCH(DiscreteNoiseKind, kind);
    QFETCH(quint64, num);
    QFETCH(quint64, den);
    QFETCH(quint64, sensitivity);
    QFETCH(double, expected);
    auto m = DiscreteNoiseMechanism::withParameter(kind, Rational{num, den}, sensitivity);
    QVERIFY(m.ok());
    PBX_FUZZY_COMPARE(m->cost(), expected, 1e-15);
    QVERIFY(m->cost() >= expected); // rounded up (expected is the nearest double)
    if (kind == kLaplace) {
        QCOMPARE(m->cost(), m->epsilon());
        // ρ = ε·tanh(ε/2) ≤ ε²/2 for a pure ε-DP mechanism.
        QVERIFY(m->rho() >= expected * std::tanh(expected / 2));
        QVERIFY(m->rho() <= expected * expected / 2 * (1 + 1e-12));
    } else {
        QCOMPARE(m->cost(), m->rho());
        QVERIFY(std::isinf(m->epsilon()));
    }
    QCOMPARE(discreteCostUnitName(kind),
             kind == kLaplace ? std::string_view("epsilon") : std::string_view("rho"));
}

void TestDiscreteMechanisms::forCost_data()
{
    QTest::addColumn<DiscreteNoiseKind>("kind");
    QTest::addColumn<double>("cost");
    QTest::addColumn<quint64>("sensitivity");
    QTest::newRow("laplace ε=0.5 (t exactly 2)") << kLaplace << 0.5 << 1ull;
    QTest::newRow("laplace ε=0.1 Δ=3") << kLaplace << 0.1 << 3ull;
    QTest::newRow("laplace ε=1e-4") << kLaplace << 1e-4 << 1ull;
    QTest::newRow("gaussian ρ=0.125 (σ² exactly 4)") << kGaussian << 0.125 << 1ull;
    QTest::newRow("gaussian ρ=0.01 Δ=7") << kGaussian << 0.01 << 7ull;
    QTest::newRow("gaussian ρ=1e-8") << kGaussian << 1e-8 << 1ull;
}

void TestDiscreteMechanisms::forCost()
{
    QFETCH(DiscreteNoiseKind, kind);
    QFETCH(double, cost);
    QFETCH(quint64, sensitivity);
    auto m = DiscreteNoiseMechanism::forCost(kind, cost, sensitivity);
    QVERIFY(m.ok());
    QVERIFY(m->cost() <= cost);              // never charges more than budgeted
    QVERIFY(m->cost() >= cost * (1 - 1e-9)); // and wastes at most 1e-9 of it
}

// ---- calibration to an absolute target ----------------------------------------------------------

void TestDiscreteMechanisms::forAbsoluteError_data()
{
    QTest::addColumn<DiscreteNoiseKind>("kind");
    QTest::addColumn<double>("error");
    QTest::addColumn<double>("beta");
    QTest::addColumn<quint64>("sensitivity");
    QTest::newRow("laplace a=0 β=0.05") << kLaplace << 0.0 << 0.05 << 1ull;
    QTest::newRow("laplace a=10 β=0.05") << kLaplace << 10.0 << 0.05 << 1ull;
    QTest::newRow("laplace a=10.7 β=0.05 Δ=2") << kLaplace << 10.7 << 0.05 << 2ull;
    QTest::newRow("laplace a=1000 β=0.01") << kLaplace << 1000.0 << 0.01 << 1ull;
    QTest::newRow("gaussian a=1 β=0.1") << kGaussian << 1.0 << 0.1 << 1ull;
    QTest::newRow("gaussian a=10 β=0.05") << kGaussian << 10.0 << 0.05 << 1ull;
    QTest::newRow("gaussian a=100 β=0.01") << kGaussian << 100.0 << 0.01 << 1ull;
    QTest::newRow("gaussian a=5000 β=0.05 (σ>1000: integral bound)") << kGaussian << 5000.0 << 0.05 << 1ull;
}

void TestDiscreteMechanisms::forAbsoluteError()
{
    QFETCH(DiscreteNoiseKind, kind);
    QFETCH(double, error);
    QFETCH(double, beta);
    QFETCH(quint64, sensitivity);
    auto m = DiscreteNoiseMechanism::forAbsoluteError(kind, error, beta, sensitivity);
    QVERIFY(m.ok());
    const auto a = static_cast<std::int64_t>(std::floor(error));
    const ExactNoise exact(kind, static_cast<long double>(m->parameter().num) / m->parameter().den);
    const long double tail = exact.tail(a);
    // The target holds for the exact discrete distribution, and the library's tail is an upper
    // bound that is tight (1e-9 relative where it sums; within 1% on the integral bound).
    QVERIFY2(tail <= beta, qPrintable(QStringLiteral("exact tail %1 > β").arg((double)tail)));
    QVERIFY(m->tailProbability(a) >= tail);
    const bool summed = kind == kLaplace || exact.parameter <= 1e6L;
    QVERIFY(m->tailProbability(a) <= tail * (summed ? 1 + 1e-9L : 1.01L));
    // The most noise that meets it: the exact tail is at β (up to the rational grid).
    QVERIFY2(tail >= beta * (summed ? 1 - 1e-6 : 0.99),
             qPrintable(QStringLiteral("exact tail %1 well below β: noise too small").arg((double)tail)));
    // The error bar reported for this β is the target itself.
    QCOMPARE(*m->halfWidth(beta), static_cast<std::uint64_t>(a));
    // Empirical coverage with 10⁵ seeded draws.
    SeededRandomBits bits(31, static_cast<std::uint64_t>(a));
    const int draws = 100000;
    int outside = 0;
    for (int i = 0; i < draws; ++i) {
        auto y = m->release(1000, bits);
        QVERIFY(y.ok());
        outside += std::llabs(*y - 1000) > a;
    }
    QVERIFY(outside <= draws * beta + 5 * std::sqrt(draws * beta * (1 - beta)));
    // Against the continuous mechanisms at the same target: the same cost within a few percent
    // once the target spans many integers (the discrete one is slightly cheaper: P(|Z| > a) is a
    // tail from a + 1).
    if (a >= 100) {
        auto cont = AdditiveNoiseMechanism::forAbsoluteError(kind == kLaplace ? NoiseKind::Laplace
                                                                              : NoiseKind::Gaussian,
                                                             error, beta, static_cast<double>(sensitivity));
        const double ratio = m->cost() / cont->cost();
        qInfo("cost %.6g vs continuous %.6g (ratio %.5f)", m->cost(), cont->cost(), ratio);
        QVERIFY(ratio <= 1.0 && ratio > 0.95);
    }
}

// ---- the exact privacy profile -------------------------------------------------------------------

void TestDiscreteMechanisms::deltaForEpsilon_data()
{
    QTest::addColumn<DiscreteNoiseKind>("kind");
    QTest::addColumn<quint64>("num");
    QTest::addColumn<quint64>("den");
    QTest::addColumn<quint64>("sensitivity");
    QTest::addColumn<double>("epsilon");
    QTest::newRow("gaussian σ²=1 Δ=1 ε=0 (δ = P[Z=0])") << kGaussian << 1ull << 1ull << 1ull << 0.0;
    QTest::newRow("gaussian σ²=1 Δ=1 ε=1") << kGaussian << 1ull << 1ull << 1ull << 1.0;
    QTest::newRow("gaussian σ²=1/4 Δ=1 ε=2") << kGaussian << 1ull << 4ull << 1ull << 2.0;
    QTest::newRow("gaussian σ²=4 Δ=1 ε=0.5") << kGaussian << 4ull << 1ull << 1ull << 0.5;
    QTest::newRow("gaussian σ²=100 Δ=1 ε=0.1") << kGaussian << 100ull << 1ull << 1ull << 0.1;
    QTest::newRow("gaussian σ²=100 Δ=3 ε=1") << kGaussian << 100ull << 1ull << 3ull << 1.0;
    QTest::newRow("gaussian σ²=10^4 Δ=1 ε=0.01") << kGaussian << 10000ull << 1ull << 1ull << 0.01;
    QTest::newRow("gaussian σ²=10^4 Δ=5 ε=0.2") << kGaussian << 10000ull << 1ull << 5ull << 0.2;
    QTest::newRow("laplace t=2 Δ=1 ε=0.25") << kLaplace << 2ull << 1ull << 1ull << 0.25;
    QTest::newRow("laplace t=2 Δ=3 ε=1") << kLaplace << 2ull << 1ull << 3ull << 1.0;
    QTest::newRow("laplace t=1/2 Δ=1 ε=1.9") << kLaplace << 1ull << 2ull << 1ull << 1.9;
    QTest::newRow("laplace t=10 Δ=5 ε=0.1") << kLaplace << 10ull << 1ull << 5ull << 0.1;
    QTest::newRow("laplace t=2 Δ=1 ε=0.5 (= Δ/t: δ=0)") << kLaplace << 2ull << 1ull << 1ull << 0.5;
    QTest::newRow("laplace t=10/3 Δ=1 ε=0.3 (= Δ/t: δ=0)") << kLaplace << 10ull << 3ull << 1ull << 0.3;
}

void TestDiscreteMechanisms::deltaForEpsilon()
{
    QFETCH(DiscreteNoiseKind, kind);
    QFETCH(quint64, num);
    QFETCH(quint64, den);
    QFETCH(quint64, sensitivity);
    QFETCH(double, epsilon);
    auto m = DiscreteNoiseMechanism::withParameter(kind, Rational{num, den}, sensitivity);
    QVERIFY(m.ok());
    const ExactNoise exact(kind, static_cast<long double>(num) / den);
    const long double bruteForce = exact.hockeyStick(static_cast<std::int64_t>(sensitivity), epsilon);
    auto delta = m->deltaForEpsilon(epsilon);
    QVERIFY(delta.ok());
    qInfo("δ = %.15g (brute force %.15Lg)", *delta, bruteForce);
    // An upper bound (up to the brute force's own ~1e-18 round-off), tight to 1e-8 relative plus
    // the library's absolute rounding allowance (~1e-14 of the mass involved).
    QVERIFY(*delta >= bruteForce * (1 - 1e-13L) - 1e-18L);
    QVERIFY(*delta <= bruteForce * (1 + 1e-8L) + 1e-13L);
    if (kind == kLaplace && epsilon == 0.5 && num == 2 && den == 1 && sensitivity == 1)
        QCOMPARE(*delta, 0.0); // ε = Δ/t exactly (decided in exact arithmetic)
    if (kind == kGaussian) {
        // The exact curve lies below the CKS conversion of the claimed ρ (CKS20 Thm 4 ⇒ zCDP).
        QVERIFY(*delta <= *pbx::privacy::deltaFromRhoCks(m->rho(), epsilon));
        if (num / den == 1 && sensitivity == 1 && epsilon == 0.0) // CKS Thm 7 at ε = 0: P[Z = 0]
            PBX_FUZZY_COMPARE(*delta, static_cast<double>(1.0L / exact.norm), 2e-9);
        if (exact.parameter >= 100) {
            // Close to the continuous Gaussian's exact curve (Balle–Wang) for moderate σ.
            const double cont
                = pbx::privacy::gaussianDelta(sensitivity / std::sqrt((double)exact.parameter), epsilon);
            PBX_FUZZY_COMPARE(*delta, cont, 0.05);
        }
    }
}

void TestDiscreteMechanisms::epsilonForDelta_data()
{
    QTest::addColumn<DiscreteNoiseKind>("kind");
    QTest::addColumn<quint64>("num");
    QTest::addColumn<quint64>("sensitivity");
    QTest::addColumn<double>("delta");
    QTest::newRow("gaussian σ²=4 δ=1e-5") << kGaussian << 4ull << 1ull << 1e-5;
    QTest::newRow("gaussian σ²=100 Δ=3 δ=1e-6") << kGaussian << 100ull << 3ull << 1e-6;
    QTest::newRow("gaussian σ²=10^4 δ=1e-9") << kGaussian << 10000ull << 1ull << 1e-9;
    QTest::newRow("laplace t=2 Δ=3 δ=0.01") << kLaplace << 2ull << 3ull << 0.01;
}

void TestDiscreteMechanisms::epsilonForDelta()
{
    QFETCH(DiscreteNoiseKind, kind);
    QFETCH(quint64, num);
    QFETCH(quint64, sensitivity);
    QFETCH(double, delta);
    auto m = DiscreteNoiseMechanism::withParameter(kind, Rational{num, 1}, sensitivity);
    auto eps = m->epsilonForDelta(delta);
    QVERIFY(eps.ok());
    QVERIFY(*m->deltaForEpsilon(*eps) <= delta);
    QVERIFY(*m->deltaForEpsilon(*eps * (1 - 1e-6)) > delta); // the smallest such ε
    if (kind == kGaussian)
        QVERIFY(*eps <= *pbx::privacy::epsilonFromRhoCks(m->rho(), delta)); // tighter than via ρ
    else
        QVERIFY(*eps < m->epsilon());
    QCOMPARE(*m->epsilonForDelta(1.0), 0.0);
}

void TestDiscreteMechanisms::releaseRange()
{
    auto m = DiscreteNoiseMechanism::withParameter(kLaplace, Rational{3, 1}, 1);
    SeededRandomBits bits(5, 5);
    QVERIFY(m->release(std::int64_t{1} << 62, bits).ok());
    auto tooBig = m->release((std::int64_t{1} << 62) + 1, bits);
    QVERIFY(!tooBig.ok());
    QCOMPARE(tooBig.error().code, ErrorCode::InvalidArgument);
}

void TestDiscreteMechanisms::invalidArguments()
{
    PBX_VERIFY_ERROR(DiscreteNoiseMechanism::withParameter(kLaplace, Rational{1, 1}, 0), InvalidArgument,
                     "sensitivity");
    PBX_VERIFY_ERROR(DiscreteNoiseMechanism::withParameter(kLaplace, Rational{1, 1}, (1u << 20) + 1),
                     InvalidArgument, "sensitivity");
    PBX_VERIFY_ERROR(DiscreteNoiseMechanism::withParameter(kGaussian, Rational{1ull << 61, 1}, 1),
                     InvalidArgument, "σ²");
    PBX_VERIFY_ERROR(DiscreteNoiseMechanism::forCost(kLaplace, 0.0, 1), InvalidArgument, "privacy cost");
    PBX_VERIFY_ERROR(DiscreteNoiseMechanism::forCost(kLaplace, std::nan(""), 1), InvalidArgument,
                     "privacy cost");
    PBX_VERIFY_ERROR(DiscreteNoiseMechanism::forCost(kLaplace, 1e-30, 1), InvalidArgument,
                     "discrete Laplace scale"); // t = 1e30 > 2^40
    PBX_VERIFY_ERROR(DiscreteNoiseMechanism::forAbsoluteError(kGaussian, 10, 0.0, 1), InvalidArgument, "β");
    PBX_VERIFY_ERROR(DiscreteNoiseMechanism::forAbsoluteError(kGaussian, 10, 1.0, 1), InvalidArgument, "β");
    PBX_VERIFY_ERROR(DiscreteNoiseMechanism::forAbsoluteError(kGaussian, -1, 0.1, 1), InvalidArgument,
                     "error bound");
    auto m = DiscreteNoiseMechanism::withParameter(kGaussian, Rational{4, 1}, 1);
    PBX_VERIFY_ERROR(m->deltaForEpsilon(-1.0), InvalidArgument, "ε");
    PBX_VERIFY_ERROR(m->epsilonForDelta(0.0), InvalidArgument, "δ");
    PBX_VERIFY_ERROR(m->halfWidth(0.0), InvalidArgument, "β");
}

// ---- the grid defence for real values --------------------------------------------------------

void TestDiscreteMechanisms::snap_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<double>("grid");
    QTest::addColumn<qint64>("expected");
    QTest::newRow("half up") << 0.125 << 0.25 << 1ll;
    QTest::newRow("−half up") << -0.125 << 0.25 << 0ll;
    QTest::newRow("just below −half") << -0.13 << 0.25 << -1ll;
    QTest::newRow("1.124/0.25") << 1.124 << 0.25 << 4ll;
    QTest::newRow("2.5") << 2.5 << 1.0 << 3ll;
    QTest::newRow("−2.5") << -2.5 << 1.0 << -2ll;
    QTest::newRow("subnormal +") << 1e-320 << 1.0 << 0ll;
    QTest::newRow("subnormal −") << -1e-320 << 1.0 << 0ll;
    QTest::newRow("large") << 0x1p52 << 1.0 << (1ll << 52);
    QTest::newRow("coarse grid") << 3000.0 << 1024.0 << 3ll;
}

void TestDiscreteMechanisms::snap()
{
    QFETCH(double, value);
    QFETCH(double, grid);
    QFETCH(qint64, expected);
    auto k = GridMechanism::snap(value, grid);
    QVERIFY(k.ok());
    QCOMPARE(*k, expected);
}

void TestDiscreteMechanisms::snapSensitivityIsCeilDeltaOverGrid_data()
{
    QTest::addColumn<double>("sensitivity");
    QTest::addColumn<double>("grid");
    QTest::newRow("Δ=1 g=1/4") << 1.0 << 0.25;
    QTest::newRow("Δ=0.3 g=1/8") << 0.3 << 0.125;
    QTest::newRow("Δ=1 g=1") << 1.0 << 1.0;
    QTest::newRow("Δ=7.5 g=1/2") << 7.5 << 0.5;
}

void TestDiscreteMechanisms::snapSensitivityIsCeilDeltaOverGrid()
{
    // Exhaustive over values on a 2^-10 lattice (so v' − v is exact): every pair with
    // |v − v'| ≤ Δ snaps to integers at most ⌈Δ/g⌉ apart, and that bound is attained.
    QFETCH(double, sensitivity);
    QFETCH(double, grid);
    auto mech = GridMechanism::withParameter(kLaplace, Rational{1, 1}, sensitivity, grid);
    QVERIFY(mech.ok());
    const auto bound = static_cast<std::int64_t>(mech->noise().sensitivity());
    QCOMPARE(bound, static_cast<std::int64_t>(std::ceil(sensitivity / grid)));
    const double step = 0x1p-10;
    const auto reach = static_cast<int>(sensitivity / step);
    std::int64_t worst = 0;
    for (int i = -1500; i <= 1500; ++i) {
        const double v = i * step;
        const std::int64_t k = *GridMechanism::snap(v, grid);
        for (int j = -reach; j <= reach; ++j) {
            const double w = v + j * step;
            worst = std::max<std::int64_t>(worst, std::llabs(*GridMechanism::snap(w, grid) - k));
        }
    }
    QCOMPARE(worst, bound);
}

void TestDiscreteMechanisms::gridCalibration_data()
{
    QTest::addColumn<DiscreteNoiseKind>("kind");
    QTest::addColumn<double>("error");
    QTest::addColumn<double>("beta");
    QTest::addColumn<double>("sensitivity");
    QTest::newRow("laplace a=5 β=0.05 Δ=1") << kLaplace << 5.0 << 0.05 << 1.0;
    QTest::newRow("laplace a=0.37 β=0.1 Δ=0.01") << kLaplace << 0.37 << 0.1 << 0.01;
    QTest::newRow("gaussian a=5 β=0.05 Δ=1") << kGaussian << 5.0 << 0.05 << 1.0;
    QTest::newRow("gaussian a=2000 β=0.01 Δ=1e9 (grid raised)") << kGaussian << 2000.0 << 0.01 << 1e9;
}

void TestDiscreteMechanisms::gridCalibration()
{
    QFETCH(DiscreteNoiseKind, kind);
    QFETCH(double, error);
    QFETCH(double, beta);
    QFETCH(double, sensitivity);
    auto m = GridMechanism::forAbsoluteError(kind, error, beta, sensitivity);
    QVERIFY2(m.ok(), m.ok() ? "" : m.error().message.c_str());
    QVERIFY(m->noise().sensitivity() <= DiscreteNoiseMechanism::kMaxSensitivity);
    QCOMPARE(m->noise().sensitivity(), static_cast<std::uint64_t>(std::ceil(sensitivity / m->grid())));
    const double halfWidth = *m->halfWidth(beta);
    QVERIFY(halfWidth <= error);
    // Cost against the continuous mechanism at the same target: snapping adds < 0.5% here
    // (except when Δ ≫ a forces a coarse grid).
    auto cont = AdditiveNoiseMechanism::forAbsoluteError(
        kind == kLaplace ? NoiseKind::Laplace : NoiseKind::Gaussian, error, beta, sensitivity);
    qInfo("grid %g, Δ_g = %llu, cost %.6g vs continuous %.6g", m->grid(),
          static_cast<unsigned long long>(m->noise().sensitivity()), m->cost(), cont->cost());
    if (sensitivity <= error)
        QVERIFY(m->cost() <= cont->cost() * 1.005);
    // Releases are multiples of the grid and meet the error bar.
    SeededRandomBits bits(41, 0);
    const double value = 1234.567;
    const int draws = 100000;
    int outside = 0;
    for (int i = 0; i < draws; ++i) {
        auto out = m->release(value, bits);
        QVERIFY(out.ok());
        QCOMPARE(std::fmod(*out, m->grid()), 0.0);
        outside += std::fabs(*out - value) > halfWidth;
    }
    QVERIFY(outside <= draws * beta + 5 * std::sqrt(draws * beta * (1 - beta)));
}

void TestDiscreteMechanisms::gridOutputsCarryNoLowBits()
{
    // Two query values that snap to the same grid point give bit-identical releases from the same
    // random stream: the output depends on the value only through the integer k (Mironov 2012's
    // attack reads the value back from low-order bits of floating-point noise).
    auto m = GridMechanism::forCost(kLaplace, 0.5, 1.0, 0x1p-4);
    QVERIFY(m.ok());
    QCOMPARE(*GridMechanism::snap(0.30, 0x1p-4), *GridMechanism::snap(0.31, 0x1p-4));
    SeededRandomBits a(51, 0), b(51, 0);
    for (int i = 0; i < 1000; ++i) {
        const double x = *m->release(0.30, a);
        const double y = *m->release(0.31, b);
        QVERIFY(std::memcmp(&x, &y, sizeof x) == 0);
    }
}

void TestDiscreteMechanisms::gridInvalid()
{
    PBX_VERIFY_ERROR(GridMechanism::withParameter(kLaplace, Rational{1, 1}, 1.0, 0.3), InvalidArgument,
                     "grid"); // not 2^j
    PBX_VERIFY_ERROR(GridMechanism::withParameter(kLaplace, Rational{1, 1}, 1.0, 0x1p-61), InvalidArgument,
                     "grid");
    PBX_VERIFY_ERROR(GridMechanism::withParameter(kLaplace, Rational{1, 1}, 1e9, 1.0), InvalidArgument,
                     "Δ/grid"); // Δ/g > 2^20
    PBX_VERIFY_ERROR(GridMechanism::snap(std::nan(""), 1.0), InvalidArgument, "query value");
    PBX_VERIFY_ERROR(GridMechanism::snap(0x1p53, 1.0), InvalidArgument, "value / grid");
    PBX_VERIFY_ERROR(GridMechanism::forAbsoluteError(kLaplace, 0.1, 0.05, 1.0, 0.5), InvalidArgument,
                     "error bound"); // a < g/2
    auto g = GridMechanism::defaultGrid(1e9, 1e3);
    QVERIFY(g.ok());
    QVERIFY(std::ceil(1e9 / *g) <= DiscreteNoiseMechanism::kMaxSensitivity);
    QCOMPARE(*GridMechanism::defaultGrid(1.0, 5.0), 0x1p-10);
}

QTEST_APPLESS_MAIN(TestDiscreteMechanisms)
#include "tst_discretemechanisms.moc"
