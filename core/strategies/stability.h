// SPDX-License-Identifier: MIT
// Stability of transformations and what it does to a mechanism's cost (McSherry 2009, "Privacy
// integrated queries", SIGMOD, Thm 2 and §4), group privacy for the multiplied guarantees (Dwork
// & Roth 2014, Thm 2.2; Bun & Steinke 2016, Prop. 27 for zCDP), and Poisson subsampling
// (amplification.h). Derivations: docs/strategies-inference.md, "Stability".
#pragma once

#include "core/util/result.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pbx::strategies {

enum class Transformation {
    RowMap,           ///< one output row per input row: 1
    Filter,           ///< WHERE predicate: 1
    FlatMap,          ///< ≤ k output rows per input row: k
    GroupBy,          ///< one record per group (PINQ GroupBy): 2
    Truncate,         ///< per key, the first m rows in a fixed order: 2 (one in, one displaced)
    SelfJoin,         ///< unordered pairs with the same key: unbounded
    SelfJoinTruncated ///< self-join after per-key truncation to m: 2(m − 1)
};

/// "row-map", "filter", "flat-map", "group-by", "truncate", "self-join", "self-join-truncated".
std::string_view transformationName(Transformation t);
/// Errors: INVALID_CONFIG for another word.
Result<Transformation> parseTransformation(std::string_view text);

/// Stability s (add/remove, symmetric difference of the output); nullopt when unbounded.
/// `parameter` is k for FlatMap and m for Truncate / SelfJoinTruncated (≥ 1), ignored otherwise.
/// Errors: INVALID_CONFIG (parameter 0 where it is needed).
Result<std::optional<unsigned>> transformationStability(Transformation t, unsigned parameter = 1);

/// Cost of an ε-DP (resp. ρ-zCDP, (ε, δ)-DP) mechanism run on the output of an s-stable
/// transformation: sε; s²ρ; (sε, s·e^{(s−1)ε}·δ). Rounded up. Valid: s ≥ 1, costs finite ≥ 0.
double stableEpsilon(unsigned s, double epsilon);
double stableRho(unsigned s, double rho);
struct ApproxCost
{
    double epsilon = 0.0;
    double delta = 0.0;
};
ApproxCost stableApproxDp(unsigned s, double epsilon, double delta);

/// ε′ = ln(1 + p(e^ε − 1)) for Poisson subsampling at rate p (add/remove; exact and tight), rounded
/// up. Errors: InvalidArgument (p ∉ [0, 1], ε < 0 or not finite).
Result<double> subsampledEpsilon(double rate, double epsilon);
/// The slides' shortcut 2pε, valid as an upper bound only for ε ≤ 1 (e^ε − 1 ≤ 2ε there);
/// nullopt for ε > 1, where it can be below the true value.
std::optional<double> subsamplingShortcut(double rate, double epsilon);

} // namespace pbx::strategies
