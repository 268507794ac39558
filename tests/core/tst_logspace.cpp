// SPDX-License-Identifier: MIT
// core/math/log_space: logAdd, logSub, log1mExp, logAExpBPlusC and logAbsBinomial against values
// computed in long double or printed from Python's log1p/expm1; the identities log(e^a + e^b) and
// log(e^a − e^b), −∞ as the logarithm of 0, extreme arguments without overflow or underflow,
// cancellation near a = b and across the log1mexp branch at −ln 2, and the error results.
#include "core/math/log_space.h"
#include "tests/testutils.h"

#include <cmath>
#include <limits>
#include <random>

using pbx::math::kNegInf;
using pbx::math::kPosInf;
using pbx::math::log1mExp;
using pbx::math::logAbsBinomial;
using pbx::math::logAdd;
using pbx::math::logAExpBPlusC;
using pbx::math::logSub;

namespace {
/// log(e^a ± e^b) in long double, for arguments whose exponentials are representable there.
double refLogAdd(double a, double b)
{
    return double(std::log(std::exp(static_cast<long double>(a)) + std::exp(static_cast<long double>(b))));
}
} // namespace

class TestLogSpace : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void logAddValues_data();
    void logAddValues();
    void logAddIdentities();
    void logAddInfinities();
    void logSubValues_data();
    void logSubValues();
    void logSubIdentitiesAndErrors();
    void log1mExpValues_data();
    void log1mExpValues();
    void log1mExpBranchIsContinuous();
    void aExpBPlusC();
    void sumOfManyTerms();
    void binomialIntegerOrder();
    void binomialFractionalOrder_data();
    void binomialFractionalOrder();
};

void TestLogSpace::logAddValues_data()
{
    QTest::addColumn<double>("a");
    QTest::addColumn<double>("b");
    QTest::addColumn<double>("expected");
    QTest::newRow("log 2 ⊕ log 3 = log 5") << std::log(2.0) << std::log(3.0) << std::log(5.0);
    QTest::newRow("0 ⊕ 0 = ln 2") << 0.0 << 0.0 << 0.6931471805599453;
    // log1p keeps the tiny term: log(1 + e^{−40}) = 4.248354255291589e-18 (not 0).
    QTest::newRow("0 ⊕ −40") << 0.0 << -40.0 << 4.248354255291589e-18;
    QTest::newRow("0 ⊕ −1") << 0.0 << -1.0 << 0.31326168751822286;
    // Beyond double's exponent range either way: e^{±1000} would overflow or underflow.
    QTest::newRow("1000 ⊕ 1000") << 1000.0 << 1000.0 << 1000.0 + 0.6931471805599453;
    QTest::newRow("−1000 ⊕ −1000") << -1000.0 << -1000.0 << -1000.0 + 0.6931471805599453;
    QTest::newRow("800 ⊕ 0") << 800.0 << 0.0 << 800.0;
}

void TestLogSpace::logAddValues()
{
    QFETCH(double, a);
    QFETCH(double, b);
    QFETCH(double, expected);
    PBX_FUZZY_COMPARE(logAdd(a, b), expected, 1e-15);
    PBX_FUZZY_COMPARE(logAdd(b, a), expected, 1e-15);
}

void TestLogSpace::logAddIdentities()
{
    // Against long double on random pairs in [−300, 300]; commutative, and
    // log(e^a + e^b) − a = log1p(e^{b−a}) ≥ 0 (never below the larger argument).
    std::mt19937_64 rng(12);
    std::uniform_real_distribution<double> u(-300.0, 300.0);
    for (int i = 0; i < 10000; ++i) {
        const double a = u(rng), b = u(rng);
        const double s = logAdd(a, b);
        // A few ulps of the result (absolute near 0, where the result itself is tiny).
        QVERIFY2(std::fabs(s - refLogAdd(a, b)) <= 4e-16 * (std::fabs(s) + 1.0),
                 qPrintable(QStringLiteral("a %1 b %2").arg(a, 0, 'g', 17).arg(b, 0, 'g', 17)));
        QCOMPARE(s, logAdd(b, a));
        QVERIFY(s >= std::max(a, b));
        // Associativity to rounding: (a ⊕ b) ⊕ c = a ⊕ (b ⊕ c).
        const double c = u(rng);
        const double left = logAdd(logAdd(a, b), c), right = logAdd(a, logAdd(b, c));
        QVERIFY(std::fabs(left - right) <= 1e-15 * (std::fabs(left) + 1.0));
    }
}

