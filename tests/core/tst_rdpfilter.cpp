// SPDX-License-Identifier: MIT
// The Rényi filter (Feldman & Zrnic 2021; Lécuyer 2021): per-order budgets, certified counts of
// Laplace counts and of Laplace + subsampled-Gaussian mixtures, which order binds, refusals.
//
// Expected values: the closed forms evaluated independently (Python, double precision, with the
// same rounding: charges × (1 + 1e-12), budgets × (1 − 1e-12)); the Laplace counts and budgets
// are those of the filters-odometers check script (fo_filters.out), the mixtures and pure-ε
// counts were computed the same way (subsampled-Gaussian A_α summed in log space at integer
// orders; its values agree with an mpmath sum to 10 digits).
#include "core/filters/privacy_filter.h"
#include "core/filters/rdp_filter.h"
#include "core/filters/zcdp_filter.h"
#include "core/privacy/rdp_curves.h"
#include "tests/testutils.h"

#include <functional>

using pbx::filters::Charge;
using pbx::filters::ChargeKind;
using pbx::filters::FilterKind;
using pbx::filters::PrivacyFilter;
using pbx::filters::RdpFilter;
using pbx::filters::roundedCurve;

namespace {
using Curve = std::function<double(double)>;

Curve laplace(double b)
{
    return [b](double a) { return pbx::privacy::rdpLaplace(1.0 / b, a); };
}

Curve subsampledGaussian(double q, double sigma)
{
    return [q, sigma](double a) { return pbx::privacy::rdpSubsampledGaussian(q, sigma, a); };
}

/// Requests offered in turn (cycling through `cycle`) until `offered` were offered; returns the
/// number admitted of each position of the cycle, and the first refused request (0-based).
struct Run
{
    std::vector<int> admitted;
    int firstRefused = -1;
};

Run offer(RdpFilter &f, const std::vector<Curve> &cycle, int offered)
{
    std::vector<std::vector<double>> curves;
    for (const auto &c : cycle)
        curves.push_back(roundedCurve(
            [&] {
                std::vector<double> a;
                for (const auto &o : f.orders())
                    a.push_back(o.alpha);
                return a;
            }(),
            c));
    Run run;
    run.admitted.assign(cycle.size(), 0);
    for (int j = 0; j < offered; ++j) {
        const std::size_t k = static_cast<std::size_t>(j) % cycle.size();
        if (f.chargeCurve(curves[k]).ok())
            ++run.admitted[k];
        else if (run.firstRefused < 0)
            run.firstRefused = j;
    }
    return run;
}

int admittedEqual(RdpFilter &f, const Curve &c, int offered)
{
    return offer(f, {c}, offered).admitted.front();
}

std::unique_ptr<RdpFilter> grid()
{
    return RdpFilter::create(1.0, 1e-6).value();
}
} // namespace

class TestRdpFilter : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void orderBudgets();
    void conversions();
    void laplaceCountsOnTheGrid_data();
    void laplaceCountsOnTheGrid();
    void pinnedOrder_data();
    void pinnedOrder();
    void bindingOrderAndRefusal();
    void laplaceAndSubsampledGaussianMixture();
    void explodingCurveIsRefused();
    void sessionCharges();
    void remainingFor();
    void invalid();
    void comparisonTable();
};

