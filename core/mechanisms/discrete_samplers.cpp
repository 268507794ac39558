// SPDX-License-Identifier: MIT
#include "core/mechanisms/discrete_samplers.h"

#include "core/util/try.h"

#include <boost/multiprecision/cpp_int.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numbers>
#include <numeric>
#include <string>

namespace pbx::mechanisms {

namespace {

__extension__ typedef unsigned __int128 U128;
using U512 = boost::multiprecision::uint512_t;

// ---- exact uniform draws below n (n ≥ 1), by masking and rejection --------------------------

std::uint64_t drawBelow(RandomBits &bits, std::uint64_t n)
{
    return bits.uniformBelowUnchecked(n);
}

// For n > 2^64 the candidate is two words (the first most significant) shifted right to keep
// exactly bit_width(n − 1) bits: the same construction as the 512-bit overload below, so both
// consume identical bits and return identical values.
U128 drawBelow(RandomBits &bits, U128 n)
{
    if ((n >> 64) == 0)
        return bits.uniformBelowUnchecked(static_cast<std::uint64_t>(n));
    const U128 max = n - 1;
    if ((max >> 64) == 0) // n = 2^64: one full word
        return bits.nextU64();
    const int width = 64 + static_cast<int>(std::bit_width(static_cast<std::uint64_t>(max >> 64)));
    for (;;) {
        const U128 hi = bits.nextU64();
        const U128 x = ((hi << 64) | bits.nextU64()) >> (128 - width);
        if (x <= max || bits.failed())
            return x;
    }
}

U512 drawBelow(RandomBits &bits, const U512 &n)
{
    if (n <= std::numeric_limits<std::uint64_t>::max())
        return bits.uniformBelowUnchecked(static_cast<std::uint64_t>(n));
    const U512 max = n - 1;
    const unsigned width = boost::multiprecision::msb(max) + 1; // > 64 here
    const unsigned words = (width + 63) / 64;
    for (;;) {
        U512 x = 0;
        for (unsigned i = 0; i < words; ++i)
            x = (x << 64) | U512(bits.nextU64());
        x >>= (64 * words - width); // keep exactly `width` uniform bits
        if (x <= max || bits.failed())
            return x;
    }
}

// ---- Bernoulli(exp(−γ)), CKS 2020 Algorithm 1 --------------------------------------------

// Bernoulli(e^{−1}): Algorithm 1 with γ = 1. Its first trial Bernoulli(γ/1) is certain, so the
// loop starts at K = 2 and draws Bernoulli(1/K) until the first 0; returns [K odd].
bool bernoulliExpMinusOne(RandomBits &bits)
{
    std::uint64_t k = 2;
    while (bits.uniformBelowUnchecked(k) == 0 && !bits.failed())
        ++k;
    return (k & 1) != 0;
}

// Algorithm 1 for γ = num/den ∈ [0, 1]. Bernoulli(γ/K) is drawn as Bernoulli(1/K) AND
// Bernoulli(num/den) (independent), so den·K is never formed.
template<typename U>
bool bernoulliExpUnit(RandomBits &bits, const U &num, const U &den)
{
    if (num == 0)
        return true;
    std::uint64_t k = 1;
    for (;;) {
        const bool a = (k == 1 || bits.uniformBelowUnchecked(k) == 0) && drawBelow(bits, den) < num;
        if (!a || bits.failed())
            break;
        ++k;
    }
    return (k & 1) != 0;
}

// Algorithm 1 for any γ = num/den ≥ 0: ⌊γ⌋ factors e^{−1} (stop at the first failure), then
// the remainder exp(⌊γ⌋ − γ). The loop runs at most ⌊γ⌋ times and stops early with probability
// 1 − e^{−1} per round, so its expected length is < 1.6 whatever γ is.
template<typename U>
bool bernoulliExpGeneral(RandomBits &bits, U num, const U &den)
{
    while (num >= den) {
        if (!bernoulliExpMinusOne(bits) || bits.failed())
            return false;
        num -= den;
    }
    return bernoulliExpUnit<U>(bits, num, den);
}

// ⌊σ⌋ for σ² = n/d exactly: the largest k with k²·d ≤ n (k ≤ 2^31 since n/d ≤ 2^62).
std::uint64_t floorSqrt(std::uint64_t n, std::uint64_t d)
{
    auto fits = [&](std::uint64_t k) { return U128{k} * k * d <= U128{n}; };
    auto k = static_cast<std::uint64_t>(std::sqrt(static_cast<long double>(n) / d));
    while (k > 0 && !fits(k))
        --k;
    while (fits(k + 1))
        ++k;
    return k;
}

Error sourceError(const RandomBits &bits)
{
    return bits.error();
}

Error magnitudeError()
{
    return makeError(ErrorCode::Unsupported,
                     "discrete noise draw exceeds 2^62 in magnitude (scale far too large)");
}

} // namespace

// ---- Rational --------------------------------------------------------------------------------

double Rational::toDouble() const
{
    return static_cast<double>(static_cast<long double>(num) / static_cast<long double>(den));
}

Result<Rational> makeRational(std::uint64_t num, std::uint64_t den)
{
    if (num == 0 || den == 0 || num > kMaxRationalPart || den > kMaxRationalPart)
        return makeError(ErrorCode::InvalidArgument,
                         "rational parameter: numerator and denominator must be in [1, 2^62]");
    const std::uint64_t g = std::gcd(num, den);
    return Rational{num / g, den / g};
}

namespace {
enum class Direction { Up, Down };

Result<Rational> rationalOnGrid(double x, std::uint64_t maxDenominator, Direction dir)
{
    if (!std::isfinite(x) || x <= 0.0 || x > static_cast<double>(kMaxRationalPart))
        return makeError(ErrorCode::InvalidArgument, "noise parameter must be finite and in (0, 2^62]");
    if (maxDenominator == 0)
        return makeError(ErrorCode::InvalidArgument, "maximum denominator must be at least 1");
    int k = std::min(static_cast<int>(std::bit_width(maxDenominator)) - 1, 62);
    for (; k >= 0; --k) {
        const double scaled = std::ldexp(x, k); // exact: a power-of-two scaling
        const double rounded = dir == Direction::Up ? std::ceil(scaled) : std::floor(scaled);
        if (rounded <= static_cast<double>(kMaxRationalPart)) {
            auto n = static_cast<std::uint64_t>(rounded);
            if (n == 0)
                return makeError(ErrorCode::InvalidArgument,
                                 "noise parameter " + std::to_string(x)
                                     + " is below the smallest representable value 1/"
                                     + std::to_string(std::uint64_t{1} << k));
            while (k > 0 && (n & 1) == 0) {
                n >>= 1;
                --k;
            }
            return Rational{n, std::uint64_t{1} << k};
        }
    }
    return makeError(ErrorCode::InvalidArgument, "noise parameter too large for a rational");
}
} // namespace

Result<Rational> rationalAtLeast(double x, std::uint64_t maxDenominator)
{
    return rationalOnGrid(x, maxDenominator, Direction::Up);
}

Result<Rational> rationalAtMost(double x, std::uint64_t maxDenominator)
{
    return rationalOnGrid(x, maxDenominator, Direction::Down);
}

// ---- Bernoulli(exp(−γ)) ------------------------------------------------------------------------

Result<bool> sampleBernoulliExp(RandomBits &bits, std::uint64_t num, std::uint64_t den)
{
    if (den == 0 || num > kMaxRationalPart || den > kMaxRationalPart)
        return makeError(ErrorCode::InvalidArgument,
                         "Bernoulli(exp(−γ)): need γ = num/den with den ≥ 1 and num, den ≤ 2^62");
    const bool b = bernoulliExpGeneral<std::uint64_t>(bits, num, den);
    if (bits.failed())
        return sourceError(bits);
    return b;
}

// ---- discrete Laplace ----------------------------------------------------------------------

Result<DiscreteLaplaceSampler> DiscreteLaplaceSampler::create(Rational scale)
{
    PBX_TRY(r, makeRational(scale.num, scale.den));
    if (static_cast<long double>(r.num) > static_cast<long double>(kMaxScale) * r.den)
        return makeError(ErrorCode::InvalidArgument, "discrete Laplace scale must be at most 2^40");
    return DiscreteLaplaceSampler(r);
}

Result<std::int64_t> DiscreteLaplaceSampler::sample(RandomBits &bits) const
{
    const std::uint64_t n = m_scale.num;
    const std::uint64_t d = m_scale.den;
    for (;;) {
        if (bits.failed())
            return sourceError(bits);
        // X ~ P[X = x] ∝ e^{−x/n}: X = U + n·V with U uniform on {0..n−1} accepted with
        // probability e^{−U/n}, and V ~ Geometric(1 − e^{−1}).
        const std::uint64_t u = bits.uniformBelowUnchecked(n);
        if (!bernoulliExpUnit<std::uint64_t>(bits, u, n))
            continue;
        std::uint64_t v = 0;
        while (bernoulliExpMinusOne(bits) && !bits.failed())
            ++v;
        if (bits.failed())
            return sourceError(bits);
        const U128 x = U128{u} + U128{n} * v; // < 2^62 + 2^126
        const U128 y = x / d;                 // P[Y = y] ∝ e^{−y·d/n} = e^{−y/t}
        const bool negative = (bits.nextU64() & 1) != 0;
        if (bits.failed())
            return sourceError(bits);
        if (negative && y == 0)
            continue; // "−0": rejecting it makes 0 as likely as each other value's sign-half
        if (y > static_cast<U128>(kMaxSampleMagnitude))
            return magnitudeError();
        const auto magnitude = static_cast<std::int64_t>(y);
        return negative ? -magnitude : magnitude;
    }
}

double DiscreteLaplaceSampler::probability(std::int64_t y) const
{
    const double t = m_scale.toDouble();
    const double absY = std::fabs(static_cast<double>(y));
    // (e^{1/t} − 1)/(e^{1/t} + 1) = tanh(1/(2t)).
    return std::tanh(0.5 / t) * std::exp(-absY / t);
}

// ---- discrete Gaussian ---------------------------------------------------------------------

double discreteGaussianNormaliser(double variance)
{
    if (!(variance > 0.0))
        return std::numeric_limits<double>::quiet_NaN();
    double sum = 0.0;
    if (variance < 0.5) {
        // Direct: 1 + 2 Σ_{z≥1} e^{−z²/(2σ²)}; the terms fall faster than geometrically.
        for (double z = 1.0;; z += 1.0) {
            const double term = std::exp(-z * z / (2.0 * variance));
            sum += term;
            if (term < 1e-18 * sum || term == 0.0)
                break;
        }
        return 1.0 + 2.0 * sum;
    }
    // Poisson summation: σ√(2π)·(1 + 2 Σ_{k≥1} e^{−2π²σ²k²}); for σ² ≥ 1/2 the k = 2 term is
    // already below 1e-17.
    const double c = 2.0 * std::numbers::pi * std::numbers::pi * variance;
    for (double k = 1.0;; k += 1.0) {
        const double term = std::exp(-c * k * k);
        sum += term;
        if (term < 1e-18)
            break;
    }
    return std::sqrt(2.0 * std::numbers::pi * variance) * (1.0 + 2.0 * sum);
}

Result<DiscreteGaussianSampler> DiscreteGaussianSampler::create(Rational variance)
{
    PBX_TRY(r, makeRational(variance.num, variance.den));
    if (static_cast<long double>(r.num) > static_cast<long double>(kMaxVariance) * r.den)
        return makeError(ErrorCode::InvalidArgument, "discrete Gaussian σ² must be at most 2^60");
    const std::uint64_t t = floorSqrt(r.num, r.den) + 1;
    return DiscreteGaussianSampler(r, t, discreteGaussianNormaliser(r.toDouble()));
}

Result<std::int64_t> DiscreteGaussianSampler::sample(RandomBits &bits) const
{
    return sampleImpl(bits, false);
}

Result<std::int64_t> DiscreteGaussianSampler::sampleWithWideArithmetic(RandomBits &bits) const
{
    return sampleImpl(bits, true);
}

Result<std::int64_t> DiscreteGaussianSampler::sampleImpl(RandomBits &bits, bool forceWide) const
{
    const std::uint64_t n = m_variance.num;
    const std::uint64_t d = m_variance.den;
    const std::uint64_t t = m_laplaceScale;
    const DiscreteLaplaceSampler laplace(Rational{t, 1});
    for (;;) {
        PBX_TRY(y, laplace.sample(bits));
        const std::uint64_t absY = y < 0 ? static_cast<std::uint64_t>(-y) : static_cast<std::uint64_t>(y);
        // Accept with probability exp(−γ), γ = (|Y| − σ²/t)²/(2σ²) = (|Y|dt − n)² / (2ndt²).
        // The denominator is < 2^128 always (n·d·t² ≤ 4n² ≤ 2^126 since t ≤ 2σ for σ ≥ 1, and
        // ≤ n·d otherwise); the numerator fits 128 bits while |Y|dt − n < 2^64, i.e. except for
        // |Y| beyond roughly 4σ.
        bool accept = false;
        U128 ydt = 0;
        U128 den = 0;
        const bool ydtOverflow = __builtin_mul_overflow(U128{absY} * d, U128{t}, &ydt);
        const bool denOverflow = __builtin_mul_overflow(U128{n} * d, U128{t} * t * 2, &den);
        const U128 diff = ydtOverflow ? 0 : (ydt >= n ? ydt - n : U128{n} - ydt);
        if (!forceWide && !ydtOverflow && !denOverflow && (diff >> 64) == 0) {
            accept = bernoulliExpGeneral<U128>(bits, diff * diff, den);
        } else {
            // The same computation in 512-bit integers, which cannot overflow here:
            // |Y|dt < 2^62·2^62·2^31, so the numerator is < 2^310.
            const U512 ydtBig = U512(absY) * d * t;
            const U512 diffBig = ydtBig >= n ? U512(ydtBig - n) : U512(U512(n) - ydtBig);
            const U512 denBig = U512(n) * d * t * t * 2;
            accept = bernoulliExpGeneral<U512>(bits, diffBig * diffBig, denBig);
        }
        if (bits.failed())
            return sourceError(bits);
        if (accept)
            return y;
    }
}

double DiscreteGaussianSampler::probability(std::int64_t y) const
{
    const double s2 = m_variance.toDouble();
    const double yy = static_cast<double>(y);
    return std::exp(-yy * yy / (2.0 * s2)) / m_normaliser;
}

} // namespace pbx::mechanisms
