// SPDX-License-Identifier: MIT
// The exact samplers (CKS 2020 Algorithms 1–3) and their random-bit sources: exact uniform and
// Bernoulli draws, χ² goodness of fit of 10⁶ seeded draws against independently computed pmfs,
// reproducibility, the OS source, and failure reporting. Seeded, so every verdict is deterministic.
#include "core/mechanisms/discrete_samplers.h"
#include "core/mechanisms/random_bits.h"
#include "tests/sampling/sampling_stats.h"
#include "tests/testutils.h"

#include "tests/failing_bits.h"

#include <bit>
#include <cmath>
#include <limits>
#include <set>

using namespace pbx::mechanisms;
using pbx::ErrorCode;
using pbx::test::Histogram;

using pbx::test::FailingBits;

namespace {
constexpr std::uint64_t kDraws = 1000000;
constexpr double kChiSquareAlpha = 1e-4; // per test row; seeded, so the outcome is fixed
constexpr double kZ = 5.0;               // binomial frequency checks: |count − np| ≤ 5 sd

bool withinBinomial(std::uint64_t count, std::uint64_t n, double p)
{
    const double mean = n * p;
    const double sd = std::sqrt(n * p * (1.0 - p));
    return std::fabs(static_cast<double>(count) - mean) <= kZ * sd + 1e-9;
}
} // namespace

class TestDiscreteSamplers : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void uniformBelowSmall_data();
    void uniformBelowSmall();
    void uniformBelowLarge();
    void uniformBelowInvalid();
    void bernoulliRational_data();
    void bernoulliRational();
    void bernoulliExp_data();
    void bernoulliExp();
    void rationalConversion_data();
    void rationalConversion();
    void rationalInvalid();
    void laplaceFit_data();
    void laplaceFit();
    void gaussianFit_data();
    void gaussianFit();
    void probabilities();
    void wideArithmeticAgrees_data();
    void wideArithmeticAgrees();
    void reproducible();
    void operatingSystemSource();
    void failureIsReported();
    void invalidParameters();
};

// ---- random bits ----------------------------------------------------------------------------

void TestDiscreteSamplers::uniformBelowSmall_data()
{
    QTest::addColumn<quint64>("n");
    for (quint64 n : {2ull, 3ull, 7ull, 10ull, 1000ull})
        QTest::newRow(qPrintable(QStringLiteral("n=%1").arg(n))) << n;
}

void TestDiscreteSamplers::uniformBelowSmall()
{
    QFETCH(quint64, n);
    SeededRandomBits bits(11, n);
    std::vector<std::uint64_t> counts(n, 0);
    for (std::uint64_t i = 0; i < kDraws; ++i) {
        const std::uint64_t x = bits.uniformBelowUnchecked(n);
        QVERIFY(x < n);
        ++counts[x];
    }
    double stat = 0.0;
    const double e = static_cast<double>(kDraws) / n;
    for (auto c : counts)
        stat += (c - e) * (c - e) / e;
    boost::math::chi_squared_distribution<double> dist(static_cast<double>(n - 1));
    const double critical = boost::math::quantile(boost::math::complement(dist, kChiSquareAlpha));
    QVERIFY2(stat < critical, qPrintable(QStringLiteral("χ² %1 ≥ %2").arg(stat).arg(critical)));
}

void TestDiscreteSamplers::uniformBelowLarge()
{
    // n = 3·2^62: a modulo reduction of 64 random bits would put half the mass below 2^62
    // instead of a third; the rejection sampler must give 1/3.
    SeededRandomBits bits(12, 0);
    const std::uint64_t n = 3ull << 62;
    std::uint64_t low = 0;
    const std::uint64_t draws = 200000;
    for (std::uint64_t i = 0; i < draws; ++i) {
        const std::uint64_t x = bits.uniformBelowUnchecked(n);
        QVERIFY(x < n);
        low += x < (1ull << 62);
    }
    QVERIFY(withinBinomial(low, draws, 1.0 / 3.0));
    // n = 2^63 + 1: about half the 64-bit candidates are rejected; the top half must hold 1/2.
    const std::uint64_t m = (1ull << 63) + 1;
    std::uint64_t top = 0;
    for (std::uint64_t i = 0; i < draws; ++i) {
        const std::uint64_t x = bits.uniformBelowUnchecked(m);
        QVERIFY(x < m);
        top += x >= (1ull << 62);
    }
    QVERIFY(withinBinomial(top, draws, 0.5));
    for (int i = 0; i < 1000; ++i)
        QVERIFY(bits.uniformBelowUnchecked(std::numeric_limits<std::uint64_t>::max())
                < std::numeric_limits<std::uint64_t>::max());
    QCOMPARE(*bits.uniformBelow(1), 0ull);
}

