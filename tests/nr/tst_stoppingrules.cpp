// SPDX-License-Identifier: MIT
// Stopping rules that read only released outputs (docs/accuracy-first.md §5.1–5.2, §6.5 item 7).
// Reference constants from §5.1: Φ⁻¹(0.975) = 1.959964, Φ⁻¹(0.995) = 2.575829, ln 20 = 2.995732,
// ln 100 = 4.605170; §5.2: Gaussian β = 0.05, α = 0.1 accepts iff y ≥ 21.5596·σ (σ = 1, 5, 10 need
// y ≥ 21.56, 107.80, 215.60).
#include "core/mechanisms/brownian_noise_reduction.h"
#include "core/mechanisms/expost_boundaries.h"
#include "core/mechanisms/stopping_rules.h"
#include "tests/nr/nrtestutils.h"
#include "tests/testutils.h"

#include <cmath>

using namespace pbx::mechanisms;

class TestStoppingRules : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void halfWidths_data();
    void halfWidths();
    void relativeAcceptance_data();
    void relativeAcceptance();
    void acceptanceThreshold_data();
    void acceptanceThreshold();
    void absoluteAcceptance();
    void abandonment_data();
    void abandonment();
    void perStepBeta();
    void timeUniformHalfWidth();
    void invalid();
};

void TestStoppingRules::halfWidths_data()
{
    QTest::addColumn<bool>("gaussian");
    QTest::addColumn<double>("beta");
    QTest::addColumn<double>("factor");
    QTest::newRow("Gaussian β=0.05") << true << 0.05 << 1.959964;
    QTest::newRow("Gaussian β=0.01") << true << 0.01 << 2.575829;
    QTest::newRow("Laplace β=0.05") << false << 0.05 << 2.995732;
    QTest::newRow("Laplace β=0.01") << false << 0.01 << 4.605170;
}

void TestStoppingRules::halfWidths()
{
    QFETCH(bool, gaussian);
    QFETCH(double, beta);
    QFETCH(double, factor);
    for (double scale : {1.0, 5.0, 0.1}) {
        const double w
            = gaussian ? gaussianHalfWidth(scale, beta).value() : laplaceHalfWidth(scale, beta).value();
        PBX_FUZZY_COMPARE(w, factor * scale, 5e-7); // the constants are rounded to 6 decimals
    }
    // Rounded up: never below the exact product.
    const double exact = gaussian ? 1.959963984540054 : std::log(20.0);
    if (beta == 0.05)
        QVERIFY((gaussian ? gaussianHalfWidth(1.0, beta).value() : laplaceHalfWidth(1.0, beta).value())
                >= exact);
}

void TestStoppingRules::relativeAcceptance_data()
{
    QTest::addColumn<double>("sigma");
    QTest::addColumn<double>("y");
    QTest::addColumn<bool>("accepted");
    // §5.2: Gaussian β = 0.05, α = 0.1 → accept iff |y| ≥ 21.5596·σ (21.55960383 exactly).
    QTest::newRow("σ=1 y=21.56") << 1.0 << 21.56 << true;
    QTest::newRow("σ=1 y=21.559") << 1.0 << 21.559 << false;
    QTest::newRow("σ=5 y=107.80") << 5.0 << 107.80 << true;
    QTest::newRow("σ=5 y=107.79") << 5.0 << 107.79 << false;
    QTest::newRow("σ=10 y=215.60") << 10.0 << 215.60 << true;
    QTest::newRow("σ=10 y=215.59") << 10.0 << 215.59 << false;
    QTest::newRow("sign-aware: σ=1 y=−21.56") << 1.0 << -21.56 << true;
    QTest::newRow("sign-aware: σ=1 y=−21.55") << 1.0 << -21.55 << false;
    QTest::newRow("y = 0") << 1.0 << 0.0 << false;
    QTest::newRow("y below w") << 1.0 << 1.0 << false;
    QTest::newRow("large y") << 1.0 << 1e6 << true;
}

