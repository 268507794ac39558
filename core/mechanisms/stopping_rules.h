// SPDX-License-Identifier: MIT
// Stopping rules for noise reduction that read only released outputs and public noise scales
// (docs/accuracy-first.md §5.1–5.2). Hard rule (§1.3, §6.1 rule 2): never pass the true answer f(x),
// or anything computed from it, to these functions; every guarantee fails if a stopping decision
// reads unreleased private data.
//
// Units: y, w, σ, b and a are in query units; α is a fraction (0.1 = 10 %); β a probability.
#pragma once

#include "core/util/result.h"

namespace pbx::mechanisms {

/// Half-width w = z·σ of the central (1 − β) interval of N(0, σ²) noise, z = Φ⁻¹(1 − β/2)
/// (§5.1–5.2, [DERIVED, standard]; computed as −Φ⁻¹(β/2), accurate for tiny β). Use the noise's
/// actual σ (for Brownian noise reduction √T_k). Example: β = 0.05 → z = 1.959964.
/// Rounded up (a wider interval is the safe side of an accuracy claim).
/// Valid: σ > 0 finite, 0 < β < 1. Errors: InvalidArgument otherwise.
Result<double> gaussianHalfWidth(double sigma, double beta);

/// Half-width w = b·ln(1/β) of Lap(b) noise: P(|Lap(b)| > w) = e^{−w/b} = β (§5.1–5.2,
/// [DERIVED, standard]). Use the noise's actual scale (LaplaceNoiseReduction::scale()).
/// Example: β = 0.05 → w = 2.995732·b. Rounded up.
/// Valid: b > 0 finite, 0 < β < 1. Errors: InvalidArgument otherwise.
Result<double> laplaceHalfWidth(double scale, double beta);

/// β' = β/K, the per-step confidence for a K-step grid, so the accuracy claim holds
/// simultaneously at every step and hence at the (data-dependent) stopping step by a union bound
/// (§5.2 "confidence over several checks"). Rounded down (a smaller β' is the safe side).
/// Alternative (time-uniform, Brownian only): take w(T) = timeUniformHalfWidth(T, β, r), which
/// holds for all T at once, with no K. Valid: 0 < β < 1, K ≥ 1. Errors: InvalidArgument otherwise.
Result<double> perStepBeta(double beta, int steps);

/// Time-uniform half-width for Brownian noise: the two-sided normal-mixture boundary of §3.3
/// applied to the noise path itself, w(T) = √(2(T+r)·(ln(1/β) + ½·ln(1 + T/r))), with
/// P(∃ T > 0 : |B_T| > w(T)) ≤ β by Ville's inequality (§5.2, §3.3).
/// r > 0 must be fixed before the first release; mixtureBoundaryTunedR(T*, β) tunes it to an
/// anticipated final time T*. Units: T a variance, w in query units. Rounded up.
/// Valid: T, r > 0 finite, 0 < β < 1. Errors: InvalidArgument otherwise.
Result<double> timeUniformHalfWidth(double time, double beta, double r);

/// Relative-error acceptance (§5.2, [DERIVED]; the paper's exact rule was not recovered), sign-
/// aware with |y|:   |y| − w > 0  and  w ≤ α·(|y| − w)   ⇔   |y| ≥ w·(1 + α)/α.
/// On the event |noise| ≤ w, it implies |c| ≥ |y| − w and |y − c| ≤ w ≤ α(|y| − w) ≤ α·|c|.
/// Example (Gaussian, β = 0.05, α = 0.1): accept iff |y| ≥ 21.5596·σ. The right side α·(|y| − w)
/// is rounded down, so borderline cases reject. Returns false for invalid input (NaN, w < 0,
/// α ≤ 0): rejecting only costs more noise reduction, never privacy.
bool acceptsRelativeError(double y, double halfWidth, double alpha);

/// Absolute-error acceptance w ≤ a (§5.1, [DERIVED, standard]): on the event |noise| ≤ w,
/// |y − c| ≤ a. No rounding beyond w's own (rounded up). False for invalid input (NaN, w < 0).
bool acceptsAbsoluteError(double halfWidth, double a);

/// The smallest |y| the relative rule accepts at half-width w: w·(1 + α)/α (§5.2, [DERIVED]),
/// rounded up; for plotting the acceptance threshold next to the noisy y (§6.4).
/// Valid: w ≥ 0 finite, α > 0 finite; NaN otherwise.
double relativeAcceptanceThreshold(double halfWidth, double alpha);

/// Early abandonment (§5.2 [DERIVED]; a heuristic, free because it is post-processing): give up when
/// |y| + w < w_min·(1 + α)/α, where w_min is the half-width at the least noisy level still allowed
/// for this query. Then, with probability ≥ 1 − β, |c| lies below the smallest noisy value that
/// level could accept, so certifying c within the cap would need a lucky draw. Returns false for
/// invalid input (NaN, negative widths, α ≤ 0).
bool shouldAbandon(double y, double halfWidth, double minHalfWidth, double alpha);

enum class StoppingDecision {
    Accept,   ///< the accuracy target is certified: stop and report
    Continue, ///< reduce the noise further (if the filter admits the next step)
    Abandon,  ///< give up: the target is out of reach within the cap (post-processing)
};

/// The relative-error rule and early abandonment combined: Accept if acceptsRelativeError(),
/// else Abandon if shouldAbandon(), else Continue.
StoppingDecision decideRelative(double y, double halfWidth, double minHalfWidth, double alpha);

} // namespace pbx::mechanisms
