// SPDX-License-Identifier: MIT
// The grid of levels shared by doubling and noise reduction, fixed before the first release.
#pragma once

#include "core/session/release/level_noise.h"

namespace pbx::session {

struct LevelPlan
{
    std::vector<double> costs; ///< c_0 < … < c_{K−1}: planned cost of each level (noisiest first)
    double beta = 0.0;         ///< per-level failure probability β/K
};

/// Levels c_k = topCost·growth^{−(K−1−k)}, with K the largest number (≤ maxLevels) whose noisiest
/// level could still certify the largest possible answer at confidence 1 − β/K. Errors:
/// BudgetExceeded (with a message naming the cap) when even the top level cannot certify any
/// answer; other errors from the level computation.
Result<LevelPlan> planLevels(const LevelNoise &noise, const QueryShape &shape, const AccuracyTarget &target,
                             double topCost, double growth, int maxLevels);

} // namespace pbx::session
