// SPDX-License-Identifier: MIT
#include "core/session/release/level_plan.h"
#include "core/util/try.h"

#include <cmath>

namespace pbx::session {

namespace {
/// Can the noisiest level of a K-level plan still certify the largest possible answer?
Result<bool> noisiestCanCertify(const LevelNoise &noise, const QueryShape &shape,
                                const AccuracyTarget &target, double topCost, double growth, int k)
{
    const double cost = topCost / std::pow(growth, k - 1);
    auto level = noise.level(cost, target.beta() / k);
    if (!level)
        return level.error().code == ErrorCode::BudgetExceeded ? Result<bool>(false)
                                                               : Result<bool>(level.error());
    return shape.couldCertify(noise.widthNumerator(*level), target);
}
} // namespace

Result<LevelPlan> planLevels(const LevelNoise &noise, const QueryShape &shape, const AccuracyTarget &target,
                             double topCost, double growth, int maxLevels)
{
    // Grow K while the noisiest level could still certify; certifiability only worsens as K grows
    // (noisier first level, smaller β/K), so the first failure ends the search.
    int levels = 0;
    for (int k = 1; k <= maxLevels; ++k) {
        PBX_TRY(ok, noisiestCanCertify(noise, shape, target, topCost, growth, k));
        if (!ok)
            break;
        levels = k;
    }
    if (levels == 0)
        return makeError(ErrorCode::BudgetExceeded,
                         "cannot certify the target for any answer this query can take");
    LevelPlan plan;
    plan.beta = target.beta() / levels;
    for (int k = 0; k < levels; ++k)
        plan.costs.push_back(topCost / std::pow(growth, levels - 1 - k));
    return plan;
}

} // namespace pbx::session