void TestRdpFilter::orderBudgets()
{
    using pbx::filters::rdpOrderBudget;
    // B(α) for (1, 1e-6), improved conversion; and with δ/24 (the grid's share).
    PBX_FUZZY_COMPARE(rdpOrderBudget(1.0, 1e-6, 16), 0.3283437321, 1e-9);
    PBX_FUZZY_COMPARE(rdpOrderBudget(1.0, 1e-6, 32), 0.6978849998, 1e-9);
    PBX_FUZZY_COMPARE(rdpOrderBudget(1.0, 1e-6, 64), 0.8624685558, 1e-9);
    PBX_FUZZY_COMPARE(rdpOrderBudget(1.0, 1e-6 / 24, 16), 0.1164734767, 1e-9);
    PBX_FUZZY_COMPARE(rdpOrderBudget(1.0, 1e-6 / 24, 32), 0.5953671343, 1e-9);
    PBX_FUZZY_COMPARE(rdpOrderBudget(1.0, 1e-6 / 24, 64), 0.8120232569, 1e-9);
    PBX_FUZZY_COMPARE(rdpOrderBudget(1.0, 1e-6, 8), -0.5430498954, 1e-9);
    // The grid: 24 orders, δ/24 each, every order ≤ 14 dead from the start.
    auto f = grid();
    QCOMPARE(f->orders().size(), std::size_t(24));
    for (const auto &o : f->orders()) {
        QCOMPARE(o.delta <= 1e-6 / 24, true);
        PBX_FUZZY_COMPARE(o.delta, 1e-6 / 24, 1e-15);
        QCOMPARE(o.live(), o.alpha > 14.0);
    }
}

void TestRdpFilter::conversions()
{
    using pbx::filters::rdpOrderEpsilon;
    PBX_FUZZY_COMPARE(rdpOrderEpsilon(0.5, 1e-6, 10), 1.673853425, 1e-9);
    PBX_FUZZY_COMPARE(rdpOrderEpsilon(0.05, 1e-6, 30), 0.3752126958, 1e-9);
    PBX_FUZZY_COMPARE(rdpOrderEpsilon(1.0, 1e-5, 5), 3.252728337, 1e-9);
    // The conversion inverts the budget (up to the rounding, which is in the safe direction).
    const double b = pbx::filters::rdpOrderBudget(1.0, 1e-6, 28);
    QVERIFY(rdpOrderEpsilon(b, 1e-6, 28) <= 1.0 + 1e-11);
    QVERIFY(rdpOrderEpsilon(b, 1e-6, 28) >= 1.0 - 1e-11);
    // Tight pure-ε curve (Steinke, Theorem 4), rounded up.
    PBX_FUZZY_COMPARE(pbx::filters::pureEpsilonRdpUp(0.1, 2), 0.00995858439496, 1e-9);
    PBX_FUZZY_COMPARE(pbx::filters::pureEpsilonRdpUp(1.0, 10), 0.965193146454, 1e-9);
    QVERIFY(pbx::filters::pureEpsilonRdpUp(0.1, 2) >= pbx::privacy::rdpPureDp(0.1, 2));
    // Tiny ε: the closed form cancels; the bound αε²/2 takes over and stays an upper bound.
    QVERIFY(pbx::filters::pureEpsilonRdpUp(1e-9, 28) >= 28 * 1e-18 / 2 * (1 - 1e-6));
    QVERIFY(pbx::filters::pureEpsilonRdpUp(1e-9, 28) <= 28 * 1e-18 / 2 * (1 + 1e-12));
}

void TestRdpFilter::laplaceCountsOnTheGrid_data()
{
    QTest::addColumn<double>("b");
    QTest::addColumn<int>("expected");
    // fo_filters.out, "RDP grid filter, delta/24 per order, improved", (ε, δ) = (1, 1e-6).
    QTest::newRow("b = 50") << 50.0 << 99;
    QTest::newRow("b = 100") << 100.0 << 384;
    QTest::newRow("b = 300") << 300.0 << 3418;
}

void TestRdpFilter::laplaceCountsOnTheGrid()
{
    QFETCH(double, b);
    QFETCH(int, expected);
    auto f = grid();
    QCOMPARE(admittedEqual(*f, laplace(b), expected + 20), expected);
    QCOMPARE(f->orders()[static_cast<std::size_t>(*f->bindingOrder())].alpha, 28.0);
    QVERIFY(f->epsilonSpent() <= 1.0);
    QCOMPARE(f->deltaSpent(), 1e-6);
}

