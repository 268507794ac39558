// SPDX-License-Identifier: MIT
#include "core/privacy/cks_conversion.h"

#include "core/math/directed_rounding.h"
#include "core/util/parameter_checks.h"

#include <cmath>
#include <limits>
#include <string>

namespace pbx::privacy {

namespace {
// log δ at order α (CKS20 Prop. 12 in the RDP form used by dp_accounting and Opacus).
double logDeltaAt(double rho, double epsilon, double alpha)
{
    const double am1 = alpha - 1.0;
    return am1 * (alpha * rho - epsilon + std::log1p(-1.0 / alpha)) - std::log(alpha);
}

double epsilonAt(double rho, double logInvDelta, double alpha)
{
    return alpha * rho + std::log1p(-1.0 / alpha) + (logInvDelta - std::log(alpha)) / (alpha - 1.0);
}
} // namespace

Result<double> deltaFromRhoCks(double rho, double epsilon)
{
    PBX_RETURN_IF_ERROR(checkRho(rho));
    PBX_RETURN_IF_ERROR(checkEpsilon(epsilon));
    if (rho == 0.0)
        return 0.0;
    // Derivative of log δ in α: (2α−1)ρ − ε + log(1−1/α); negative near 1, positive for large α.
    auto slope = [&](double a) { return (2.0 * a - 1.0) * rho - epsilon + std::log1p(-1.0 / a); };
    double lo = 1.0 + 1e-12;
    double hi = (epsilon + 1.0) / (2.0 * rho) + 2.0;
    while (slope(hi) < 0.0)
        hi *= 2.0;
    for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; ++i) {
        const double mid = 0.5 * (lo + hi);
        (slope(mid) < 0.0 ? lo : hi) = mid;
    }
    const double alpha = 0.5 * (lo + hi);
    const double logDelta = logDeltaAt(rho, epsilon, alpha);
    if (logDelta >= 0.0)
        return 1.0;
    const double delta = math::nudgeUp(std::exp(logDelta), 16);
    return delta < 1.0 ? delta : 1.0;
}

Result<double> epsilonFromRhoCks(double rho, double delta, double *optimalOrder)
{
    PBX_RETURN_IF_ERROR(checkRho(rho));
    PBX_RETURN_IF_ERROR(checkDelta(delta, "δ", UnitInterval::AboveZero, " for a zCDP conversion"));
    if (rho == 0.0 || delta >= 1.0) {
        if (optimalOrder)
            *optimalOrder = std::numeric_limits<double>::quiet_NaN();
        return 0.0;
    }
    const double logInvDelta = -std::log(delta);
    // dε/dα = ρ + log(αδ)/(α−1)²: negative near α = 1, positive once αδ is large enough.
    auto slope = [&](double a) { return rho + (std::log(a) - logInvDelta) / ((a - 1.0) * (a - 1.0)); };
    double lo = 1.0 + 1e-9;
    double hi = 2.0;
    while (slope(hi) < 0.0 && hi < 1e300)
        hi *= 2.0;
    for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; ++i) {
        const double mid = 0.5 * (lo + hi);
        (slope(mid) < 0.0 ? lo : hi) = mid;
    }
    const double alpha = 0.5 * (lo + hi);
    if (optimalOrder)
        *optimalOrder = alpha;
    const double eps = epsilonAt(rho, logInvDelta, alpha);
    if (!(eps > 0.0))
        return 0.0;
    return math::nudgeUp(eps, 16);
}

Result<double> rhoFromPureEpsilonSimple(double epsilon)
{
    PBX_RETURN_IF_ERROR(checkEpsilon(epsilon));
    return math::nudgeUp(0.5 * epsilon * epsilon, 2);
}

Result<double> rhoFromPureEpsilonTight(double epsilon)
{
    PBX_RETURN_IF_ERROR(checkEpsilon(epsilon));
    if (epsilon == 0.0)
        return 0.0;
    return math::nudgeUp(epsilon * std::tanh(0.5 * epsilon), 4);
}

} // namespace pbx::privacy
