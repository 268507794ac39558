// SPDX-License-Identifier: MIT
#include "core/privacy/analytic_gaussian.h"

#include "core/math/directed_rounding.h"
#include "core/math/normal.h"
#include "core/util/parameter_checks.h"

#include <cmath>

namespace pbx::privacy {

double gaussianDelta(double mu, double epsilon)
{
    if (mu == 0.0)
        return epsilon >= 0.0 ? 0.0 : -std::expm1(epsilon);
    if (std::isinf(mu))
        return 1.0;
    const double a = -epsilon / mu + 0.5 * mu;
    const double b = -epsilon / mu - 0.5 * mu;
    const double logPhiA = math::normalLogCdf(a);
    const double logPhiB = math::normalLogCdf(b);
    const double ratio = epsilon + logPhiB - logPhiA; // ≤ 0 up to rounding
    if (ratio >= 0.0)
        return 0.0;
    const double delta = std::exp(logPhiA) * -std::expm1(ratio);
    return delta < 0.0 ? 0.0 : (delta > 1.0 ? 1.0 : delta);
}

Result<double> gaussianEpsilon(double mu, double delta)
{
    PBX_RETURN_IF_ERROR(checkNonNegative(mu, "μ = Δ/σ"));
    PBX_RETURN_IF_ERROR(checkDelta(delta, "δ", UnitInterval::OpenClosed));
    if (gaussianDelta(mu, 0.0) <= delta)
        return 0.0;
    double lo = 0.0;
    double hi = 1.0;
    while (gaussianDelta(mu, hi) > delta)
        hi *= 2.0;
    for (int i = 0; i < 200 && hi - lo > 1e-14 * hi; ++i) {
        const double mid = 0.5 * (lo + hi);
        (gaussianDelta(mu, mid) > delta ? lo : hi) = mid;
    }
    return hi;
}

Result<double> analyticGaussianSigma(double epsilon, double delta, double sensitivity)
{
    PBX_RETURN_IF_ERROR(checkEpsilon(epsilon));
    PBX_RETURN_IF_ERROR(checkDelta(delta));
    PBX_RETURN_IF_ERROR(checkSensitivity(sensitivity));
    // δ(ε; μ) increases with μ: find the largest μ with δ ≤ target; σ = Δ/μ. The evaluated δ
    // carries ~1e-13 relative round-off (cancellation in Φ(a) − e^εΦ(b)), so aim 1e-12 below δ.
    const double target = delta * (1.0 - 1e-12);
    double lo = 0.0;
    double hi = 1.0;
    while (gaussianDelta(hi, epsilon) <= target)
        hi *= 2.0;
    for (int i = 0; i < 300 && hi - lo > 1e-16 * hi; ++i) {
        const double mid = 0.5 * (lo + hi);
        (gaussianDelta(mid, epsilon) <= target ? lo : hi) = mid;
    }
    if (lo == 0.0)
        return makeError(ErrorCode::InvalidArgument, "no finite σ reaches this (ε, δ)");
    // A few ulps up so that δ(ε) at Δ/σ, recomputed by a caller, stays ≤ the target.
    return math::nudgeUp(sensitivity / lo, 8);
}

} // namespace pbx::privacy
