// SPDX-License-Identifier: MIT
// Sensitivities of count and (clipped) sum under the two neighbouring relations.
#pragma once

#include "core/data/table.h"

#include <string_view>

namespace pbx::data {

/// The neighbouring relation: datasets differing by adding/removing one row (unbounded DP), or
/// by replacing one row with another (bounded DP).
enum class Neighbouring { AddRemove, Replace };

std::string_view neighbouringName(Neighbouring n); ///< "add-remove" or "replace"
Result<Neighbouring> parseNeighbouring(std::string_view text);

/// ℓ1 and ℓ2 sensitivity of a scalar query (they coincide for a scalar).
struct Sensitivity
{
    double l1 = 0.0;
    double l2 = 0.0;
};

/// Count of rows matching a predicate: one row changes it by at most 1 under both relations
/// (a replaced row can leave or enter the predicate, but not both at once). Δ = 1.
Sensitivity countSensitivity(Neighbouring neighbours);

/// Sum of values clipped to [L, U] over rows matching a predicate.
/// Add/remove: one row contributes clip(x) ∈ [L, U], so Δ = max(|L|, |U|).
/// Replace: if both rows match, the sum moves by clip(x') − clip(x) ∈ [L−U, U−L]; if only one
/// matches it moves by at most max(|L|, |U|). Hence Δ = max(U − L, |L|, |U|).
/// Precondition: bounds validated.
Sensitivity sumSensitivity(Bounds bounds, Neighbouring neighbours);

/// Sum of centred clipped values clip(x) − m, m = (L+U)/2, each in [−h, h], h = (U−L)/2; used by
/// the mean estimator. Add/remove: Δ = h. Replace: both rows matching moves it by ≤ 2h, one
/// matching by ≤ h, so Δ = U − L.
Sensitivity centredSumSensitivity(Bounds bounds, Neighbouring neighbours);

/// The sensitivity of the *computed* sum. CompiledQuery::evaluate() adds clipped (or centred)
/// doubles in row order, and rounding can make the computed sums of neighbouring tables differ by
/// slightly more than the nominal Δ above (example: bounds [0, 2⁵³−1], rows {2⁵³−1, 5} and the
/// neighbour with one more 2⁵³−1 row: the computed sums differ by 2⁵³ > Δ). Recursive summation
/// of m terms has |fl(Σt) − Σt| ≤ γ_{m−1}·Σ|t| with γ_k = k·u/(1 − k·u), u = 2⁻⁵³ (Higham 2002,
/// Accuracy and Stability of Numerical Algorithms, §4.2, eq. 4.4); one more rounding per term
/// (the centring x − m) turns γ_{m−1} into γ_{m+1}. With m ≤ n + 1 terms (n the public row count;
/// add/remove may add a row) each of magnitude ≤ M = max(|L|, |U|), the two computed sums are each
/// within γ_{n+2}·(n+1)·M of the exact ones, so
///     Δ_computed = Δ + 2·γ_{n+2}·(n+1)·M,
/// rounded up. Every sum and centred-sum mechanism (single releases, doubling incl. the grid
/// mechanism, noise reduction) and every audit uses this value. Valid: `nominal` from
/// sumSensitivity()/centredSumSensitivity() for the same bounds; n < 2⁵⁰.
double computedSumSensitivity(double nominal, Bounds bounds, std::size_t publicRowCount);

} // namespace pbx::data
