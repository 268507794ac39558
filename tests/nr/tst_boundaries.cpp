// SPDX-License-Identifier: MIT
// Ex-post privacy functions of the Brownian stopping time (Whitehouse et al. 2022;
// docs/accuracy-first.md §3.3 and §6.5 item 4): the reference table, the tuned parameters, the value
// type's filter helpers, and Monte Carlo crossing frequencies of the time-uniform boundaries.
#include "core/mechanisms/expost_boundaries.h"
#include "core/mechanisms/noise_source.h"
#include "core/privacy/zcdp_conversion.h"
#include "tests/nr/nrtestutils.h"
#include "tests/testutils.h"

#include <cmath>
#include <vector>

using namespace pbx::mechanisms;
using pbx::ErrorCode;

/// |actual − expected| ≤ ½·10⁻⁶: agreement with a table printed to 6 decimals.
#define TABLE_COMPARE(actual, expected)                                                                      \
    do {                                                                                                     \
        const double got_ = (actual);                                                                        \
        QVERIFY2(std::fabs(got_ - (expected)) <= 5.0e-7 * (1 + 1e-9),                                        \
                 qPrintable(pbx::test::describe(got_, (expected), 5e-7)));                                   \
    } while (false)

namespace {
constexpr double kDelta = 1e-6;
constexpr double kAnticipated = 100.0;
} // namespace

class TestExpostBoundaries : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void referenceTable_data();
    void referenceTable();
    void referencePrecise_data();
    void referencePrecise();
    void tunedParameters();
    void mixtureTuningMinimises_data();
    void mixtureTuningMinimises();
    void valueType();
    void minimumTime_data();
    void minimumTime();
    void invalid();
    void linearCrossing_data();
    void linearCrossing();
    void mixtureCrossing();
};

void TestExpostBoundaries::referenceTable_data()
{
    QTest::addColumn<double>("time");
    QTest::addColumn<double>("fixed");
    QTest::addColumn<double>("linear");
    QTest::addColumn<double>("mixture");
    QTest::addColumn<double>("unionBound");
    QTest::addColumn<double>("zcdp");
    // docs/accuracy-first.md §3.3 "Reference values": Δ = 1, δ = 10⁻⁶, boundaries tuned
    // at T* = 100 (a* = 26.28260885, r* ≈ 3.2155), union bound over K = 100 times, and the zCDP
    // conversion ρ + 2√(ρ·ln(1/δ)) with ρ = 1/(2T). (Recomputed independently with Python's
    // statistics.NormalDist: every entry agrees to the 6 decimals shown.)
    QTest::newRow("T=1") << 1.0 << 5.253424 << 27.045435 << 11.345211 << 6.112001 << 5.756522;
    QTest::newRow("T=10") << 10.0 << 1.553165 << 2.941087 << 2.009171 << 1.824671 << 1.712258;
    QTest::newRow("T=100") << 100.0 << 0.480342 << 0.530652 << 0.571567 << 0.566200 << 0.530652;
    QTest::newRow("T=1000") << 1000.0 << 0.150816 << 0.289609 << 0.183479 << 0.177967 << 0.166726;
}

