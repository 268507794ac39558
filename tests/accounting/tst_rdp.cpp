// SPDX-License-Identifier: MIT
// RDP curves: oracle rdp_gaussian.json (Gaussian and Poisson-subsampled Gaussian, one step),
// docs/composition.md TV-12 (Laplace), TV-13 (subsampled Gaussian), TV-14 (conversions), live-ledger updates.
#include "core/accounting/rdp_accountant.h"
#include "core/privacy/rdp_conversion.h"
#include "core/privacy/rdp_curves.h"
#include "tests/accounting/oracle.h"

using namespace pbx;
using namespace pbx::accounting;
using privacy::FractionalOrderMethod;

class TestRdp : public QObject
{
    Q_OBJECT
private slots:
    void samplingWithoutReplacement_data();
    void samplingWithoutReplacement();
    void samplingWithoutReplacementLedger();
    void oracleCurve_data();
    void oracleCurve();
    void laplace_data();
    void laplace();
    void subsampledGaussianSpec_data();
    void subsampledGaussianSpec();
    void pureDpCurve();
    void conversionConstantCurve();
    void conversionGaussianFineGrid();
    void conversionDpSgd_data();
    void conversionDpSgd();
    void liveLedgerMatchesBatch();
    void approxEventExtraDelta();
    void zcdpEventsOfDifferentRho();
};

void TestRdp::oracleCurve_data()
{
    QTest::addColumn<double>("q");
    QTest::addColumn<double>("sigma");
    QTest::addColumn<double>("alpha");
    QTest::addColumn<double>("dpAccounting");
    QTest::addColumn<double>("exact"); // quadrature (harness) or opacus, NaN if none
    const auto doc = test::loadOracle("rdp_gaussian.json");
    QVERIFY2(doc.is_object(), "rdp_gaussian.json missing");
    for (const auto &r : doc["records"]) {
        const auto &c = r["case"];
        double exact = std::numeric_limits<double>::quiet_NaN();
        if (const auto *x = test::crossCheck(r, "harness_quadrature"))
            exact = test::oracleNumber((*x)["value"]);
        else if (const auto *y = test::crossCheck(r, "opacus_compute_rdp"))
            exact = test::oracleNumber((*y)["value"]);
        QTest::newRow(r["id"].get<std::string>().c_str())
            << c["sampling_rate_q"].get<double>() << c["noise_multiplier_sigma"].get<double>()
            << c["order_alpha"].get<double>() << test::oracleNumber(r["value"]) << exact;
    }
}

// rdp_gaussian.json, README tolerances: integer orders (and q = 1) 1e-9 against dp_accounting;
// fractional orders: the dp_accounting-compatible |C(α,i)| series reproduces `value` to 1e-9
// (including its +∞ non-convergence), the exact signed series matches the 40-digit quadrature
// (or Opacus) to 1e-6 and is never above dp_accounting's upper bound.
void TestRdp::oracleCurve()
{
    QFETCH(double, q);
    QFETCH(double, sigma);
    QFETCH(double, alpha);
    QFETCH(double, dpAccounting);
    QFETCH(double, exact);
    const double compat
        = privacy::rdpSubsampledGaussian(q, sigma, alpha, FractionalOrderMethod::AbsoluteSeries);
    const double signedValue
        = privacy::rdpSubsampledGaussian(q, sigma, alpha, FractionalOrderMethod::SignedSeries);
    if (std::isinf(dpAccounting))
        QVERIFY(std::isinf(compat));
    else
        PBX_FUZZY_COMPARE(compat, dpAccounting, 1e-9);
    if (q == 1.0 || alpha == std::floor(alpha)) {
        PBX_FUZZY_COMPARE(signedValue, dpAccounting, 1e-9);
    } else {
        QVERIFY(!std::isnan(exact));
        PBX_FUZZY_COMPARE(signedValue, exact, 1e-6);
        QVERIFY(signedValue >= exact * (1 - 1e-9)); // a bound, up to the quadrature's own digits
        QVERIFY(signedValue <= dpAccounting * (1 + 1e-12));
    }
}

void TestRdp::laplace_data()
{
    QTest::addColumn<double>("alpha");
    QTest::addColumn<double>("expected");
    // docs/composition.md TV-12, Laplace ε = 1 (dp_accounting test values).
    QTest::newRow("1") << 1.0 << 0.36787944117144233;
    QTest::newRow("2") << 2.0 << 0.6191236299985929;
    QTest::newRow("10") << 10.0 << 0.9286829020966803;
    QTest::newRow("100") << 100.0 << 0.9930491450632687;
}

void TestRdp::laplace()
{
    QFETCH(double, alpha);
    QFETCH(double, expected);
    PBX_FUZZY_COMPARE(privacy::rdpLaplace(1.0, alpha), expected, 1e-12);
}

