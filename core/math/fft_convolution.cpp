// SPDX-License-Identifier: MIT
#include "core/math/fft_convolution.h"

#include <unsupported/Eigen/FFT>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <utility>

namespace pbx::math {

std::int64_t nextFastFftLength(std::int64_t n)
{
    if (n <= 1)
        return 1;
    std::int64_t best = std::int64_t{1} << 62;
    for (std::int64_t p5 = 1; p5 < best; p5 *= 5) {
        for (std::int64_t p35 = p5; p35 < best; p35 *= 3) {
            std::int64_t v = p35;
            while (v < n)
                v *= 2;
            best = std::min(best, v);
        }
    }
    return best;
}

namespace {
/// An upper bound on log(m + r) for m, r ≥ 0: log m + r/m when r ≪ m (log1p(x) ≤ x), else direct.
double logMagPlus(double m, double r)
{
    return r < 1e-3 * m ? std::log(m) + r / m : std::log(m + r);
}

/// z^k (k ≥ 1) by binary powering with real arithmetic (no transcendental functions, unlike the
/// polar form; std::complex's operator* also checks for inf/NaN). Called only where |z|^k does
/// not underflow.
std::complex<double> powerBySquaring(std::complex<double> z, std::int64_t k)
{
    double re = 1.0, im = 0.0, bre = z.real(), bim = z.imag();
    for (std::int64_t e = k; e > 0; e >>= 1) {
        if (e & 1) {
            const double t = re * bre - im * bim;
            im = re * bim + im * bre;
            re = t;
        }
        if (e > 1) {
            const double t = bre * bre - bim * bim;
            bim = 2.0 * bre * bim;
            bre = t;
        }
    }
    return {re, im};
}

/// Eigen's kissfft with the half-complex-to-real inverse computed by the forward plan on
/// conjugates: inv(x) = conj(fwd(conj(x))). The inverse plan's twiddles are the forward plan's
/// conjugates (make_twiddles flips the sign of the sines) and every butterfly commutes with
/// conjugation, so the result is the same to the bit, while a transform length needs one plan
/// instead of two: half the twiddle tables, their sines and cosines and their page faults (a
/// quarter of the 1e-5 PLD row's faults was the inverse plan of its one length).
struct ForwardPlanKissFft : Eigen::internal::kissfft_impl<double>
{
    using Base = Eigen::internal::kissfft_impl<double>;
    using Base::inv;

    void inv(Scalar *dst, const Complex *src, int nfft)
    {
        if (nfft & 3) {
            Base::inv(dst, src, nfft);
            return;
        }
        m_tmpBuf1.resize(static_cast<std::size_t>(nfft >> 1));
        invFrom(dst, src, m_tmpBuf1.data(), nfft);
    }