void TestDiscreteSamplers::uniformBelowInvalid()
{
    SeededRandomBits bits(1, 1);
    auto r = bits.uniformBelow(0);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().code, ErrorCode::InvalidArgument);
    PBX_VERIFY_ERROR(bits.bernoulliRational(1, 0), InvalidArgument, "denominator");
    PBX_VERIFY_ERROR(bits.bernoulliRational(3, 2), InvalidArgument, "numerator");
}

void TestDiscreteSamplers::bernoulliRational_data()
{
    QTest::addColumn<quint64>("num");
    QTest::addColumn<quint64>("den");
    QTest::newRow("1/3") << 1ull << 3ull;
    QTest::newRow("2/7") << 2ull << 7ull;
    QTest::newRow("999/1000") << 999ull << 1000ull;
    QTest::newRow("0/5") << 0ull << 5ull;
    QTest::newRow("5/5") << 5ull << 5ull;
    QTest::newRow("(2^62-1)/2^62") << ((1ull << 62) - 1) << (1ull << 62);
}

void TestDiscreteSamplers::bernoulliRational()
{
    QFETCH(quint64, num);
    QFETCH(quint64, den);
    SeededRandomBits bits(13, num);
    std::uint64_t ones = 0;
    const std::uint64_t draws = 200000;
    for (std::uint64_t i = 0; i < draws; ++i) {
        auto b = bits.bernoulliRational(num, den);
        QVERIFY(b.ok());
        ones += *b;
    }
    const double p = static_cast<double>(num) / static_cast<double>(den);
    if (num == 0)
        QCOMPARE(ones, 0ull);
    else if (num == den)
        QCOMPARE(ones, draws);
    else
        QVERIFY(withinBinomial(ones, draws, p));
}

void TestDiscreteSamplers::bernoulliExp_data()
{
    QTest::addColumn<quint64>("num");
    QTest::addColumn<quint64>("den");
    QTest::newRow("γ=0") << 0ull << 1ull;
    QTest::newRow("γ=1/1000") << 1ull << 1000ull;
    QTest::newRow("γ=1/2") << 1ull << 2ull;
    QTest::newRow("γ=1") << 1ull << 1ull;
    QTest::newRow("γ=3/2") << 3ull << 2ull;
    QTest::newRow("γ=7/3") << 7ull << 3ull;
    QTest::newRow("γ=5") << 5ull << 1ull;
    QTest::newRow("γ=(2^62-1)/2^61≈2") << ((1ull << 62) - 1) << (1ull << 61);
    QTest::newRow("γ=12") << 12ull << 1ull;
}

void TestDiscreteSamplers::bernoulliExp()
{
    QFETCH(quint64, num);
    QFETCH(quint64, den);
    SeededRandomBits bits(14, num * 7 + den);
    std::uint64_t ones = 0;
    for (std::uint64_t i = 0; i < kDraws; ++i) {
        auto b = sampleBernoulliExp(bits, num, den);
        QVERIFY(b.ok());
        ones += *b;
    }
    const double p = std::exp(-static_cast<double>(static_cast<long double>(num) / den));
    if (num == 0)
        QCOMPARE(ones, kDraws);
    else
        QVERIFY2(withinBinomial(ones, kDraws, p),
                 qPrintable(QStringLiteral("%1 ones, expected %2").arg(ones).arg(kDraws * p)));
}