void TestStoppingRules::relativeAcceptance()
{
    QFETCH(double, sigma);
    QFETCH(double, y);
    QFETCH(bool, accepted);
    const double w = gaussianHalfWidth(sigma, 0.05).value();
    QCOMPARE(acceptsRelativeError(y, w, 0.1), accepted);
    QCOMPARE(decideRelative(y, w, 0.0, 0.1) == StoppingDecision::Accept, accepted);
}

void TestStoppingRules::acceptanceThreshold_data()
{
    QTest::addColumn<double>("sigma");
    QTest::newRow("σ=1") << 1.0;
    QTest::newRow("σ=5") << 5.0;
    QTest::newRow("σ=10") << 10.0;
    QTest::newRow("σ=0.37") << 0.37;
}

void TestStoppingRules::acceptanceThreshold()
{
    QFETCH(double, sigma);
    const double w = gaussianHalfWidth(sigma, 0.05).value();
    const double threshold = relativeAcceptanceThreshold(w, 0.1);
    PBX_FUZZY_COMPARE(threshold, 21.5596 * sigma, 1e-5);
    PBX_FUZZY_COMPARE(threshold, 11.0 * 1.959963984540054 * sigma, 1e-13);
    // The rule flips within a relative 10⁻¹² of the threshold, and borderline cases reject.
    QVERIFY(acceptsRelativeError(threshold * (1 + 1e-12), w, 0.1));
    QVERIFY(!acceptsRelativeError(threshold * (1 - 1e-12), w, 0.1));
    QVERIFY(!acceptsRelativeError(w * 11.0 * (1 - 1e-15), w, 0.1));
}

void TestStoppingRules::absoluteAcceptance()
{
    QVERIFY(acceptsAbsoluteError(1.0, 1.0));
    QVERIFY(acceptsAbsoluteError(0.5, 1.0));
    QVERIFY(!acceptsAbsoluteError(1.0000001, 1.0));
    QVERIFY(!acceptsAbsoluteError(std::nan(""), 1.0));
    QVERIFY(!acceptsAbsoluteError(0.5, std::nan("")));
    QVERIFY(!acceptsAbsoluteError(-1.0, 1.0));
}

void TestStoppingRules::abandonment_data()
{
    QTest::addColumn<double>("y");
    QTest::addColumn<double>("w");
    QTest::addColumn<double>("wMin");
    QTest::addColumn<int>("decision");
    // α = 0.1: the least noisy allowed level (w_min = 1) accepts only |y| ≥ 11.
    QTest::newRow("far below: abandon") << 3.0 << 5.0 << 1.0 << int(StoppingDecision::Abandon);
    QTest::newRow("could still reach: continue") << 7.0 << 5.0 << 1.0 << int(StoppingDecision::Continue);
    QTest::newRow("boundary |y| + w = 11: continue") << 6.0 << 5.0 << 1.0 << int(StoppingDecision::Continue);
    QTest::newRow("negative y, sign-aware") << -3.0 << 5.0 << 1.0 << int(StoppingDecision::Abandon);
    QTest::newRow("accepted") << 120.0 << 5.0 << 1.0 << int(StoppingDecision::Accept);
    QTest::newRow("no cap information (w_min = 0)") << 0.0 << 5.0 << 0.0 << int(StoppingDecision::Continue);
}

void TestStoppingRules::abandonment()
{
    QFETCH(double, y);
    QFETCH(double, w);
    QFETCH(double, wMin);
    QFETCH(int, decision);
    QCOMPARE(int(decideRelative(y, w, wMin, 0.1)), decision);
    QCOMPARE(shouldAbandon(y, w, wMin, 0.1), decision == int(StoppingDecision::Abandon));
}

void TestStoppingRules::perStepBeta()
{
    // β' = β/K for a K-step grid, rounded down.
    QVERIFY(pbx::mechanisms::perStepBeta(0.05, 100).value() <= 5e-4);
    PBX_FUZZY_COMPARE(pbx::mechanisms::perStepBeta(0.05, 100).value(), 5e-4, 1e-15);
    QCOMPARE(pbx::mechanisms::perStepBeta(0.05, 1).value(), std::nextafter(0.05, 0.0));
    PBX_VERIFY_ERROR(pbx::mechanisms::perStepBeta(0.05, 0), InvalidArgument, "grid");
    PBX_VERIFY_ERROR(pbx::mechanisms::perStepBeta(0.0, 3), InvalidArgument, "β");
    // The per-step z grows with K: β' = 0.05/100 → z = Φ⁻¹(1 − 2.5·10⁻⁴) = 3.4807564.
    PBX_FUZZY_COMPARE(gaussianHalfWidth(1.0, pbx::mechanisms::perStepBeta(0.05, 100).value()).value(),
                      3.4807564, 1e-7);
}

