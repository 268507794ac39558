// SPDX-License-Identifier: MIT
// Sensitivities of count and (clipped) sum under the two neighbouring relations.
#pragma once

#include "core/data/table.h"

#include <string_view>

namespace pbx::data {

/// The neighbouring relation: datasets differing by adding/removing one row (unbounded DP), or
/// by replacing one row with another (bounded DP).
enum class Neighbours { AddRemove, Replace };

std::string_view neighboursName(Neighbours n); ///< "add-remove" or "replace"
Result<Neighbours> parseNeighbours(std::string_view text);

/// ℓ1 and ℓ2 sensitivity of a scalar query (they coincide for a scalar).
struct Sensitivity
{
    double l1 = 0.0;
    double l2 = 0.0;
};

/// Count of rows matching a predicate: one row changes it by at most 1 under both relations
/// (a replaced row can leave or enter the predicate, but not both at once). Δ = 1.
Sensitivity countSensitivity(Neighbours neighbours);

/// Sum of values clipped to [L, U] over rows matching a predicate.
/// Add/remove: one row contributes clip(x) ∈ [L, U], so Δ = max(|L|, |U|).
/// Replace: if both rows match, the sum moves by clip(x') − clip(x) ∈ [L−U, U−L]; if only one
/// matches it moves by at most max(|L|, |U|). Hence Δ = max(U − L, |L|, |U|).
/// Precondition: bounds validated.
Sensitivity sumSensitivity(Bounds bounds, Neighbours neighbours);

/// Sum of centred clipped values clip(x) − m, m = (L+U)/2, each in [−h, h], h = (U−L)/2; used by
/// the mean estimator. Add/remove: Δ = h. Replace: both rows matching moves it by ≤ 2h, one
/// matching by ≤ h, so Δ = U − L.
Sensitivity centredSumSensitivity(Bounds bounds, Neighbours neighbours);

} // namespace pbx::data
