// SPDX-License-Identifier: MIT
// Answers derived from released cells: sums, differences, shares and ranges. They are
// post-processing of the release (Dwork & Roth 2014, Prop. 2.1), so they cost nothing; their
// error bars follow from the cells' independent noise. Derivation: docs/strategies-inference.md,
// "Derived answers".
#pragma once

#include "core/strategies/histogram.h"
#include "core/util/result.h"

#include <cstddef>
#include <string>
#include <vector>

namespace pbx::strategies {

enum class DerivedKind {
    Sum,        ///< Σ_{i∈A} ỹ_i
    Difference, ///< Σ_{i∈A} ỹ_i − Σ_{i∈B} ỹ_i (A, B disjoint)
    Share,      ///< Σ_{i∈A} ỹ_i / Σ_{i∈B} ỹ_i with A ⊆ B
    Range,      ///< Σ_{i=first}^{last} ỹ_i over an ordered domain
};

/// "sum", "difference", "share" or "range".
std::string_view derivedKindName(DerivedKind kind);
/// Parses derivedKindName's words. Errors: InvalidArgument.
Result<DerivedKind> parseDerivedKind(std::string_view text);

/// A derived request: cell indices (Range: A = {first, last}).
struct DerivedRequest
{
    DerivedKind kind = DerivedKind::Sum;
    std::vector<std::size_t> a;
    std::vector<std::size_t> b;
};

/// A derived answer with its error bar: P(true value ∈ [low, high]) ≥ 1 − β.
struct DerivedAnswer
{
    double value = 0.0;
    double variance = 0.0; ///< exact for sums/differences/ranges; delta-method approximation for shares
    double low = 0.0;
    double high = 0.0;
    std::string method; ///< how the interval was obtained (one line, for the user)
};

/// The answer to `request` from `release`. Sums, differences and ranges over m cells: the
/// interval half-width is the smaller of two valid bounds, the union bound Σ w_i(β/m) with the
/// exact per-cell width w(β/m) of the cell mechanism, and Chebyshev √(m·Var/β). A share a/b
/// combines the intervals of a and b at β/2 each (clipped to [0, 1]; [0, 1] when b's interval
/// reaches 0). Valid: indices < cells, A non-empty, A ∩ B = ∅ for a difference, A ⊆ B and B
/// non-empty for a share, first ≤ last for a range; 0 < β < 1.
/// Errors: InvalidArgument naming the field ("cells", "of", "beta").
Result<DerivedAnswer> deriveAnswer(const HistogramRelease &release, const HistogramPlan &plan,
                                   const DerivedRequest &request, double beta);

} // namespace pbx::strategies
