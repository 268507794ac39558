// SPDX-License-Identifier: MIT
// The advanced-composition filter (Whitehouse, Ramdas, Rogers & Wu 2023): admitted counts of
// equal pure requests, the crossover against basic composition, (ε, δ) requests, refusals.
//
// Expected values: the filters-odometers check script fo_advanced_filter.py (its worked table,
// crossover table and δ-split example), an independent Python evaluation of the rule
// √(2 ln(1/δ')·S2) + S2/2 ≤ ε with charges × (1 + 1e-12) and budgets × (1 − 1e-12).
#include "core/filters/advanced_filter.h"
#include "core/filters/privacy_filter.h"
#include "core/privacy/zcdp_conversion.h"
#include "tests/testutils.h"

using pbx::filters::AdvancedFilter;
using pbx::filters::ChargeKind;
using pbx::filters::FilterKind;
using pbx::filters::PrivacyFilter;

namespace {
/// Charges pure ε₀ requests until one is refused (at most `limit`); returns how many passed.
int chargeUntilRefused(PrivacyFilter &f, double epsilon0, double delta0, int limit)
{
    int k = 0;
    while (k < limit && f.charge({ChargeKind::PureEpsilon, epsilon0, delta0}).ok())
        ++k;
    return k;
}
} // namespace

class TestAdvancedFilter : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void identityWithZcdpConversion();
    void workedTable_data();
    void workedTable();
    void crossover_data();
    void crossover();
    void approximateRequests();
    void refusals();
};

void TestAdvancedFilter::identityWithZcdpConversion()
{
    // √(2L·S2) + S2/2 = ρ + 2√(ρL) at ρ = S2/2 (fo_advanced_filter.out, three cases).
    auto f = AdvancedFilter::create(1.0, 1e-6).value();
    PBX_FUZZY_COMPARE(f->epsilonOf(0.01 / 2), 0.530652176976, 1e-11);
    auto g = AdvancedFilter::create(2.0, 1e-5).value();
    PBX_FUZZY_COMPARE(g->epsilonOf(0.05 / 2), 1.097983013145, 1e-11);
    auto h = AdvancedFilter::create(5.0, 1e-9).value();
    PBX_FUZZY_COMPARE(h->epsilonOf(0.5 / 2), 4.802281388155, 1e-11);
    PBX_FUZZY_COMPARE(f->budget(), 0.01746890477, 1e-9); // ρ(1, 1e-6), Bun–Steinke
    QCOMPARE(f->epsilonSpent(), 0.0);
    QCOMPARE(f->deltaSpent(), 0.0);
}

void TestAdvancedFilter::workedTable_data()
{
    QTest::addColumn<double>("epsilon0");
    QTest::addColumn<int>("basic");
    QTest::addColumn<int>("advanced");
    // (ε, δ) = (1, 1e-6), pure requests of equal ε₀ (fo_advanced_filter.out "Worked table").
    // basic: ⌊1/ε₀⌋ for the decimal ε₀, less one where the double nearest ε₀ lies above it and
    // 1/ε₀ is a whole number (0.2 is 0.2000000000000000111: five of them exceed 1).
    QTest::newRow("0.2") << 0.2 << 4 << 0;
    QTest::newRow("0.1") << 0.1 << 9 << 3;
    QTest::newRow("0.05") << 0.05 << 19 << 13;
    QTest::newRow("0.04") << 0.04 << 24 << 21;
    QTest::newRow("0.035") << 0.035 << 28 << 28;
    QTest::newRow("0.0349") << 0.0349 << 28 << 28;
    QTest::newRow("0.03") << 0.03 << 33 << 38;
    QTest::newRow("0.02") << 0.02 << 49 << 87;
    QTest::newRow("0.01") << 0.01 << 99 << 349;
    QTest::newRow("0.005") << 0.005 << 199 << 1397;
    QTest::newRow("0.001") << 0.001 << 999 << 34937;
}

void TestAdvancedFilter::workedTable()
{
    QFETCH(double, epsilon0);
    QFETCH(int, basic);
    QFETCH(int, advanced);
    auto f = PrivacyFilter::create(FilterKind::Advanced, 1.0, 1e-6).value();
    QCOMPARE(chargeUntilRefused(*f, epsilon0, 0.0, advanced + 10), advanced);
    QVERIFY(f->epsilonSpent() <= 1.0);
    auto b = PrivacyFilter::create(FilterKind::Basic, 1.0, 1e-6).value();
    QCOMPARE(chargeUntilRefused(*b, epsilon0, 0.0, basic + 10), basic);
    QCOMPARE(static_cast<int>(AdvancedFilter::create(1.0, 1e-6).value()->admitsEqual(epsilon0)), advanced);
}