void TestExpostBoundaries::referenceTable()
{
    QFETCH(double, time);
    QFETCH(double, fixed);
    QFETCH(double, linear);
    QFETCH(double, mixture);
    QFETCH(double, unionBound);
    QFETCH(double, zcdp);
    // The table is rounded to 6 decimals: agreement to half a unit in the last place shown
    // (≤ 3.3·10⁻⁶ relative for the smallest entry, ~10⁻⁷ for most).
    const double a = linearBoundaryTunedA(kAnticipated, kDelta).value();
    const double r = mixtureBoundaryTunedR(kAnticipated, kDelta).value();
    TABLE_COMPARE(fixedTimeExpostEpsilon(time, 1.0, kDelta).value(), fixed);
    TABLE_COMPARE(linearBoundaryExpostEpsilon(time, 1.0, kDelta, a).value(), linear);
    TABLE_COMPARE(mixtureBoundaryExpostEpsilon(time, 1.0, kDelta, r).value(), mixture);
    TABLE_COMPARE(unionBoundExpostEpsilon(time, 1.0, kDelta, 100).value(), unionBound);
    // The Chernoff fixed-time form Δ²/(2T) + Δ√(2 ln(1/δ)/T) IS the zCDP conversion at ρ = Δ²/(2T)
    // (2√(ρ ln(1/δ)) = √(2 ln(1/δ)/T)); cross-check it against the privacy module too.
    TABLE_COMPARE(fixedTimeChernoffExpostEpsilon(time, 1.0, kDelta).value(), zcdp);
    TABLE_COMPARE(pbx::privacy::epsilonFromRho(1.0 / (2.0 * time), kDelta).value(), zcdp);
    // The value type gives the same numbers, rounded up like the free functions.
    const auto lin = BrownianBoundary::linearTuned(kAnticipated, kDelta).value();
    const auto mix = BrownianBoundary::normalMixtureTuned(kAnticipated, kDelta).value();
    const auto uni = BrownianBoundary::unionGrid(100, kDelta).value();
    QCOMPARE(lin.epsilon(time, 1.0).value(), linearBoundaryExpostEpsilon(time, 1.0, kDelta, a).value());
    QCOMPARE(mix.epsilon(time, 1.0).value(), mixtureBoundaryExpostEpsilon(time, 1.0, kDelta, r).value());
    QCOMPARE(uni.epsilon(time, 1.0).value(), unionBoundExpostEpsilon(time, 1.0, kDelta, 100).value());
    const auto fix = BrownianBoundary::fixedTime(time, kDelta).value();
    QCOMPARE(fix.epsilon(time, 1.0).value(), fixedTimeExpostEpsilon(time, 1.0, kDelta).value());
    // E scales with Δ as Δ²/(2T) + Δ·ψ/T.
    const double psiTerm = linear - 1.0 / (2.0 * time);
    PBX_FUZZY_COMPARE(lin.epsilon(time, 3.0).value(), 9.0 / (2.0 * time) + 3.0 * psiTerm, 3e-6);
}

void TestExpostBoundaries::referencePrecise_data()
{
    QTest::addColumn<double>("time");
    QTest::addColumn<double>("fixed");
    QTest::addColumn<double>("linear");
    QTest::addColumn<double>("mixture");
    QTest::addColumn<double>("unionBound");
    // The same table to 15 digits, recomputed in Python 3 (statistics.NormalDist().inv_cdf, i.e.
    // Wichura's AS241, for Φ⁻¹; a* = √(T* ln(1/δ)/2); r* = T*/u* with u* iterated from
    // u = 2 ln(1/δ) + ln(1 + u)), so a transcription or formula slip shows up at 10⁻¹².
    QTest::newRow("T=1") << 1.0 << 5.2534243088229 << 27.0454349372725 << 11.345211300897 << 6.11200124417479;
    QTest::newRow("T=10") << 10.0 << 1.5531647501092 << 2.94108697336631 << 2.00917145011788
                          << 1.82467061632911;
    QTest::newRow("T=100") << 100.0 << 0.48034243088229 << 0.530652176975693 << 0.571567499913021
                           << 0.566200124417479;
    QTest::newRow("T=1000") << 1000.0 << 0.15081647501092 << 0.289608697336631 << 0.183479049727618
                            << 0.177967061632911;
}

void TestExpostBoundaries::referencePrecise()
{
    QFETCH(double, time);
    QFETCH(double, fixed);
    QFETCH(double, linear);
    QFETCH(double, mixture);
    QFETCH(double, unionBound);
    const double a = linearBoundaryTunedA(kAnticipated, kDelta).value();
    const double r = mixtureBoundaryTunedR(kAnticipated, kDelta).value();
    PBX_FUZZY_COMPARE(fixedTimeExpostEpsilon(time, 1.0, kDelta).value(), fixed, 1e-12);
    PBX_FUZZY_COMPARE(linearBoundaryExpostEpsilon(time, 1.0, kDelta, a).value(), linear, 1e-12);
    PBX_FUZZY_COMPARE(mixtureBoundaryExpostEpsilon(time, 1.0, kDelta, r).value(), mixture, 1e-12);
    PBX_FUZZY_COMPARE(unionBoundExpostEpsilon(time, 1.0, kDelta, 100).value(), unionBound, 1e-12);
}

