// SPDX-License-Identifier: MIT
#include "core/math/directed_rounding.h"
#include "core/session/level_plan.h"
#include "core/session/release_common.h"

namespace pbx::session {

using namespace detail;

ReleaseOutcome releaseByDoubling(const ReleaseContext &context, const AccuracyTarget &target,
                                 std::optional<double> maxCost)
{
    ReleaseOutcome out;
    out.mechanism = std::string(mechanismKindName(context.mechanism));
    out.costKind = chargeKindFor(context.mechanism, context.filter.kind());
    const bool laplace = usesLaplaceNoise(context.mechanism);
    const double growth = laplace ? 2.0 : 4.0;
    const double cap = perQueryCap(context, out.costKind, maxCost);
    if (!(cap > 0.0)) {
        out.reason = cannotStartReason(context, out.costKind, cap, maxCost, target);
        return out;
    }
    // Σ_j c_top·growth^{−j} < c_top/(1 − 1/growth) = cap; a hair less absorbs ulp-level rounding.
    const double topCost = (1.0 - 1.0 / growth) * cap * (1.0 - 1e-9);
    const LevelNoise noise(laplace ? NoiseFamily::Laplace : NoiseFamily::Gaussian, context.shape);
    auto plan = planLevels(noise, context.shape, target, topCost, growth, 40);
    if (!plan) {
        out.reason = plan.error().code == ErrorCode::BudgetExceeded
                         ? cannotStartReason(context, out.costKind, cap, maxCost, target)
                         : plan.error().message;
        return out;
    }
    auto leastNoisy = noise.level(plan->costs.back(), plan->beta);
    const double leastNoisyNumerator = leastNoisy ? noise.widthNumerator(*leastNoisy) : 0.0;

    for (double planned : plan->costs) {
        auto level = noise.level(planned, plan->beta);
        if (!level) {
            out.reason = level.error().message;
            break;
        }
        const double cost = LevelNoise::totalCost(*level);
        // Predictability: the level is charged before its noise is drawn.
        if (auto charged = context.filter.charge({out.costKind, cost, 0.0}); !charged) {
            out.reason = charged.error().message;
            break;
        }
        Attempt a;
        std::vector<double> widths;
        const auto &channels = context.shape.channels();
        for (std::size_t i = 0; i < channels.size(); ++i) {
            const ChannelLevel &c = (*level)[i];
            const double z = laplace ? context.noiseSource.laplace(c.scale) : context.noiseSource.gaussian(c.scale);
            a.releases.push_back({channels[i].quantity, c.scale, channels[i].exact + z, c.cost});
            widths.push_back(c.halfWidth);
        }
        a.cost = cost;
        context.shape.estimate(a, widths);
        a.accepted = QueryShape::certifies(a, target);
        out.cost = math::addRoundUp(out.cost, cost);
        out.attempts.push_back(a);
        if (a.accepted)
            break;
        if (context.shape.hopeless(a, leastNoisyNumerator, target)) {
            out.reason = "target not met: the noisy answer is too small for the remaining levels to certify "
                         + targetText(target) + "; abandoned early (free)";
            break;
        }
    }
    finishFromAttempts(out, cap, out.costKind);
    return out;
}

} // namespace pbx::session
