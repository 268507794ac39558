// SPDX-License-Identifier: MIT
#include "core/privacy/rdp_conversion.h"

#include "core/math/directed_rounding.h"
#include "core/util/parameter_checks.h"

#include <cmath>
#include <limits>

namespace pbx::privacy {

namespace {
Result<void> checkCurve(const std::vector<double> &orders, const std::vector<double> &rdp)
{
    if (orders.empty() || orders.size() != rdp.size())
        return makeError(ErrorCode::InvalidArgument,
                         "the RDP curve needs as many values as orders (and at least one)");
    for (std::size_t i = 0; i < orders.size(); ++i) {
        if (!(orders[i] >= 1.0))
            return makeError(ErrorCode::InvalidArgument, "Rényi orders must be ≥ 1");
        if (std::isnan(rdp[i]))
            return makeError(ErrorCode::InvalidArgument, "the RDP curve contains NaN");
    }
    return {};
}
} // namespace

Result<RdpConversion> epsilonFromRdp(const std::vector<double> &orders, const std::vector<double> &rdp,
                                     double delta)
{
    PBX_RETURN_IF_ERROR(checkCurve(orders, rdp));
    PBX_RETURN_IF_ERROR(checkDelta(delta, "δ", UnitInterval::AboveZero, " for an RDP conversion"));
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (delta >= 1.0)
        return RdpConversion{0.0, nan};
    const double logDelta = std::log(delta);
    double best = std::numeric_limits<double>::infinity();
    double bestOrder = nan;
    for (std::size_t i = 0; i < orders.size(); ++i) {
        const double a = orders[i];
        const double r = rdp[i];
        double eps;
        if (r <= 0.0)
            eps = 0.0;
        else if (delta * delta + std::expm1(-r) > 0.0)
            eps = 0.0; // KL bound: δ ≥ sqrt(1 − e^{−KL}) already
        else if (a > 1.01 && std::isfinite(r))
            eps = r + std::log1p(-1.0 / a) - (logDelta + std::log(a)) / (a - 1.0);
        else
            continue;
        if (eps < best) {
            best = eps;
            bestOrder = a;
        }
    }
    if (std::isinf(best))
        return RdpConversion{best, bestOrder};
    return RdpConversion{best > 0.0 ? math::nudgeUp(best, 8) : 0.0, bestOrder};
}

Result<RdpConversion> deltaFromRdp(const std::vector<double> &orders, const std::vector<double> &rdp,
                                   double epsilon)
{
    PBX_RETURN_IF_ERROR(checkCurve(orders, rdp));
    PBX_RETURN_IF_ERROR(checkEpsilon(epsilon));
    double bestLog = 0.0; // δ = 1
    double bestOrder = std::numeric_limits<double>::quiet_NaN();
    for (std::size_t i = 0; i < orders.size(); ++i) {
        const double a = orders[i];
        const double r = rdp[i];
        double logDelta;
        if (r <= 0.0)
            logDelta = -std::numeric_limits<double>::infinity();
        else
            logDelta = 0.5 * std::log1p(-std::exp(-r));
        if (a > 1.01 && std::isfinite(r)) {
            const double bound = (a - 1.0) * (r - epsilon + std::log1p(-1.0 / a)) - std::log(a);
            logDelta = std::min(logDelta, bound);
        }
        if (logDelta < bestLog) {
            bestLog = logDelta;
            bestOrder = a;
        }
    }
    const double delta = std::exp(bestLog);
    if (delta >= 1.0)
        return RdpConversion{1.0, bestOrder};
    return RdpConversion{std::min(1.0, math::nudgeUp(delta, 16)), bestOrder};
}

} // namespace pbx::privacy