void TestExpostBoundaries::tunedParameters()
{
    // §3.3: a* = √(T*·ln(1/δ)/2) = 26.28260885, r* ≈ 3.2155 (the exact root of u − ln(1+u) =
    // 2 ln(1/δ) with r* = T*/u* is 3.2154472, recomputed in Python).
    PBX_FUZZY_COMPARE(linearBoundaryTunedA(kAnticipated, kDelta).value(), 26.28260885, 1e-9);
    const double r = mixtureBoundaryTunedR(kAnticipated, kDelta).value();
    PBX_FUZZY_COMPARE(r, 3.2155, 1e-3);
    PBX_FUZZY_COMPARE(r, 3.2154471939649, 1e-10);
    // The root condition itself, to near machine precision.
    const double u = kAnticipated / r;
    PBX_FUZZY_COMPARE(u - std::log1p(u), -2.0 * std::log(kDelta), 1e-13);
    // At T*, the tuned linear boundary equals the zCDP conversion ρ* + 2√(ρ*·ln(1/δ)).
    const double a = linearBoundaryTunedA(kAnticipated, kDelta).value();
    PBX_FUZZY_COMPARE(linearBoundaryExpostEpsilon(kAnticipated, 1.0, kDelta, a).value(),
                      pbx::privacy::epsilonFromRho(1.0 / (2.0 * kAnticipated), kDelta).value(), 1e-13);
    // r* does not depend on T* except by scaling; it is found for δ close to 1 as well.
    PBX_FUZZY_COMPARE(mixtureBoundaryTunedR(1.0, kDelta).value(), r / kAnticipated, 1e-12);
    const double rLoose = mixtureBoundaryTunedR(1.0, 0.9).value();
    const double uLoose = 1.0 / rLoose;
    PBX_FUZZY_COMPARE(uLoose - std::log1p(uLoose), -2.0 * std::log(0.9), 1e-9);
}

void TestExpostBoundaries::mixtureTuningMinimises_data()
{
    QTest::addColumn<double>("anticipated");
    QTest::addColumn<double>("delta");
    QTest::newRow("T*=100 δ=1e-6") << 100.0 << 1e-6;
    QTest::newRow("T*=7 δ=0.05") << 7.0 << 0.05;
    QTest::newRow("T*=1e4 δ=1e-10") << 1e4 << 1e-10;
}

void TestExpostBoundaries::mixtureTuningMinimises()
{
    QFETCH(double, anticipated);
    QFETCH(double, delta);
    const double r = mixtureBoundaryTunedR(anticipated, delta).value();
    const double best = mixtureBoundaryExpostEpsilon(anticipated, 1.0, delta, r).value();
    for (double factor : {0.5, 0.9, 0.99, 1.01, 1.1, 2.0})
        QVERIFY(mixtureBoundaryExpostEpsilon(anticipated, 1.0, delta, r * factor).value() >= best);
}

