// SPDX-License-Identifier: MIT
// Exact samplers for Bernoulli(exp(−γ)), the discrete Laplace and the discrete Gaussian
// distributions (Canonne, Kamath & Steinke 2020, "The Discrete Gaussian for Differential
// Privacy", NeurIPS 2020, arXiv 2004.00010, Algorithms 1–3). The sampling path uses integer
// arithmetic only (64/128-bit, and 512-bit for rare large intermediates): the output distribution
// is exactly the stated one given uniform bits, so there is no floating-point side channel
// (Mironov 2012). Floating point appears only in probability(), which is for tests and accounting.
#pragma once

#include "core/mechanisms/random_bits.h"
#include "core/util/result.h"

#include <cstdint>

namespace pbx::mechanisms {

/// Largest numerator or denominator a Rational may have: 2^62.
inline constexpr std::uint64_t kMaxRationalPart = std::uint64_t{1} << 62;
/// Default bound on the denominators made by rationalAtLeast / rationalAtMost: 2^32.
inline constexpr std::uint64_t kDefaultMaxDenominator = std::uint64_t{1} << 32;
/// Largest |sample| a sampler returns: 2^62. A larger draw is reported as an error, never clamped.
inline constexpr std::int64_t kMaxSampleMagnitude = std::int64_t{1} << 62;

/// A positive rational num/den in lowest terms, 1 ≤ num, den ≤ 2^62 (made by makeRational,
/// rationalAtLeast or rationalAtMost).
struct Rational
{
    std::uint64_t num = 1;
    std::uint64_t den = 1;

    /// num/den as a double (within one ulp). For reporting and for the floating-point accounting
    /// only; the samplers never use it.
    double toDouble() const;
    friend bool operator==(const Rational &, const Rational &) = default;
};

/// num/den reduced to lowest terms. Valid: 1 ≤ num, den ≤ 2^62.
/// Errors: InvalidArgument (zero, or a part above 2^62).
Result<Rational> makeRational(std::uint64_t num, std::uint64_t den);

/// The smallest rational n/2^k ≥ x, with 2^k ≤ maxDenominator (and k as large as allowed while
/// n ≤ 2^62): rounds UP, so a noise parameter converted with it never has less noise than asked
/// (privacy is never overstated). Relative rounding ≤ 2^-k / x; with the default 2^32 and x ≥ 1
/// it is below 2.4·10⁻¹⁰. The comparison with x is exact (x·2^k is exact in binary floating point).
/// Valid: x finite, 0 < x ≤ 2^62, maxDenominator ≥ 1 (rounded down to a power of two).
/// Errors: InvalidArgument.
Result<Rational> rationalAtLeast(double x, std::uint64_t maxDenominator = kDefaultMaxDenominator);

/// The largest rational n/2^k ≤ x (same grid as rationalAtLeast): rounds DOWN, for a parameter
/// that must not exceed a bound (e.g. the largest noise meeting an accuracy target).
/// Valid: x finite, x ≥ 1/(largest usable 2^k) so that n ≥ 1, x ≤ 2^62. Errors: InvalidArgument.
Result<Rational> rationalAtMost(double x, std::uint64_t maxDenominator = kDefaultMaxDenominator);

/// One exact draw of Bernoulli(exp(−γ)) for rational γ = num/den ≥ 0.
/// CKS 2020 Algorithm 1: for γ ∈ [0, 1], K ← 1; while Bernoulli(γ/K) = 1, K ← K + 1; return
/// [K odd] (P = Σ_k odd γ^{k−1}/(k−1)! − γ^k/k! = e^{−γ}); for γ > 1, ⌊γ⌋ draws of
/// Bernoulli(e^{−1}) (stopping at the first 0) times Bernoulli(exp(⌊γ⌋ − γ)). Bernoulli(γ/K) is
/// drawn as Bernoulli(num/den)·Bernoulli(1/K), so no product overflows.
/// Expected cost O(1) uniform draws. Valid: den ≥ 1, num ≤ 2^62, den ≤ 2^62.
/// Errors: InvalidArgument; the source's error if it fails.
Result<bool> sampleBernoulliExp(RandomBits &bits, std::uint64_t num, std::uint64_t den);

/// Exact sampler of the discrete Laplace distribution with scale t > 0 (the two-sided geometric
/// distribution): P[Y = y] = (e^{1/t} − 1)/(e^{1/t} + 1) · e^{−|y|/t}, y ∈ ℤ.
/// CKS 2020 Algorithm 2 with t = n/d: U uniform in {0..n−1} accepted with probability e^{−U/n},
/// V ~ Geometric(1 − e^{−1}) by repeated Bernoulli(e^{−1}), X = U + nV (so P[X=x] ∝ e^{−x/n}),
/// Y = ⌊X/d⌋, a uniform sign, and "−0" rejected. Expected O(1) work for every t.
class DiscreteLaplaceSampler
{
public:
    /// Largest accepted scale, 2^40: the chance of a draw beyond kMaxSampleMagnitude is then
    /// below e^{−2^22}.
    static constexpr double kMaxScale = 1099511627776.0;