void TestRdp::subsampledGaussianSpec_data()
{
    QTest::addColumn<double>("q");
    QTest::addColumn<double>("sigma");
    QTest::addColumn<double>("alpha");
    QTest::addColumn<double>("expected");
    QTest::addColumn<double>("tolerance");
    // docs/composition.md TV-13 (integer orders to 9 digits; fractional ones: the exact signed series).
    QTest::newRow("a2") << 0.01 << 2.5 << 2.0 << 1.73509366e-05 << 1e-8;
    QTest::newRow("a3") << 0.01 << 2.5 << 3.0 << 2.60737217e-05 << 1e-8;
    QTest::newRow("a4") << 0.01 << 2.5 << 4.0 << 3.48283719e-05 << 1e-8;
    QTest::newRow("a8") << 0.01 << 2.5 << 8.0 << 7.01705518e-05 << 1e-8;
    QTest::newRow("a16") << 0.01 << 2.5 << 16.0 << 1.42461684e-04 << 1e-8;
    QTest::newRow("a32") << 0.01 << 2.5 << 32.0 << 2.93979485e-04 << 1e-8;
    QTest::newRow("a1.5") << 0.01 << 2.5 << 1.5 << 1.300141794e-5 << 1e-8;
    QTest::newRow("a2.5") << 0.01 << 2.5 << 2.5 << 2.170836114e-5 << 1e-8;
    QTest::newRow("q0.2 s8 a1.5") << 0.2 << 8.0 << 1.5 << 4.716874338e-4 << 1e-8;
    QTest::newRow("q0.2 s32 a1.5") << 0.2 << 32.0 << 1.5 << 2.930832098e-5 << 1e-8;
    QTest::newRow("q0.2 s32 a2.5") << 0.2 << 32.0 << 2.5 << 4.885483919e-5 << 1e-8;
    QTest::newRow("q0.2 s32 a1.75") << 0.2 << 32.0 << 1.75 << 3.419437752e-5 << 1e-8;
    QTest::newRow("mtz thm11") << 0.01 << 4.0 << 8.0 << 2.5899123012412577e-05 << 1e-12;
}

void TestRdp::subsampledGaussianSpec()
{
    QFETCH(double, q);
    QFETCH(double, sigma);
    QFETCH(double, alpha);
    QFETCH(double, expected);
    QFETCH(double, tolerance);
    PBX_FUZZY_COMPARE(privacy::rdpSubsampledGaussian(q, sigma, alpha), expected, tolerance);
}

void TestRdp::pureDpCurve()
{
    // The tight ε-DP curve is ≤ min(ε, αε²/2), equals ε at α = ∞ and grows with α.
    double last = 0.0;
    for (double a : {1.1, 1.5, 2.0, 5.0, 50.0, 1000.0}) {
        const double v = privacy::rdpPureDp(1.0, a);
        QVERIFY(v <= 1.0 && v <= 0.5 * a && v >= last);
        last = v;
    }
    QCOMPARE(privacy::rdpPureDp(1.0, std::numeric_limits<double>::infinity()), 1.0);
    // It equals the RDP of binary randomized response: (1/(α−1)) log(p^α(1−p)^{1−α} + (1−p)^α p^{1−α}).
    const double p = std::exp(1.0) / (1 + std::exp(1.0)), a = 3.0;
    const double rr
        = std::log(std::pow(p, a) * std::pow(1 - p, 1 - a) + std::pow(1 - p, a) * std::pow(p, 1 - a))
          / (a - 1);
    PBX_FUZZY_COMPARE(privacy::rdpPureDp(1.0, a), rr, 1e-12);
}

void TestRdp::conversionConstantCurve()
{
    // docs/composition.md TV-14: constant RDP 1.1 at orders 2..32, δ = 1e-5 → ε = 1.32783806176 at α = 32.
    std::vector<double> orders, rdp;
    for (int a = 2; a <= 32; ++a) {
        orders.push_back(a);
        rdp.push_back(1.1);
    }
    auto e = privacy::epsilonFromRdp(orders, rdp, 1e-5);
    QVERIFY(e.ok());
    PBX_FUZZY_COMPARE(e->value, 1.32783806176, 1e-11);
    QCOMPARE(e->optimalOrder, 32.0);
    auto d = privacy::deltaFromRdp(orders, rdp, 1.32783806176);
    PBX_FUZZY_COMPARE(d->value, 1e-5, 1e-9);
}

