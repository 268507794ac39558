// SPDX-License-Identifier: MIT
// Empirical privacy audit of the discrete mechanisms. For neighbouring inputs f(x) = 0 and
// f(x') = Δ, draw 10⁶ seeded releases from each and estimate the privacy loss ln(P(S)/Q(S)) on
// well-populated events S (single outcomes and tails) with simultaneous Clopper–Pearson intervals
// (Bonferroni, family-wise confidence 1 − 10⁻³). Pure-DP mechanisms: the largest *lower* confidence bound on
// |loss| must not exceed the claimed ε (no statistically significant violation), and must come close to it
// (the audit has the power to catch an understated claim). Discrete Gaussian: every per-outcome
// interval contains the exact loss, a sound lower confidence bound on the hockey-stick divergence
// stays below the claimed δ(ε) (CKS 2020 Thm 7), the unbiased estimate on the exact privacy-loss
// event matches δ(ε), and the claimed ρ bounds the exact Rényi divergences.
#include "core/mechanisms/discrete_mechanisms.h"
#include "core/privacy/cks_conversion.h"
#include "tests/sampling/sampling_stats.h"
#include "tests/testutils.h"

#include <cmath>
#include <set>

using namespace pbx::mechanisms;
using pbx::test::Histogram;
using pbx::test::Interval;

namespace {
constexpr std::uint64_t kAuditDraws = 1000000; // per input
constexpr double kFamilyAlpha = 1e-3;          // family-wise error of each set of intervals
constexpr std::uint64_t kMinCount = 1000;      // "well populated": both counts at least this

struct Pair
{
    Histogram p; ///< releases on x (centred at 0)
    Histogram q; ///< releases on x' (centred at Δ)
};

Pair drawPair(const DiscreteNoiseMechanism &m, std::uint64_t seed)
{
    SeededRandomBits a(seed, 0), b(seed, 1);
    const auto shift = static_cast<std::int64_t>(m.sensitivity());
    Pair out;
    for (std::uint64_t i = 0; i < kAuditDraws; ++i) {
        ++out.p[*m.release(0, a)];
        ++out.q[*m.release(shift, b)];
    }
    return out;
}

std::uint64_t countAt(const Histogram &h, std::int64_t y)
{
    auto it = h.find(y);
    return it == h.end() ? 0 : it->second;
}

struct LossAudit
{
    double epsilonLower = 0.0; ///< max over audited events S of the lower confidence bound on
                               ///< |ln(P(S)/Q(S))|
    double epsilonHat = 0.0;   ///< max over populated single outcomes of |ln(p̂/q̂)|
    int bins = 0;              ///< populated single outcomes
    int events = 0;            ///< all audited events (outcomes and tails)
};

/// Simultaneous Clopper–Pearson bounds on the privacy loss of every audited event: each
/// well-populated single outcome {y}, and each tail {Y ≤ c}, {Y ≥ c} in which both inputs have at
/// least kMinCount draws (pure DP bounds P(S) ≤ e^ε Q(S) for every event S; tails pool many
/// outcomes of equal loss, which is where the discrete Laplace attains ε). `perBin` receives the
/// interval of each single outcome.
LossAudit auditLoss(const Pair &s, const std::function<void(std::int64_t, double, double)> &perBin = nullptr)
{
    struct Event
    {
        std::uint64_t p, q;
        bool single;
        std::int64_t y;
    };
    std::set<std::int64_t> outcomes;
    for (const auto &[y, c] : s.p)
        outcomes.insert(y);
    for (const auto &[y, c] : s.q)
        outcomes.insert(y);
    std::vector<Event> events;
    for (std::int64_t y : outcomes) {
        const std::uint64_t cp = countAt(s.p, y), cq = countAt(s.q, y);
        if (cp >= kMinCount && cq >= kMinCount)
            events.push_back({cp, cq, true, y});
    }
    LossAudit a;
    a.bins = static_cast<int>(events.size());
    std::uint64_t leftP = 0, leftQ = 0;
    for (std::int64_t y : outcomes) { // {Y ≤ y}
        leftP += countAt(s.p, y);
        leftQ += countAt(s.q, y);
        if (leftP >= kMinCount && leftQ >= kMinCount && leftP < kAuditDraws && leftQ < kAuditDraws)
            events.push_back({leftP, leftQ, false, y});
    }
    std::uint64_t rightP = 0, rightQ = 0;
    for (auto it = outcomes.rbegin(); it != outcomes.rend(); ++it) { // {Y ≥ y}
        rightP += countAt(s.p, *it);
        rightQ += countAt(s.q, *it);
        if (rightP >= kMinCount && rightQ >= kMinCount && rightP < kAuditDraws && rightQ < kAuditDraws)
            events.push_back({rightP, rightQ, false, *it});
    }
    a.events = static_cast<int>(events.size());
    const double alpha = kFamilyAlpha / (2.0 * events.size());
    for (const Event &e : events) {
        const Interval ip = pbx::test::clopperPearson(e.p, kAuditDraws, alpha);
        const Interval iq = pbx::test::clopperPearson(e.q, kAuditDraws, alpha);
        const double lower = std::log(ip.lo / iq.hi); // ≤ ln(P/Q) with the family's confidence
        const double upper = std::log(ip.hi / iq.lo); // ≥ ln(P/Q)
        a.epsilonLower = std::max({a.epsilonLower, lower, -upper});
        if (e.single) {
            a.epsilonHat = std::max(a.epsilonHat, std::fabs(std::log(static_cast<double>(e.p) / e.q)));
            if (perBin)
                perBin(e.y, lower, upper);
        }
    }
    return a;
}
} // namespace

