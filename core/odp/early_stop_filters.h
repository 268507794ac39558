// SPDX-License-Identifier: MIT
// Early stopping with privacy filters instead of output DP: the budget a filter must be given,
// before the run, to let an iterative mechanism go on to each stopping point.
#pragma once

#include "core/odp/early_stopping.h"
#include "core/util/result.h"

#include <cstdint>
#include <vector>

namespace pbx::odp {

/// The smallest budgets (ε at the run's δ) with which a filter admits the first k steps.
struct FilterBudget
{
    std::int64_t k = 0;
    /// The Rényi filter on the default 24-order grid, δ/24 per order (Feldman & Zrnic 2021;
    /// Lécuyer 2021): min over α of the improved conversion of k·r(α) at δ/24 (Canonne, Kamath &
    /// Steinke 2020, Prop. 12), rounded up — with that budget the filter admits k steps.
    double rdpEpsilon = 0.0;
    /// The zCDP filter: ρ_k + 2√(ρ_k ln(1/δ)), ρ_k = k·ρ₀ (Bun & Steinke 2016, Prop. 1.3), rounded up.
    double zcdpEpsilon = 0.0;
};

/// For each stopping point k_j, what a privacy filter must be given as its budget, fixed before the
/// run, to let the iterative mechanism continue to step k_j (Hartmann et al. 2023, §5.3: early
/// stopping "can also be done with privacy filters"; RDP filters are the best known, Feldman &
/// Zrnic 2021, Lécuyer 2021). A filter's guarantee is its budget wherever the run stopped: to be
/// free to stop anywhere up to K the budget is the last entry, while output DP charges the cost
/// E_j of the point actually reached. Pure ε₀ steps are charged the tight ε-DP Rényi curve
/// (pureEpsilonRdpUp) and ρ₀ = ε₀²/2; Gaussian steps with noise multiplier z the line α/(2z²) and
/// ρ₀ = 1/(2z²). Errors: InvalidArgument (stops as validateStops; δ ∉ (0, 1), "delta"; step
/// parameters); Unsupported for (ε₀, δ₀)-DP steps with δ₀ > 0 (no Rényi curve is known for them).
Result<std::vector<FilterBudget>> filterBudgetsForStops(const std::vector<std::int64_t> &stops,
                                                        const IterativeSteps &steps, double delta);

} // namespace pbx::odp