void TestRdp::conversionGaussianFineGrid()
{
    // TV-14: Gaussian with noise multiplier 4.530877117, orders 1.000..99.999 step 0.001:
    // ε(1e-6) = 1.0000 at α ≈ 21.985, δ(1) = 1e-6.
    std::vector<double> orders, rdp;
    for (int i = 1000; i < 100000; ++i) {
        orders.push_back(i / 1000.0);
        rdp.push_back(privacy::rdpGaussian(4.530877117, 1.0, orders.back()));
    }
    auto e = privacy::epsilonFromRdp(orders, rdp, 1e-6);
    PBX_FUZZY_COMPARE(e->value, 1.0, 1e-5);
    QVERIFY(std::fabs(e->optimalOrder - 21.985) < 0.01);
    auto d = privacy::deltaFromRdp(orders, rdp, 1.0);
    PBX_FUZZY_COMPARE(d->value, 1e-6, 1e-4);
}

void TestRdp::conversionDpSgd_data()
{
    QTest::addColumn<double>("n");
    QTest::addColumn<double>("batch");
    QTest::addColumn<double>("sigma");
    QTest::addColumn<double>("epochs");
    QTest::addColumn<double>("delta");
    QTest::addColumn<double>("expected");
    QTest::addColumn<double>("order");
    // docs/composition.md TV-14 (TF-Privacy compute_dp_sgd_privacy test values, TF-Privacy order grid).
    QTest::newRow("mnist") << 60000.0 << 150.0 << 1.3 << 15.0 << 1e-5 << 0.7242234026109595 << 19.0;
    QTest::newRow("large") << 100000.0 << 100.0 << 1.0 << 30.0 << 1e-7 << 1.4154988495444842 << 13.0;
}

void TestRdp::conversionDpSgd()
{
    QFETCH(double, n);
    QFETCH(double, batch);
    QFETCH(double, sigma);
    QFETCH(double, epochs);
    QFETCH(double, delta);
    QFETCH(double, expected);
    QFETCH(double, order);
    std::vector<double> orders{1.25, 1.5, 1.75, 2, 2.25, 2.5, 3, 3.5, 4, 4.5};
    for (int a = 5; a < 64; ++a)
        orders.push_back(a);
    for (double a : {128.0, 256.0, 512.0})
        orders.push_back(a);
    PrivacyEvent e;
    e.mechanism = MechanismKind::Gaussian;
    e.sigma = sigma;
    e.sampling = {SamplingKind::Poisson, batch / n};
    e.count = static_cast<std::int64_t>(std::ceil(epochs * n / batch));
    Ledger ledger;
    ledger.events.push_back(e);
    auto acc = RdpAccountant::fromLedger(ledger, orders);
    QVERIFY(acc.ok());
    auto a = acc.value()->epsilonForDelta(delta);
    PBX_FUZZY_COMPARE(a->epsilon, expected, 1e-9);
    QCOMPARE(a->optimalOrder.value(), order);
}

void TestRdp::liveLedgerMatchesBatch()
{
    // 1000 single-step updates of a live ledger equal one 1000-step event (rdp_to_dp r2dp_010).
    PrivacyEvent e;
    e.mechanism = MechanismKind::Gaussian;
    e.sigma = 1.0;
    e.sampling = {SamplingKind::Poisson, 0.01};
    RdpAccountant live;
    for (int i = 0; i < 1000; ++i)
        QVERIFY(live.compose(e, Neighbouring::AddRemove).ok());
    e.count = 1000;
    RdpAccountant batch;
    QVERIFY(batch.compose(e, Neighbouring::AddRemove).ok());
    const double a = live.epsilonForDelta(1e-5)->epsilon;
    const double b = batch.epsilonForDelta(1e-5)->epsilon;
    PBX_FUZZY_COMPARE(a, b, 1e-12);
    QVERIFY(a >= b * (1 - 1e-15)); // the per-step sum rounds up at least as much
}

void TestRdp::approxEventExtraDelta()
{
    // An (ε, δ) event adds its pure curve and keeps δ aside: ε(δ) is +∞ below that δ.
    PrivacyEvent e;
    e.mechanism = MechanismKind::ApproxDp;
    e.epsilon = 0.5;
    e.delta = 1e-6;
    e.count = 2;
    RdpAccountant acc;
    QVERIFY(acc.compose(e, Neighbouring::AddRemove).ok());
    PBX_FUZZY_COMPARE(acc.extraDelta(), 2e-6 - 1e-12, 1e-12); // 1 − (1 − 1e-6)²
    QVERIFY(std::isinf(acc.epsilonForDelta(1e-6)->epsilon));
    QVERIFY(std::isfinite(acc.epsilonForDelta(1e-5)->epsilon));
    QVERIFY(acc.deltaForEpsilon(1.0)->delta >= acc.extraDelta());
}

