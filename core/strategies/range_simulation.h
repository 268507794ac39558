// SPDX-License-Identifier: MIT
// Monte Carlo measurement of range strategies on a true histogram (simulation mode: the true
// counts are read to score accuracy, never to decide anything). Noise is continuous Laplace from
// a seeded generator: this measures the error formulas, it releases nothing.
#pragma once

#include "core/strategies/range_strategy.h"
#include "core/util/result.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace pbx::strategies {

/// Post-processing applied to a strategy's estimate before scoring.
struct RangePostProcessing
{
    bool clipNonNegative = false; ///< leaves (or, for canonical trees, the nodes used) clipped at 0
    bool round = false;           ///< round to integers (display only: not a projection, may add error)
    bool isotonicPrefix = false;  ///< PAVA on the k prefix answers; ranges then come from them
};

/// Mean over runs of the per-run average squared error over the workload, ± one standard error.
struct MeasuredRangeError
{
    double average = 0.0;
    double standardError = 0.0;
    int runs = 0;
    /// Index L − 1: mean over runs of the per-run average squared error of the workload's ranges
    /// of length L, and its standard error; 0 (both) for lengths the workload does not contain.
    std::vector<double> byLength;
    std::vector<double> byLengthStandardError;
};

/// Progress in [0, 1]; return false to cancel.
using RangeProgress = std::function<bool(double)>;

/// Runs `runs` independent releases of `strategy` on `leaves` (k true counts) and scores the
/// workload. Seeded: the same arguments give the same numbers. Errors: as rangeVariances;
/// INVALID_CONFIG for runs < 2; NOT_CONVEX is not raised here (rounding is labelled by the
/// caller); Cancelled when `progress` returns false; AllRanges is refused for k > 512 (its Δ
/// makes it pointless, and it measures k(k+1)/2 answers per run).
Result<MeasuredRangeError> measureRangeErrors(const RangeStrategy &strategy,
                                              const std::vector<double> &leaves,
                                              const std::vector<Range> &workload, double epsilon,
                                              data::Neighbouring neighbours, const RangePostProcessing &post,
                                              int runs, std::uint64_t seed,
                                              const RangeProgress &progress = {});

} // namespace pbx::strategies
