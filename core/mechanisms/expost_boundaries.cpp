// SPDX-License-Identifier: MIT
#include "core/mechanisms/expost_boundaries.h"

#include "core/math/directed_rounding.h"
#include "core/math/normal.h"
#include "core/util/parameter_checks.h"
#include "core/util/try.h"

#include <array>
#include <cmath>
#include <limits>
#include <string>

namespace pbx::mechanisms {

namespace {

/// The leading Gaussian term Δ²/(2T), rounded up.
double gaussianTerm(double time, double sensitivity)
{
    return math::nudgeUp(sensitivity * sensitivity / (2.0 * time));
}

/// Δ²/(2T) + (rounded-up boundary term): the sum rounded up as well.
double sumUp(double time, double sensitivity, double boundaryTermUp)
{
    return math::addRoundUp(gaussianTerm(time, sensitivity), boundaryTermUp);
}

Result<void> checkCommon(double time, double sensitivity, double delta)
{
    PBX_RETURN_IF_ERROR(checkPositive(time, "the Brownian time (a variance)"));
    PBX_RETURN_IF_ERROR(checkSensitivity(sensitivity));
    PBX_RETURN_IF_ERROR(checkDelta(delta));
    return {};
}

/// Φ⁻¹(1 − p) computed as −Φ⁻¹(p), with no cancellation in 1 − p for tiny p.
double upperQuantile(double p)
{
    return -math::normalQuantile(p);
}

/// ψ of the mixture boundary: √(2(t+r)·(ln(1/δ) + ½·ln(1 + t/r))).
double mixturePsi(double t, double r, double delta)
{
    return std::sqrt(2.0 * (t + r) * (-std::log(delta) + 0.5 * std::log1p(t / r)));
}
} // namespace

Result<double> fixedTimeExpostEpsilon(double time, double sensitivity, double delta)
{
    PBX_RETURN_IF_ERROR(checkCommon(time, sensitivity, delta));
    // Δ/√T·z: sqrt, quotient, product and Boost's erfc_inv (a few ulps): nudged by 16 ulps.
    // For δ > ½ the quantile is negative; nudging up still moves towards the safe side.
    const double term = sensitivity / std::sqrt(time) * upperQuantile(delta);
    return sumUp(time, sensitivity, math::nudgeUp(term, 16));
}

Result<double> fixedTimeChernoffExpostEpsilon(double time, double sensitivity, double delta)
{
    PBX_RETURN_IF_ERROR(checkCommon(time, sensitivity, delta));
    const double term = sensitivity * std::sqrt(2.0 * -std::log(delta) / time);
    return sumUp(time, sensitivity, math::nudgeUp(term, 8));
}

Result<double> linearBoundaryExpostEpsilon(double time, double sensitivity, double delta, double a)
{
    PBX_RETURN_IF_ERROR(checkCommon(time, sensitivity, delta));
    PBX_RETURN_IF_ERROR(checkPositive(a, "the linear boundary's a"));
    const double intercept = math::nudgeUp(sensitivity * a / time);
    const double slope = math::nudgeUp(sensitivity * -std::log(delta) / (2.0 * a), 6);
    return sumUp(time, sensitivity, math::addRoundUp(intercept, slope));
}

Result<double> linearBoundaryTunedA(double anticipatedTime, double delta)
{
    PBX_RETURN_IF_ERROR(checkPositive(anticipatedTime, "the anticipated time"));
    PBX_RETURN_IF_ERROR(checkDelta(delta));
    return std::sqrt(anticipatedTime * -std::log(delta) / 2.0);
}

Result<double> mixtureBoundaryExpostEpsilon(double time, double sensitivity, double delta, double r)
{
    PBX_RETURN_IF_ERROR(checkCommon(time, sensitivity, delta));
    PBX_RETURN_IF_ERROR(checkPositive(r, "the mixture boundary's r"));
    const double term = sensitivity / time * mixturePsi(time, r, delta);
    return sumUp(time, sensitivity, math::nudgeUp(term, 12));
}

Result<double> mixtureBoundaryTunedR(double anticipatedTime, double delta)
{
    PBX_RETURN_IF_ERROR(checkPositive(anticipatedTime, "the anticipated time"));
    PBX_RETURN_IF_ERROR(checkDelta(delta));
    // Newton on g(u) = u − ln(1+u) − c, c = 2·ln(1/δ); g is convex with g(2c+2) > 0, so the
    // iterates fall monotonically to the root (g' = u/(1+u) > 0 there).
    const double c = -2.0 * std::log(delta);
    double u = 2.0 * c + 2.0;
    for (int i = 0; i < 200; ++i) {
        const double g = u - std::log1p(u) - c;
        const double next = u - g * (1.0 + u) / u;
        if (!(next < u) || !(next > 0.0))
            break;
        const bool converged = u - next <= 1e-15 * u;
        u = next;
        if (converged)
            break;
    }
    return anticipatedTime / u;
}

Result<double> unionBoundExpostEpsilon(double time, double sensitivity, double delta, int gridSize)
{
    PBX_RETURN_IF_ERROR(checkCommon(time, sensitivity, delta));
    if (gridSize < 1)
        return makeError(ErrorCode::InvalidArgument, "the union bound needs a grid of at least one time");
    // δ/K rounded down (a smaller tail probability gives a larger, safer quantile).
    const double tail = math::nudgeDown(delta / gridSize, 1);
    const double term = sensitivity / std::sqrt(time) * upperQuantile(tail);
    return sumUp(time, sensitivity, math::nudgeUp(term, 16));
}

std::string_view brownianBoundaryKindName(BrownianBoundaryKind kind)
{
    switch (kind) {
    case BrownianBoundaryKind::FixedTime:
        return "fixed-time";
    case BrownianBoundaryKind::FixedTimeChernoff:
        return "fixed-time-chernoff";
    case BrownianBoundaryKind::Linear:
        return "linear";
    case BrownianBoundaryKind::NormalMixture:
        return "normal-mixture";
    case BrownianBoundaryKind::UnionGrid:
        return "union-grid";
    }
    return "unknown";
}

Result<BrownianBoundaryKind> brownianBoundaryKindFromName(std::string_view name)
{
    constexpr std::array kinds{BrownianBoundaryKind::FixedTime, BrownianBoundaryKind::FixedTimeChernoff,
                               BrownianBoundaryKind::Linear, BrownianBoundaryKind::NormalMixture,
                               BrownianBoundaryKind::UnionGrid};
    for (auto kind : kinds)
        if (brownianBoundaryKindName(kind) == name)
            return kind;
    return makeError(ErrorCode::Parse, "unknown Brownian boundary kind \"" + std::string(name) + "\"");
}

namespace {
Result<void> checkBoundaryDelta(double delta)
{
    if (!(delta > 0.0 && delta <= 0.5))
        return makeError(ErrorCode::InvalidArgument, "a boundary's δ must lie in (0, ½]");
    return {};
}
} // namespace

Result<BrownianBoundary> BrownianBoundary::fixedTime(double time, double delta)
{
    PBX_RETURN_IF_ERROR(checkBoundaryDelta(delta));
    PBX_RETURN_IF_ERROR(checkPositive(time, "the fixed time"));
    return BrownianBoundary(BrownianBoundaryKind::FixedTime, time, delta);
}

Result<BrownianBoundary> BrownianBoundary::fixedTimeChernoff(double time, double delta)
{
    PBX_RETURN_IF_ERROR(fixedTime(time, delta));
    return BrownianBoundary(BrownianBoundaryKind::FixedTimeChernoff, time, delta);
}

Result<BrownianBoundary> BrownianBoundary::linear(double a, double delta)
{
    PBX_RETURN_IF_ERROR(checkBoundaryDelta(delta));
    PBX_RETURN_IF_ERROR(checkPositive(a, "the linear boundary's a"));
    return BrownianBoundary(BrownianBoundaryKind::Linear, a, delta);
}

Result<BrownianBoundary> BrownianBoundary::linearTuned(double anticipatedTime, double delta)
{
    PBX_RETURN_IF_ERROR(checkBoundaryDelta(delta));
    PBX_TRY(a, linearBoundaryTunedA(anticipatedTime, delta));
    return linear(a, delta);
}

Result<BrownianBoundary> BrownianBoundary::normalMixture(double r, double delta)
{
    PBX_RETURN_IF_ERROR(checkBoundaryDelta(delta));
    PBX_RETURN_IF_ERROR(checkPositive(r, "the mixture boundary's r"));
    return BrownianBoundary(BrownianBoundaryKind::NormalMixture, r, delta);
}

Result<BrownianBoundary> BrownianBoundary::normalMixtureTuned(double anticipatedTime, double delta)
{
    PBX_RETURN_IF_ERROR(checkBoundaryDelta(delta));
    PBX_TRY(r, mixtureBoundaryTunedR(anticipatedTime, delta));
    return normalMixture(r, delta);
}

Result<BrownianBoundary> BrownianBoundary::unionGrid(int gridSize, double delta)
{
    PBX_RETURN_IF_ERROR(checkBoundaryDelta(delta));
    if (gridSize < 1)
        return makeError(ErrorCode::InvalidArgument, "the union bound needs a grid of at least one time");
    return BrownianBoundary(BrownianBoundaryKind::UnionGrid, gridSize, delta);
}

bool BrownianBoundary::allowsAdaptiveStopping() const
{
    return m_kind != BrownianBoundaryKind::FixedTime && m_kind != BrownianBoundaryKind::FixedTimeChernoff;
}

Result<double> BrownianBoundary::threshold(double t) const
{
    PBX_RETURN_IF_ERROR(checkPositive(t, "the boundary's time"));
    switch (m_kind) {
    case BrownianBoundaryKind::FixedTime:
    case BrownianBoundaryKind::FixedTimeChernoff:
        if (t != m_parameter)
            return makeError(ErrorCode::InvalidArgument,
                             "the boundary's time must equal the fixed time: a fixed-time boundary covers "
                             "only that time");
        return m_kind == BrownianBoundaryKind::FixedTime ? std::sqrt(t) * upperQuantile(m_delta)
                                                         : std::sqrt(2.0 * t * -std::log(m_delta));
    case BrownianBoundaryKind::Linear:
        return m_parameter + (-std::log(m_delta) / (2.0 * m_parameter)) * t;
    case BrownianBoundaryKind::NormalMixture:
        return mixturePsi(t, m_parameter, m_delta);
    case BrownianBoundaryKind::UnionGrid:
        return std::sqrt(t) * upperQuantile(math::nudgeDown(m_delta / m_parameter, 1));
    }
    return makeError(ErrorCode::Unsupported, "unknown boundary kind");
}

Result<double> BrownianBoundary::epsilon(double time, double sensitivity) const
{
    switch (m_kind) {
    case BrownianBoundaryKind::FixedTime:
    case BrownianBoundaryKind::FixedTimeChernoff:
        if (isPositiveFinite(time) && time != m_parameter)
            return makeError(ErrorCode::InvalidArgument,
                             "the Brownian time (a variance) must equal the fixed time: a fixed-time bound "
                             "covers only that time");
        return m_kind == BrownianBoundaryKind::FixedTime
                   ? fixedTimeExpostEpsilon(time, sensitivity, m_delta)
                   : fixedTimeChernoffExpostEpsilon(time, sensitivity, m_delta);
    case BrownianBoundaryKind::Linear:
        return linearBoundaryExpostEpsilon(time, sensitivity, m_delta, m_parameter);
    case BrownianBoundaryKind::NormalMixture:
        return mixtureBoundaryExpostEpsilon(time, sensitivity, m_delta, m_parameter);
    case BrownianBoundaryKind::UnionGrid:
        return unionBoundExpostEpsilon(time, sensitivity, m_delta, static_cast<int>(m_parameter));
    }
    return makeError(ErrorCode::Unsupported, "unknown boundary kind");
}

Result<double> BrownianBoundary::supremumEpsilon(double minTime, double sensitivity) const
{
    PBX_RETURN_IF_ERROR(checkPositive(minTime, "the minimum time"));
    if (!allowsAdaptiveStopping()) {
        if (m_parameter < minTime)
            return makeError(ErrorCode::InvalidArgument,
                             "the minimum time must not exceed the fixed time of a fixed-time bound");
        return epsilon(m_parameter, sensitivity);
    }
    return epsilon(minTime, sensitivity); // E is decreasing in T for δ ≤ ½ (see the class comment)
}

Result<double> BrownianBoundary::minimumTime(double epsilonBudget, double sensitivity) const
{
    if (!(epsilonBudget > 0.0) || std::isnan(epsilonBudget))
        return makeError(ErrorCode::InvalidArgument, "the ε budget must be a number > 0");
    PBX_RETURN_IF_ERROR(checkSensitivity(sensitivity));
    const auto exceeded = [] {
        return makeError(ErrorCode::BudgetExceeded, "no Brownian time has an ex-post loss within the budget");
    };
    if (!allowsAdaptiveStopping()) {
        const double e = epsilon(m_parameter, sensitivity).value();
        if (e <= epsilonBudget)
            return m_parameter;
        return exceeded();
    }
    const auto fits = [&](double t) { return epsilon(t, sensitivity).value() <= epsilonBudget; };
    // Bracket: hi fits, lo does not. E is decreasing, → ∞ as T → 0 and → its (possibly positive)
    // limit as T → ∞.
    constexpr double kLargest = 1e300;
    constexpr double kSmallest = 1e-300;
    double hi = 1.0;
    while (!fits(hi)) {
        if (hi >= kLargest)
            return exceeded();
        hi *= 2.0;
    }
    double lo = hi;
    while (fits(lo)) {
        if (lo <= kSmallest)
            return lo;
        lo *= 0.5;
    }
    // Invariant: !fits(lo), fits(hi). Bisect until they are adjacent doubles.
    for (int i = 0; i < 2000; ++i) {
        const double mid = lo + 0.5 * (hi - lo);
        if (mid <= lo || mid >= hi)
            break;
        (fits(mid) ? hi : lo) = mid;
    }
    return hi;
}

} // namespace pbx::mechanisms