void TestDiscreteSamplers::rationalConversion_data()
{
    QTest::addColumn<double>("x");
    QTest::addColumn<quint64>("maxDen");
    QTest::newRow("0.1") << 0.1 << (1ull << 32);
    QTest::newRow("1/3") << 1.0 / 3.0 << (1ull << 32);
    QTest::newRow("2 exactly") << 2.0 << (1ull << 32);
    QTest::newRow("1e-5") << 1e-5 << (1ull << 32);
    QTest::newRow("12345.678") << 12345.678 << (1ull << 32);
    QTest::newRow("2^40+0.5") << 1099511627776.5 << (1ull << 32);
    QTest::newRow("pi, maxDen 1000") << 3.141592653589793 << 1000ull;
}

void TestDiscreteSamplers::rationalConversion()
{
    QFETCH(double, x);
    QFETCH(quint64, maxDen);
    auto up = pbx::mechanisms::rationalAtLeast(x, maxDen);
    auto down = pbx::mechanisms::rationalAtMost(x, maxDen);
    QVERIFY(up.ok());
    QVERIFY(down.ok());
    QVERIFY(up->den <= maxDen && down->den <= maxDen);
    QVERIFY(std::has_single_bit(up->den) && std::has_single_bit(down->den));
    // Exact comparisons: x·den is exact (power-of-two scaling), num ≤ 2^62 is exact in long double.
    const long double lx = x;
    QVERIFY(static_cast<long double>(up->num) >= lx * up->den);       // up ≥ x
    QVERIFY(static_cast<long double>(down->num) <= lx * down->den);   // down ≤ x
    QVERIFY(static_cast<long double>(up->num) - lx * up->den < 1.0L); // within one grid step
    QVERIFY(lx * down->den - static_cast<long double>(down->num) < 1.0L);
    if (x == 2.0)
        QCOMPARE(*up, (Rational{2, 1}));
}

void TestDiscreteSamplers::rationalInvalid()
{
    for (double x : {0.0, -1.0, std::nan(""), std::numeric_limits<double>::infinity(), 0x1p63})
        PBX_VERIFY_ERROR(pbx::mechanisms::rationalAtLeast(x), InvalidArgument, "noise parameter");
    PBX_VERIFY_ERROR(pbx::mechanisms::rationalAtMost(1e-12), InvalidArgument,
                     "noise parameter");                          // below 1/2^32
    QCOMPARE(pbx::mechanisms::rationalAtLeast(1e-12)->num, 1ull); // rounds up to 1/2^32
    PBX_VERIFY_ERROR(makeRational(0, 1), InvalidArgument, "numerator");
    PBX_VERIFY_ERROR(makeRational(1, 0), InvalidArgument, "denominator");
    PBX_VERIFY_ERROR(makeRational((1ull << 62) + 1, 1), InvalidArgument, "numerator");
    QCOMPARE(*makeRational(6, 4), (Rational{3, 2}));
}

// ---- goodness of fit --------------------------------------------------------------------------

