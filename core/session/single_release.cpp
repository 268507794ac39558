// SPDX-License-Identifier: MIT
#include "core/mechanisms/additive_noise.h"
#include "core/session/release_plan.h"

#include <algorithm>

namespace pbx::session {

ReleaseOutcome releaseOnce(const ReleaseContext &context, const AccuracyTarget &target, std::optional<double> maxCost)
{
    ReleaseOutcome out;
    out.mechanism = std::string(mechanismKindName(context.mechanism));
    out.costKind = chargeKindFor(context.mechanism, context.filter.kind());
    const bool laplace = usesLaplaceNoise(context.mechanism);
    const Channel &channel = context.shape.channels().front();
    auto mech = mechanisms::AdditiveNoiseMechanism::forAbsoluteError(
        laplace ? mechanisms::NoiseKind::Laplace : mechanisms::NoiseKind::Gaussian, target.error, target.beta(),
        channel.sensitivity);
    if (!mech) {
        out.reason = mech.error().message;
        return out;
    }
    const double cost = mech->cost();
    const std::string unit = laplace ? "ε" : "ρ";
    if (maxCost && cost > *maxCost) {
        out.reason = "this query needs " + unit + " = " + filters::formatAmount(cost) + ", more than the per-query maximum "
                     + filters::formatAmount(*maxCost);
        return out;
    }
    // Predictability: the cost is known and charged before any noise is drawn.
    if (auto charged = context.filter.charge({out.costKind, cost, 0.0}); !charged) {
        out.reason = charged.error().message;
        return out;
    }
    Attempt a;
    a.releases.push_back({channel.quantity, mech->scale(), mech->release(channel.exact, context.noiseSource), cost});
    a.estimate = a.releases.back().value;
    a.halfWidth = std::min(mech->halfWidth(target.beta()), target.error);
    a.cost = cost;
    a.accepted = true;
    out.status = EventStatus::Released;
    out.answer = a.estimate;
    out.errorBound = a.halfWidth;
    out.targetMet = true;
    out.cost = cost;
    out.attempts.push_back(a);
    return out;
}

} // namespace pbx::session