void TestLogSpace::logAddInfinities()
{
    // −∞ is log 0, the identity: returned exactly.
    QCOMPARE(logAdd(kNegInf, 2.5), 2.5);
    QCOMPARE(logAdd(-7.0, kNegInf), -7.0);
    QCOMPARE(logAdd(kNegInf, kNegInf), kNegInf);
    // +∞ absorbs everything (an infinite Rényi moment stays infinite, never NaN).
    QCOMPARE(logAdd(kPosInf, 3.0), kPosInf);
    QCOMPARE(logAdd(-3.0, kPosInf), kPosInf);
    QCOMPARE(logAdd(kPosInf, kNegInf), kPosInf);
    QCOMPARE(logAdd(kPosInf, kPosInf), kPosInf);
    QVERIFY(std::isnan(logAdd(std::numeric_limits<double>::quiet_NaN(), 1.0)));
}

void TestLogSpace::logSubValues_data()
{
    QTest::addColumn<double>("a");
    QTest::addColumn<double>("b");
    QTest::addColumn<double>("expected");
    QTest::addColumn<double>("tolerance");
    QTest::newRow("log 5 ⊖ log 3 = log 2") << std::log(5.0) << std::log(3.0) << std::log(2.0) << 1e-15;
    // Cancellation: a − b = 1e-10, log(1 − e^{−1e-10}) = −23.025850929990458 (expm1 keeps it).
    QTest::newRow("x ⊖ (x − 1e-10)") << 0.0 << -1e-10 << -23.025850929990458 << 1e-15;
    // Far apart: log(1 − e^{−50}) = −1.9287498479639178e-22 (log1p keeps it).
    QTest::newRow("0 ⊖ −50") << 0.0 << -50.0 << -1.9287498479639178e-22 << 1e-15;
    QTest::newRow("1000 ⊖ 999") << 1000.0 << 999.0 << 1000.0 + std::log1p(-std::exp(-1.0)) << 1e-15;
    QTest::newRow("−1000 ⊖ −1001") << -1000.0 << -1001.0 << -1000.0 + std::log1p(-std::exp(-1.0)) << 1e-15;
}

void TestLogSpace::logSubValues()
{
    QFETCH(double, a);
    QFETCH(double, b);
    QFETCH(double, expected);
    QFETCH(double, tolerance);
    PBX_FUZZY_COMPARE(logSub(a, b), expected, tolerance);
}

void TestLogSpace::logSubIdentitiesAndErrors()
{
    // logSub undoes logAdd: log((e^a + e^b) − e^b) = a, on random pairs.
    std::mt19937_64 rng(34);
    std::uniform_real_distribution<double> u(-300.0, 300.0);
    for (int i = 0; i < 10000; ++i) {
        const double a = u(rng), b = a - std::fabs(u(rng)) / 10.0; // b ≤ a, gap up to 30
        const double s = logAdd(a, b);
        // The round trip amplifies the rounding of s by ∂/∂s log(e^s − e^b) = 1 + e^{b−a} ≤ 2.
        QVERIFY2(std::fabs(logSub(s, b) - a)
                     <= 4e-16 * (std::fabs(s) + std::fabs(a) + 1.0) * (1.0 + std::exp(b - a)),
                 qPrintable(QStringLiteral("a %1 b %2").arg(a, 0, 'g', 17).arg(b, 0, 'g', 17)));
        QVERIFY(logSub(a, b) <= a);
    }
    // log(e^a − e^a) = log 0 = −∞; subtracting 0 (−∞) is exact; a < b is the caller's error: NaN.
    QCOMPARE(logSub(3.0, 3.0), kNegInf);
    QCOMPARE(logSub(3.0, kNegInf), 3.0);
    QCOMPARE(logSub(kNegInf, kNegInf), kNegInf);
    QVERIFY(std::isnan(logSub(1.0, 2.0)));
    QVERIFY(std::isnan(logSub(kNegInf, 0.0)));
    QCOMPARE(logSub(kPosInf, 5.0), kPosInf);
    QVERIFY(std::fabs(logSub(std::log(2.0), 0.0)) <= 1e-16); // log(2 − 1) = 0
}