namespace {
struct Fit
{
    pbx::test::ChiSquareResult fine;   ///< bins of expected count ≥ 25 (every integer in the bulk)
    pbx::test::ChiSquareResult coarse; ///< bins of expected count ≥ 2000 (power on smooth shifts)
    double meanZ = 0.0;                ///< (sample mean − 0) / its standard error
    double secondMomentZ = 0.0;        ///< (sample E[Y²] − exact E[Y²]) / its standard error
};

// 10⁶ seeded draws, then χ² against the pmf twice: finely and coarsely binned.
template<typename Sampler>
Fit fit(const Sampler &sampler, std::uint64_t seed, const std::function<long double(std::int64_t)> &pmf)
{
    SeededRandomBits bits(seed, 0);
    Histogram counts;
    for (std::uint64_t i = 0; i < kDraws; ++i) {
        auto y = sampler.sample(bits);
        if (!y)
            return {};
        ++counts[*y];
    }
    const std::int64_t radius = pbx::test::radiusFor(pmf, kDraws);
    Fit f{pbx::test::chiSquareTest(counts, kDraws, pmf, radius, kChiSquareAlpha, 25.0),
          pbx::test::chiSquareTest(counts, kDraws, pmf, radius, kChiSquareAlpha, 2000.0)};
    // Moments: exact E[Y²], E[Y⁴] by summation far beyond the radius; the sample mean and the
    // sample second moment as z-scores (a 1% change of the variance is ≈ 7 standard errors).
    long double m2 = 0.0L, m4 = 0.0L;
    for (std::int64_t y = 4 * radius + 10; y >= 1; --y) {
        const long double p = 2.0L * pmf(y), yy = static_cast<long double>(y) * y;
        m2 += p * yy;
        m4 += p * yy * yy;
    }
    long double sum = 0.0L, sumSq = 0.0L;
    for (const auto &[y, c] : counts) {
        sum += static_cast<long double>(y) * c;
        sumSq += static_cast<long double>(y) * y * c;
    }
    f.meanZ = static_cast<double>(sum / kDraws / std::sqrt(m2 / kDraws));
    f.secondMomentZ = static_cast<double>((sumSq / kDraws - m2) / std::sqrt((m4 - m2 * m2) / kDraws));
    return f;
}

bool passes(const Fit &f, const char *what)
{
    qInfo("%s: χ² = %.1f (df %d, critical %.1f); coarse χ² = %.1f (df %d, critical %.1f); "
          "z(mean) = %.2f, z(E[Y²]) = %.2f",
          what, f.fine.statistic, f.fine.degreesOfFreedom, f.fine.critical, f.coarse.statistic,
          f.coarse.degreesOfFreedom, f.coarse.critical, f.meanZ, f.secondMomentZ);
    if (std::fabs(f.meanZ) > kZ || std::fabs(f.secondMomentZ) > kZ)
        return false;
    // (A very concentrated pmf leaves a single coarse bin: nothing more to test there.)
    return f.fine.degreesOfFreedom >= 1 && f.fine.statistic < f.fine.critical
           && (f.coarse.degreesOfFreedom < 1 || f.coarse.statistic < f.coarse.critical);
}
} // namespace

void TestDiscreteSamplers::laplaceFit_data()
{
    QTest::addColumn<quint64>("num");
    QTest::addColumn<quint64>("den");
    QTest::newRow("t=1/10") << 1ull << 10ull;
    QTest::newRow("t=1/2") << 1ull << 2ull;
    QTest::newRow("t=1") << 1ull << 1ull;
    QTest::newRow("t=10/3") << 10ull << 3ull;
    QTest::newRow("t=25") << 25ull << 1ull;
    QTest::newRow("t=1000+1/2^32") << ((1000ull << 32) + 1) << (1ull << 32);
}

void TestDiscreteSamplers::laplaceFit()
{
    QFETCH(quint64, num);
    QFETCH(quint64, den);
    auto sampler = DiscreteLaplaceSampler::create(*makeRational(num, den));
    QVERIFY(sampler.ok());
    const long double t = static_cast<long double>(num) / den;
    auto r = fit(*sampler, 100 + num, [t](std::int64_t y) { return pbx::test::laplacePmf(t, y); });
    QVERIFY(passes(r, QTest::currentDataTag()));
}

void TestDiscreteSamplers::gaussianFit_data()
{
    QTest::addColumn<quint64>("num");
    QTest::addColumn<quint64>("den");
    QTest::newRow("σ²=1/10") << 1ull << 10ull;
    QTest::newRow("σ²=1/2") << 1ull << 2ull;
    QTest::newRow("σ²=1") << 1ull << 1ull;
    QTest::newRow("σ²=5/2") << 5ull << 2ull;
    QTest::newRow("σ²=100") << 100ull << 1ull;
    QTest::newRow("σ²=10^4") << 10000ull << 1ull;
    QTest::newRow("σ²=10^6") << 1000000ull << 1ull;
    // σ ≈ 2048 with a 2^40 denominator: (|Y|·d·t − n)² overflows 128 bits once |Y| ≳ 4σ, so a few
    // percent of the acceptance tests run on the 512-bit path.
    QTest::newRow("σ²=(2^62-1)/2^40") << ((1ull << 62) - 1) << (1ull << 40);
}

