// SPDX-License-Identifier: MIT
// Session requests beyond one scalar: a histogram (all cells of a public partition, charged once),
// a quantile (exponential mechanism over a public grid), an answer derived from a released
// histogram (post-processing, free), and a workload of range queries answered by a strategy.
// Derivations: docs/strategies-inference.md.
#pragma once

#include "core/strategies/derived_answers.h"
#include "core/strategies/range_strategy.h"
#include "core/strategies/selection.h"
#include "core/strategies/stability.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pbx::session {

enum class StrategyRequestKind { Histogram, Quantile, Derived, Workload, Mode };

/// "histogram", "quantile", "derived", "workload", "mode" (the request's "aggregate").
std::string_view strategyRequestKindName(StrategyRequestKind kind);
/// The kind for an "aggregate" word, or nullopt when it is a scalar aggregate.
std::optional<StrategyRequestKind> strategyRequestKindFor(std::string_view aggregate);

/// Constrained inference applied to a workload's released answers (post-processing, free):
/// docs/strategies-inference.md, "Constrained inference".
struct WorkloadPost
{
    /// Clip every answer at 0: the projection of the answer vector onto {z ≥ 0}; since every true
    /// range count is ≥ 0, no single answer's error grows.
    bool nonNegative = false;
    /// Weighted isotonic regression (PAVA, weights 1/variance) of the answers of a "prefixes"
    /// workload, which are cumulative counts and so non-decreasing: the answer vector's squared
    /// error never grows (per draw), single answers can get worse.
    bool isotonicPrefix = false;
    bool any() const { return nonNegative || isotonicPrefix; }
    friend bool operator==(const WorkloadPost &, const WorkloadPost &) = default;
};

/// A transformation the counted rows went through, declared with the request (McSherry 2009):
/// its stability s multiplies the charge (pure ε: s·ε; on a zCDP filter that is s²ρ).
struct RequestTransform
{
    strategies::Transformation kind = strategies::Transformation::Filter;
    unsigned parameter = 1; ///< k (flat-map), m (truncate, self-join-truncated); else unused
    friend bool operator==(const RequestTransform &, const RequestTransform &) = default;
};

/// What a strategy request asks beyond the common fields (id, column, where, bounds, target,
/// max_cost of QueryRequest).
struct StrategyRequestSpec
{
    StrategyRequestKind kind = StrategyRequestKind::Histogram;
    std::vector<double> bins; ///< histogram of a numeric column: public edges; workload: unused
    double q = 0.5;           ///< quantile
    double step = 0.0; ///< quantile: grid step over the bounds (0: 1 for integer bounds, else (hi−lo)/1000)
    std::string of;    ///< derived: the id of the released histogram it reads
    strategies::DerivedKind derived = strategies::DerivedKind::Sum;
    std::vector<std::size_t> cells;        ///< derived: the cells (range: [first, last])
    std::vector<std::size_t> other;        ///< derived: "minus" cells (difference) or "within" cells (share)
    strategies::RangeStrategy strategy;    ///< workload
    std::string workload = "all-ranges";   ///< workload: all-ranges, prefixes, ranges-of-length:L or explicit
    std::vector<strategies::Range> ranges; ///< workload "explicit"
    WorkloadPost post;                     ///< workload: constrained inference
    std::optional<RequestTransform> transform; ///< histogram, quantile, workload: declared stability
    /// Poisson subsampling rate p ∈ (0, 1] of the table's rows before the release (1: none);
    /// add/remove only, charged ln(1 + p(e^{sε} − 1)).
    double subsample = 1.0;
    /// mode: how the category is selected (docs/selection.md).
    strategies::SelectionMechanism selection = strategies::SelectionMechanism::Exponential;
    /// mode: how many categories (1: the mode; k > 1: the top k, k picks without replacement).
    std::size_t picks = 1;
    friend bool operator==(const StrategyRequestSpec &, const StrategyRequestSpec &) = default;
};

/// What a strategy event released (all from released values only).
struct StrategyRecord
{
    std::vector<std::string> labels; ///< one per value: cell labels, "[i, j]" ranges, the quantile
    std::vector<double> values;      ///< the released (or derived) values
    std::vector<double> halfWidths;  ///< error bar of each value at the request's confidence
    std::vector<double> variances;   ///< variance of each value (an upper bound where noted)
    double noiseScale = 0.0;         ///< discrete Laplace scale t per cell / node (0 for derived, quantile)
    std::size_t sensitivity = 1;     ///< ℓ1 sensitivity the noise is calibrated to
    std::string note;                ///< how the error bars were obtained, in one line
    /// Workload with constrained inference: the released answers before the projection (values
    /// holds the projected ones); empty otherwise. verify recomputes the projection from them.
    std::vector<double> unprojected;
};

} // namespace pbx::session
