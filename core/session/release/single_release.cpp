// SPDX-License-Identifier: MIT
#include "core/mechanisms/discrete_mechanisms.h"
#include "core/session/release/release_common.h"
#include "core/session/release/release_plan.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pbx::session {

namespace {

using mechanisms::DiscreteNoiseKind;

/// The noise scale in answer units: the Laplace scale t, or σ = √σ², times the grid.
double scaleOf(const mechanisms::DiscreteNoiseMechanism &noise, double grid)
{
    const double p = noise.parameter().toDouble();
    return grid * (noise.kind() == DiscreteNoiseKind::Laplace ? p : std::sqrt(p));
}

std::string describe(const mechanisms::DiscreteNoiseMechanism &noise, double grid)
{
    char text[200];
    const auto p = noise.parameter();
    std::snprintf(text, sizeof text, "exact discrete %s (Canonne–Kamath–Steinke 2020), %s = %llu/%llu%s%s",
                  noise.kind() == DiscreteNoiseKind::Laplace ? "Laplace" : "Gaussian",
                  noise.kind() == DiscreteNoiseKind::Laplace ? "t" : "σ²",
                  static_cast<unsigned long long>(p.num), static_cast<unsigned long long>(p.den),
                  grid != 1.0 ? ", on a grid of " : "", grid != 1.0 ? (std::to_string(grid)).c_str() : "");
    return text;
}

} // namespace

ReleaseOutcome releaseOnce(const ReleaseContext &context, const AccuracyTarget &target,
                           std::optional<double> maxCost)
{
    ReleaseOutcome out;
    out.mechanism = eventMechanism(context.mechanism);
    out.costKind = chargeKindFor(context.mechanism, context.filter.kind());
    const auto kind
        = usesLaplaceNoise(context.mechanism) ? DiscreteNoiseKind::Laplace : DiscreteNoiseKind::Gaussian;
    const Channel &channel = context.shape.channels().front();
    // Counts are integers: exact discrete noise. Clipped sums are real: snapped to a power-of-two
    // grid first, then exact discrete noise in grid units (Mironov 2012's concern, addressed by
    // never adding floating-point noise to a floating-point value).
    const bool count = channel.quantity == "count";
    auto grid = count ? Result<mechanisms::GridMechanism>(makeError(ErrorCode::Unsupported, ""))
                      : mechanisms::GridMechanism::forAbsoluteError(kind, target.error, target.beta(),
                                                                    channel.sensitivity);
    auto discrete = count ? mechanisms::DiscreteNoiseMechanism::forAbsoluteError(
                        kind, target.error, target.beta(), static_cast<std::uint64_t>(channel.sensitivity))
                          : Result<mechanisms::DiscreteNoiseMechanism>(makeError(ErrorCode::Unsupported, ""));
    if (count ? !discrete : !grid) {
        out.reason = (count ? discrete.error() : grid.error()).message;
        return out;
    }
    const auto &noise = count ? *discrete : grid->noise();
    const double cost = noise.cost();
    const std::string unit = kind == DiscreteNoiseKind::Laplace ? "ε" : "ρ";
    // A refusal also says what the budget at hand can buy for this query (never optimistic).
    if (maxCost && cost > *maxCost) {
        out.reason = "this query needs " + unit + " = " + filters::formatAmount(cost)
                     + ", more than the per-query maximum " + filters::formatAmount(*maxCost)
                     + detail::affordableAccuracyText(kind, *maxCost, context.shape, target);
        return out;
    }
    // Predictability: the cost is known and charged before any noise is drawn.
    if (auto charged = context.filter.charge({out.costKind, cost, 0.0}); !charged) {
        out.reason = charged.error().message
                     + detail::affordableAccuracyText(kind, context.filter.remainingFor(out.costKind),
                                                      context.shape, target);
        return out;
    }
    auto &bits = context.noiseSource.bits();
    auto value = count ? Result<double>(0.0) : grid->release(channel.exact, bits);
    auto halfWidth = count ? Result<double>(0.0) : grid->halfWidth(target.beta());
    if (count) {
        auto released = discrete->release(static_cast<std::int64_t>(std::llround(channel.exact)), bits);
        auto width = discrete->halfWidth(target.beta());
        value = released ? Result<double>(static_cast<double>(*released)) : Result<double>(released.error());
        halfWidth = width ? Result<double>(static_cast<double>(*width)) : Result<double>(width.error());
    }
    Attempt a;
    a.cost = cost;
    out.cost = cost;
    out.accounting = describe(noise, count ? 1.0 : grid->grid());
    if (!value || !halfWidth) { // only a failing random source: the charge stands, nothing is released
        out.reason = (value ? halfWidth.error() : value.error()).message
                     + "; the charge stands, no value was released";
        a.releases.push_back(
            {channel.quantity, scaleOf(noise, count ? 1.0 : grid->grid()), std::nan(""), cost});
        out.attempts.push_back(a);
        out.status = EventStatus::Released;
        out.answer = std::nan("");
        out.errorBound = std::nan("");
        return out;
    }
    a.releases.push_back({channel.quantity, scaleOf(noise, count ? 1.0 : grid->grid()), *value, cost});
    a.estimate = *value;
    a.halfWidth = std::min(*halfWidth, target.error);
    a.accepted = true;
    out.status = EventStatus::Released;
    out.answer = a.estimate;
    out.errorBound = a.halfWidth;
    out.targetMet = true;
    out.attempts.push_back(a);
    return out;
}

LedgerEvent ledgerEventFor(QueryRequest request, ReleaseOutcome outcome)
{
    LedgerEvent event;
    event.request = std::move(request);
    event.status = outcome.status;
    event.mechanism = outcome.mechanism;
    event.reason = std::move(outcome.reason);
    event.answer = outcome.answer;
    event.errorBound = outcome.errorBound;
    event.targetMet = outcome.targetMet;
    event.costKind = outcome.costKind;
    event.cost = outcome.cost;
    event.costDelta = outcome.costDelta;
    event.accounting = std::move(outcome.accounting);
    event.attempts = std::move(outcome.attempts);
    return event;
}

} // namespace pbx::session