void TestLogSpace::log1mExpValues_data()
{
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("expected");
    QTest::newRow("−ln 2 → −ln 2") << -0.6931471805599453 << -0.6931471805599453;
    // Near 0: log(−expm1(x)); a naive log1p(−e^x) would give −∞ at x = −1e-20.
    QTest::newRow("−1e-20") << -1e-20 << -46.051701859880914;
    QTest::newRow("−1e-10") << -1e-10 << -23.025850929990458;
    // Far from 0: log1p(−e^x); a naive log(1 − e^x) would give 0 at x = −50.
    QTest::newRow("−50") << -50.0 << -1.9287498479639178e-22;
    QTest::newRow("−1") << -1.0 << std::log1p(-std::exp(-1.0));
}

void TestLogSpace::log1mExpValues()
{
    QFETCH(double, x);
    QFETCH(double, expected);
    PBX_FUZZY_COMPARE(log1mExp(x), expected, 1e-15);
}

void TestLogSpace::log1mExpBranchIsContinuous()
{
    // The two formulas meet at x = −ln 2; against long double on a fine grid around it and over
    // [−40, −1e-6].
    for (int i = -1000; i <= 1000; ++i) {
        const double x = -0.6931471805599453 + i * 1e-6;
        const long double ref = std::log(-std::expm1(static_cast<long double>(x)));
        PBX_FUZZY_COMPARE(log1mExp(x), double(ref), 1e-15);
    }
    for (double x = -40.0; x < -1e-6; x *= 0.9) {
        // The reference switches formulas too (log of 1 − 4e-18 loses everything even in long
        // double), at a different point so the two computations stay independent.
        const long double xl = x;
        const long double ref = x > -2.0 ? std::log(-std::expm1(xl)) : std::log1p(-std::exp(xl));
        PBX_FUZZY_COMPARE(log1mExp(x), double(ref), 1e-15);
    }
    QCOMPARE(log1mExp(0.0), kNegInf);
    QCOMPARE(log1mExp(kNegInf), 0.0);
}

void TestLogSpace::aExpBPlusC()
{
    // log(2·e³ + 5) = 3.8104569228259333.
    PBX_FUZZY_COMPARE(logAExpBPlusC(2.0, 3.0, 5.0), 3.8104569228259333, 1e-15);
    // c = 0: log a + b exactly.
    QCOMPARE(logAExpBPlusC(0.25, 7.0, 0.0), std::log(0.25) + 7.0);
    // e^{1000} overflows a double; the answer 1000 + ln ½ does not.
    PBX_FUZZY_COMPARE(logAExpBPlusC(0.5, 1000.0, 7.0), 999.3068528194401, 1e-15);
    // e^{−1000} underflows; the answer is log c.
    PBX_FUZZY_COMPARE(logAExpBPlusC(3.0, -1000.0, 0.5), std::log(0.5), 1e-15);
    // The subsampled-loss shape log(1 − q + q·e^ℓ) with q = 0.01, ℓ = 2.
    PBX_FUZZY_COMPARE(logAExpBPlusC(0.01, 2.0, 0.99), double(std::log(0.99L + 0.01L * std::exp(2.0L))),
                      1e-15);
}