void TestExpostBoundaries::valueType()
{
    const auto fix = BrownianBoundary::fixedTime(10.0, 0.01).value();
    QVERIFY(!fix.allowsAdaptiveStopping());
    QCOMPARE(fix.kind(), BrownianBoundaryKind::FixedTime);
    QCOMPARE(fix.parameter(), 10.0);
    QCOMPARE(fix.delta(), 0.01);
    // A fixed-time bound covers only its own time.
    QCOMPARE(fix.epsilon(9.0, 1.0).error().code, ErrorCode::InvalidArgument);
    PBX_VERIFY_ERROR(fix.threshold(9.0), InvalidArgument, "the boundary's time");
    QVERIFY(fix.epsilon(10.0, 1.0).ok());
    QCOMPARE(fix.supremumEpsilon(5.0, 1.0).value(), fix.epsilon(10.0, 1.0).value());
    PBX_VERIFY_ERROR(fix.supremumEpsilon(11.0, 1.0), InvalidArgument, "the minimum time");
    QVERIFY(!BrownianBoundary::fixedTimeChernoff(10.0, 0.01)->allowsAdaptiveStopping());

    const auto lin = BrownianBoundary::linear(2.0, 0.05).value();
    const auto mix = BrownianBoundary::normalMixture(1.0, 0.05).value();
    const auto uni = BrownianBoundary::unionGrid(50, 0.05).value();
    for (const auto *b : {&lin, &mix, &uni}) {
        QVERIFY(b->allowsAdaptiveStopping());
        // E is decreasing in T, so the supremum over T ≥ T_min is E(T_min).
        double previous = HUGE_VAL;
        for (double t = 0.01; t < 1e4; t *= 1.3) {
            const double e = b->epsilon(t, 1.0).value();
            QVERIFY(e < previous);
            previous = e;
        }
        QCOMPARE(b->supremumEpsilon(3.0, 2.0).value(), b->epsilon(3.0, 2.0).value());
        // E(T) = Δ²/(2T) + Δ·ψ(T)/T.
        const double t = 7.0;
        PBX_FUZZY_COMPARE(b->epsilon(t, 2.0).value(), 4.0 / (2.0 * t) + 2.0 * b->threshold(t).value() / t,
                          1e-14);
    }
    // Linear: ψ(t) = a + b·t with a·b = ln(1/δ)/2.
    PBX_FUZZY_COMPARE(lin.threshold(4.0).value(), 2.0 + std::log(20.0) / 4.0 * 4.0, 1e-15);

    // Names round-trip (documents store the kind by name).
    for (auto kind :
         {BrownianBoundaryKind::FixedTime, BrownianBoundaryKind::FixedTimeChernoff,
          BrownianBoundaryKind::Linear, BrownianBoundaryKind::NormalMixture, BrownianBoundaryKind::UnionGrid})
        QCOMPARE(brownianBoundaryKindFromName(brownianBoundaryKindName(kind)).value(), kind);
    QCOMPARE(brownianBoundaryKindName(BrownianBoundaryKind::NormalMixture),
             std::string_view("normal-mixture"));
    QCOMPARE(brownianBoundaryKindFromName("stitched").error().code, ErrorCode::Parse);
}

void TestExpostBoundaries::minimumTime_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<double>("budget");
    QTest::addColumn<double>("sensitivity");
    QTest::newRow("linear ε=1") << int(BrownianBoundaryKind::Linear) << 1.0 << 1.0;
    QTest::newRow("mixture ε=0.3") << int(BrownianBoundaryKind::NormalMixture) << 0.3 << 1.0;
    QTest::newRow("mixture ε=50 Δ=3") << int(BrownianBoundaryKind::NormalMixture) << 50.0 << 3.0;
    QTest::newRow("union ε=0.2") << int(BrownianBoundaryKind::UnionGrid) << 0.2 << 1.0;
}

void TestExpostBoundaries::minimumTime()
{
    QFETCH(int, kind);
    QFETCH(double, budget);
    QFETCH(double, sensitivity);
    BrownianBoundary boundary = [&] {
        switch (BrownianBoundaryKind(kind)) {
        case BrownianBoundaryKind::Linear:
            return BrownianBoundary::linearTuned(kAnticipated, kDelta).value();
        case BrownianBoundaryKind::NormalMixture:
            return BrownianBoundary::normalMixtureTuned(kAnticipated, kDelta).value();
        default:
            return BrownianBoundary::unionGrid(100, kDelta).value();
        }
    }();
    const double t = boundary.minimumTime(budget, sensitivity).value();
    // The filter's grid truncation (§4.2): E(t) fits, and any appreciably smaller time does not.
    QVERIFY(boundary.epsilon(t, sensitivity).value() <= budget);
    QVERIFY(boundary.epsilon(t * (1 - 1e-12), sensitivity).value() > budget);
}