void TestDiscreteSamplers::gaussianFit()
{
    QFETCH(quint64, num);
    QFETCH(quint64, den);
    auto sampler = DiscreteGaussianSampler::create(*makeRational(num, den));
    QVERIFY(sampler.ok());
    const long double s2 = static_cast<long double>(num) / den;
    const long double norm = pbx::test::gaussianNormaliserDirect(s2);
    auto pmf = [s2, norm](std::int64_t y) {
        return std::exp(-static_cast<long double>(y) * y / (2.0L * s2)) / norm;
    };
    auto r = fit(*sampler, 200 + num, pmf);
    QVERIFY(passes(r, QTest::currentDataTag()));
}

void TestDiscreteSamplers::probabilities()
{
    // The library's double-precision pmfs agree with the independent long-double ones.
    for (auto [n, d] : {std::pair{1ull, 10ull}, {1ull, 1ull}, {5ull, 2ull}, {1000000ull, 1ull}}) {
        auto g = DiscreteGaussianSampler::create(*makeRational(n, d));
        const long double s2 = static_cast<long double>(n) / d;
        const long double norm = pbx::test::gaussianNormaliserDirect(s2);
        PBX_FUZZY_COMPARE(g->normaliser(), static_cast<double>(norm), 1e-13);
        for (std::int64_t y : {0, 1, 3, 100}) {
            const auto expected = static_cast<double>(std::exp(-(long double)y * y / (2 * s2)) / norm);
            if (expected > 1e-200)
                PBX_FUZZY_COMPARE(g->probability(y), expected, 1e-12);
        }
        auto l = DiscreteLaplaceSampler::create(*makeRational(n, d));
        for (std::int64_t y : {0, -1, 7})
            PBX_FUZZY_COMPARE(l->probability(y),
                              static_cast<double>(pbx::test::laplacePmf((long double)n / d, y)), 1e-13);
    }
}

void TestDiscreteSamplers::wideArithmeticAgrees_data()
{
    QTest::addColumn<quint64>("num");
    QTest::addColumn<quint64>("den");
    QTest::newRow("σ²=1/3") << 1ull << 3ull;
    QTest::newRow("σ²=7/2") << 7ull << 2ull;
    QTest::newRow("σ²≈2^22, den 2^40") << ((1ull << 62) - 1) << (1ull << 40);
    QTest::newRow("σ²≈1, n,d≈2^62") << ((1ull << 62) - 1) << ((1ull << 62) - 3);
    QTest::newRow("σ²≈4e6, den 2^32") << 17179869184000001ull << (1ull << 32);
}

void TestDiscreteSamplers::wideArithmeticAgrees()
{
    // The 512-bit acceptance path (used in production only when a 128-bit intermediate would
    // overflow, i.e. in the far tail) consumes the same bits and gives the same draws as the
    // 128-bit path, which the χ² tests validate.
    QFETCH(quint64, num);
    QFETCH(quint64, den);
    auto sampler = DiscreteGaussianSampler::create(*makeRational(num, den));
    QVERIFY(sampler.ok());
    SeededRandomBits a(21, num), b(21, num);
    for (int i = 0; i < 100000; ++i) {
        const auto x = sampler->sample(a);
        const auto y = sampler->sampleWithWideArithmetic(b);
        QVERIFY(x.ok() && y.ok());
        if (*x != *y)
            QFAIL(qPrintable(QStringLiteral("draw %1: %2 vs %3").arg(i).arg(*x).arg(*y)));
    }
    QCOMPARE(a.nextU64(), b.nextU64());
}

// ---- sources ---------------------------------------------------------------------------------

