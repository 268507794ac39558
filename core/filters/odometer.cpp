// SPDX-License-Identifier: MIT
#include "core/filters/odometer.h"

#include "core/filters/rdp_filter.h"
#include "core/math/directed_rounding.h"
#include "core/util/parameter_checks.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pbx::filters {

namespace {
constexpr int kLambdas = 25; ///< λ_j = 2^{j/2}, j = 0 … 24
constexpr double kInfinity = std::numeric_limits<double>::infinity();

Result<void> checkStep(double value, const char *what)
{
    if (!(value >= 0.0) || !std::isfinite(value))
        return makeError(ErrorCode::InvalidArgument, std::string(what) + " must be a finite number ≥ 0");
    return {};
}

/// x·(1 + 1e-12) nudged up: the margin of a few floating-point operations on positive terms.
double up(double x)
{
    return std::isfinite(x) ? math::nudgeUp(x * (1.0 + 1e-12), 2) : x;
}
} // namespace

Result<ZcdpOdometer> ZcdpOdometer::create(double delta)
{
    PBX_RETURN_IF_ERROR(checkDelta(delta, "δ", UnitInterval::Open, " for an odometer"));
    return ZcdpOdometer(delta);
}

Result<void> ZcdpOdometer::addPureEpsilon(double epsilon)
{
    PBX_RETURN_IF_ERROR(checkStep(epsilon, "ε"));
    m_rho = math::addRoundUp(m_rho, math::multiplyRoundUp(math::multiplyRoundUp(0.5, epsilon), epsilon));
    m_pure = math::addRoundUp(m_pure, epsilon);
    return {};
}

Result<void> ZcdpOdometer::addBoundedRange(double epsilon, std::size_t count)
{
    PBX_RETURN_IF_ERROR(checkStep(epsilon, "ε"));
    const double n = static_cast<double>(count);
    const double perStep = math::multiplyRoundUp(math::multiplyRoundUp(epsilon, epsilon), 0.125);
    m_rho = math::addRoundUp(m_rho, math::multiplyRoundUp(perStep, n));
    m_pure = math::addRoundUp(m_pure, math::multiplyRoundUp(epsilon, n));
    return {};
}

Result<void> ZcdpOdometer::addRho(double rho)
{
    PBX_RETURN_IF_ERROR(checkStep(rho, "ρ"));
    m_rho = math::addRoundUp(m_rho, rho);
    if (rho > 0.0)
        m_pure = kInfinity; // a Gaussian step has unbounded loss: the basic pure bound no longer holds
    return {};
}

double ZcdpOdometer::lambdaGridEpsilon(double rho, double delta)
{
    const double logTerm = std::log(static_cast<double>(kLambdas) / delta);
    double best = kInfinity;
    for (int j = 0; j < kLambdas; ++j) {
        const double lambda = std::exp2(0.5 * j);
        best = std::min(best, (1.0 + lambda) * rho + logTerm / lambda);
    }
    return up(best);
}

OdometerReading ZcdpOdometer::reading() const
{
    return {std::min(m_pure, lambdaGridEpsilon()), m_delta};
}

Result<RdpOdometer> RdpOdometer::create(double delta, std::vector<double> orders)
{
    PBX_RETURN_IF_ERROR(checkDelta(delta, "δ", UnitInterval::Open, " for an odometer"));
    if (orders.empty())
        return makeError(ErrorCode::InvalidArgument, "the odometer's grid of orders is empty");
    for (double a : orders)
        if (!(a > 1.0) || !std::isfinite(a))
            return makeError(ErrorCode::InvalidArgument, "RDP orders must be finite and > 1");
    return RdpOdometer(delta, std::move(orders));
}

Result<void> RdpOdometer::add(const std::vector<double> &curve)
{
    PBX_RETURN_IF_ERROR(checkRdpCurve(curve, m_orders.size()));
    for (std::size_t i = 0; i < curve.size(); ++i)
        m_sums[i] = std::isnan(curve[i]) || std::isinf(curve[i]) ? kInfinity
                                                                 : math::addRoundUp(m_sums[i], curve[i]);
    return {};
}

double RdpOdometer::gamma(std::size_t i) const
{
    const double n = static_cast<double>(m_orders.size());
    return std::log(2.0 * n / m_delta) / (m_orders[i] - 1.0);
}

int RdpOdometer::level(std::size_t i) const
{
    const double g = gamma(i);
    int f = 0;
    // Budgets γ·2^f computed exactly (a power of two times γ); compared with a margin so a sum a
    // hair above a budget goes to the next level.
    while (f < 2000 && !(m_sums[i] <= g * std::exp2(f) * (1.0 - 1e-12)))
        ++f;
    return f;
}

double RdpOdometer::epsilonAt(std::size_t i) const
{
    if (!std::isfinite(m_sums[i]))
        return kInfinity;
    const int f = level(i);
    const double n = static_cast<double>(m_orders.size());
    const double failure = std::log(2.0 * n * (f + 1.0) * (f + 1.0) / m_delta);
    return up(gamma(i) * std::exp2(f) + failure / (m_orders[i] - 1.0));
}

OdometerReading RdpOdometer::reading(std::size_t *order) const
{
    double best = kInfinity;
    std::size_t at = 0;
    for (std::size_t i = 0; i < m_orders.size(); ++i)
        if (const double e = epsilonAt(i); e < best) {
            best = e;
            at = i;
        }
    if (order)
        *order = at;
    return {best, m_delta};
}

} // namespace pbx::filters
