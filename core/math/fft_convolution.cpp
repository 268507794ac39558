// SPDX-License-Identifier: MIT
#include "core/math/fft_convolution.h"

#include <unsupported/Eigen/FFT>

#include <algorithm>
#include <complex>

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
    const auto len = static_cast<std::size_t>(nextFastFftLength(static_cast<std::int64_t>(n)));
    std::vector<double> pa(a), pb(b);
    pa.resize(len, 0.0);
    pb.resize(len, 0.0);
    Eigen::FFT<double> fft;
    fft.SetFlag(Eigen::FFT<double>::HalfSpectrum);
    std::vector<std::complex<double>> fa, fb;
    fft.fwd(fa, pa);
    fft.fwd(fb, pb);
    for (std::size_t i = 0; i < fa.size(); ++i)
        fa[i] *= fb[i];
    std::vector<double> out;
    fft.inv(out, fa, len);
    out.resize(n);
    clipNegative(out);
    return out;
}

std::vector<double> selfConvolveCircular(const std::vector<double> &p, std::int64_t k,
                                         std::int64_t length)
{
    const auto len = static_cast<std::size_t>(std::max<std::int64_t>(length, 1));
    std::vector<double> padded(len, 0.0);
    // Fold p onto the circle (only relevant if |p| > length, which callers avoid).
    for (std::size_t i = 0; i < p.size(); ++i)
        padded[i % len] += p[i];
    if (k == 1)
        return padded;
    Eigen::FFT<double> fft;
    fft.SetFlag(Eigen::FFT<double>::HalfSpectrum);
    std::vector<std::complex<double>> spectrum;
    fft.fwd(spectrum, padded);
    const double kd = static_cast<double>(k);
    for (auto &z : spectrum) {
        const double r = std::abs(z);
        if (r == 0.0) {
            z = 0.0;
            continue;
        }
        // z^k = r^k·e^{ikθ}; computed from polar form to keep the phase accurate.
        const double logMag = kd * std::log(r);
        const double phase = kd * std::arg(z);
        z = std::polar(std::exp(logMag), phase);
    }
    std::vector<double> out;
    fft.inv(out, spectrum, len);
    clipNegative(out);
    return out;
}

} // namespace pbx::math