void TestAdvancedFilter::crossover_data()
{
    QTest::addColumn<double>("epsilon");
    QTest::addColumn<double>("delta");
    QTest::addColumn<double>("rho");
    QTest::addColumn<double>("epsilonStar");
    QTest::addColumn<double>("kStar");
    QTest::addColumn<int>("firstWin");
    // fo_advanced_filter.out crossover table: ρ(ε, δ'), ε₀* = 2ρ/ε, k* = ε²/(2ρ), and the first
    // k with k_adv(ε/k) > k (the advanced filter admits more requests of ε/k than basic's k).
    QTest::newRow("0.5, 1e-5") << 0.5 << 1e-5 << 0.0053139042 << 0.021256 << 23.523 << 25;
    QTest::newRow("0.5, 1e-6") << 0.5 << 1e-6 << 0.0044438442 << 0.017775 << 28.129 << 30;
    QTest::newRow("1, 1e-5") << 1.0 << 1e-5 << 0.0208199383 << 0.041640 << 24.015 << 25;
    QTest::newRow("1, 1e-6") << 1.0 << 1e-6 << 0.0174689048 << 0.034938 << 28.622 << 30;
    QTest::newRow("1, 1e-9") << 1.0 << 1e-9 << 0.0117811604 << 0.023562 << 42.441 << 44;
    QTest::newRow("2, 1e-6") << 2.0 << 1e-6 << 0.0675738817 << 0.067574 << 29.597 << 31;
    QTest::newRow("5, 1e-6") << 5.0 << 1e-6 << 0.3853463817 << 0.154139 << 32.438 << 34;
}

void TestAdvancedFilter::crossover()
{
    QFETCH(double, epsilon);
    QFETCH(double, delta);
    QFETCH(double, rho);
    QFETCH(double, epsilonStar);
    QFETCH(double, kStar);
    QFETCH(int, firstWin);
    auto f = AdvancedFilter::create(epsilon, delta).value();
    PBX_FUZZY_COMPARE(f->budget(), rho, 2e-8); // the table prints 10 significant digits
    // The table prints ε₀* to 6 decimals and k* to 3.
    QVERIFY2(std::fabs(f->crossoverEpsilon() - epsilonStar) <= 5e-7,
             qPrintable(QString::number(f->crossoverEpsilon(), 'g', 12)));
    QVERIFY2(std::fabs(f->crossoverCount() - kStar) <= 5e-4,
             qPrintable(QString::number(f->crossoverCount(), 'g', 12)));
    // The first k at which the advanced filter admits more than k requests of ε/k (basic admits
    // exactly k of them).
    int k = 1;
    while (static_cast<int>(f->admitsEqual(epsilon / k)) <= k)
        ++k;
    QCOMPARE(k, firstWin);
}

void TestAdvancedFilter::approximateRequests()
{
    // (1, 1e-6) split δ' = δ'' = 5e-7; requests (0.01, 1e-8): the ε side would take 333, the δ''
    // side 50 in decimal (fo_advanced_filter.out) but 49 in doubles: 1e-8 is stored as
    // 1.0000000000000000209e-8 and 5e-7 as 4.99999999999999977e-7, so a fiftieth δ_j does not fit.
    auto f = AdvancedFilter::create(1.0, 1e-6, 5e-7).value();
    QCOMPARE(f->conversionDelta(), 5e-7);
    QCOMPARE(static_cast<int>(f->admitsEqual(0.01)), 333);
    QCOMPARE(chargeUntilRefused(*f, 0.01, 1e-8, 400), 49);
    auto refused = f->canCharge({ChargeKind::PureEpsilon, 0.01, 1e-8});
    PBX_VERIFY_ERROR(refused, BudgetExceeded, "δ");
    QVERIFY(f->canCharge({ChargeKind::PureEpsilon, 0.01, 0.0}).ok()); // a pure one still fits
    PBX_FUZZY_COMPARE(f->deltaSpent(), 5e-7 + 49 * 1e-8, 1e-12);
}

void TestAdvancedFilter::refusals()
{
    auto f = PrivacyFilter::create(FilterKind::Advanced, 1.0, 1e-6).value();
    PBX_VERIFY_ERROR(f->charge({ChargeKind::Rho, 0.001, 0.0}), Unsupported, "not ε-DP");
    PBX_VERIFY_ERROR(f->charge({ChargeKind::ExPost, 0.01, 0.0}), Unsupported, "noise reduction");
    QVERIFY(f->charge({ChargeKind::PureEpsilon, 0.1, 0.0}).ok());
    // 0.1 spent as ρ = 0.005: at most √(2·(ρ(1,1e-6) − 0.005)) ≈ 0.1575 remains for one request.
    const double most = f->remainingFor(ChargeKind::PureEpsilon);
    PBX_FUZZY_COMPARE(most, std::sqrt(2 * (0.01746890477 - 0.005)), 1e-8);
    auto refused = f->charge({ChargeKind::PureEpsilon, 0.2, 0.0});
    QCOMPARE(QString::fromStdString(refused.error().message),
             QStringLiteral("this query needs ε = 0.2 but the advanced-composition filter has room for at "
                            "most ε = 0.1579"));
    QVERIFY(f->charge({ChargeKind::PureEpsilon, most, 0.0}).ok());
    QCOMPARE(f->remainingFor(ChargeKind::Rho), 0.0);
    PBX_VERIFY_ERROR(AdvancedFilter::create(1.0, 1e-6, 1e-6), InvalidArgument, "δ''");
    PBX_VERIFY_ERROR(AdvancedFilter::create(1.0, 0.0), InvalidArgument, "δ");
}

QTEST_APPLESS_MAIN(TestAdvancedFilter)
#include "tst_advancedfilter.moc"
