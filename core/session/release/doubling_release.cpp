// SPDX-License-Identifier: MIT
#include "core/math/directed_rounding.h"
#include "core/mechanisms/discrete_mechanisms.h"
#include "core/session/release/level_plan.h"

#include "core/session/release/release_common.h"
#include "core/util/try.h"
#include <cmath>
#include <optional>
#include <variant>

namespace pbx::session {

using namespace detail;

namespace {

/// One channel's exact discrete noise at a doubling level.
struct DiscreteChannel
{
    std::variant<std::monostate, mechanisms::DiscreteNoiseMechanism, mechanisms::GridMechanism> noise;
    double cost = 0.0;      ///< rounded up, at most the level's planned share
    double scale = 0.0;     ///< t or σ, in answer units
    double halfWidth = 0.0; ///< exact tail bound at the channel's confidence

    Result<double> release(double exact, mechanisms::RandomBits &bits) const
    {
        if (const auto *d = std::get_if<mechanisms::DiscreteNoiseMechanism>(&noise)) {
            PBX_TRY(v, d->release(static_cast<std::int64_t>(std::llround(exact)), bits));
            return static_cast<double>(v);
        }
        return std::get<mechanisms::GridMechanism>(noise).release(exact, bits);
    }
};

Result<DiscreteChannel> discreteChannel(const Channel &channel, double plannedCost, double plannedHalfWidth,
                                        double beta, bool laplace)
{
    using mechanisms::DiscreteNoiseKind;
    const auto kind = laplace ? DiscreteNoiseKind::Laplace : DiscreteNoiseKind::Gaussian;
    DiscreteChannel out;
    double grid = 1.0;
    if (channel.quantity == "count") {
        PBX_TRY(d, mechanisms::DiscreteNoiseMechanism::forCost(
                       kind, plannedCost, static_cast<std::uint64_t>(channel.sensitivity)));
        PBX_TRY(w, d.halfWidth(beta));
        out.halfWidth = static_cast<double>(w);
        out.noise = d;
    } else {
        PBX_TRY(g, mechanisms::GridMechanism::defaultGrid(channel.sensitivity, plannedHalfWidth));
        PBX_TRY(m, mechanisms::GridMechanism::forCost(kind, plannedCost, channel.sensitivity, g));
        PBX_TRY(w, m.halfWidth(beta));
        out.halfWidth = w;
        grid = m.grid();
        out.noise = m;
    }
    const auto &noise = std::holds_alternative<mechanisms::DiscreteNoiseMechanism>(out.noise)
                            ? std::get<mechanisms::DiscreteNoiseMechanism>(out.noise)
                            : std::get<mechanisms::GridMechanism>(out.noise).noise();
    out.cost = noise.cost();
    const double p = noise.parameter().toDouble();
    out.scale = grid * (laplace ? p : std::sqrt(p));
    return out;
}

} // namespace

ReleaseOutcome releaseByDoubling(const ReleaseContext &context, const AccuracyTarget &target,
                                 std::optional<double> maxCost)
{
    ReleaseOutcome out;
    out.mechanism = eventMechanism(context.mechanism);
    out.costKind = chargeKindFor(context.mechanism, context.filter.kind());
    const bool laplace = usesLaplaceNoise(context.mechanism);
    const double growth = laplace ? 2.0 : 4.0;
    const double cap = perQueryCap(context, out.costKind, maxCost);
    if (!(cap > 0.0) || !std::isfinite(cap)) {
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
        // Fresh independent noise per level lets every level use exact discrete noise (CKS 2020):
        // counts directly, other values snapped to a power-of-two grid first (as single releases do).
        std::vector<DiscreteChannel> draws;
        double cost = 0.0;
        const auto &channels = context.shape.channels();
        const double channelBeta = plan->beta / static_cast<double>(channels.size());
        for (std::size_t i = 0; i < channels.size(); ++i) {
            auto d
                = discreteChannel(channels[i], (*level)[i].cost, (*level)[i].halfWidth, channelBeta, laplace);
            if (!d) {
                out.reason = d.error().message;
                break;
            }
            cost = math::addRoundUp(cost, d->cost);
            draws.push_back(std::move(d.value()));
        }
        if (draws.size() != channels.size())
            break;
        // Predictability: the level is charged before its noise is drawn.
        if (auto charged = context.filter.charge({out.costKind, cost, 0.0}); !charged) {
            out.reason = charged.error().message;
            break;
        }
        // From here on the level is paid: whatever happens, the ledger records it.
        out.cost = math::addRoundUp(out.cost, cost);
        Attempt a;
        a.cost = cost;
        std::vector<double> widths;
        std::optional<Error> failed;
        for (std::size_t i = 0; i < channels.size(); ++i) {
            auto value = draws[i].release(channels[i].exact, context.noiseSource.bits());
            if (!value) {
                failed = value.error();
                break;
            }
            a.releases.push_back({channels[i].quantity, draws[i].scale, *value, draws[i].cost});
            widths.push_back(draws[i].halfWidth);
        }
        if (failed) {
            std::vector<double> scales;
            for (const auto &d : draws)
                scales.push_back(d.scale);
            recordChargedWithoutRelease(out, std::move(a), context.shape, scales, *failed);
            break;
        }
        if (recordAttempt(out, std::move(a), widths, context.shape, target, leastNoisyNumerator))
            break;
    }
    finishFromAttempts(out, cap, out.costKind);
    return out;
}

} // namespace pbx::session
