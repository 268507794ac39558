// SPDX-License-Identifier: MIT
// Laplace noise reduction (Koufogiannis, Han & Pappas, "Gradual Release of Sensitive Data under
// Differential Privacy"; as implemented by Ligett, Neel, Roth, Waggoner & Wu 2017, "Accuracy
// First", code/noise_reduc.py; docs/accuracy-first.md §2.1).
//
// Units: ε in nats; Δ1 is the query's ℓ1-sensitivity in query units; noise in query units.
// The noise at level ε is Lap(Δ1/ε) marginally. Accounting: pure ex-post privacy, E = ε_k with
// δ = 0 when stopped at level k (§2.1); it belongs in the ex-post sub-filter (§4.2–4.3), NOT in
// the zCDP filter: a Laplace step is not an (ε_{k+1} − ε_k)-DP mechanism (§4.4).
#pragma once

#include "core/mechanisms/noise_source.h"
#include "core/util/result.h"

#include <cstddef>
#include <vector>

namespace pbx::mechanisms {

/// Backward construction over a fixed, strictly increasing grid ε_1 < … < ε_K (docs/accuracy-first.md
/// §2.1, [CODE-A] code/noise_reduc.py; marginals [DERIVED]):
///
///     η_K ~ Lap(Δ1/ε_K);  for k = K−1 … 1: with probability (ε_k/ε_{k+1})², η_k = η_{k+1},
///                                             otherwise η_k = η_{k+1} + Lap(Δ1/ε_k).
///
/// Returns η_1 … η_K aligned with the grid (index 0 is the noisiest); release them in that order,
/// y_k = f(x) + η_k, and stop whenever the stopping rule says so. Marginally η_k ~ Lap(Δ1/ε_k)
/// exactly: with a = u²Δ1²/ε_k², 1/(1+a) = [p + (1−p)/(1+a)]/(1+pa) for the characteristic
/// functions. Ex-post loss when stopped at k: ε_k, δ = 0. Scalar: for a vector query call it once
/// per coordinate (independent coins per coordinate, as in the authors' code); the per-coordinate
/// losses add to at most ε_k·‖v − v'‖₁/Δ1 ≤ ε_k.
///
/// Rounding: each level's rate ε_k/Δ1 is rounded down (more noise) and the lazy-step
/// probabilities use the same rounded rates, so the marginals are exactly Lap(1/rate_k) with
/// rate_k ≤ ε_k/Δ1. The grid (and so ε_K) must be fixed, and ε_K ≤ the remaining ex-post budget,
/// before the first release (§6.1 rules 3 and 5); otherwise use the forward sampler.
/// Valid: grid non-empty, finite, > 0, strictly increasing; Δ1 > 0 finite.
/// Errors: InvalidArgument otherwise.
Result<std::vector<double>> laplaceNoiseReductionBackward(const std::vector<double> &epsilons,
                                                          double sensitivity, NoiseSource &noise);

/// Forward ("gradual release") step (docs/accuracy-first.md §2.2, [DERIVED] by Bayes' rule from the
/// backward construction; Koufogiannis et al.): given the current noise η_1 at level e1, draw
/// η_2 at level e2 > e1 so that (η_1, η_2) has the same joint law as the backward construction.
/// In units of Δ1 (rates e/Δ1, noise/Δ1), with a = |η_1| and s = sign(η_1):
///
///     stay (η_2 = η_1) with probability w = (e1/e2)·exp(−(e2 − e1)·a);
///     otherwise η_2 = s·u with u from the density ∝ exp(−e2|u| − e1|a − u|), whose three pieces
///     have masses (normalised by e^{−e1·a}, so nothing underflows; §6.2)
///         m1 = 1/(e1+e2)                         on u < 0      (u = −Exp(e1+e2))
///         m2 = −expm1(−(e2−e1)a)/(e2−e1)         on 0 ≤ u ≤ a  (Exp(e2−e1) truncated to [0, a])
///         m3 = exp(−(e2−e1)a)/(e1+e2)            on u > a      (u = a + Exp(e1+e2)).
///
/// Marginally η_2 ~ Lap(Δ1/e2) and P(stay) averages (e1/e2)². The curator needs only the current
/// noise, so the final level need not be fixed in advance: check each level against the ex-post
/// filter before drawing it (§6.1 rule 5). Rates are rounded down as in the backward sampler.
/// Valid: currentNoise finite; 0 < currentEpsilon < nextEpsilon, finite; Δ1 > 0 finite.
/// Errors: InvalidArgument otherwise.
Result<double> laplaceNoiseReductionForwardStep(double currentNoise, double currentEpsilon,
                                                double nextEpsilon, double sensitivity, NoiseSource &noise);

/// One query's Laplace noise-reduction state, driven by the forward sampler: start at ε_1, then
/// reduceTo(ε_next > ε) as the analyst asks for less noise. Releases y = f(x) + η, coordinate-wise
/// for a vector query (independent per coordinate).
///
/// Ex-post privacy when stopped at the current level: expostEpsilon() = ε, δ = 0 (§2.1, [DERIVED]).
/// The caller checks the ex-post filter before each draw (§6.1 rules 1 and 5): admit ε_next only
/// if S + ε_next ≤ ε_e, where S is the realised ex-post loss of the *other* mechanisms; this
/// query's earlier levels are not added, because the released prefix costs only its last level
/// (§1.2, §4.2). Not admissible in the zCDP filter at ε²/2 (§4.4).
class LaplaceNoiseReduction
{
public:
    /// First release noise η ~ Lap(Δ1/ε) per coordinate (rate rounded down).
    /// Valid: ε > 0 finite, Δ1 > 0 finite, dimension ≥ 1. Errors: InvalidArgument otherwise.
    static Result<LaplaceNoiseReduction> start(double epsilon, double sensitivity, NoiseSource &noise,
                                               std::size_t dimension = 1);

