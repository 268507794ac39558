// SPDX-License-Identifier: MIT
#include "core/privacy/amplification.h"

#include "core/math/directed_rounding.h"
#include "core/util/parameter_checks.h"

#include <algorithm>
#include <cmath>

namespace pbx::privacy {

Result<ApproxDp> amplifyBySubsampling(ApproxDp base, double rate)
{
    PBX_RETURN_IF_ERROR(checkProbability(rate, "the sampling rate", UnitInterval::Closed));
    PBX_RETURN_IF_ERROR(checkEpsilon(base.epsilon));
    PBX_RETURN_IF_ERROR(checkDelta(base.delta, "δ", UnitInterval::Closed));
    if (rate == 1.0)
        return base;
    if (rate == 0.0)
        return ApproxDp{0.0, 0.0};
    ApproxDp out;
    out.epsilon = math::nudgeUp(std::log1p(rate * std::expm1(base.epsilon)), 4);
    out.delta = base.delta == 0.0 ? 0.0 : std::min(1.0, math::nudgeUp(rate * base.delta, 1));
    return out;
}

Result<double> baseEpsilonForAmplified(double targetEpsilon, double rate)
{
    PBX_RETURN_IF_ERROR(checkProbability(rate, "the sampling rate", UnitInterval::OpenClosed));
    PBX_RETURN_IF_ERROR(checkEpsilon(targetEpsilon));
    const double base = math::nudgeDown(std::log1p(std::expm1(targetEpsilon) / rate), 4);
    return std::max(0.0, base);
}

ApproxDp groupOfTwo(ApproxDp g)
{
    ApproxDp out;
    out.epsilon = math::nudgeUp(2.0 * g.epsilon, 1);
    out.delta = g.delta == 0.0 ? 0.0 : std::min(1.0, math::nudgeUp((1.0 + std::exp(g.epsilon)) * g.delta, 4));
    return out;
}

} // namespace pbx::privacy