void TestRdp::zcdpEventsOfDifferentRho()
{
    // ρ = 0.02 then ρ = 0.1 is 0.12-zCDP whatever the order: RDP ε(α) = 0.12·α at every order.
    // The per-event curve cache once ignored ρ and reported 1.3055 (two 0.02's) for this ledger.
    const auto zcdp = [](double rho) {
        PrivacyEvent e;
        e.mechanism = MechanismKind::Zcdp;
        e.rho = rho;
        return e;
    };
    const auto epsilonOf = [&](std::initializer_list<double> rhos) {
        RdpAccountant acc;
        for (double rho : rhos)
            if (!acc.compose(zcdp(rho), Neighbouring::AddRemove).ok())
                return -1.0;
        return acc.epsilonForDelta(1e-6)->epsilon;
    };
    const double together = epsilonOf({0.12});
    PBX_FUZZY_COMPARE(together, 2.3657713968355630, 1e-9); // the 0.12-zCDP curve on the order grid
    PBX_FUZZY_COMPARE(epsilonOf({0.02, 0.1}), together, 1e-12);
    PBX_FUZZY_COMPARE(epsilonOf({0.1, 0.02}), together, 1e-12);
    PBX_FUZZY_COMPARE(epsilonOf({0.02, 0.02}), epsilonOf({0.04}), 1e-12);
}

void TestRdp::samplingWithoutReplacement_data()
{
    QTest::addColumn<double>("gamma");
    QTest::addColumn<double>("z");
    QTest::addColumn<double>("alpha");
    QTest::addColumn<double>("expected");
    // Wang, Balle & Kasiviswanathan 2019 Thm 9 (Cor. 10 between integers), evaluated
    // independently with mpmath at 40 digits (binomials and exponentials summed directly).
    QTest::newRow("0.01 z1 a2") << 0.01 << 1.0 << 2.0 << 0.00054350863810943249;
    QTest::newRow("0.01 z1 a2.5") << 0.01 << 1.0 << 2.5 << 0.00073775133600608604;
    QTest::newRow("0.01 z1 a8") << 0.01 << 1.0 << 8.0 << 0.0026841650126889324;
    QTest::newRow("0.01 z1 a32") << 0.01 << 1.0 << 32.0 << 11.26863552351778;
    QTest::newRow("0.01 z1 a1.5") << 0.01 << 1.0 << 1.5 << 0.00054350863810943249;
    QTest::newRow("0.1 z2 a2") << 0.1 << 2.0 << 2.0 << 0.011296964989239871;
    QTest::newRow("0.1 z2 a2.5") << 0.1 << 2.0 << 2.5 << 0.016299382096343088;
    QTest::newRow("0.1 z2 a8") << 0.1 << 2.0 << 8.0 << 0.070174256610560714;
    QTest::newRow("0.1 z2 a32") << 0.1 << 2.0 << 32.0 << 1.6500215053801917;
}

void TestRdp::samplingWithoutReplacement()
{
    QFETCH(double, gamma);
    QFETCH(double, z);
    QFETCH(double, alpha);
    QFETCH(double, expected);
    const double got = privacy::rdpSampledWithoutReplacementGaussian(gamma, z, alpha);
    QVERIFY2(got >= expected, qPrintable(test::describe(got, expected, 1e-11)));
    PBX_FUZZY_COMPARE(got, expected, 1e-11);
}

// A Gaussian sampled without replacement under replace-one has an RDP answer (pbx
// used to refuse the ledger); it is never below the unsampled Gaussian's at γ = 1 and it is
// amplified (far below the unsampled value) at γ = 0.01.
void TestRdp::samplingWithoutReplacementLedger()
{
    Ledger ledger;
    ledger.neighbours = Neighbouring::Replace;
    PrivacyEvent e;
    e.mechanism = MechanismKind::Gaussian;
    e.sigma = 1.0;
    e.count = 1000;
    e.sampling = {SamplingKind::WithoutReplacement, 0.01};
    ledger.events = {e};
    auto acc = RdpAccountant::fromLedger(ledger);
    QVERIFY2(acc.ok(), acc.ok() ? "" : acc.error().message.c_str());
    const auto a = acc.value()->epsilonForDelta(1e-5).value();
    QVERIFY(std::isfinite(a.epsilon) && a.epsilon > 0.0);
    e.sampling = {};
    ledger.events = {e};
    const double unsampled = RdpAccountant::fromLedger(ledger).value()->epsilonForDelta(1e-5)->epsilon;
    QVERIFY2(a.epsilon < 0.1 * unsampled, qPrintable(QString::number(a.epsilon)));
    // The curve at each order is 1000 × the single-step curve.
    const auto &orders = acc.value()->orders();
    const auto &rdp = acc.value()->rdp();
    for (std::size_t i = 0; i < orders.size(); ++i)
        QVERIFY(rdp[i] >= 1000.0 * privacy::rdpSampledWithoutReplacementGaussian(0.01, 1.0, orders[i])
                              * (1 - 1e-12));
}

QTEST_APPLESS_MAIN(TestRdp)
#include "tst_rdp.moc"
