// SPDX-License-Identifier: MIT
#include "core/session/release/release_common.h"

#include "core/math/directed_rounding.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace pbx::session::detail {

std::string unitSymbol(filters::ChargeKind kind)
{
    return std::string(filters::chargeUnitSymbol(kind));
}

std::string targetText(const AccuracyTarget &t)
{
    char buffer[96];
    if (t.kind == TargetKind::Absolute)
        std::snprintf(buffer, sizeof buffer, "±%g at %g %% confidence", t.error, t.confidence * 100.0);
    else
        std::snprintf(buffer, sizeof buffer, "±%g %% at %g %% confidence", t.error * 100.0,
                      t.confidence * 100.0);
    return buffer;
}

double perQueryCap(const ReleaseContext &context, filters::ChargeKind kind, std::optional<double> maxCost)
{
    const double remaining = context.filter.remainingFor(kind);
    const double planned = context.plannedQueries > 0
                               ? math::nudgeDown(remaining / static_cast<double>(context.plannedQueries), 1)
                               : remaining;
    return std::min({maxCost.value_or(std::numeric_limits<double>::infinity()), remaining, planned});
}

std::string noBudgetToCapReason(filters::ChargeKind kind)
{
    return "max_cost: a session without an ε budget (odometer) needs a per-query maximum (" + unitSymbol(kind)
           + ") for a stopping rule such as doubling";
}

std::string cannotStartReason(const ReleaseContext &context, filters::ChargeKind kind, double cap,
                              std::optional<double> maxCost, const AccuracyTarget &target)
{
    const double remaining = context.filter.remainingFor(kind);
    if (!(remaining > 0.0))
        return "no privacy budget remains (" + unitSymbol(kind) + " = 0)";
    if (!std::isfinite(cap)) // an odometer session: no budget to divide among the queries
        return noBudgetToCapReason(kind);
    const bool byCap = maxCost && *maxCost < remaining;
    std::string reason = "the " + std::string(byCap ? "per-query maximum" : "remaining budget") + " ("
                         + unitSymbol(kind) + " = " + filters::formatAmount(cap) + ") cannot certify "
                         + targetText(target) + " for any answer this query can take";
    // Ex-post charges have no single-release counterpart; ε and ρ do.
    if (kind == filters::ChargeKind::PureEpsilon || kind == filters::ChargeKind::Rho)
        reason += affordableAccuracyText(kind == filters::ChargeKind::Rho
                                             ? mechanisms::DiscreteNoiseKind::Gaussian
                                             : mechanisms::DiscreteNoiseKind::Laplace,
                                         cap, context.shape, target);
    return reason;
}

std::string affordableAccuracyText(mechanisms::DiscreteNoiseKind kind, double budget, const QueryShape &shape,
                                   const AccuracyTarget &target)
{
    if (shape.channels().size() != 1 || !(budget > 0.0) || !std::isfinite(budget))
        return {};
    const Channel &channel = shape.channels().front();
    const bool count = channel.quantity == "count";
    Result<double> halfWidth = makeError(ErrorCode::Unsupported, "");
    if (count && channel.sensitivity >= 1.0
        && channel.sensitivity <= static_cast<double>(mechanisms::DiscreteNoiseMechanism::kMaxSensitivity)) {
        const auto noise = mechanisms::DiscreteNoiseMechanism::forCost(
            kind, budget, static_cast<std::uint64_t>(std::ceil(channel.sensitivity)));
        if (noise) {
            const auto width = noise->halfWidth(target.beta());
            halfWidth = width ? Result<double>(static_cast<double>(*width)) : Result<double>(width.error());
        }
    } else if (!count) {
        // The grid the target itself would use, so the two statements are about the same release.
        const auto grid = mechanisms::GridMechanism::defaultGrid(
            channel.sensitivity, target.error > 0.0 ? target.error : channel.sensitivity);
        const auto noise = grid ? mechanisms::GridMechanism::forCost(kind, budget, channel.sensitivity, *grid)
                                : Result<mechanisms::GridMechanism>(grid.error());
        if (noise)
            halfWidth = noise->halfWidth(target.beta());
    }
    if (!halfWidth || !std::isfinite(*halfWidth))
        return {};
    char buffer[160];
    // Three significant digits, rounded up: the error bar it certifies is at most this.
    const double shown = [](double x) {
        if (x <= 0.0)
            return 0.0;
        const double step = std::pow(10.0, std::floor(std::log10(x)) - 2.0);
        return std::ceil(x / step) * step;
    }(*halfWidth);
    std::snprintf(
        buffer, sizeof buffer, "; with %s = %s, one release can answer this %s to ±%.15g at %g %% confidence",
        kind == mechanisms::DiscreteNoiseKind::Gaussian ? "ρ" : "ε", filters::formatAmount(budget).c_str(),
        count ? "count" : "sum", shown, target.confidence * 100.0);
    return buffer;
}

bool recordAttempt(ReleaseOutcome &out, Attempt a, const std::vector<double> &halfWidths,
                   const QueryShape &shape, const AccuracyTarget &target, double leastNoisyNumerator)
{
    shape.estimate(a, halfWidths);
    a.accepted = QueryShape::certifies(a, target);
    out.attempts.push_back(a);
    if (a.accepted)
        return true;
    if (shape.hopeless(a, leastNoisyNumerator, target)) {
        out.reason = "target not met: the noisy answer is too small for the remaining levels to certify "
                     + targetText(target) + "; abandoned early (free)";
        return true;
    }
    return false;
}

void recordChargedWithoutRelease(ReleaseOutcome &out, Attempt a, const QueryShape &shape,
                                 const std::vector<double> &scales, const Error &error)
{
    const auto &channels = shape.channels();
    a.releases.clear();
    for (std::size_t i = 0; i < channels.size(); ++i)
        a.releases.push_back(
            {channels[i].quantity, i < scales.size() ? scales[i] : std::nan(""), std::nan(""), 0.0});
    a.estimate = std::nan("");
    a.halfWidth = std::nan("");
    a.accepted = false;
    out.attempts.push_back(std::move(a));
    out.reason = error.message + "; the charge stands, no value was released";
}

void finishFromAttempts(ReleaseOutcome &out, double cap, filters::ChargeKind kind)
{
    if (out.attempts.empty()) {
        out.status = EventStatus::Refused;
        return;
    }
    const Attempt &last = out.attempts.back();
    out.status = EventStatus::Released;
    out.answer = last.estimate;
    out.errorBound = last.halfWidth;
    out.targetMet = last.accepted;
    if (!out.targetMet && out.reason.empty())
        out.reason = "target not met within " + unitSymbol(kind) + " = " + filters::formatAmount(cap)
                     + "; the least noisy answer is released";
}

} // namespace pbx::session::detail