class TestPrivacyAudit : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void discreteLaplace_data();
    void discreteLaplace();
    void discreteGaussian_data();
    void discreteGaussian();
    void discreteGaussianRenyi_data();
    void discreteGaussianRenyi();
    void gridMechanism();
};

void TestPrivacyAudit::discreteLaplace_data()
{
    QTest::addColumn<quint64>("num");
    QTest::addColumn<quint64>("den");
    QTest::addColumn<quint64>("sensitivity");
    QTest::newRow("t=2 Δ=1 (ε=0.5)") << 2ull << 1ull << 1ull;
    QTest::newRow("t=1 Δ=2 (ε=2)") << 1ull << 1ull << 2ull;
    QTest::newRow("t=10/3 Δ=1 (ε=0.3)") << 10ull << 3ull << 1ull;
    QTest::newRow("t=25 Δ=5 (ε=0.2)") << 25ull << 1ull << 5ull;
}

void TestPrivacyAudit::discreteLaplace()
{
    QFETCH(quint64, num);
    QFETCH(quint64, den);
    QFETCH(quint64, sensitivity);
    auto m
        = DiscreteNoiseMechanism::withParameter(DiscreteNoiseKind::Laplace, Rational{num, den}, sensitivity);
    QVERIFY(m.ok());
    const double claimed = m->epsilon();
    const LossAudit a = auditLoss(drawPair(*m, 61 + num));
    qInfo("claimed ε = %.4f; %d populated outcomes, %d events; max single-outcome |loss| estimate "
          "%.4f; largest lower confidence bound %.4f",
          claimed, a.bins, a.events, a.epsilonHat, a.epsilonLower);
    QVERIFY(a.bins >= 5);
    QVERIFY2(a.epsilonLower <= claimed, "significant evidence that the loss exceeds the claimed ε");
    QVERIFY2(a.epsilonLower >= 0.8 * claimed, "audit too weak: would not refute a claim of 0.8·ε");
}