void TestRdpFilter::pinnedOrder_data()
{
    QTest::addColumn<double>("b");
    QTest::addColumn<double>("alpha");
    QTest::addColumn<int>("expected");
    // fo_filters.out, "RDP filter, one pinned order, improved conversion" (full δ at one order).
    QTest::newRow("b = 50") << 50.0 << 21.459392 << 126;
    QTest::newRow("b = 100") << 100.0 << 21.503727 << 492;
    QTest::newRow("b = 300") << 300.0 << 21.771668 << 4392;
}

void TestRdpFilter::pinnedOrder()
{
    QFETCH(double, b);
    QFETCH(double, alpha);
    QFETCH(int, expected);
    auto f = RdpFilter::create(1.0, 1e-6, {alpha}).value();
    QCOMPARE(f->orders().front().delta, 1e-6); // one order: δ is not split
    QCOMPARE(admittedEqual(*f, laplace(b), expected + 20), expected);
}

void TestRdpFilter::bindingOrderAndRefusal()
{
    // fo_filters.out trace: b = 100 on the grid admits 384 and refuses request 385; the slack at
    // α = 28 is then +1.167e-3, below r(28) = 1.378e-3, and negative at α = 24 and 32.
    auto f = grid();
    const auto alphas = [&] {
        std::vector<double> a;
        for (const auto &o : f->orders())
            a.push_back(o.alpha);
        return a;
    }();
    const auto curve = roundedCurve(alphas, laplace(100));
    for (int i = 0; i < 384; ++i)
        QVERIFY(f->chargeCurve(curve).ok());
    const auto at = [&](double alpha) {
        for (const auto &o : f->orders())
            if (o.alpha == alpha)
                return o;
        return pbx::filters::RdpOrder{};
    };
    PBX_FUZZY_COMPARE(at(28).budget - at(28).spent, 0.001166797341461634, 1e-9);
    QVERIFY(at(24).spent > at(24).budget);
    QVERIFY(at(32).spent > at(32).budget);
    QVERIFY(at(28).live());
    auto refused = f->chargeCurve(curve);
    PBX_VERIFY_ERROR(refused, BudgetExceeded,
                     "no Rényi order has room for this request: at the closest, α = 28");
    QCOMPARE(
        QString::fromStdString(refused.error().message),
        QStringLiteral("no Rényi order has room for this request: at the closest, α = 28, it needs 0.001378 "
                       "but 0.001167 remains"));
    QCOMPARE(f->systems().front().name, std::string("RDP (binding order α = 28)"));
    // Reject-and-continue: a cheaper request still fits at α = 28.
    QVERIFY(f->chargeCurve(roundedCurve(alphas, laplace(1000))).ok());
}

void TestRdpFilter::laplaceAndSubsampledGaussianMixture()
{
    // Laplace counts (b = 100) alternating with Poisson-subsampled Gaussian steps (q = 0.01,
    // σ = 2): 292 Laplace and 295 subsampled-Gaussian requests are admitted out of 2000 pairs;
    // the first refused is request 584 (a Laplace count); α = 28 binds.
    auto f = grid();
    const Run run = offer(*f, {laplace(100), subsampledGaussian(0.01, 2.0)}, 4000);
    QCOMPARE(run.admitted[0], 292);
    QCOMPARE(run.admitted[1], 295);
    QCOMPARE(run.firstRefused, 584);
    QCOMPARE(f->orders()[*f->bindingOrder()].alpha, 28.0);
    PBX_FUZZY_COMPARE(f->epsilonSpent(), 0.9999473697742878, 1e-9);
    // Subsampled Gaussian alone: 1223 steps.
    auto g = grid();
    QCOMPARE(admittedEqual(*g, subsampledGaussian(0.01, 2.0), 1300), 1223);
}

