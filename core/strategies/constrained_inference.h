// SPDX-License-Identifier: MIT
// Constrained inference: least-squares projections of noisy answers onto sets the true answers
// are known to lie in (Hay, Rastogi, Miklau & Suciu 2010, PVLDB 3, §3: "constrained inference").
// All of them are post-processing. For a closed convex set C containing the true q, the projection
// q̄ satisfies ‖q̄ − q‖² ≤ ‖q̃ − q‖² − ‖q̃ − q̄‖² for every noise draw (the obtuse-angle property of
// projections onto convex sets; docs/strategies-inference.md, "Constrained inference"). This holds
// for the projected vector in ℓ2, not for each coordinate or each query derived from it.
#pragma once

#include "core/util/result.h"

#include <vector>

namespace pbx::strategies {

/// Weighted isotonic regression by pool-adjacent-violators: the non-decreasing z minimising
/// Σ w_i (z_i − y_i)² (Barlow, Bartholomew, Bremner & Brunk 1972, Ch. 1; used for unattributed
/// histograms by Hay et al. 2010 §5.1). O(n). Valid: weights empty (all 1) or of y's size, each
/// finite > 0; y finite. Errors: InvalidArgument.
Result<std::vector<double>> isotonicRegression(const std::vector<double> &y,
                                               const std::vector<double> &weights = {});

/// The projection onto {z ≥ 0}: max(0, y_i) per coordinate.
std::vector<double> clipNonNegative(const std::vector<double> &y);

/// Projection of (a, b) onto {a ≤ b} (unit weights): unchanged when a ≤ b, else both become
/// (a + b)/2. For a cell and the total containing it (the BMI example's q₁ ≤ #M).
void projectOrderedPair(double &a, double &b);

/// The weighted least-squares projection of answers onto {non-decreasing} (when `isotonic`),
/// intersected with {z ≥ 0} (when `nonNegative`): PAVA with weights 1/variance, then clipping at 0
/// — for isotonic regression with a lower bound the bounded fit is the clipped unbounded fit
/// (Barlow et al. 1972, Ch. 1; the clipped fit stays non-decreasing). Both sets are convex and
/// contain the true answers of a prefix workload (cumulative counts), so the weighted squared error
/// of the vector never grows. Valid: variances empty (unit weights) or one per value, finite > 0;
/// values finite. Errors: InvalidArgument.
Result<std::vector<double>> projectAnswers(const std::vector<double> &values,
                                           const std::vector<double> &variances, bool isotonic,
                                           bool nonNegative);

/// Squared ℓ2 distance.
double squaredDistance(const std::vector<double> &a, const std::vector<double> &b);

} // namespace pbx::strategies
