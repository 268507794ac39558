// SPDX-License-Identifier: MIT
// The standard normal distribution, wrapped once: Boost.Math behind an error policy that never
// throws, plus a log-CDF that stays accurate deep in the lower tail.
#pragma once

namespace pbx::math {

/// Φ(x) = P[N(0,1) ≤ x]. Accurate to a few ulps relative in both tails (via std::erfc).
/// Valid for all finite x; Φ(±∞) = 1 or 0; NaN in → NaN out.
double normalCdf(double x);

/// log Φ(x). For x ≥ −37 via log(erfc); below, the asymptotic series
/// log Φ(x) = −x²/2 − log(−x) − log(2π)/2 + log(1 − 1/x² + 3/x⁴ − 15/x⁶ + 105/x⁸)
/// (Abramowitz & Stegun 26.2.12), relative error < 1e-16 there.
double normalLogCdf(double x);

/// Φ⁻¹(p) for 0 < p < 1 (Boost.Math erfc_inv). Returns ∓∞ at p = 0 / 1 and NaN outside [0, 1].
double normalQuantile(double p);

} // namespace pbx::math