void TestRdpFilter::explodingCurveIsRefused()
{
    // q = 0.01, σ = 1: r(16) = 3.09 and r(32) = 11.2 (fo_rdp_curves.out): every live order (α ≥ 16)
    // is far over its budget, the orders where it is small (α ≤ 8) are dead from the start.
    PBX_FUZZY_COMPARE(pbx::privacy::rdpSubsampledGaussian(0.01, 1.0, 16), 3.087850784, 1e-9);
    auto f = grid();
    QCOMPARE(admittedEqual(*f, subsampledGaussian(0.01, 1.0), 5), 0);
    QCOMPARE(f->epsilonSpent(), 0.0);
    // An infinite value at some orders only makes those orders refuse it.
    std::vector<double> curve(f->orders().size(), 1e-4);
    curve.back() = std::numeric_limits<double>::infinity();
    curve[curve.size() - 2] = std::nan("");
    QVERIFY(f->chargeCurve(curve).ok());
    QVERIFY(!f->orders().back().live());
    QVERIFY(!f->orders()[curve.size() - 2].live());
    QVERIFY(f->orders()[curve.size() - 3].live());
}

void TestRdpFilter::sessionCharges()
{
    // Through PrivacyFilter: pure ε charges take the tight ε-DP curve (the exact curve of the
    // discrete Laplace mechanism on a count), a little above continuous Laplace's: 99 / 383 / 3414
    // counts at ε = 0.02 / 0.01 / 1/300 (against 99 / 384 / 3418 for continuous Laplace).
    for (auto [epsilon, expected] : {std::pair{0.02, 99}, std::pair{0.01, 383}, std::pair{1.0 / 300, 3414}}) {
        auto f = PrivacyFilter::create(FilterKind::Rdp, 1.0, 1e-6).value();
        QCOMPARE(f->kind(), FilterKind::Rdp);
        QCOMPARE(f->unitName(), std::string_view("epsilon"));
        int admitted = 0;
        for (int i = 0; i < expected + 20; ++i)
            admitted += f->charge({ChargeKind::PureEpsilon, epsilon, 0.0}).ok();
        QCOMPARE(admitted, expected);
        QVERIFY(f->epsilonSpent() <= 1.0);
        QCOMPARE(f->spent(), f->epsilonSpent());
    }
    // ρ charges take ρα: at ρ = 5e-5 the grid admits as many as at α = 28 alone, ⌊B(28)/(28ρ)⌋.
    auto f = PrivacyFilter::create(FilterKind::Rdp, 1.0, 1e-6).value();
    int admitted = 0;
    for (int i = 0; i < 500; ++i)
        admitted += f->charge({ChargeKind::Rho, 5e-5, 0.0}).ok();
    const double b28 = pbx::filters::rdpOrderBudget(1.0, 1e-6 / 24, 28);
    QCOMPARE(admitted, static_cast<int>(std::floor(b28 / (28 * 5e-5))));
    QCOMPARE(admitted, 378);
    // Ex-post charges are refused, naming why.
    PBX_VERIFY_ERROR(f->charge({ChargeKind::ExPost, 0.01, 0.0}), Unsupported, "Laplace noise reduction");
}

void TestRdpFilter::remainingFor()
{
    auto f = PrivacyFilter::create(FilterKind::Rdp, 1.0, 1e-6).value();
    // After one count: the largest single ε or ρ that still fits, checked by charging it and a
    // hair more.
    for (ChargeKind kind : {ChargeKind::PureEpsilon, ChargeKind::Rho}) {
        auto g = PrivacyFilter::create(FilterKind::Rdp, 1.0, 1e-6).value();
        QVERIFY(g->charge({ChargeKind::PureEpsilon, 0.01, 0.0}).ok());
        const double most = g->remainingFor(kind);
        QVERIFY(most > 0.0);
        QVERIFY(!g->canCharge({kind, most * (1 + 1e-9), 0.0}).ok());
        QVERIFY(g->charge({kind, most, 0.0}).ok());
    }
    QCOMPARE(f->remainingFor(ChargeKind::ExPost), 0.0);
    // A single pure ε of 0.9 fits from empty (at a high order its curve is close to ε − ln2/(α−1)).
    QVERIFY(f->remainingFor(ChargeKind::PureEpsilon) > 0.8);
    QVERIFY(f->remainingFor(ChargeKind::PureEpsilon) < 1.0);
}