void TestDiscreteSamplers::reproducible()
{
    auto sampler = DiscreteGaussianSampler::create(Rational{10, 1});
    SeededRandomBits a(7, 3), b(7, 3), c(7, 4);
    QVERIFY(a.isReproducible());
    int differ = 0;
    for (int i = 0; i < 1000; ++i) {
        const auto x = *sampler->sample(a);
        QCOMPARE(*sampler->sample(b), x);
        differ += *sampler->sample(c) != x;
    }
    QVERIFY(differ > 500); // another stream index gives another stream
}

void TestDiscreteSamplers::operatingSystemSource()
{
    auto os = OsRandomBits::open();
    QVERIFY2(os.ok(), os.ok() ? "" : os.error().message.c_str());
    QVERIFY(!os->isReproducible());
    std::set<std::uint64_t> seen;
    double bitsSet = 0.0;
    for (int i = 0; i < 1000; ++i) { // crosses several 256-byte refills
        const std::uint64_t w = os->nextU64();
        seen.insert(w);
        bitsSet += std::popcount(w);
    }
    QCOMPARE(seen.size(), std::size_t{1000});
    QVERIFY(std::fabs(bitsSet / 1000.0 - 32.0) < 1.0); // sd of the mean is 0.13
    auto sampler = DiscreteLaplaceSampler::create(Rational{3, 1});
    for (int i = 0; i < 100; ++i)
        QVERIFY(sampler->sample(*os).ok());
    QVERIFY(!os->failed());
    // Moving keeps the stream usable.
    OsRandomBits moved = std::move(*os);
    QVERIFY(moved.uniformBelow(10).ok());
}

void TestDiscreteSamplers::failureIsReported()
{
    // Whatever point the source fails at, each sampler returns the Io error and never a value
    // computed from the zero words a failed source yields (and never hangs on them).
    auto gauss = DiscreteGaussianSampler::create(Rational{7, 2});
    auto laplace = DiscreteLaplaceSampler::create(Rational{5, 3});
    for (std::uint64_t words = 0; words < 40; ++words) {
        FailingBits bits(words, 99);
        bool sawError = false;
        for (int i = 0; i < 50 && !sawError; ++i) {
            auto y = (words % 2 == 0) ? gauss->sample(bits) : laplace->sample(bits);
            if (!y.ok()) {
                QCOMPARE(y.error().code, ErrorCode::Io);
                sawError = true;
            }
        }
        QVERIFY(sawError);
        QVERIFY(bits.failed());
        PBX_VERIFY_ERROR(bits.uniformBelow(10), Io, "getrandom");
        PBX_VERIFY_ERROR(sampleBernoulliExp(bits, 1, 3), Io, "getrandom");
        PBX_VERIFY_ERROR(gauss->sample(bits), Io, "getrandom"); // sticky
    }
}

void TestDiscreteSamplers::invalidParameters()
{
    PBX_VERIFY_ERROR(DiscreteLaplaceSampler::create(Rational{(1ull << 41), 1}), InvalidArgument,
                     "discrete Laplace scale"); // > 2^40
    PBX_VERIFY_ERROR(DiscreteGaussianSampler::create(Rational{(1ull << 61), 1}), InvalidArgument,
                     "σ²"); // > 2^60
    PBX_VERIFY_ERROR(DiscreteLaplaceSampler::create(Rational{0, 1}), InvalidArgument, "numerator");
    QVERIFY(DiscreteGaussianSampler::create(Rational{1, 1ull << 62}).ok()); // tiny σ² is fine
    SeededRandomBits bits(1, 2);
    PBX_VERIFY_ERROR(sampleBernoulliExp(bits, 1, 0), InvalidArgument, "γ");
    PBX_VERIFY_ERROR(sampleBernoulliExp(bits, (1ull << 62) + 1, 1), InvalidArgument, "γ");
    // A tiny σ² gives 0 essentially always.
    auto tiny = DiscreteGaussianSampler::create(Rational{1, 1ull << 62});
    for (int i = 0; i < 1000; ++i)
        QCOMPARE(*tiny->sample(bits), 0ll);
}

QTEST_APPLESS_MAIN(TestDiscreteSamplers)
#include "tst_discrete.moc"
