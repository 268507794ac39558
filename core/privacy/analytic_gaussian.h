// SPDX-License-Identifier: MIT
// The exact privacy profile of the Gaussian mechanism (Balle & Wang 2018, "Improving the Gaussian
// mechanism for differential privacy: analytical calibration and optimal denoising", Thm 8).
#pragma once

#include "core/util/result.h"

namespace pbx::privacy {

/// δ(ε) of the Gaussian mechanism with μ = Δ/σ (sensitivity over noise standard deviation, both
/// for the same neighbouring relation): δ = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) (Balle–Wang 2018
/// Thm 8), computed as Φ(a)·(−expm1(ε + logΦ(b) − logΦ(a))) to avoid cancellation.
/// Exact to a few ulps relative; not nudged (this is an evaluation of the exact profile).
/// ε may be any real (negative ε gives δ ≥ 1 − e^ε). μ ≥ 0 finite; μ = 0 ⇒ max(0, 1 − e^ε).
double gaussianDelta(double mu, double epsilon);

/// The smallest ε ≥ 0 with gaussianDelta(μ, ε) ≤ δ, by bisection to 1e-14 relative; returns the
/// upper end of the final bracket (never below the exact value). Valid: μ ≥ 0 finite,
/// 0 < δ ≤ 1. Errors: InvalidArgument.
Result<double> gaussianEpsilon(double mu, double delta);

/// The smallest noise standard deviation σ for which the Gaussian mechanism with sensitivity Δ is
/// (ε, δ)-DP (Balle–Wang 2018, Alg. 1 "analytic Gaussian"), by bisection on μ = Δ/σ to 1e-15
/// relative against δ·(1 − 1e-12) (absorbing the ~1e-13 round-off of δ); returns the larger-σ
/// end (private side). Valid: ε ≥ 0, 0 < δ < 1, Δ > 0, finite.
/// Errors: InvalidArgument.
Result<double> analyticGaussianSigma(double epsilon, double delta, double sensitivity = 1.0);

} // namespace pbx::privacy