void TestRdpFilter::invalid()
{
    PBX_VERIFY_ERROR(RdpFilter::create(1.0, 0.0), InvalidArgument, "δ");
    PBX_VERIFY_ERROR(RdpFilter::create(0.0, 1e-6), InvalidArgument, "ε");
    PBX_VERIFY_ERROR(RdpFilter::create(1.0, 1e-6, {}), InvalidArgument, "empty");
    PBX_VERIFY_ERROR(RdpFilter::create(1.0, 1e-6, {1.0}), InvalidArgument, "> 1");
    // (0.01, 1e-6): every order's B(α) ≤ 0.
    PBX_VERIFY_ERROR(RdpFilter::create(0.01, 1e-6), InvalidArgument, "every order's budget B(α) is ≤ 0");
    auto f = grid();
    PBX_VERIFY_ERROR(f->chargeCurve({1.0}), InvalidArgument, "one value per order");
    PBX_VERIFY_ERROR(f->chargeCurve(std::vector<double>(24, -1.0)), InvalidArgument, "negative");
}

void TestRdpFilter::comparisonTable()
{
    // The certified counts of docs/filters.md, (ε, δ) = (1, 1e-6): each filter offered the same
    // workload, its own charges (basic: ε; zcdp and advanced: ε²/2 and a subsampled Gaussian at its
    // unamplified ρ = 1/(2σ²); rdp: the curves). Basic admits b − 1, not b, counts of the double
    // 1/b, which lies a hair above 1/b for b = 50, 100, 300 (no rounding in the user's favour).
    struct Row
    {
        FilterKind kind;
        int counts[3]; ///< pure counts of ε = 1/b for b = 50, 100, 300 (discrete Laplace), 5000 offered
        int mixed;     ///< of 2000 alternating: ε = 0.01 counts and subsampled Gaussians (0.01, 2)
    };
    const Row rows[] = {{FilterKind::Basic, {49, 99, 299}, 99},
                        {FilterKind::Advanced, {87, 349, 3144}, 349},
                        {FilterKind::Zcdp, {87, 349, 3144}, 349},
                        {FilterKind::Rdp, {99, 383, 3414}, 584}};
    const double scales[3] = {50.0, 100.0, 300.0};
    for (const Row &row : rows) {
        for (int i = 0; i < 3; ++i) {
            auto f = PrivacyFilter::create(row.kind, 1.0, 1e-6).value();
            int pure = 0;
            for (int j = 0; j < 5000; ++j)
                pure += f->charge({ChargeKind::PureEpsilon, 1.0 / scales[i], 0.0}).ok();
            QCOMPARE(pure, row.counts[i]);
        }
        auto g = PrivacyFilter::create(row.kind, 1.0, 1e-6).value();
        int mixed = 0;
        for (int i = 0; i < 1000; ++i) {
            mixed += g->charge({ChargeKind::PureEpsilon, 0.01, 0.0}).ok();
            if (auto *rdp = dynamic_cast<RdpFilter *>(g.get())) {
                std::vector<double> alphas;
                for (const auto &o : rdp->orders())
                    alphas.push_back(o.alpha);
                mixed += rdp->chargeCurve(roundedCurve(alphas, subsampledGaussian(0.01, 2.0))).ok();
            } else {
                mixed += g->charge({ChargeKind::Rho, 1.0 / (2 * 2.0 * 2.0), 0.0}).ok();
            }
        }
        QCOMPARE(mixed, row.mixed);
    }
}

QTEST_APPLESS_MAIN(TestRdpFilter)
#include "tst_rdpfilter.moc"
