// SPDX-License-Identifier: MIT
#include "core/privacy/privacy_risk.h"

#include "core/math/normal.h"
#include "core/util/parameter_checks.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace pbx::privacy {

namespace {

Result<void> checkAlpha(double alpha)
{
    return checkProbability(alpha, "α (false-positive rate)", UnitInterval::Closed);
}

Result<void> checkPoint(const ProfilePoint &point)
{
    // ε = ∞ is a valid profile point (no guarantee at that δ).
    PBX_RETURN_IF_ERROR(checkEpsilon(point.epsilon, "ε", Zero::Allowed, Infinity::Allowed,
                                     ", got " + std::to_string(point.epsilon)));
    PBX_RETURN_IF_ERROR(
        checkDelta(point.delta, "δ", UnitInterval::Closed, ", got " + std::to_string(point.delta)));
    return {};
}

// The adversary's error is a lower bound that must not be overstated: one ulp down, never below 0.
double down(double x)
{
    return x <= 0.0 ? 0.0 : std::nextafter(x, 0.0);
}

double tradeoffUnchecked(double epsilon, double delta, double alpha)
{
    const double rest = 1.0 - delta;
    // e^ε·α with +∞·0 read as 0 (α = 0 is the test that never says "in").
    const double scaled = alpha == 0.0 ? 0.0 : std::exp(epsilon) * alpha;
    const double first = rest - scaled;
    const double second = std::exp(-epsilon) * (rest - alpha);
    return down(std::max({0.0, first, second}));
}

} // namespace

Result<double> epsilonDeltaTradeoff(double epsilon, double delta, double alpha)
{
    PBX_RETURN_IF_ERROR(checkPoint({epsilon, delta}));
    PBX_RETURN_IF_ERROR(checkAlpha(alpha));
    return tradeoffUnchecked(epsilon, delta, alpha);
}

Result<double> profileTradeoff(std::span<const ProfilePoint> profile, double alpha)
{
    if (profile.empty())
        return makeError(ErrorCode::InvalidArgument, "the privacy profile has no points");
    PBX_RETURN_IF_ERROR(checkAlpha(alpha));
    double best = 0.0;
    for (std::size_t i = 0; i < profile.size(); ++i) {
        if (auto ok = checkPoint(profile[i]); !ok)
            return makeError(ok.error().code, "profile[" + std::to_string(i) + "]: " + ok.error().message);
        best = std::max(best, tradeoffUnchecked(profile[i].epsilon, profile[i].delta, alpha));
    }
    return best;
}

Result<double> gaussianTradeoff(double mu, double alpha)
{
    PBX_RETURN_IF_ERROR(checkNonNegative(mu, "μ"));
    PBX_RETURN_IF_ERROR(checkAlpha(alpha));
    if (alpha == 0.0)
        return down(1.0);
    if (alpha == 1.0)
        return 0.0;
    // Φ⁻¹(1 − α) = −Φ⁻¹(α) keeps precision for small α.
    return down(math::normalCdf(-math::normalQuantile(alpha) - mu));
}

Result<double> posteriorBound(double epsilon, double prior)
{
    PBX_RETURN_IF_ERROR(checkEpsilon(epsilon, "ε", Zero::Allowed, Infinity::Allowed));
    PBX_RETURN_IF_ERROR(checkProbability(prior, "the prior", UnitInterval::Closed));
    if (prior == 0.0 || prior == 1.0)
        return prior;
    // 1 / (1 + (1 − p)/p · e^{−ε}), stable for large ε; then one ulp up, at most 1.
    const double posterior = 1.0 / (1.0 + (1.0 - prior) / prior * std::exp(-epsilon));
    return std::min(1.0, std::nextafter(posterior, 2.0));
}

} // namespace pbx::privacy