    /// Restores saved state (a reopened session): the current noise and level.
    /// Valid: noise non-empty and finite; ε, Δ1 > 0 finite; steps ≥ 1. Errors: InvalidArgument.
    static Result<LaplaceNoiseReduction> resume(std::vector<double> currentNoise, double epsilon,
                                                double sensitivity, int steps = 1);

    /// Moves every coordinate to level nextEpsilon by the forward step. Valid: nextEpsilon >
    /// epsilon(), finite. Errors: InvalidArgument otherwise (the state is then unchanged).
    Result<void> reduceTo(double nextEpsilon, NoiseSource &noise);

    /// The current level ε_k (nats).
    double epsilon() const { return m_epsilon; }
    double sensitivity() const { return m_sensitivity; }
    /// The current Laplace scale b ≈ Δ1/ε actually drawn at (1/rate, the rate rounded down),
    /// rounded up: use it in accuracy checks (§6.2).
    double scale() const;
    /// The ex-post loss if stopped now: ε_k, pure (δ = 0).
    double expostEpsilon() const { return m_epsilon; }
    int steps() const { return m_steps; }
    std::size_t dimension() const { return m_noise.size(); }
    /// The current noise. Private: never show it outside a simulation mode.
    const std::vector<double> &noise() const { return m_noise; }

    /// f(x) + η for a scalar query. Errors: InvalidArgument unless dimension() == 1.
    Result<double> release(double exactValue) const;
    /// f(x) + η. Errors: InvalidArgument unless exactValue.size() == dimension().
    Result<std::vector<double>> releaseVector(const std::vector<double> &exactValue) const;

private:
    LaplaceNoiseReduction(std::vector<double> noise, double epsilon, double sensitivity, int steps)
        : m_noise(std::move(noise)), m_epsilon(epsilon), m_sensitivity(sensitivity), m_steps(steps)
    {}
    std::vector<double> m_noise;
    double m_epsilon;
    double m_sensitivity;
    int m_steps;
};

} // namespace pbx::mechanisms