void TestExpostBoundaries::invalid()
{
    // Linear: E(T) → Δ·ln(1/δ)/(2a) as T → ∞, so a smaller budget admits no time at all.
    const auto lin = BrownianBoundary::linearTuned(kAnticipated, kDelta).value();
    const double limit = -std::log(kDelta) / (2.0 * lin.parameter());
    QCOMPARE(lin.minimumTime(limit * 0.999, 1.0).error().code, ErrorCode::BudgetExceeded);
    QVERIFY(lin.minimumTime(limit * 1.01, 1.0).ok());
    const auto fix = BrownianBoundary::fixedTime(10.0, 0.01).value();
    QCOMPARE(fix.minimumTime(100.0, 1.0).value(), 10.0);
    QCOMPARE(fix.minimumTime(0.1, 1.0).error().code, ErrorCode::BudgetExceeded);
    PBX_VERIFY_ERROR(lin.minimumTime(0.0, 1.0), InvalidArgument, "ε budget");
    PBX_VERIFY_ERROR(lin.minimumTime(1.0, 0.0), InvalidArgument, "sensitivity");

    PBX_VERIFY_ERROR(fixedTimeExpostEpsilon(0.0, 1.0, 0.1), InvalidArgument, "Brownian time");
    PBX_VERIFY_ERROR(fixedTimeExpostEpsilon(1.0, 0.0, 0.1), InvalidArgument, "sensitivity");
    PBX_VERIFY_ERROR(fixedTimeExpostEpsilon(1.0, 1.0, 0.0), InvalidArgument, "δ");
    PBX_VERIFY_ERROR(fixedTimeExpostEpsilon(1.0, 1.0, 1.0), InvalidArgument, "δ");
    PBX_VERIFY_ERROR(linearBoundaryExpostEpsilon(1.0, 1.0, 0.1, 0.0), InvalidArgument, "linear boundary's a");
    PBX_VERIFY_ERROR(mixtureBoundaryExpostEpsilon(1.0, 1.0, 0.1, -1.0), InvalidArgument,
                     "mixture boundary's r");
    PBX_VERIFY_ERROR(unionBoundExpostEpsilon(1.0, 1.0, 0.1, 0), InvalidArgument, "grid");
    PBX_VERIFY_ERROR(linearBoundaryTunedA(0.0, 0.1), InvalidArgument, "anticipated time");
    PBX_VERIFY_ERROR(mixtureBoundaryTunedR(1.0, 1.5), InvalidArgument, "δ");
    PBX_VERIFY_ERROR(BrownianBoundary::linear(1.0, 0.6), InvalidArgument,
                     "δ must lie in (0, ½]"); // the value type needs δ ≤ ½
    PBX_VERIFY_ERROR(BrownianBoundary::normalMixture(0.0, 0.1), InvalidArgument, "mixture boundary's r");
    PBX_VERIFY_ERROR(BrownianBoundary::unionGrid(0, 0.1), InvalidArgument, "grid");
    PBX_VERIFY_ERROR(BrownianBoundary::fixedTime(HUGE_VAL, 0.1), InvalidArgument, "fixed time");
    QVERIFY(BrownianBoundary::linear(1.0, 0.5).ok());
}

void TestExpostBoundaries::linearCrossing_data()
{
    QTest::addColumn<double>("a");
    QTest::addColumn<double>("delta");
    // P(∃ t: W_t ≥ a + b·t) = e^{−2ab} = δ exactly with b = ln(1/δ)/(2a) (§3.3).
    QTest::newRow("a=1 δ=0.05") << 1.0 << 0.05;
    QTest::newRow("a=2 δ=0.01") << 2.0 << 0.01;
}

