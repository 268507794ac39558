// SPDX-License-Identifier: MIT
// Privacy odometers (sessions: tst_odometersession.cpp): the λ-grid zCDP odometer and Lécuyer's RDP
// odometer after 10, 100 and 300 Laplace counts (b = 100, δ = 1e-6), against the values of the
// filters-odometers check script (fo_odometers.out, an independent Python evaluation; 1e-4
// absolute), and what an odometer pays against a fixed-budget filter.
#include "core/filters/odometer.h"
#include "core/filters/rdp_filter.h"
#include "core/privacy/rdp_curves.h"
#include "core/privacy/zcdp_conversion.h"
#include "tests/testutils.h"

using pbx::filters::RdpOdometer;
using pbx::filters::ZcdpOdometer;

class TestOdometer : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void lambdaGrid();
    void gaussianStepsVoidTheBasicBound();
    void lecuyer();
    void invalid();
};

void TestOdometer::lambdaGrid()
{
    // 300 counts at ε_i = 0.01 (ρ_i = 5e-5): basic Σε_i = 0.1 / 1 / 3, λ-grid 0.1851 / 0.5912 /
    // 1.0273; reported min(basic, λ-grid) = 0.100 / 0.591 / 1.027 (fo_odometers.out).
    auto odo = ZcdpOdometer::create(1e-6).value();
    QCOMPARE(odo.reading().epsilon, 0.0); // nothing yet: the basic bound is 0
    const struct
    {
        int n;
        double grid;
        double reported;
        double fixed; ///< a zCDP filter's bound had ρ = n·5e-5 been its budget ("zCDP fixed")
    } expected[] = {{10, 0.1851, 0.1, 0.1667}, {100, 0.5912, 0.5912, 0.5307}, {300, 1.0273, 1.0273, 0.9255}};
    int n = 0;
    for (const auto &e : expected) {
        while (n < e.n) {
            QVERIFY(odo.addPureEpsilon(0.01).ok());
            ++n;
        }
        QVERIFY2(std::fabs(odo.lambdaGridEpsilon() - e.grid) <= 1e-4,
                 qPrintable(QString::number(odo.lambdaGridEpsilon())));
        QVERIFY2(std::fabs(odo.reading().epsilon - e.reported) <= 1e-4,
                 qPrintable(QString::number(odo.reading().epsilon)));
        QCOMPARE(odo.reading().delta, 1e-6);
        PBX_FUZZY_COMPARE(odo.rho(), e.n * 5e-5, 1e-12);
        const double fixed = pbx::privacy::epsilonFromRho(e.n * 5e-5, 1e-6).value();
        QVERIFY2(std::fabs(fixed - e.fixed) <= 1e-4, qPrintable(QString::number(fixed)));
        QVERIFY(e.n == 10 || odo.reading().epsilon > fixed); // the odometer pays for its freedom
    }
    // The price of not committing to a budget: a zCDP filter whose budget is the final ρ = 0.015
    // certifies ρ + 2√(ρ ln(1/δ)) = 0.9255 at n = 300 (fo_odometers.out, "zCDP fixed"); the
    // odometer's 1.0273 is 11 % more, valid at every n instead of one fixed in advance.
    const double fixed = 0.015 + 2 * std::sqrt(0.015 * std::log(1e6));
    QVERIFY(std::fabs(fixed - 0.9255) <= 1e-4);
    QVERIFY(odo.reading().epsilon > fixed);
}

void TestOdometer::gaussianStepsVoidTheBasicBound()
{
    auto odo = ZcdpOdometer::create(1e-6).value();
    QVERIFY(odo.addPureEpsilon(0.01).ok());
    QCOMPARE(odo.basicEpsilon(), 0.01);
    QVERIFY(odo.addRho(5e-5).ok());
    QVERIFY(std::isinf(odo.basicEpsilon()));
    QCOMPARE(odo.reading().epsilon, odo.lambdaGridEpsilon());
}

void TestOdometer::lecuyer()
{
    // Lécuyer's RDP odometer on the 24-order grid, continuous-Laplace curves (b = 100):
    // 0.2135 (α = 256, f = 1), 0.6432 (α = 56, f = 0), 1.1411 (α = 32, f = 0) after 10 / 100 / 300.
    const auto orders = pbx::filters::defaultFilterOrders();
    auto odo = RdpOdometer::create(1e-6, orders).value();
    const auto curve
        = pbx::filters::roundedCurve(orders, [](double a) { return pbx::privacy::rdpLaplace(0.01, a); });
    const struct
    {
        int n;
        double epsilon;
        double alpha;
        int level;
    } expected[] = {{10, 0.2135, 256, 1}, {100, 0.6432, 56, 0}, {300, 1.1411, 32, 0}};
    int n = 0;
    for (const auto &e : expected) {
        while (n < e.n) {
            QVERIFY(odo.add(curve).ok());
            ++n;
        }
        std::size_t at = 0;
        const auto reading = odo.reading(&at);
        QVERIFY2(std::fabs(reading.epsilon - e.epsilon) <= 1e-4,
                 qPrintable(QString::number(reading.epsilon)));
        QCOMPARE(orders[at], e.alpha);
        QCOMPARE(odo.level(at), e.level);
    }
    // Internals at n = 300, α = 32 (index 17): γ = 0.570539, R = 0.470733 ≤ γ (f = 0), ε = 1.141078.
    QCOMPARE(orders[17], 32.0);
    QVERIFY(std::fabs(odo.gamma(17) - 0.570539) <= 1e-6);
    QVERIFY(std::fabs(odo.sums()[17] - 0.470733) <= 1e-6);
    QVERIFY(std::fabs(odo.epsilonAt(17) - 1.141078) <= 1e-6);
    // Also α = 16 and 24 (fo_odometers.out): ε = 2.358228 and 1.537975.
    QVERIFY(std::fabs(odo.epsilonAt(13) - 2.358228) <= 1e-6);
    QVERIFY(std::fabs(odo.epsilonAt(15) - 1.537975) <= 1e-6);
    // An infinite curve value voids that order only.
    std::vector<double> bad(orders.size(), 0.0);
    bad.back() = std::numeric_limits<double>::infinity();
    QVERIFY(odo.add(bad).ok());
    QVERIFY(std::isinf(odo.epsilonAt(orders.size() - 1)));
    QVERIFY(std::fabs(odo.reading().epsilon - 1.141078) <= 1e-6);
}

void TestOdometer::invalid()
{
    PBX_VERIFY_ERROR(ZcdpOdometer::create(0.0), InvalidArgument, "δ");
    PBX_VERIFY_ERROR(RdpOdometer::create(1e-6, {}), InvalidArgument, "empty");
    PBX_VERIFY_ERROR(RdpOdometer::create(1e-6, {0.5}), InvalidArgument, "> 1");
    auto odo = ZcdpOdometer::create(1e-6).value();
    PBX_VERIFY_ERROR(odo.addPureEpsilon(-1.0), InvalidArgument, "ε");
    PBX_VERIFY_ERROR(odo.addRho(std::nan("")), InvalidArgument, "ρ");
    auto rdp = RdpOdometer::create(1e-6, {2.0, 4.0}).value();
    PBX_VERIFY_ERROR(rdp.add({1.0}), InvalidArgument, "one value per order");
    PBX_VERIFY_ERROR(rdp.add({1.0, -1.0}), InvalidArgument, "negative");
}

QTEST_APPLESS_MAIN(TestOdometer)
#include "tst_odometer.moc"
