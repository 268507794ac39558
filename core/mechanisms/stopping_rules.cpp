// SPDX-License-Identifier: MIT
#include "core/mechanisms/stopping_rules.h"

#include "core/math/directed_rounding.h"
#include "core/math/normal.h"
#include "core/util/parameter_checks.h"

#include <cmath>

namespace pbx::mechanisms {

namespace {

bool validWidth(double w)
{
    return w >= 0.0 && std::isfinite(w);
}

Result<void> checkBeta(double beta)
{
    PBX_RETURN_IF_ERROR(checkProbability(beta, "β", UnitInterval::Open));
    return {};
}
} // namespace

Result<double> gaussianHalfWidth(double sigma, double beta)
{
    PBX_RETURN_IF_ERROR(checkPositive(sigma, "the noise σ"));
    PBX_RETURN_IF_ERROR(checkBeta(beta));
    const double z = -math::normalQuantile(beta / 2.0); // β/2 is exact
    return math::nudgeUp(sigma * z, 16);
}

Result<double> laplaceHalfWidth(double scale, double beta)
{
    PBX_RETURN_IF_ERROR(checkPositive(scale, "the Laplace scale"));
    PBX_RETURN_IF_ERROR(checkBeta(beta));
    return math::nudgeUp(scale * -std::log(beta), 4);
}

Result<double> perStepBeta(double beta, int steps)
{
    PBX_RETURN_IF_ERROR(checkBeta(beta));
    if (steps < 1)
        return makeError(ErrorCode::InvalidArgument, "the grid needs at least one step");
    return math::nudgeDown(beta / steps, 1);
}

Result<double> timeUniformHalfWidth(double time, double beta, double r)
{
    PBX_RETURN_IF_ERROR(checkPositive(time, "the Brownian time (a variance)"));
    PBX_RETURN_IF_ERROR(checkBeta(beta));
    PBX_RETURN_IF_ERROR(checkPositive(r, "the mixture parameter r"));
    const double w = std::sqrt(2.0 * (time + r) * (-std::log(beta) + 0.5 * std::log1p(time / r)));
    return math::nudgeUp(w, 12);
}

bool acceptsRelativeError(double y, double halfWidth, double alpha)
{
    if (std::isnan(y) || !validWidth(halfWidth) || !isPositiveFinite(alpha))
        return false;
    const double margin = math::subtractRoundDown(std::fabs(y), halfWidth); // |y| − w, rounded down
    if (!(margin > 0.0))
        return false;
    return halfWidth <= math::nudgeDown(alpha * margin, 1);
}

bool acceptsAbsoluteError(double halfWidth, double a)
{
    if (!validWidth(halfWidth) || std::isnan(a))
        return false;
    return halfWidth <= a;
}

double relativeAcceptanceThreshold(double halfWidth, double alpha)
{
    if (!validWidth(halfWidth) || !isPositiveFinite(alpha))
        return std::nan("");
    return math::nudgeUp(halfWidth * (1.0 + alpha) / alpha, 3);
}

bool shouldAbandon(double y, double halfWidth, double minHalfWidth, double alpha)
{
    if (std::isnan(y) || !validWidth(halfWidth) || !validWidth(minHalfWidth) || !isPositiveFinite(alpha))
        return false;
    const double smallestAcceptable = minHalfWidth * (1.0 + alpha) / alpha;
    return std::fabs(y) + halfWidth < smallestAcceptable;
}

StoppingDecision decideRelative(double y, double halfWidth, double minHalfWidth, double alpha)
{
    if (acceptsRelativeError(y, halfWidth, alpha))
        return StoppingDecision::Accept;
    if (shouldAbandon(y, halfWidth, minHalfWidth, alpha))
        return StoppingDecision::Abandon;
    return StoppingDecision::Continue;
}

} // namespace pbx::mechanisms
