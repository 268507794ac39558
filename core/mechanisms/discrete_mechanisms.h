// SPDX-License-Identifier: MIT
// Mechanisms built on the exact discrete samplers: integer-valued releases (counts, sums of
// integer columns) with discrete Laplace or discrete Gaussian noise, their exact privacy
// guarantees and error bars; and a grid discretisation that gives real-valued queries the same
// protection against floating-point attacks (Mironov 2012).
#pragma once

#include "core/mechanisms/discrete_samplers.h"
#include "core/mechanisms/noise_kind.h"
#include "core/mechanisms/random_bits.h"
#include "core/util/result.h"

#include <cstdint>
#include <string_view>

namespace pbx::mechanisms {

/// The discrete mechanisms draw the discrete twins of the two additive noises (one NoiseKind for
/// the whole core):
/// - Laplace: discrete Laplace with scale t (the parameter). Pure ε-DP with ε = Δ/t for an integer
///   query of ℓ1-sensitivity Δ (Ghosh–Roughgarden–Sundararajan 2009, the geometric mechanism;
///   CKS 2020 §1): p(y)/p(y+k) ≤ e^{|k|/t} for every integer shift |k| ≤ Δ.
/// - Gaussian: discrete Gaussian N_ℤ(0, σ²) with σ² the parameter. ρ-zCDP with ρ = Δ²/(2σ²) for
///   an integer query of ℓ2-sensitivity Δ (CKS 2020 Thm 4; docs/composition.md §2.1: the discrete
///   Gaussian has the same ρ), and the exact (ε, δ) curve of CKS 2020 Thm 7.
using DiscreteNoiseKind = NoiseKind;

/// "discrete-laplace" or "discrete-gaussian".
std::string_view discreteNoiseKindName(DiscreteNoiseKind kind);
/// The unit cost() is charged in: "epsilon" (Laplace, pure DP) or "rho" (Gaussian, zCDP).
std::string_view discreteCostUnitName(DiscreteNoiseKind kind);

/// M(x) = f(x) + Z for an integer-valued query f with integer sensitivity Δ, Z discrete Laplace
/// or discrete Gaussian with a rational parameter (t or σ²), sampled exactly
/// (discrete_samplers.h). Every privacy figure is rounded towards more privacy loss and every
/// error bar towards a wider interval.
class DiscreteNoiseMechanism
{
public:
    /// Largest integer sensitivity: 2^20. A larger integer range (e.g. a sum with clipping
    /// bound 10⁹) goes through GridMechanism with a grid g = 2^j ≥ Δ/2^20.
    static constexpr std::uint64_t kMaxSensitivity = std::uint64_t{1} << 20;

    /// The mechanism with the given parameter (scale t for Laplace, σ² for Gaussian).
    /// Valid: Laplace t ≤ 2^40, Gaussian σ² ≤ 2^60 (see the samplers), 1 ≤ Δ ≤ 2^20.
    /// Errors: InvalidArgument.
    static Result<DiscreteNoiseMechanism> withParameter(DiscreteNoiseKind kind, Rational parameter,
                                                        std::uint64_t sensitivity);

    /// The least noise (on the rational grid of rationalAtLeast) whose cost() ≤ `cost`:
    /// Laplace t ≥ Δ/ε, Gaussian σ² ≥ Δ²/(2ρ), rounded up, then nudged up until cost() (itself
    /// rounded up) is ≤ `cost`, so the charge never exceeds what the caller budgeted.
    /// Units: ε or ρ in nats. Valid: cost finite > 0, 1 ≤ Δ ≤ 2^20, and the resulting parameter
    /// within the samplers' range. Errors: InvalidArgument.
    static Result<DiscreteNoiseMechanism> forCost(DiscreteNoiseKind kind, double cost,
                                                  std::uint64_t sensitivity,
                                                  std::uint64_t maxDenominator = kDefaultMaxDenominator);

    /// The most noise (largest parameter, rounded down to the rational grid of rationalAtMost)
    /// with P(|Z| > a) ≤ β, using the upper bound tailProbability() on the exact discrete tail,
    /// so the error bar |release − f(x)| ≤ ⌊a⌋ holds with probability ≥ 1 − β. The tail is
    /// monotone in the parameter (d/dθ P(|Z| ≤ A) ∝ E[g(Z) | |Z| ≤ A] − E[g(Z)] ≤ 0 for the
    /// increasing g = |Z| or Z²), so the search is a bisection. Units: a in the query's integer
    /// units (a non-integer a is floored). Valid: 0 ≤ a ≤ 2^52 finite, 0 < β < 1, 1 ≤ Δ ≤ 2^20.
    /// Errors: InvalidArgument (also when the target needs a parameter outside the samplers'
    /// range).
    static Result<DiscreteNoiseMechanism>
    forAbsoluteError(DiscreteNoiseKind kind, double error, double beta, std::uint64_t sensitivity,
                     std::uint64_t maxDenominator = kDefaultMaxDenominator);