void TestPrivacyAudit::discreteGaussian_data()
{
    QTest::addColumn<quint64>("num");
    QTest::addColumn<quint64>("sensitivity");
    QTest::newRow("σ²=1 Δ=1 (ρ=0.5)") << 1ull << 1ull;
    QTest::newRow("σ²=4 Δ=1 (ρ=0.125)") << 4ull << 1ull;
    QTest::newRow("σ²=25 Δ=2 (ρ=0.08)") << 25ull << 2ull;
}

void TestPrivacyAudit::discreteGaussian()
{
    QFETCH(quint64, num);
    QFETCH(quint64, sensitivity);
    auto m
        = DiscreteNoiseMechanism::withParameter(DiscreteNoiseKind::Gaussian, Rational{num, 1}, sensitivity);
    QVERIFY(m.ok());
    const Pair s = drawPair(*m, 71 + num);
    const double s2 = static_cast<double>(num);
    const double d = static_cast<double>(sensitivity);
    auto exactLoss = [&](std::int64_t y) { return (d * d - 2.0 * y * d) / (2.0 * s2); };

    // (1) The realised loss of every well-populated outcome is the exact L(y) = (Δ² − 2yΔ)/(2σ²).
    int missed = 0;
    const LossAudit a = auditLoss(s, [&](std::int64_t y, double lo, double hi) {
        const double l = exactLoss(y);
        if (l < lo || l > hi) {
            ++missed;
            qWarning("y = %lld: exact loss %.4f outside [%.4f, %.4f]", static_cast<long long>(y), l, lo, hi);
        }
    });
    QVERIFY(a.bins >= 5);
    QCOMPARE(missed, 0);

    // (2) The hockey-stick divergence δ(ε) = Σ_y max(0, p(y) − e^ε q(y)).
    std::set<std::int64_t> outcomes;
    for (const auto &[y, c] : s.p)
        outcomes.insert(y);
    for (const auto &[y, c] : s.q)
        outcomes.insert(y);
    const double alpha = kFamilyAlpha / (2.0 * outcomes.size());
    for (double eps : {0.1, 0.25, 0.5, 1.0}) {
        const double claimed = *m->deltaForEpsilon(eps);
        // Sound lower confidence bound: with all intervals holding, δ ≥ Σ max(0, p_lo − e^ε q_hi).
        double lower = 0.0, plugIn = 0.0;
        // Unbiased estimate on the exact loss event S = {y : L(y) > ε}: δ = P(S) − e^ε Q(S).
        std::uint64_t inP = 0, inQ = 0;
        for (std::int64_t y : outcomes) {
            const std::uint64_t cp = countAt(s.p, y), cq = countAt(s.q, y);
            const Interval ip = pbx::test::clopperPearson(cp, kAuditDraws, alpha);
            const Interval iq = pbx::test::clopperPearson(cq, kAuditDraws, alpha);
            lower += std::max(0.0, ip.lo - std::exp(eps) * iq.hi);
            plugIn += std::max(0.0, (static_cast<double>(cp) - std::exp(eps) * cq) / kAuditDraws);
            if (exactLoss(y) > eps) {
                inP += cp;
                inQ += cq;
            }
        }
        const double pS = static_cast<double>(inP) / kAuditDraws, qS = static_cast<double>(inQ) / kAuditDraws;
        const double estimate = pS - std::exp(eps) * qS;
        const double se = std::sqrt((pS * (1 - pS) + std::exp(2 * eps) * qS * (1 - qS)) / kAuditDraws);
        qInfo("ε = %.2f: claimed δ = %.6g; lower confidence bound %.6g; estimate on S %.6g ± %.2g; "
              "plug-in %.6g; zCDP-converted δ %.6g",
              eps, claimed, lower, estimate, se, plugIn, *pbx::privacy::deltaFromRhoCks(m->rho(), eps));
        QVERIFY2(lower <= claimed, "significant evidence that δ(ε) exceeds the claimed curve");
        QVERIFY2(std::fabs(estimate - claimed) <= 5 * se + 1e-12,
                 "the estimated δ(ε) disagrees with the claimed exact curve");
    }
}

