// SPDX-License-Identifier: MIT
#include "core/filters/zcdp_filter.h"

#include "core/privacy/zcdp_conversion.h"
#include "core/util/parameter_checks.h"
#include "core/util/try.h"

#include <cmath>

namespace pbx::filters {

Result<std::unique_ptr<ZcdpFilter>> ZcdpFilter::create(double epsilon, double delta, FilterKind kind)
{
    PBX_RETURN_IF_ERROR(checkDelta(delta, "δ", UnitInterval::Open, " for the zCDP filter"));
    PBX_TRY(rho, privacy::rhoFromEpsilon(epsilon, delta));
    return std::unique_ptr<ZcdpFilter>(new ZcdpFilter(epsilon, delta, rho, kind));
}

double ZcdpFilter::rhoOfPureEpsilon(double epsilon)
{
    return math::nudgeUp(epsilon * epsilon / 2.0, 2);
}

double ZcdpFilter::epsilonOf(double rho) const
{
    auto eps = privacy::epsilonFromRho(rho, deltaBudget());
    return eps ? *eps : std::nan("");
}

double ZcdpFilter::remainingFor(ChargeKind kind) const
{
    if (kind == ChargeKind::ExPost)
        return 0.0;
    if (kind == ChargeKind::Rho)
        return m_rho.remaining();
    double epsilon = math::nudgeDown(std::sqrt(2.0 * m_rho.remaining()), 2);
    while (epsilon > 0.0 && !m_rho.fits(rhoOfPureEpsilon(epsilon)))
        epsilon = math::nudgeDown(epsilon, 8);
    return epsilon > 0.0 ? epsilon : 0.0;
}

std::vector<BudgetSystem> ZcdpFilter::systems() const
{
    return {{"zCDP", "ρ", m_rho.budget(), m_rho.spent(), epsilonBudget(), deltaBudget(), epsilonSpent()}};
}

Result<void> ZcdpFilter::check(const Charge &c) const
{
    if (c.kind == ChargeKind::ExPost)
        return makeError(ErrorCode::Unsupported,
                         "ex-post mechanisms such as Laplace noise reduction are not zCDP: their loss "
                         "depends on the output released (Ligett et al. 2017); use the ex-post or unified "
                         "filter");
    const double rho = c.kind == ChargeKind::Rho ? c.amount : rhoOfPureEpsilon(c.amount);
    if (!m_rho.fits(rho))
        return budgetExceeded("ρ", rho, m_rho.remaining());
    return {};
}

void ZcdpFilter::apply(const Charge &c)
{
    m_rho.add(c.kind == ChargeKind::Rho ? c.amount : rhoOfPureEpsilon(c.amount));
}

} // namespace pbx::filters