    DiscreteNoiseKind kind() const { return m_kind; }
    /// t (Laplace) or σ² (Gaussian), exactly.
    Rational parameter() const { return m_parameter; }
    std::uint64_t sensitivity() const { return m_sensitivity; }

    /// The charge in the kind's unit: ε = Δ/t (Laplace) or ρ = Δ²/(2σ²) (Gaussian), computed
    /// from the exact rational and rounded up (≥ the exact value).
    double cost() const;
    /// Pure ε-DP: Δ/t rounded up (Laplace); +∞ for the Gaussian (not pure DP).
    double epsilon() const;
    /// ρ-zCDP: Gaussian Δ²/(2σ²) rounded up (CKS 2020 Thm 4); Laplace via its pure ε,
    /// ρ = ε·tanh(ε/2) ≤ ε²/2 (docs/composition.md §2.2, tight pure-DP → zCDP), rounded up.
    double rho() const;

    /// The exact privacy profile δ(ε) = sup over neighbours of Σ_y max(0, p(y) − e^ε q(y)) with
    /// p = f(x) + Z, q = f(x) + Δ + Z (a shift by Δ is the worst case), rounded up.
    /// Gaussian: CKS 2020 Thm 7, δ = P[Z > εσ²/Δ − Δ/2] − e^ε P[Z > εσ²/Δ + Δ/2], evaluated as the
    /// equivalent sum of positive terms Σ_{z > εσ²/Δ − Δ/2} p(z)(1 − e^{ε − L(z)}),
    /// L(z) = (Δ² + 2zΔ)/(2σ²), with a geometric bound on the truncated tail, a lower bound on the
    /// normaliser, a relative margin of 1e-9 and an absolute allowance of ~1e-14 of the mass
    /// summed for the rounding of each term (no cancellation). It sums O(σ) terms (about 30 ms at
    /// σ = 10⁵); for σ > 10⁵ the (looser, still valid) CKS conversion of ρ (cks_conversion.h)
    /// is returned instead. Also ≤ that conversion, as ρ-zCDP implies.
    /// Laplace: 0 for ε ≥ Δ/t (decided exactly); otherwise
    /// P[Z ≤ 0](1 − e^{ε−Δ/t}) + Σ_{0<y<Δ} p(y)(1 − e^{ε−(Δ−2y)/t})⁺, O(Δ) terms.
    /// Units: ε in nats, δ a probability in [0, 1]. Valid: ε ≥ 0 finite. Errors: InvalidArgument.
    Result<double> deltaForEpsilon(double epsilon) const;

    /// The smallest ε (to a relative 1e-9 bisection tolerance, returned at the upper end, so
    /// rounded up) with deltaForEpsilon(ε) ≤ δ. Laplace: ≤ Δ/t always. Gaussian: ≤ the CKS
    /// conversion of ρ, which is returned as is for σ > 10⁵ (the bisection costs ~35 δ
    /// evaluations: ~0.1 s at σ = 10⁴, ~1 s at σ = 10⁵). Valid: 0 < δ < 1 (δ ≥ 1 gives 0).
    /// Errors: InvalidArgument.
    Result<double> epsilonForDelta(double delta) const;

    /// An upper bound on P(|Z| > a) for integer a ≥ 0 (relative margin 1e-10, never below the
    /// exact value; values below 1e-300 are reported as 1e-300). Laplace: exact closed form
    /// 2e^{−a/t}/(e^{1/t} + 1). Gaussian: 2S(a+1)/N with S(m) = Σ_{z≥m} e^{−z²/(2σ²)} summed directly with a
    /// geometric remainder bound for σ ≤ 1000, and bounded by e^{−m²/(2σ²)} + σ√(π/2)·erfc(m/(σ√2)) above; N
    /// ≥ σ√(2π) (Poisson summation). (The exact tail is also ≤ P(|N(0, σ²)| > a), by the same integral
    /// comparison.)
    double tailProbability(std::uint64_t a) const;

    /// The error bar: the smallest integer w with tailProbability(w) ≤ β, so
    /// P(|release − f(x)| ≤ w) ≥ 1 − β. Valid: 0 < β < 1. Errors: InvalidArgument.
    Result<std::uint64_t> halfWidth(double beta) const;

    /// f(x) + Z with one exact draw. The caller must charge cost() to a filter first.
    /// Valid: |exactValue| ≤ 2^62. Errors: InvalidArgument (range); the source's error (Io);
    /// Unsupported if the sum would overflow 64 bits.
    Result<std::int64_t> release(std::int64_t exactValue, RandomBits &bits) const;

