// SPDX-License-Identifier: MIT
// core/math/fft_convolution: FFT convolution against a direct long-double convolution on random
// non-negative vectors (sizes 1, 2, odd, powers of two, large), the fast FFT lengths, mass
// conservation, clipping of round-off negatives, and the k-fold circular self-convolution against
// exact binomial laws and direct folding, with its reported ℓ1 error bound
// (docs/pld-numerics.md §2).
#include "core/math/fft_convolution.h"
#include "tests/testutils.h"

#include <unsupported/Eigen/FFT>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

using pbx::math::convolve;
using pbx::math::convolveByFft;
using pbx::math::fftRelativeErrorBound;
using pbx::math::nextFastFftLength;
using pbx::math::selfConvolveCircular;

namespace {

std::vector<double> randomVector(std::size_t n, std::uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::vector<double> v(n);
    for (double &x : v)
        x = u(rng);
    return v;
}

/// (a ⊛ b) summed in long double: every entry to about 1e-19 relative, the reference.
std::vector<long double> directConvolution(const std::vector<double> &a, const std::vector<double> &b)
{
    std::vector<long double> out(a.size() + b.size() - 1, 0.0L);
    for (std::size_t i = 0; i < a.size(); ++i)
        for (std::size_t j = 0; j < b.size(); ++j)
            out[i + j] += static_cast<long double>(a[i]) * b[j];
    return out;
}

long double sum(const std::vector<double> &v)
{
    long double s = 0.0L;
    for (double x : v)
        s += x;
    return s;
}

bool isFiveSmooth(std::int64_t n)
{
    for (std::int64_t p : {2, 3, 5})
        while (n % p == 0)
            n /= p;
    return n == 1;
}

/// The Binomial(n, q) masses by the ratio recurrence in long double (its range holds (1 − q)^n
/// for every case here; relative error about n·2⁻⁶⁴).
std::vector<long double> binomialMasses(int n, long double q)
{
    std::vector<long double> m(std::size_t(n) + 1);
    m[0] = std::pow(1.0L - q, static_cast<long double>(n));
    for (int j = 0; j < n; ++j)
        m[std::size_t(j) + 1] = m[std::size_t(j)] * (n - j) / (j + 1) * (q / (1.0L - q));
    return m;
}

} // namespace

class TestFftConvolution : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void inverseByForwardPlanIsBitIdentical();
    void fastLengths_data();
    void fastLengths();
    void fastLengthsAreMinimal();
    void againstDirect_data();
    void againstDirect();
    void smallInputsAreExact();
    void emptyInputs();
    void identityAndShift();
    void clipsRoundOffNegatives();
    void errorBoundValues();
    void selfConvolveBinomial_data();
    void selfConvolveBinomial();
    void selfConvolveRandomAgainstRepeatedDirect();
    void selfConvolveFoldsModuloLength();
    void selfConvolveOnce();
};

void TestFftConvolution::fastLengths_data()
{
    QTest::addColumn<qint64>("n");
    QTest::addColumn<qint64>("expected");
    QTest::newRow("0 → 1") << qint64(0) << qint64(1);
    QTest::newRow("1") << qint64(1) << qint64(1);
    QTest::newRow("2") << qint64(2) << qint64(2);
    QTest::newRow("7 → 8") << qint64(7) << qint64(8);
    QTest::newRow("11 → 12") << qint64(11) << qint64(12);
    QTest::newRow("13 → 15") << qint64(13) << qint64(15);
    QTest::newRow("97 → 100") << qint64(97) << qint64(100);
    QTest::newRow("1000") << qint64(1000) << qint64(1000);
    QTest::newRow("1001 → 1024") << qint64(1001) << qint64(1024);
    QTest::newRow("1025 → 1080") << qint64(1025) << qint64(1080);
    QTest::newRow("2^20 + 1 → 1049760") << qint64((1 << 20) + 1) << qint64(1049760);
}

void TestFftConvolution::fastLengths()
{
    QFETCH(qint64, n);
    QFETCH(qint64, expected);
    QCOMPARE(qint64(nextFastFftLength(n)), expected);
}

void TestFftConvolution::fastLengthsAreMinimal()
{
    // The answer is 5-smooth, ≥ n, and no 5-smooth number lies in [n, answer).
    std::int64_t nextSmooth = 1;
    for (std::int64_t n = 1; n <= 5000; ++n) {
        if (nextSmooth < n)
            for (nextSmooth = n; !isFiveSmooth(nextSmooth); ++nextSmooth) {
            }
        QCOMPARE(nextFastFftLength(n), nextSmooth);
    }
}