    /// Valid: scale a Rational with scale ≤ 2^40. Errors: InvalidArgument.
    static Result<DiscreteLaplaceSampler> create(Rational scale);

    Rational scale() const { return m_scale; }

    /// One exact draw. Errors: the source's error (Io) if it fails; Unsupported if |Y| would
    /// exceed 2^62 (probability < e^{−2^22} in the valid range).
    Result<std::int64_t> sample(RandomBits &bits) const;

    /// P[Y = y] in double precision (relative error ~1e-15). Not used for sampling.
    double probability(std::int64_t y) const;

private:
    friend class DiscreteGaussianSampler;
    explicit DiscreteLaplaceSampler(Rational scale) : m_scale(scale) {}
    Rational m_scale;
};

/// Exact sampler of the discrete Gaussian distribution N_ℤ(0, σ²):
/// P[Y = y] = e^{−y²/(2σ²)} / Σ_{z∈ℤ} e^{−z²/(2σ²)}, y ∈ ℤ. (σ² is the parameter; the variance
/// itself is slightly below σ², CKS 2020 §2.)
/// CKS 2020 Algorithm 3: t = ⌊σ⌋ + 1 (computed exactly), Y ~ discrete Laplace(t), accepted with
/// probability exp(−(|Y| − σ²/t)²/(2σ²)). The expected number of rounds is bounded by a small
/// constant for every σ² (CKS 2020 §5; about 1.2–1.5 measured here).
class DiscreteGaussianSampler
{
public:
    /// Largest accepted σ², 2^60 (σ ≤ 2^30).
    static constexpr double kMaxVariance = 1152921504606846976.0;

    /// Valid: variance (σ²) a Rational with σ² ≤ 2^60. Errors: InvalidArgument.
    static Result<DiscreteGaussianSampler> create(Rational variance);

    Rational variance() const { return m_variance; }

    /// One exact draw. Errors: the source's error (Io) if it fails; Unsupported if |Y| would
    /// exceed 2^62 (unreachable in practice).
    Result<std::int64_t> sample(RandomBits &bits) const;

    /// For tests: sample() with every acceptance test done in 512-bit arithmetic (normally used
    /// only when a 128-bit intermediate would overflow). Consumes the same bits and returns the
    /// same values as sample().
    Result<std::int64_t> sampleWithWideArithmetic(RandomBits &bits) const;

    /// P[Y = y] in double precision; the normaliser is summed directly for σ² < 1/2 and by the
    /// Poisson summation formula Σ_z e^{−z²/(2σ²)} = σ√(2π)·(1 + 2Σ_{k≥1} e^{−2π²σ²k²}) otherwise.
    double probability(std::int64_t y) const;

    /// Σ_{z∈ℤ} e^{−z²/(2σ²)} (the normaliser used by probability()).
    double normaliser() const { return m_normaliser; }

private:
    DiscreteGaussianSampler(Rational variance, std::uint64_t laplaceScale, double normaliser)
        : m_variance(variance), m_laplaceScale(laplaceScale), m_normaliser(normaliser)
    {}
    Result<std::int64_t> sampleImpl(RandomBits &bits, bool forceWide) const;
    Rational m_variance;
    std::uint64_t m_laplaceScale; ///< t = ⌊σ⌋ + 1
    double m_normaliser;
};

/// Σ_{z∈ℤ} e^{−z²/(2σ²)} for σ² > 0 in double precision (see DiscreteGaussianSampler::probability).
double discreteGaussianNormaliser(double variance);

} // namespace pbx::mechanisms