// The time-uniform half-width is the two-sided mixture boundary applied to the noise path:
// P(∃T: |B_T| > w(T)) ≤ β. Checked on 20,000 seeded paths over a 300-point geometric grid.
void TestStoppingRules::timeUniformHalfWidth()
{
    const double beta = 0.05;
    const double anticipated = 1.0;
    const double r = mixtureBoundaryTunedR(anticipated, beta).value();
    std::vector<double> times, widths;
    for (int k = 0; k < 300; ++k) {
        times.push_back(100.0 * std::pow(0.97, 2 * k)); // σ from 10 down to ≈ 0.0012
        widths.push_back(pbx::mechanisms::timeUniformHalfWidth(times.back(), beta, r).value());
        // Wider than the pointwise interval at the same confidence.
        QVERIFY(widths.back() > gaussianHalfWidth(std::sqrt(times.back()), beta).value());
    }
    const int paths = 20000;
    int violations = 0;
    for (int p = 0; p < paths; ++p) {
        auto noise = NoiseSource::seeded(41, static_cast<std::uint64_t>(p));
        auto path = BrownianNoiseReduction::start(1, times[0], noise).value();
        bool violated = std::fabs(path.noise()[0]) > widths[0];
        for (std::size_t k = 1; k < times.size() && !violated; ++k) {
            QVERIFY(path.reduceTo(times[k], noise).ok());
            violated = std::fabs(path.noise()[0]) > widths[k];
        }
        violations += violated ? 1 : 0;
    }
    const double freq = double(violations) / paths;
    QVERIFY2(freq <= beta,
             qPrintable(QStringLiteral("time-uniform coverage failed in %1 of paths").arg(freq)));
    QVERIFY(freq > 0.0);
}

void TestStoppingRules::invalid()
{
    PBX_VERIFY_ERROR(gaussianHalfWidth(0.0, 0.05), InvalidArgument, "σ");
    PBX_VERIFY_ERROR(gaussianHalfWidth(1.0, 0.0), InvalidArgument, "β");
    PBX_VERIFY_ERROR(gaussianHalfWidth(1.0, 1.0), InvalidArgument, "β");
    PBX_VERIFY_ERROR(laplaceHalfWidth(-1.0, 0.05), InvalidArgument, "Laplace scale");
    PBX_VERIFY_ERROR(laplaceHalfWidth(1.0, std::nan("")), InvalidArgument, "β");
    PBX_VERIFY_ERROR(pbx::mechanisms::timeUniformHalfWidth(0.0, 0.05, 1.0), InvalidArgument, "Brownian time");
    PBX_VERIFY_ERROR(pbx::mechanisms::timeUniformHalfWidth(1.0, 0.05, 0.0), InvalidArgument,
                     "mixture parameter r");
    QVERIFY(!acceptsRelativeError(std::nan(""), 1.0, 0.1));
    QVERIFY(!acceptsRelativeError(100.0, 1.0, 0.0));
    QVERIFY(!acceptsRelativeError(100.0, -1.0, 0.1));
    QVERIFY(!shouldAbandon(std::nan(""), 1.0, 1.0, 0.1));
    QVERIFY(!shouldAbandon(0.0, 1.0, 1.0, -0.1));
    QVERIFY(std::isnan(relativeAcceptanceThreshold(1.0, 0.0)));
    QCOMPARE(decideRelative(std::nan(""), 1.0, 1.0, 0.1), StoppingDecision::Continue);
}

QTEST_APPLESS_MAIN(TestStoppingRules)
#include "tst_stoppingrules.moc"
