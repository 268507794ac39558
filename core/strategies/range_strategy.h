// SPDX-License-Identifier: MIT
// Range-query strategies (identity, all ranges, b-ary tree, Haar) with their exact predicted
// errors: the variance of every range answer is data-independent (Li et al. 2010, matrix
// mechanism: error of W under strategy A with OLS = v·trace(W(AᵀA)^{−1}Wᵀ)).
// Derivations: docs/strategies-inference.md, "Range strategies".
#pragma once

#include "core/strategies/range_workload.h"
#include "core/util/result.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace pbx::strategies {

enum class RangeStrategyKind {
    Identity,  ///< noisy cells, ranges summed (Lap(Δ/ε) per cell, Δ = 1 add/remove)
    AllRanges, ///< every range measured directly (Δ₁ = ⌊(k+1)/2⌋⌈(k+1)/2⌉)
    Tree,      ///< b-ary tree of node counts (Hay et al. 2010)
    Haar,      ///< Haar wavelet coefficients (Xiao et al. 2010)
};

/// "identity", "all-ranges", "tree" or "haar".
std::string_view rangeStrategyKindName(RangeStrategyKind kind);
/// Errors: INVALID_CONFIG for another word.
Result<RangeStrategyKind> parseRangeStrategyKind(std::string_view text);

struct RangeStrategy
{
    RangeStrategyKind kind = RangeStrategyKind::Identity;
    std::size_t branching = 2; ///< Tree only
    bool root = true;          ///< Tree only: measure the root
    bool consistency = true;   ///< Tree only: least-squares consistent answers instead of canonical ones

    /// "identity", "tree b=2 + LS", …
    std::string label() const;
    friend bool operator==(const RangeStrategy &, const RangeStrategy &) = default;
};

/// Predicted errors of a strategy on a workload (expected squared error of each range answer,
/// Laplace noise calibrated to ε under the relation).
struct RangePrediction
{
    RangeStrategy strategy;
    std::size_t sensitivityL1 = 1; ///< of the strategy's measurements under the relation
    std::size_t padded = 0;        ///< K (identity and all ranges: k)
    double average = 0.0;          ///< mean over the workload
    double max = 0.0;              ///< largest over the workload
    double total = 0.0;            ///< sum over the workload
    /// Mean over all ranges of length L in the domain, L = 1…k (index L − 1).
    std::vector<double> byLength;
};

/// The exact predictions. Tree + LS forms (AᵀA)^{−1} densely. Valid: ε finite > 0.
/// Errors: INVALID_EPSILON, INVALID_BOUNDS, INVALID_BRANCHING, DOMAIN_TOO_LARGE (K > 4096 for a
/// tree with consistency), INVALID_CONFIG (bad ranges).
Result<RangePrediction> predictRangeErrors(const RangeStrategy &strategy, std::size_t k,
                                           const std::vector<Range> &workload, double epsilon,
                                           data::Neighbouring neighbours);

/// Per-range variance (ε, relation as above) for every range of `workload`; the building block
/// of predictRangeErrors. Errors: as predictRangeErrors.
Result<std::vector<double>> rangeVariances(const RangeStrategy &strategy, std::size_t k,
                                           const std::vector<Range> &workload, double epsilon,
                                           data::Neighbouring neighbours);

/// Index of the prediction with the smallest average (the recommended strategy); 0 if empty.
std::size_t recommendedStrategy(const std::vector<RangePrediction> &predictions);

} // namespace pbx::strategies
