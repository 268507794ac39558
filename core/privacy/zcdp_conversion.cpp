// SPDX-License-Identifier: MIT
#include "core/privacy/zcdp_conversion.h"

#include "core/math/directed_rounding.h"
#include "core/util/parameter_checks.h"

#include <cmath>
#include <string>

namespace pbx::privacy {

namespace {
Result<void> checkDelta(double delta)
{
    PBX_RETURN_IF_ERROR(checkDelta(delta, "δ", UnitInterval::Open, ", got " + std::to_string(delta)));
    return {};
}
} // namespace

Result<double> epsilonFromRho(double rho, double delta)
{
    PBX_RETURN_IF_ERROR(checkRho(rho));
    PBX_RETURN_IF_ERROR(checkDelta(delta));
    if (rho == 0.0)
        return 0.0;
    const double logInvDelta = -std::log(delta);
    // A handful of correctly rounded operations: nudging up by a few ulps gives an upper bound.
    // √ρ·√L rather than √(ρL): no overflow for any finite ρ.
    return math::nudgeUp(rho + 2.0 * std::sqrt(rho) * std::sqrt(logInvDelta), 8);
}

Result<double> rhoFromEpsilon(double epsilon, double delta)
{
    PBX_RETURN_IF_ERROR(checkEpsilon(epsilon));
    PBX_RETURN_IF_ERROR(checkDelta(delta));
    if (epsilon == 0.0)
        return 0.0;
    const double logInvDelta = -std::log(delta);
    const double root = std::sqrt(logInvDelta + epsilon) + std::sqrt(logInvDelta);
    // (ε/root)², not ε²/root²: ε² overflows for ε ≥ 1.4·10¹⁵⁴.
    const double ratio = epsilon / root;
    double rho = math::nudgeDown(ratio * ratio, 8);
    // Make the round trip exact in floating point too: ε(ρ_budget) as reported (rounded up)
    // must not exceed ε, or a fully spent budget would display as slightly overspent. The first
    // guess is within a few ulps, so this takes a step or two; should it not be, steps of a
    // millionth bound the loop (rounding down only costs budget, never overspends).
    for (int i = 0; rho > 0.0 && *epsilonFromRho(rho, delta) > epsilon; ++i)
        rho = i < 8 ? math::nudgeDown(rho, 16) : rho * 0.999999;
    return rho > 0.0 ? rho : 0.0;
}

} // namespace pbx::privacy