// Each path is simulated on a grid of step h to horizon H = 20; between grid points the Brownian
// bridge crosses a straight boundary with probability exp(−2·c₀·c₁/h), where c₀, c₁ > 0 are the
// gaps to the boundary at the two ends. Averaging 1 − Π(1 − p_i) over paths estimates the
// continuous-time crossing probability without discretisation bias. Crossing after H, from a
// gap g at H, has probability e^{−2bg} < e^{−50} for both rows.
void TestExpostBoundaries::linearCrossing()
{
    QFETCH(double, a);
    QFETCH(double, delta);
    const auto boundary = BrownianBoundary::linear(a, delta).value();
    const double slope = -std::log(delta) / (2.0 * a);
    const double h = 0.05;
    const int steps = 400;
    const int paths = 50000;
    auto noise = NoiseSource::seeded(21, 0);
    const double sqrtH = std::sqrt(h);
    double estimate = 0.0;
    for (int p = 0; p < paths; ++p) {
        double w = 0.0;
        double gap0 = a;
        double survive = 1.0;
        for (int i = 1; i <= steps; ++i) {
            w += noise.gaussian(sqrtH);
            const double gap1 = a + slope * i * h - w;
            if (gap1 <= 0.0) {
                survive = 0.0;
                break;
            }
            survive *= -std::expm1(-2.0 * gap0 * gap1 / h);
            gap0 = gap1;
        }
        estimate += 1.0 - survive;
    }
    estimate /= paths;
    const double se = pbx::test::binomialStandardError(delta, paths);
    QVERIFY2(
        std::fabs(estimate - delta) <= 4.0 * se,
        qPrintable(
            QStringLiteral("crossing %1, expected e^{−2ab} = %2 ± %3").arg(estimate).arg(delta).arg(4 * se)));
    QVERIFY(estimate <= delta + 3.0 * se);
    QCOMPARE(boundary.threshold(1.0).value(), a + slope);
}

// §3.3 MC (20,000 paths, δ = 0.05, r = 1, step 0.005, horizon 20): two-sided crossing 0.027,
// one-sided 0.013. Here: the same setup on the discrete grid, both must stay ≤ δ.
void TestExpostBoundaries::mixtureCrossing()
{
    const double delta = 0.05;
    const auto boundary = BrownianBoundary::normalMixture(1.0, delta).value();
    const double h = 0.005;
    const int steps = 4000;
    const int paths = 20000;
    std::vector<double> psi(steps + 1);
    for (int i = 1; i <= steps; ++i)
        psi[i] = boundary.threshold(i * h).value();
    auto noise = NoiseSource::seeded(22, 0);
    const double sqrtH = std::sqrt(h);
    int twoSided = 0, oneSided = 0;
    for (int p = 0; p < paths; ++p) {
        double w = 0.0;
        bool crossedUp = false, crossedAny = false;
        for (int i = 1; i <= steps && !crossedUp; ++i) {
            w += noise.gaussian(sqrtH);
            if (w >= psi[i])
                crossedUp = true;
            if (std::fabs(w) >= psi[i])
                crossedAny = true;
        }
        twoSided += crossedAny ? 1 : 0;
        oneSided += crossedUp ? 1 : 0;
    }
    const double two = double(twoSided) / paths, one = double(oneSided) / paths;
    QVERIFY2(two <= delta, qPrintable(QStringLiteral("two-sided crossing %1 > δ").arg(two)));
    QVERIFY2(one <= delta, qPrintable(QStringLiteral("one-sided crossing %1 > δ").arg(one)));
    // Not vacuous, and the same experiment as in §3.3: 0.027 and 0.013 there (20,000 paths),
    // within 4 standard errors of the difference of two such estimates.
    const auto agrees = [paths](double got, double spec) {
        return std::fabs(got - spec) <= 4.0 * std::sqrt(2.0) * pbx::test::binomialStandardError(spec, paths);
    };
    QVERIFY2(agrees(two, 0.027), qPrintable(QStringLiteral("two-sided crossing %1, §3.3 0.027").arg(two)));
    QVERIFY2(agrees(one, 0.013), qPrintable(QStringLiteral("one-sided crossing %1, §3.3 0.013").arg(one)));
}

QTEST_APPLESS_MAIN(TestExpostBoundaries)
#include "tst_boundaries.moc"