void TestFftConvolution::againstDirect_data()
{
    QTest::addColumn<int>("na");
    QTest::addColumn<int>("nb");
    QTest::newRow("1 × 1") << 1 << 1;
    QTest::newRow("1 × 300") << 1 << 300;
    QTest::newRow("2 × 2") << 2 << 2;
    QTest::newRow("2 × 3") << 2 << 3;
    QTest::newRow("7 × 13") << 7 << 13;
    QTest::newRow("101 × 999") << 101 << 999;
    QTest::newRow("64 × 64") << 64 << 64;
    QTest::newRow("1024 × 512") << 1024 << 512;
    QTest::newRow("4096 × 4096") << 4096 << 4096;
    QTest::newRow("4097 × 4095") << 4097 << 4095;
    QTest::newRow("large 50001 × 3001") << 50001 << 3001;
    QTest::newRow("large 16384 × 16384") << 16384 << 16384;
}

void TestFftConvolution::againstDirect()
{
    QFETCH(int, na);
    QFETCH(int, nb);
    const auto a = randomVector(std::size_t(na), 1000 + std::uint64_t(na));
    const auto b = randomVector(std::size_t(nb), 2000 + std::uint64_t(nb));
    const auto ref = directConvolution(a, b);
    const long double mass = sum(a) * sum(b);
    const double n = double(ref.size());
    const double bound
        = 4.0 * fftRelativeErrorBound(nextFastFftLength(std::int64_t(ref.size()))) * double(mass);
    long double peak = 0.0L;
    for (long double r : ref)
        peak = std::max(peak, r);
    for (const bool viaFft : {true, false}) {
        const auto got = viaFft ? convolveByFft(a, b) : convolve(a, b);
        QCOMPARE(got.size(), ref.size());
        long double worst = 0.0L, total = 0.0L;
        for (std::size_t i = 0; i < got.size(); ++i) {
            const long double err = std::fabs(static_cast<long double>(got[i]) - ref[i]);
            worst = std::max(worst, err);
            total += got[i];
            // Componentwise: within the documented transform bound, 4·r·Σa·Σb (forward errors of
            // both spectra, their product and the inverse transform, each ≤ r·‖a‖₁·‖b‖₁).
            QVERIFY2(err <= bound, qPrintable(QStringLiteral("entry %1: error %2 > bound %3")
                                                  .arg(i)
                                                  .arg(double(err), 0, 'g', 3)
                                                  .arg(bound, 0, 'g', 3)));
            // Every entry that carries at least 10⁻³ of the peak agrees to 1e-12 relative.
            if (ref[i] >= 1e-3L * peak)
                PBX_FUZZY_COMPARE(got[i], double(ref[i]), 1e-12);
        }
        // Normwise: 1e-12 relative to the largest entry; the total mass is Σa·Σb.
        QVERIFY2(worst <= 1e-12L * peak, qPrintable(QString::number(double(worst / peak), 'g', 3)));
        PBX_FUZZY_COMPARE(double(total), double(mass), 1e-12 + 1e-15 * n);
    }
}

void TestFftConvolution::smallInputsAreExact()
{
    // Small inputs take the direct path: exact on dyadic values.
    const std::vector<double> a{0.5, 0.25, 0.25}, b{0.125, 0.875};
    const std::vector<double> expected{0.0625, 0.46875, 0.25, 0.21875};
    QCOMPARE(convolve(a, b), expected);
    QCOMPARE(convolve(b, a), expected);
}

void TestFftConvolution::emptyInputs()
{
    const std::vector<double> none, some{1.0, 2.0};
    QVERIFY(convolve(none, some).empty());
    QVERIFY(convolve(some, none).empty());
    QVERIFY(convolveByFft(none, some).empty());
    QVERIFY(convolveByFft(none, none).empty());
}

void TestFftConvolution::identityAndShift()
{
    const auto a = randomVector(3000, 7);
    // {1} is the identity, {0, 0, 1} a shift by two; both through the FFT path.
    const auto same = convolveByFft(a, {1.0});
    const auto shifted = convolveByFft({0.0, 0.0, 1.0}, a);
    QCOMPARE(same.size(), a.size());
    QCOMPARE(shifted.size(), a.size() + 2);
    // Entries lie in [0, 1): 1e-12 relative to the largest.
    QVERIFY(shifted[0] <= 1e-12 && shifted[1] <= 1e-12);
    for (std::size_t i = 0; i < a.size(); ++i) {
        QVERIFY(std::fabs(same[i] - a[i]) <= 1e-12);
        QVERIFY(std::fabs(shifted[i + 2] - a[i]) <= 1e-12);
    }
}