void TestPrivacyAudit::discreteGaussianRenyi_data()
{
    QTest::addColumn<quint64>("num");
    QTest::addColumn<quint64>("sensitivity");
    QTest::newRow("σ²=1 Δ=1") << 1ull << 1ull;
    QTest::newRow("σ²=4 Δ=1") << 4ull << 1ull;
    QTest::newRow("σ²=3 Δ=2") << 3ull << 2ull;
}

void TestPrivacyAudit::discreteGaussianRenyi()
{
    // The zCDP claim ρ = Δ²/(2σ²) (CKS 2020 Thm 4) against exact Rényi divergences by summation:
    // D_α(P‖Q) ≤ αρ for all α > 1, with equality when (α − 1)Δ is an integer.
    QFETCH(quint64, num);
    QFETCH(quint64, sensitivity);
    auto m
        = DiscreteNoiseMechanism::withParameter(DiscreteNoiseKind::Gaussian, Rational{num, 1}, sensitivity);
    const long double s2 = num, d = sensitivity;
    const long double norm = pbx::test::gaussianNormaliserDirect(s2);
    auto logPmf = [&](long double y) { return -y * y / (2 * s2) - std::log(norm); };
    for (long double alpha : {1.25L, 1.5L, 2.0L, 3.0L, 4.5L, 8.0L, 16.0L}) {
        long double sum = 0.0L;
        for (int y = -400; y <= 400; ++y)
            sum += std::exp(alpha * logPmf(y) + (1 - alpha) * logPmf(y - d));
        const long double renyi = std::log(sum) / (alpha - 1);
        const long double bound = alpha * m->rho();
        QVERIFY2(renyi <= bound * (1 + 1e-12L), qPrintable(QStringLiteral("D_%1 = %2 > αρ = %3")
                                                               .arg((double)alpha)
                                                               .arg((double)renyi)
                                                               .arg((double)bound)));
        const long double shift = (alpha - 1) * d;
        if (shift == std::floor(shift))
            PBX_FUZZY_COMPARE(static_cast<double>(renyi), static_cast<double>(alpha * d * d / (2 * s2)),
                              1e-12);
    }
}

void TestPrivacyAudit::gridMechanism()
{
    // A real-valued query with Δ = 1 on the grid g = 1/4 (Δ_g = 4) and discrete Laplace noise at
    // ε = 1. The neighbouring values −0.125 and 0.875 snap to 0 and 4: the worst case ⌈Δ/g⌉.
    auto m = GridMechanism::forCost(DiscreteNoiseKind::Laplace, 1.0, 1.0, 0.25);
    QVERIFY(m.ok());
    QCOMPARE(m->noise().sensitivity(), 4ull);
    SeededRandomBits a(81, 0), b(81, 1);
    Pair s;
    for (std::uint64_t i = 0; i < kAuditDraws; ++i) {
        const double x = *m->release(-0.125, a);
        const double y = *m->release(0.875, b);
        // Outputs are exact multiples of the grid: nothing below the grid to leak.
        QVERIFY(std::fmod(x, 0.25) == 0.0 && std::fmod(y, 0.25) == 0.0);
        ++s.p[static_cast<std::int64_t>(x / 0.25)];
        ++s.q[static_cast<std::int64_t>(y / 0.25)];
    }
    const LossAudit audit = auditLoss(s);
    qInfo("claimed ε = %.4f; %d populated outcomes, %d events; max single-outcome |loss| estimate "
          "%.4f; largest lower confidence bound %.4f",
          m->cost(), audit.bins, audit.events, audit.epsilonHat, audit.epsilonLower);
    QVERIFY(audit.epsilonLower <= m->cost());
    QVERIFY(audit.epsilonLower >= 0.8 * m->cost());
}

QTEST_APPLESS_MAIN(TestPrivacyAudit)
#include "tst_audit.moc"