    /// inv, unscaled, overwriting the half spectrum `src` (nfft/2 + 1 values) instead of using
    /// a work buffer of its size. nfft a multiple of 4.
    void invInPlace(Scalar *dst, Complex *src, int nfft) { invFrom(dst, src, src, nfft); }

private:
    /// Eigen's multiple-of-4 path into `work` (which may be `src`: each step reads and writes
    /// the same pair k, ncfft − k), storing the conjugate of each value.
    void invFrom(Scalar *dst, const Complex *src, Complex *work, int nfft)
    {
        const int ncfft = nfft >> 1;
        const int ncfft2 = nfft >> 2;
        Complex *rtw = real_twiddles(ncfft2);
        work[0] = std::conj(Complex(src[0].real() + src[ncfft].real(), src[0].real() - src[ncfft].real()));
        for (int k = 1; k <= ncfft / 2; ++k) {
            const Complex fk = src[k];
            const Complex fnkc = std::conj(src[ncfft - k]);
            const Complex fek = fk + fnkc;
            const Complex tmp = fk - fnkc;
            const Complex fok = tmp * std::conj(rtw[k - 1]);
            work[k] = std::conj(fek + fok);
            work[ncfft - k] = fek - fok;
        }
        get_plan(ncfft, false).work(0, reinterpret_cast<Complex *>(dst), work, 1, 1);
        for (int i = 1; i < nfft; i += 2)
            dst[i] = -dst[i];
    }
};
using Fft = Eigen::FFT<double, ForwardPlanKissFft>;

/// A per-thread Eigen FFT whose plans (twiddle tables, forward and inverse) are kept between
/// calls: building a plan costs about N sines and cosines, as much as the transform itself. The
/// cache is emptied before it would exceed 2^21 points in all (≲ 45 MB of tables).
Fft &cachedFft(std::size_t len)
{
    thread_local Fft fft;
    thread_local std::vector<std::size_t> lengths;
    thread_local std::size_t points = 0;
    if (std::find(lengths.begin(), lengths.end(), len) == lengths.end()) {
        if (points + len > (std::size_t{1} << 21)) {
            fft.impl().clear();
            lengths.clear();
            points = 0;
        }
        lengths.push_back(len);
        points += len;
    }
    fft.SetFlag(Fft::HalfSpectrum);
    return fft;
}

/// Per-thread work buffers of the transforms (padded inputs and their spectra), kept between
/// calls while they hold at most kKeptBufferBytes each: a fresh megabin buffer costs more in page
/// faults and zeroing than the transform itself (1e-5 PLD of 10³ steps: 58k faults per run).
struct FftBuffers
{
    std::vector<double> realA, realB;
    std::vector<std::complex<double>> specA, specB;
};
constexpr std::size_t kKeptBufferBytes = std::size_t{32} << 20;

FftBuffers &fftBuffers()
{
    thread_local FftBuffers buffers;
    return buffers;
}

/// Frees the buffers that grew beyond kKeptBufferBytes (after a rare, huge transform).
void trimFftBuffers()
{
    FftBuffers &b = fftBuffers();
    const auto trim = [](auto &v) {
        if (v.capacity() * sizeof(v[0]) > kKeptBufferBytes)
            std::remove_reference_t<decltype(v)>().swap(v);
    };
    trim(b.realA);
    trim(b.realB);
    trim(b.specA);
    trim(b.specB);
}

/// `v` set to `from` followed by zeros, `len` values in all (len ≥ from.size()), in place.
void padInto(std::vector<double> &v, const std::vector<double> &from, std::size_t len)
{
    v.resize(len);
    std::copy(from.begin(), from.end(), v.begin());
    std::fill(v.begin() + static_cast<std::ptrdiff_t>(from.size()), v.end(), 0.0);
}

void clipNegative(std::vector<double> &v)
{
    for (double &x : v)
        if (!(x > 0.0))
            x = 0.0;
}
} // namespace

std::vector<double> convolve(const std::vector<double> &a, const std::vector<double> &b)
{
    if (a.empty() || b.empty())
        return {};
    const std::size_t n = a.size() + b.size() - 1;
    if (std::min(a.size(), b.size()) <= 64 || a.size() * b.size() <= 200000) {
        std::vector<double> out(n, 0.0);
        for (std::size_t i = 0; i < a.size(); ++i) {
            const double ai = a[i];
            if (ai == 0.0)
                continue;
            for (std::size_t j = 0; j < b.size(); ++j)
                out[i + j] += ai * b[j];
        }
        return out;
    }
    return convolveByFft(a, b);
}

double fftRelativeErrorBound(std::int64_t n)
{
    const double u = 0x1p-53;
    const double levels
        = std::max(1.0, std::ceil(std::log2(static_cast<double>(std::max<std::int64_t>(n, 2)))));
    return 16.0 * u * levels;
}

std::vector<double> convolveByFft(const std::vector<double> &a, const std::vector<double> &b)
{
    if (a.empty() || b.empty())
        return {};
    const std::size_t n = a.size() + b.size() - 1;
    const auto len = static_cast<std::size_t>(nextFastFftLength(static_cast<std::int64_t>(n)));
    if (len == 1) {
        // Eigen's kissfft crashes on a transform of length 1; the one product is exact anyway.
        std::vector<double> out{a[0] * b[0]};
        clipNegative(out);
        return out;
    }
    FftBuffers &buffers = fftBuffers();
    std::vector<double> &pa = buffers.realA, &pb = buffers.realB;
    padInto(pa, a, len);
    padInto(pb, b, len);
    Fft &fft = cachedFft(len);
    std::vector<std::complex<double>> &fa = buffers.specA, &fb = buffers.specB;
    fft.fwd(fa, pa);
    fft.fwd(fb, pb);
    for (std::size_t i = 0; i < fa.size(); ++i)
        fa[i] *= fb[i];
    std::vector<double> out;
    fft.inv(out, fa, len);
    out.resize(n);
    clipNegative(out);
    trimFftBuffers();
    return out;
}

namespace {

/// Sums of squares for selfConvolveCircular's ℓ1 error bound (docs/pld-numerics.md §2): of each
/// bin's error, and of each bin's |z|^k (for the inverse transform's relative error).
struct PowerErrorSums
{
    long double errSq = 0.0L;
    long double powSq = 0.0L;
};

/// The bins whose power's error k·r·(|ẑ|+r)^{k−1} is not negligible (> 1e-14), the largest ones
/// first past a budget of about 4·10⁶ long double multiply-adds (each costs |p| of them).
std::vector<std::uint32_t> binsToRefine(const std::vector<std::complex<double>> &spectrum, double kd,
                                        double r, std::size_t pSize)
{
    std::vector<std::pair<double, std::uint32_t>> candidates;
    // k·r·(|z| + r)^{k−1} ≤ 1e-14 whenever |z| + r ≤ m0: such bins are screened out by one
    // comparison of |z|² (no logarithm), the common case for a concentrated PMF.
    const double m0 = std::exp(std::log(1e-14 / (kd * r)) / (kd - 1.0)) * (1.0 - 1e-9) - r;
    const double screen = m0 > 0.0 ? m0 * m0 : -1.0;
    for (std::size_t j = 0; j < spectrum.size(); ++j) {
        if (std::norm(spectrum[j]) <= screen)
            continue;
        const double mag = std::abs(spectrum[j]);
        const double c = kd * r * std::exp((kd - 1.0) * logMagPlus(mag, r));
        if (c > 1e-14)
            candidates.emplace_back(c, static_cast<std::uint32_t>(j));
    }
    const std::size_t budget
        = std::max<std::size_t>(1, static_cast<std::size_t>(4e6) / std::max<std::size_t>(pSize, 1));
    if (candidates.size() > budget) {
        std::nth_element(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(budget),
                         candidates.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
        candidates.resize(budget);
    }
    std::vector<std::uint32_t> refine;
    for (const auto &c : candidates)
        refine.push_back(c.second);
    return refine;
}

constexpr long double kTwoPiL = 6.283185307179586476925286766559005768L;

/// z_j = Σ_m x_m e^{−2πi·jm/N} over the first n values, in long double: twiddles by rotation
/// within blocks of 64 from an exact anchor angle (jm mod N), block sums added pairwise.
std::complex<long double> directDft(const std::vector<double> &x, std::size_t n, std::uint32_t j,
                                    std::size_t len, std::vector<std::complex<long double>> &blockSums)
{
    const long double step = -kTwoPiL * static_cast<long double>(j) / static_cast<long double>(len);
    const long double rotRe = std::cos(step), rotIm = std::sin(step);
    blockSums.clear();
    for (std::size_t m0 = 0; m0 < n; m0 += 64) {
        const auto phase = static_cast<long double>((static_cast<std::uint64_t>(j) * m0) % len);
        const long double angle = -kTwoPiL * phase / static_cast<long double>(len);
        // Real arithmetic: std::complex<long double>'s operator* checks for inf/NaN (slow).
        long double wRe = std::cos(angle), wIm = std::sin(angle);
        long double accRe = 0.0L, accIm = 0.0L;
        const std::size_t m1 = std::min(n, m0 + 64);
        for (std::size_t m = m0; m < m1; ++m) {
            const long double v = x[m];
            accRe += v * wRe;
            accIm += v * wIm;
            const long double nextRe = wRe * rotRe - wIm * rotIm;
            wIm = wRe * rotIm + wIm * rotRe;
            wRe = nextRe;
        }
        blockSums.emplace_back(accRe, accIm);
    }
    while (blockSums.size() > 1) {
        std::size_t out = 0;
        for (std::size_t i = 0; i + 1 < blockSums.size(); i += 2)
            blockSums[out++] = blockSums[i] + blockSums[i + 1];
        if (blockSums.size() % 2)
            blockSums[out++] = blockSums.back();
        blockSums.resize(out);
    }
    return blockSums.empty() ? 0.0L : blockSums[0];
}

/// The k-th power of a refined bin's long double value z into `out`, with its error added to
/// `sums`: the forward error (r_L = 512·u_L) amplified, the long double power (kθ included), and
/// the phase reduced mod 2π, rounded to double and passed through the double polar form (≤ 16u).
void powerRefinedBin(std::complex<long double> z, std::int64_t k, double weight, std::complex<double> &out,
                     PowerErrorSums &sums)
{
    const long double kl = static_cast<long double>(k);
    const long double uL = 0x1p-64L;
    const long double rL = 512.0L * uL;
    const double u = 0x1p-53;
    const long double mag = std::abs(z);
    if (mag == 0.0L) {
        out = 0.0;
        const long double e = kl * rL * std::pow(rL, kl - 1.0L);
        sums.errSq += weight * e * e;
        return;
    }
    const long double logMag = std::log(mag);
    const long double zk = std::exp(kl * logMag);
    out = std::polar(static_cast<double>(zk), static_cast<double>(std::fmod(kl * std::arg(z), kTwoPiL)));
    const long double e
        = kl * rL
              * std::exp((kl - 1.0L)
                         * (rL < 1e-3L * mag ? logMag + std::log1p(rL / mag) : std::log(mag + rL)))
          + (8.0L * kl * uL + 16.0L * u) * zk;
    sums.errSq += weight * e * e;
    sums.powSq += weight * zk * zk;
}

/// Raises every bin not refined to the k-th power in double by binary powering (and with the error
/// bound, when `sums` is set, adds its error); bins whose power and error underflow become 0.
void powerRemainingBins(std::vector<std::complex<double>> &spectrum, const std::vector<char> &refined,
                        std::int64_t k, double r, std::size_t len, PowerErrorSums *sums)
{
    const double kd = static_cast<double>(k);
    const double u = 0x1p-53;
    // Below m1, |z|^k and k·r·(|z| + r)^{k−1} both underflow (< e^{−746}): screened by |z|².
    const double m1 = std::exp(-746.0 / (kd - 1.0)) * (1.0 - 1e-9) - r;
    const double underflow = m1 > 0.0 ? m1 * m1 : -1.0;
    for (std::size_t j = 0; j < spectrum.size(); ++j) {
        if (refined[j])
            continue;
        auto &z = spectrum[j];
        if (std::norm(z) <= underflow) {
            z = 0.0;
            continue;
        }
        const double mag = std::abs(z);
        const double weight = (j == 0 || 2 * j == len) ? 1.0 : 2.0;
        if (mag == 0.0) {
            if (sums) {
                const long double e
                    = static_cast<long double>(kd * r) * std::pow(static_cast<long double>(r), kd - 1.0);
                sums->errSq += weight * e * e;
            }
            continue;
        }
        // z^k = |z|^k·e^{ikθ}; computed from polar form to keep the phase accurate.
        const double logMag = std::log(mag);
        const double kLog = kd * logMag;
        const double logGrown = logMagPlus(mag, r);
        if (kLog < -746.0 && (!sums || (kd - 1.0) * logGrown < -746.0)) {
            z = 0.0; // |z|^k and its error bound both underflow to 0
            continue;
        }
        const double zk = std::exp(kLog);
        if (sums) {
            // Forward error amplified, (|ẑ|+r)^{k−1} ≤ exp((k−1)(log|ẑ| + r/|ẑ|)), + the power
            // by binary powering: each complex product errs by ≤ √5·u relative (Brent, Percival
            // & Zimmermann 2007), so ẑ^k by ≤ (k − 1)√5·u to first order; (8k + 16)u covers it.
            const long double e = static_cast<long double>(kd * r) * std::exp((kd - 1.0) * logGrown)
                                  + static_cast<long double>((8.0 * kd + 16.0) * u) * zk;
            sums->errSq += weight * e * e;
            sums->powSq += weight * static_cast<long double>(zk) * zk;
        }
        z = powerBySquaring(z, k);
    }
}

/// selfConvolveCircular on a circle already holding p (`pSize` values folded, zeros after).
std::vector<double> selfConvolveFolded(std::vector<double> &padded, std::size_t pSize, std::int64_t k,
                                       std::size_t len, double *l1ErrorBound)
{
    if (len == 1) {
        // Eigen's kissfft crashes on a transform of length 1: all the mass s sits on one point,
        // and its k-fold convolution is s^k (std::pow, within a few ulps; bound as for the powers
        // below).
        std::vector<double> out{std::pow(padded[0], static_cast<double>(k))};
        clipNegative(out);
        if (l1ErrorBound)
            *l1ErrorBound = (8.0 * static_cast<double>(k) + 16.0) * 0x1p-53 * out[0];
        return out;
    }
    Fft &fft = cachedFft(len);
    std::vector<std::complex<double>> &spectrum = fftBuffers().specA;
    fft.fwd(spectrum, padded);
    const double r = fftRelativeErrorBound(static_cast<std::int64_t>(len));
    // Error accounting (docs/pld-numerics.md §2). The power multiplies each spectral value's
    // error by k, so the few frequencies where k·r·(|ẑ|+r)^{k−1} is not negligible (those with
    // |z| ≈ 1: the low frequencies of a concentrated PMF) are recomputed by a direct DFT in long
    // double, within r_L = 512·u_L, u_L = 2⁻⁶⁴, and raised to the k-th power in long double.
    const std::vector<std::uint32_t> refine = l1ErrorBound
                                                  ? binsToRefine(spectrum, static_cast<double>(k), r, pSize)
                                                  : std::vector<std::uint32_t>{};
    std::vector<char> refined(spectrum.size(), 0);
    PowerErrorSums sums;
    std::vector<std::complex<long double>> blockSums;
    const std::size_t n = pSize < len ? pSize : len;
    for (std::uint32_t j : refine) {
        const std::complex<long double> z = directDft(padded, n, j, len, blockSums);
        const double weight = (j == 0 || 2 * static_cast<std::size_t>(j) == len) ? 1.0 : 2.0;
        refined[j] = 1;
        powerRefinedBin(z, k, weight, spectrum[j], sums);
    }
    powerRemainingBins(spectrum, refined, k, r, len, l1ErrorBound ? &sums : nullptr);
    if (l1ErrorBound)
        // + 1e-300: subnormal intermediates near the underflow screen (absolute errors ≲ k·2⁻¹⁰⁷⁴).
        *l1ErrorBound = static_cast<double>(
            (std::sqrt(sums.errSq) + static_cast<long double>(r) * std::sqrt(sums.powSq)) * 1.01L + 1e-300L);
    // The inverse overwrites the circle's own storage (its values are no longer needed) from
    // the spectrum in place: no further megabin buffers. Scaled as Eigen's FFT::inv scales.
    std::vector<double> out = std::move(padded);
    padded = {};
    if (len % 4 == 0) {
        fft.impl().invInPlace(out.data(), spectrum.data(), static_cast<int>(len));
        const double scale = 1. / static_cast<double>(len);
        for (double &x : out)
            x *= scale;
    } else {
        fft.inv(out, spectrum, len);
    }
    clipNegative(out);
    return out;
}

} // namespace

std::vector<double> selfConvolveCircular(const std::vector<double> &p, std::int64_t k, std::int64_t length,
                                         double *l1ErrorBound)
{
    const auto len = static_cast<std::size_t>(std::max<std::int64_t>(length, 1));
    if (l1ErrorBound)
        *l1ErrorBound = 0.0;
    if (k == 1 || len == 1 || p.size() > len) {
        std::vector<double> padded(len, 0.0);
        // Fold p onto the circle (only relevant if |p| > length, which callers avoid).
        for (std::size_t i = 0; i < p.size(); ++i)
            padded[i % len] += p[i];
        return k == 1 ? padded : selfConvolveFolded(padded, p.size(), k, len, l1ErrorBound);
    }
    std::vector<double> &padded = fftBuffers().realA;
    padInto(padded, p, len);
    std::vector<double> out = selfConvolveFolded(padded, p.size(), k, len, l1ErrorBound);
    trimFftBuffers();
    return out;
}

} // namespace pbx::math