void TestFftConvolution::clipsRoundOffNegatives()
{
    // Sparse inputs whose exact convolution is 0 at most indices: the FFT leaves ±1e-17-sized
    // round-off there; negatives are clipped so every output is a valid (non-negative) mass.
    std::vector<double> a(2048, 0.0), b(1500, 0.0);
    a[0] = 0.5;
    a[2047] = 0.5;
    b[3] = 1e-3;
    b[1499] = 1.0 - 1e-3;
    const auto c = convolveByFft(a, b);
    const auto ref = directConvolution(a, b);
    const double bound
        = 4.0 * fftRelativeErrorBound(nextFastFftLength(std::int64_t(c.size()))); // Σa = Σb = 1
    QCOMPARE(c.size(), ref.size());
    for (std::size_t i = 0; i < c.size(); ++i) {
        QVERIFY(c[i] >= 0.0);
        QVERIFY(std::fabs(c[i] - double(ref[i])) <= bound);
    }
    PBX_FUZZY_COMPARE(c[3], 5e-4, 1e-10);
    PBX_FUZZY_COMPARE(c[2047 + 1499], 0.5 * (1.0 - 1e-3), 1e-12);
}

void TestFftConvolution::errorBoundValues()
{
    // 16·u·⌈log₂ n⌉ with u = 2⁻⁵³, at least one level.
    const double u = 0x1p-53;
    QCOMPARE(fftRelativeErrorBound(1), 16.0 * u);
    QCOMPARE(fftRelativeErrorBound(2), 16.0 * u);
    QCOMPARE(fftRelativeErrorBound(1024), 160.0 * u);
    QCOMPARE(fftRelativeErrorBound(1025), 176.0 * u);
    QCOMPARE(fftRelativeErrorBound(1080), 176.0 * u);
    double previous = 0.0;
    for (std::int64_t n = 1; n <= (std::int64_t(1) << 24); n *= 3) {
        QVERIFY(fftRelativeErrorBound(n) >= previous);
        previous = fftRelativeErrorBound(n);
    }
    QVERIFY(previous < 1e-13);
}

void TestFftConvolution::selfConvolveBinomial_data()
{
    QTest::addColumn<int>("k");
    QTest::addColumn<double>("q");
    QTest::newRow("k=10 q=0.5") << 10 << 0.5;
    QTest::newRow("k=37 q=0.2") << 37 << 0.2;
    QTest::newRow("k=1000 q=0.7") << 1000 << 0.7;
    QTest::newRow("k=4096 q=0.01") << 4096 << 0.01;
}

void TestFftConvolution::selfConvolveBinomial()
{
    // {1 − q, q}^{⊛k} is Binomial(k, q); a window of ≥ k + 1 points holds all of it.
    QFETCH(int, k);
    QFETCH(double, q);
    const std::int64_t length = nextFastFftLength(k + 1);
    double bound = -1.0;
    const auto got = selfConvolveCircular({1.0 - q, q}, k, length, &bound);
    QCOMPARE(std::int64_t(got.size()), length);
    QVERIFY(bound >= 0.0 && bound < 1e-10);
    const auto exact = binomialMasses(k, q);
    long double l1 = 0.0L, total = 0.0L;
    const auto mode = std::size_t(std::floor((k + 1) * q));
    for (std::size_t j = 0; j < got.size(); ++j) {
        QVERIFY(got[j] >= 0.0);
        l1 += std::fabs(got[j] - (j < exact.size() ? exact[j] : 0.0L));
        total += got[j];
    }
    // The measured ℓ1 error is within the reported bound, and the most likely value to 1e-12.
    QVERIFY2(double(l1) <= bound,
             qPrintable(QStringLiteral("ℓ1 error %1, bound %2").arg(double(l1)).arg(bound)));
    QVERIFY(double(l1) < 1e-12);
    PBX_FUZZY_COMPARE(double(total), 1.0, 1e-12);
    PBX_FUZZY_COMPARE(got[mode], double(exact[mode]), 1e-12);
}

void TestFftConvolution::selfConvolveRandomAgainstRepeatedDirect()
{
    // A random 40-point PMF composed 7 times, against six direct convolutions in long double.
    auto p = randomVector(40, 99);
    const double mass = double(sum(p));
    for (double &x : p)
        x /= mass;
    std::vector<long double> ref(p.begin(), p.end());
    for (int i = 1; i < 7; ++i) {
        std::vector<long double> next(ref.size() + p.size() - 1, 0.0L);
        for (std::size_t a = 0; a < ref.size(); ++a)
            for (std::size_t b = 0; b < p.size(); ++b)
                next[a + b] += ref[a] * p[b];
        ref = std::move(next);
    }
    const std::int64_t length = nextFastFftLength(std::int64_t(ref.size()));
    double bound = -1.0;
    const auto got = selfConvolveCircular(p, 7, length, &bound);
    long double l1 = 0.0L, peak = 0.0L;
    for (long double r : ref)
        peak = std::max(peak, r);
    for (std::size_t j = 0; j < got.size(); ++j) {
        const long double exact = j < ref.size() ? ref[j] : 0.0L;
        l1 += std::fabs(got[j] - exact);
        if (exact >= 1e-3L * peak)
            PBX_FUZZY_COMPARE(got[j], double(exact), 1e-12);
    }
    QVERIFY2(double(l1) <= bound,
             qPrintable(QStringLiteral("ℓ1 error %1, bound %2").arg(double(l1)).arg(bound)));
    QVERIFY(double(l1) < 1e-12);
}