void TestLogSpace::sumOfManyTerms()
{
    // Folding logAdd over Σ_{i=0}^{n} C(n, i)·x^i in log space gives n·log(1 + x), even where the
    // terms themselves overflow a double (n = 2000, x = e^{0.5}: the largest term is near e^{1945}).
    const int n = 2000;
    const double logX = 0.5;
    double acc = kNegInf;
    for (int i = 0; i <= n; ++i) {
        int sign = 0;
        const double logC = logAbsBinomial(n, i, &sign);
        QCOMPARE(sign, 1);
        acc = logAdd(acc, logC + i * logX);
    }
    PBX_FUZZY_COMPARE(acc, n * std::log1p(std::exp(logX)), 1e-13);
}

void TestLogSpace::binomialIntegerOrder()
{
    int sign = 7;
    // lgamma differences: a few ulps of lgamma(α + 1), so 1e-14 relative here.
    PBX_FUZZY_COMPARE(logAbsBinomial(5.0, 2, &sign), std::log(10.0), 1e-14);
    QCOMPARE(sign, 1);
    QCOMPARE(logAbsBinomial(10.0, 0, &sign), 0.0); // lgamma(1) = 0 exactly
    QCOMPARE(logAbsBinomial(10.0, 10, &sign), 0.0);
    PBX_FUZZY_COMPARE(logAbsBinomial(64.0, 32, &sign), std::log(1832624140942590534.0), 1e-14);
    QCOMPARE(sign, 1);
    // i > α for an integer α: the coefficient is exactly 0 (Γ has a pole), sign 0, log −∞.
    QCOMPARE(logAbsBinomial(5.0, 6, &sign), kNegInf);
    QCOMPARE(sign, 0);
    QCOMPARE(logAbsBinomial(5.0, 9, &sign), kNegInf);
    QCOMPARE(sign, 0);
    // The sign pointer is optional.
    PBX_FUZZY_COMPARE(logAbsBinomial(6.0, 3, nullptr), std::log(20.0), 1e-14);
}

void TestLogSpace::binomialFractionalOrder_data()
{
    QTest::addColumn<double>("alpha");
    QTest::newRow("0.5") << 0.5;
    QTest::newRow("1.5") << 1.5;
    QTest::newRow("2.25") << 2.25;
    QTest::newRow("7.75") << 7.75;
    QTest::newRow("32.5") << 32.5;
    QTest::newRow("255.1") << 255.1;
}

void TestLogSpace::binomialFractionalOrder()
{
    // Against C(α, i + 1) = C(α, i)·(α − i)/(i + 1) in long double, signs included: C(1.5, ·) =
    // 1, 1.5, 0.375, −0.0625, 0.0234375, −0.01171875, …; the sign alternates once i > α + 1.
    QFETCH(double, alpha);
    long double c = 1.0L;
    for (int i = 0; i <= 300; ++i) {
        int sign = 0;
        const double got = logAbsBinomial(alpha, i, &sign);
        const int expectedSign = c > 0 ? 1 : -1;
        QVERIFY2(sign == expectedSign, qPrintable(QStringLiteral("i = %1: sign %2").arg(i).arg(sign)));
        // lgamma differences of numbers up to ~1500 in size: a few ulps, 4e-12 absolute.
        const double ref = double(std::log(std::fabs(c)));
        QVERIFY2(
            std::fabs(got - ref) <= 4e-12 + 1e-15 * std::fabs(ref),
            qPrintable(QStringLiteral("i = %1: %2 vs %3").arg(i).arg(got, 0, 'g', 17).arg(ref, 0, 'g', 17)));
        c *= (static_cast<long double>(alpha) - i) / (i + 1);
    }
    int sign = 0;
    if (alpha == 1.5) {
        PBX_FUZZY_COMPARE(logAbsBinomial(1.5, 3, &sign), std::log(0.0625), 1e-14);
        QCOMPARE(sign, -1);
        PBX_FUZZY_COMPARE(logAbsBinomial(1.5, 4, &sign), std::log(0.0234375), 1e-14);
        QCOMPARE(sign, 1);
        PBX_FUZZY_COMPARE(logAbsBinomial(1.5, 5, &sign), std::log(0.01171875), 1e-14);
        QCOMPARE(sign, -1);
    }
}

QTEST_APPLESS_MAIN(TestLogSpace)
#include "tst_logspace.moc"
