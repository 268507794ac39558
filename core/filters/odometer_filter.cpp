// SPDX-License-Identifier: MIT
#include "core/filters/odometer_filter.h"

#include "core/privacy/zcdp_conversion.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pbx::filters {

/// The odometer's budget in every unit: none.
constexpr double kNoBudget = std::numeric_limits<double>::infinity();

OdometerFilter::OdometerFilter(double delta, ZcdpOdometer odometer)
    : PrivacyFilter(kNoBudget, delta), m_odometer(std::move(odometer)), m_rho(kNoBudget)
{}

Result<std::unique_ptr<OdometerFilter>> OdometerFilter::create(double delta)
{
    PBX_TRY(odometer, ZcdpOdometer::create(delta));
    return std::unique_ptr<OdometerFilter>(new OdometerFilter(delta, std::move(odometer)));
}

std::vector<BudgetSystem> OdometerFilter::systems() const
{
    return {{"odometer", "ρ", kNoBudget, m_rho.spent(), kNoBudget, deltaBudget(), epsilonSpent()}};
}

double OdometerFilter::epsilonSpent() const
{
    return m_odometer.reading().epsilon; // 0 before the first charge (the basic Σε is 0)
}

double OdometerFilter::epsilonOf(double rho) const
{
    return rho > 0.0 ? ZcdpOdometer::lambdaGridEpsilon(rho, deltaBudget()) : 0.0;
}

double OdometerFilter::remainingFor(ChargeKind kind) const
{
    return kind == ChargeKind::ExPost ? 0.0 : kNoBudget;
}

double OdometerFilter::preplannedEpsilon() const
{
    const double rho = m_odometer.rho();
    const auto converted = privacy::epsilonFromRho(rho, deltaBudget());
    return std::min(m_odometer.basicEpsilon(), converted ? *converted : kNoBudget);
}

Result<void> OdometerFilter::check(const Charge &c) const
{
    if (c.kind == ChargeKind::ExPost)
        return makeError(ErrorCode::Unsupported,
                         "an odometer adds predictable costs (ε or ρ fixed before the noise is drawn), and "
                         "Laplace noise reduction's loss depends on the level it stops at (Ligett et al. "
                         "2017); use doubling or a single release");
    return {};
}

void OdometerFilter::apply(const Charge &c)
{
    // Both adds validated by canCharge (finite, ≥ 0): they cannot fail.
    if (c.kind == ChargeKind::Rho)
        (void)m_odometer.addRho(c.amount);
    else if (c.kind == ChargeKind::BoundedRange)
        (void)m_odometer.addBoundedRange(c.amount, c.count);
    else
        (void)m_odometer.addPureEpsilon(c.amount);
    m_rho = BudgetAccount(kNoBudget);
    m_rho.add(m_odometer.rho());
}

} // namespace pbx::filters