void TestFftConvolution::selfConvolveFoldsModuloLength()
{
    // {¼, ½, ¼}^{⊛4} has 9 points (C(8, j)/256); on a circle of 5 entry j is the sum over j, j + 5.
    const std::vector<double> p{0.25, 0.5, 0.25};
    const auto got = selfConvolveCircular(p, 4, 5);
    QCOMPARE(got.size(), std::size_t(5));
    const double c[] = {1, 8, 28, 56, 70, 56, 28, 8, 1};
    for (int j = 0; j < 5; ++j) {
        const double exact = (c[j] + (j + 5 < 9 ? c[j + 5] : 0.0)) / 256.0;
        QVERIFY2(std::fabs(got[std::size_t(j)] - exact) <= 1e-14,
                 qPrintable(QStringLiteral("j = %1: %2 vs %3").arg(j).arg(got[std::size_t(j)]).arg(exact)));
    }
}

void TestFftConvolution::selfConvolveOnce()
{
    // k = 1 returns p padded to the length (or folded when longer), exactly, with a zero bound.
    double bound = -1.0;
    const auto padded = selfConvolveCircular({0.25, 0.75}, 1, 4, &bound);
    QCOMPARE(padded, (std::vector<double>{0.25, 0.75, 0.0, 0.0}));
    QCOMPARE(bound, 0.0);
    const auto folded = selfConvolveCircular({0.125, 0.25, 0.5, 0.125}, 1, 3);
    QCOMPARE(folded, (std::vector<double>{0.25, 0.25, 0.5}));
    // A circle of one point holds all the mass s: the k-fold result is s^k.
    const auto single = selfConvolveCircular({0.5}, 3, 1, &bound);
    QCOMPARE(single, std::vector<double>{0.125});
    QVERIFY(bound >= 0.0 && bound < 1e-15);
    const auto wrapped = selfConvolveCircular({0.25, 0.5}, 2, 1);
    QCOMPARE(wrapped, std::vector<double>{0.5625});
}

// convolveByFft computes its inverse transform with the forward plan on conjugates (one twiddle
// table per length instead of two); the result must be Eigen's own inverse to the bit. Eigen's
// steps (pad, half-spectrum forward, product, inverse, cut, clip) with the stock kissfft, for
// transform lengths that are multiples of 4 (the path replaced) and not (Eigen's own path).
void TestFftConvolution::inverseByForwardPlanIsBitIdentical()
{
    std::mt19937_64 rng(31);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (const std::size_t size : {300u, 513u, 1000u, 4097u}) {
        std::vector<double> a(size), b(size / 3 + 7);
        for (double &x : a)
            x = u(rng);
        for (double &x : b)
            x = u(rng) * 1e-3;
        const std::size_t n = a.size() + b.size() - 1;
        const auto len = static_cast<std::size_t>(nextFastFftLength(static_cast<std::int64_t>(n)));
        Eigen::FFT<double> stock;
        stock.SetFlag(Eigen::FFT<double>::HalfSpectrum);
        std::vector<double> pa(a), pb(b);
        pa.resize(len, 0.0);
        pb.resize(len, 0.0);
        std::vector<std::complex<double>> fa, fb;
        stock.fwd(fa, pa);
        stock.fwd(fb, pb);
        for (std::size_t i = 0; i < fa.size(); ++i)
            fa[i] *= fb[i];
        std::vector<double> expected;
        stock.inv(expected, fa, len);
        expected.resize(n);
        for (double &x : expected)
            if (!(x > 0.0))
                x = 0.0;
        const std::vector<double> got = convolveByFft(a, b);
        QCOMPARE(got.size(), expected.size());
        for (std::size_t i = 0; i < n; ++i)
            if (std::memcmp(&got[i], &expected[i], sizeof(double)) != 0)
                QFAIL(qPrintable(QStringLiteral("length %1, bin %2: %3 vs %4")
                                     .arg(len)
                                     .arg(i)
                                     .arg(got[i], 0, 'g', 17)
                                     .arg(expected[i], 0, 'g', 17)));
    }
}

QTEST_APPLESS_MAIN(TestFftConvolution)
#include "tst_fftconvolution.moc"
