// SPDX-License-Identifier: MIT
// Ex-post privacy of Brownian noise reduction as a function of the stopping time T
// (Whitehouse, Ramdas, Wu, Rogers 2022; docs/accuracy-first.md §3.2–3.3).
//
// General form ([DERIVED], §3.3): with v = f(x) − f(x'), the loss at time T is
// L_T = ‖v‖²/(2T) + ‖v‖·W_T/T for a standard Brownian motion W (§3.2). If a boundary ψ fixed
// before the first release has P(∃ t > 0 : W_t ≥ ψ(t)) ≤ δ, then for ANY stopping rule
//
//     E(T) = Δ²/(2T) + Δ·ψ(T)/T,   with P(L_T > E(T)) ≤ δ,
//
// i.e. the mechanism is (E, δ)-ex-post private (§1.1). Units: T is a variance (squared query
// units), Δ the ℓ2-sensitivity (query units), E in nats. Every E(T) below is rounded up.
//
// Alternative, recommended for the zCDP side: account Brownian noise reduction in the zCDP filter
// at ρ = Δ²/(2·T_stop) (brownian_noise_reduction.h, §4.4), which needs no boundary and no δ.
#pragma once

#include "core/util/result.h"

#include <string_view>

namespace pbx::mechanisms {

/// Fixed-time bound, Gaussian-quantile form: E(T) = Δ²/(2T) + (Δ/√T)·Φ⁻¹(1 − δ)
/// (docs/accuracy-first.md §3.3 table, [DERIVED]; ψ(T) = √T·Φ⁻¹(1−δ)). Valid ONLY for a single time T
/// fixed in advance, NOT for adaptive stopping. Φ⁻¹(1−δ) is computed as −Φ⁻¹(δ), accurate for
/// tiny δ. Rounded up. Valid: T > 0, Δ > 0 finite; 0 < δ < 1. Errors: InvalidArgument otherwise.
Result<double> fixedTimeExpostEpsilon(double time, double sensitivity, double delta);

/// Fixed-time bound, Chernoff form: E(T) = Δ²/(2T) + Δ·√(2·ln(1/δ)/T) (§3.3, [DERIVED]); looser
/// than the quantile form, same validity (a single T fixed in advance). Rounded up.
/// Valid and errors as fixedTimeExpostEpsilon().
Result<double> fixedTimeChernoffExpostEpsilon(double time, double sensitivity, double delta);

/// Linear boundary ψ(t) = a + b·t with a·b = ln(1/δ)/2, so P(∃t: W_t ≥ ψ(t)) = e^{−2ab} = δ exactly
/// (§3.3, [CODE-3] DProvDB BrownianMotionUtil.scala `linearValue`):
///     E(T) = Δ²/(2T) + Δ·a/T + Δ·ln(1/δ)/(2a).
/// Valid for any stopping time; a must be fixed before the first release (§6.1 rule 3). E blows
/// up as T → 0 (cap the grid at the filter's minimum T) and tends to Δ·ln(1/δ)/(2a) > 0 as
/// T → ∞. Rounded up. Valid: T, Δ, a > 0 finite; 0 < δ < 1. Errors: InvalidArgument otherwise.
Result<double> linearBoundaryExpostEpsilon(double time, double sensitivity, double delta, double a);

/// The linear boundary's a tuned to an anticipated final time T*: a* = √(T*·ln(1/δ)/2) (§3.3),
/// which makes E(T*) = ρ* + 2√(ρ*·ln(1/δ)) with ρ* = Δ²/(2T*), the zCDP conversion. Any a > 0 is
/// valid; the tuning only affects tightness, so no rounding direction is needed.
/// Valid: T* > 0 finite, 0 < δ < 1. Errors: InvalidArgument otherwise.
Result<double> linearBoundaryTunedA(double anticipatedTime, double delta);

/// Two-sided normal-mixture (Robbins) boundary ψ(t) = √(2(t+r)·ln(√((t+r)/r)/δ)), r > 0
/// (§3.3, [CODE-3] DProvDB `mixtureValue`; validity [DERIVED]: Ville's inequality for the
/// nonnegative martingale √(r/(t+r))·exp(W_t²/(2(t+r))), the N(0, 1/r) mixture of
/// exp(λW_t − λ²t/2)):
///     E(T) = Δ²/(2T) + (Δ/T)·√(2(T+r)·(ln(1/δ) + ½·ln(1 + T/r))).
/// Valid for any stopping time; r must be fixed before the first release. Do NOT re-optimise r
/// for each realised T, as DProvDB's findMinValue does: that turns the time-uniform bound into a
/// pointwise one (§6.1 rule 3). Rounded up. Valid: T, Δ, r > 0 finite; 0 < δ < 1.
/// Errors: InvalidArgument otherwise.
Result<double> mixtureBoundaryExpostEpsilon(double time, double sensitivity, double delta, double r);

/// The mixture's r tuned to minimise E(T*) at an anticipated final time T* (§3.3). Only the ψ term
/// depends on r: minimising h(r) = (T*+r)·(ln(1/δ) + ½·ln(1 + T*/r)) gives, with u = T*/r,
/// h'(r) = 0 ⇔ u − ln(1+u) = 2·ln(1/δ), which has a unique root u* > 0 (the left side increases
/// on u > 0), so r* = T*/u* exactly; solved by Newton's method from u₀ = 2·ln(1/δ) + 2, where the
/// convex left side is already above its target, so the iterates decrease monotonically to u*.
/// (This replaces a numerical 1-D minimisation.) Example: T* = 100, δ = 10⁻⁶ gives r* ≈ 3.21545.
/// r* does not depend on Δ. Valid: T* > 0 finite, 0 < δ < 1. Errors: InvalidArgument otherwise.
Result<double> mixtureBoundaryTunedR(double anticipatedTime, double delta);

/// Union bound over a finite grid of K times fixed in advance (§3.3, [DERIVED, not from the
/// paper]): E(T_k) = Δ²/(2T_k) + (Δ/√T_k)·Φ⁻¹(1 − δ/K), valid for any stopping time that stops
/// only at one of those K grid times (each of the K fixed-time events has probability δ/K).
/// Rounded up. Valid: T, Δ > 0 finite; 0 < δ < 1; K ≥ 1. Errors: InvalidArgument otherwise.
Result<double> unionBoundExpostEpsilon(double time, double sensitivity, double delta, int gridSize);

enum class BrownianBoundaryKind {
    FixedTime,         ///< Gaussian-quantile fixed-time bound; parameter = the fixed time T
    FixedTimeChernoff, ///< Chernoff fixed-time bound; parameter = the fixed time T
    Linear,            ///< ψ(t) = a + ln(1/δ)·t/(2a); parameter = a
    NormalMixture,     ///< Robbins mixture; parameter = r
    UnionGrid,         ///< union bound over K grid times; parameter = K
};

/// "fixed-time", "fixed-time-chernoff", "linear", "normal-mixture", "union-grid" (for documents).
std::string_view brownianBoundaryKindName(BrownianBoundaryKind kind);
/// The inverse of brownianBoundaryKindName(). Errors: Parse for an unknown name.
Result<BrownianBoundaryKind> brownianBoundaryKindFromName(std::string_view name);

/// A boundary chosen before a Brownian noise reduction starts (kind + parameter + δ), as a value a
/// filter can store with the mechanism. epsilon(T, Δ) gives the ex-post loss E(T) at a stopping
/// time; supremumEpsilon() the worst case over the times still allowed; minimumTime() truncates
/// the grid to the times whose E fits a remaining ex-post budget (docs/accuracy-first.md §4.2: allow
/// only times with E(T) ≤ ε_e − S, then add the realised E(T_stop) to S).
///
/// δ is restricted to (0, ½]: larger δ certifies nothing useful, and on (0, ½] every kind's E(T)
/// is strictly decreasing in T (for the mixture: d/dT[E−Δ²/2T] ∝ T(½ − M) − 2rM < 0 where
/// M = ln(1/δ) + ½·ln(1 + T/r) ≥ ln 2 > ½), which supremumEpsilon() and minimumTime() rely on.
class BrownianBoundary
{
public:
    /// Fixed-time bounds cover only the one time they were fixed at (not adaptive stopping).
    /// Valid: T > 0 finite, 0 < δ ≤ ½. Errors: InvalidArgument otherwise.
    static Result<BrownianBoundary> fixedTime(double time, double delta);
    static Result<BrownianBoundary> fixedTimeChernoff(double time, double delta);
    /// Valid: a > 0 finite, 0 < δ ≤ ½. Errors: InvalidArgument otherwise.
    static Result<BrownianBoundary> linear(double a, double delta);
    /// a = linearBoundaryTunedA(T*, δ). Valid: T* > 0 finite, 0 < δ ≤ ½.
    static Result<BrownianBoundary> linearTuned(double anticipatedTime, double delta);
    /// Valid: r > 0 finite, 0 < δ ≤ ½. Errors: InvalidArgument otherwise.
    static Result<BrownianBoundary> normalMixture(double r, double delta);
    /// r = mixtureBoundaryTunedR(T*, δ). Valid: T* > 0 finite, 0 < δ ≤ ½.
    static Result<BrownianBoundary> normalMixtureTuned(double anticipatedTime, double delta);
    /// The caller must stop only at the K grid times fixed in advance (e.g. a GeometricNoiseGrid
    /// with pointCount() = K). Valid: K ≥ 1, 0 < δ ≤ ½. Errors: InvalidArgument otherwise.
    static Result<BrownianBoundary> unionGrid(int gridSize, double delta);