    /// One draw of the noise Z alone (same errors as release()).
    Result<std::int64_t> sampleNoise(RandomBits &bits) const;

private:
    DiscreteNoiseMechanism(DiscreteNoiseKind kind, Rational parameter, std::uint64_t sensitivity)
        : m_kind(kind), m_parameter(parameter), m_sensitivity(sensitivity)
    {}
    DiscreteNoiseKind m_kind;
    Rational m_parameter;
    std::uint64_t m_sensitivity;
};

/// The defence for real-valued queries: discretise, then add discrete noise.
///
/// With a grid g = 2^j, the query value v = f(x) (a double) is snapped to k = ⌊v/g + ½⌋ (round
/// half up, computed exactly: v/g is exact for a power of two and floor/fraction are exact), and
/// the release is g·(k + Z) with Z from a DiscreteNoiseMechanism of integer sensitivity
/// Δ_g = ⌈Δ/g⌉. Sensitivity argument: if |v − v'| ≤ Δ then k − k' is an integer strictly less
/// than (v − v')/g + 1 ≤ Δ/g + 1 (each snap moves the value by at most g/2, so the snapped values
/// differ by < Δ + g), hence |k − k'| ≤ ⌈Δ/g⌉. The release is a post-processing of k + Z, so it has
/// exactly the discrete mechanism's privacy (cost(), deltaForEpsilon, …). The released double is
/// exactly g times an integer (|k + Z| ≤ 2^53), a deterministic function of k + Z: its low-order
/// bits carry nothing about v, which defeats Mironov's (2012) attack on floating-point noise, the
/// same way his snapping mechanism does by rounding to a power-of-two grid.
/// Error: |release − v| ≤ g/2 + g·|Z|. Caveat: Δ must bound the difference of the *computed*
/// doubles f(x), f(x') (e.g. a clipped floating-point sum may exceed its nominal sensitivity by
/// rounding error; pad Δ accordingly).
class GridMechanism
{
public:
    /// A grid for (Δ, a): the largest power of two ≤ min(Δ, a)/1024, raised if needed so that
    /// ⌈Δ/g⌉ ≤ 2^20. Snapping then costs < 0.1% extra ε (or ρ) and < 0.1% of the error bar.
    /// Valid: Δ, a finite > 0 with results in [2^-60, 2^60]. Errors: InvalidArgument.
    static Result<double> defaultGrid(double sensitivity, double error);

    /// Round half up of value/grid, exactly. Valid: grid a power of two in [2^-60, 2^60], value
    /// finite with |value/grid| ≤ 2^52. Errors: InvalidArgument.
    static Result<std::int64_t> snap(double value, double grid);

    /// The grid mechanism with noise `parameter` in grid units (t or σ² for the integer k).
    /// Valid: grid a power of two in [2^-60, 2^60], Δ finite > 0 with ⌈Δ/g⌉ ≤ 2^20.
    /// Errors: InvalidArgument.
    static Result<GridMechanism> withParameter(DiscreteNoiseKind kind, Rational parameter, double sensitivity,
                                               double grid);

    /// Least noise costing at most `cost` (ε or ρ) for real sensitivity Δ on grid g (see
    /// DiscreteNoiseMechanism::forCost with Δ_g = ⌈Δ/g⌉). Errors: InvalidArgument.
    static Result<GridMechanism> forCost(DiscreteNoiseKind kind, double cost, double sensitivity,
                                         double grid);

    /// Most noise with P(|release − v| > a) ≤ β: the grid-unit target is W = ⌊a/g − ½⌋ (so
    /// g/2 + g·W ≤ a) and DiscreteNoiseMechanism::forAbsoluteError(W, β, ⌈Δ/g⌉). Pass grid = 0
    /// for defaultGrid(Δ, a). Valid: a ≥ g/2, 0 < β < 1. Errors: InvalidArgument.
    static Result<GridMechanism> forAbsoluteError(DiscreteNoiseKind kind, double error, double beta,
                                                  double sensitivity, double grid = 0.0);

    double grid() const { return m_grid; }
    double sensitivity() const { return m_sensitivity; }
    /// The integer mechanism on k (its sensitivity is ⌈Δ/g⌉); all privacy figures come from it.
    const DiscreteNoiseMechanism &noise() const { return m_noise; }
    /// ε (Laplace) or ρ (Gaussian), rounded up: noise().cost().
    double cost() const { return m_noise.cost(); }

    /// g·(w + ½) with w = noise().halfWidth(β): P(|release − v| ≤ halfWidth) ≥ 1 − β.
    /// Errors: InvalidArgument for β outside (0, 1).
    Result<double> halfWidth(double beta) const;

    /// g·(snap(v) + Z). Errors: InvalidArgument (v not finite or |v/g| > 2^52); the source's
    /// error (Io); Unsupported if |k + Z| > 2^53.
    Result<double> release(double exactValue, RandomBits &bits) const;

private:
    GridMechanism(DiscreteNoiseMechanism noise, double sensitivity, double grid)
        : m_noise(noise), m_sensitivity(sensitivity), m_grid(grid)
    {}
    DiscreteNoiseMechanism m_noise;
    double m_sensitivity;
    double m_grid;
};

} // namespace pbx::mechanisms