    BrownianBoundaryKind kind() const { return m_kind; }
    double delta() const { return m_delta; }
    /// T (fixed-time kinds), a (linear), r (mixture) or K (union grid).
    double parameter() const { return m_parameter; }
    /// False for the fixed-time kinds: they certify one pre-set time, not an adaptive stop.
    bool allowsAdaptiveStopping() const;

    /// The boundary ψ(t) on the standard Brownian motion W (units: √time, i.e. query units).
    /// For fixed-time kinds only t = the fixed time is defined. Not rounded.
    /// Errors: InvalidArgument for t ≤ 0, non-finite, or t ≠ the fixed time.
    Result<double> threshold(double t) const;

    /// E(T) in nats, rounded up, with P(L > E(T_stop)) ≤ δ at the stopping time.
    /// Errors: InvalidArgument for T ≤ 0, Δ ≤ 0 or non-finite input, and for a fixed-time kind
    /// when T differs from the fixed time.
    Result<double> epsilon(double time, double sensitivity) const;

    /// sup over allowed T ≥ minTime of E(T) = E(minTime) (E is decreasing; for fixed-time kinds,
    /// E at the fixed time, which must be ≥ minTime). The maximum loss Ē a filter must admit
    /// before the first release (§4.2). Rounded up. Errors: InvalidArgument for bad input or a
    /// fixed time below minTime.
    Result<double> supremumEpsilon(double minTime, double sensitivity) const;

    /// The smallest time T with E(T) ≤ epsilonBudget (found by bisection on the rounded-up E,
    /// then returned on the safe side: E(result) ≤ budget is checked). For the union grid, stop
    /// only at grid times ≥ the result; for fixed-time kinds it is the fixed time.
    /// Errors: InvalidArgument for bad input; BudgetExceeded when no time fits (for the linear
    /// boundary any budget ≤ Δ·ln(1/δ)/(2a), the limit as T → ∞).
    Result<double> minimumTime(double epsilonBudget, double sensitivity) const;

private:
    BrownianBoundary(BrownianBoundaryKind kind, double parameter, double delta)
        : m_kind(kind), m_parameter(parameter), m_delta(delta)
    {}
    BrownianBoundaryKind m_kind;
    double m_parameter;
    double m_delta;
};

} // namespace pbx::mechanisms
