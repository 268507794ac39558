// SPDX-License-Identifier: MIT
#include "core/filters/advanced_filter.h"

#include "core/filters/zcdp_filter.h"
#include "core/math/directed_rounding.h"
#include "core/privacy/zcdp_conversion.h"
#include "core/util/parameter_checks.h"
#include "core/util/try.h"

#include <cmath>

namespace pbx::filters {

Result<std::unique_ptr<AdvancedFilter>> AdvancedFilter::create(double epsilon, double delta,
                                                               double mechanismDelta)
{
    PBX_RETURN_IF_ERROR(checkEpsilon(epsilon, "ε", Zero::Excluded));
    PBX_RETURN_IF_ERROR(checkDelta(delta, "δ", UnitInterval::Open, " for the advanced filter"));
    if (!(mechanismDelta >= 0.0) || !(mechanismDelta < delta))
        return makeError(ErrorCode::InvalidArgument,
                         "the advanced filter's share of δ for the mechanisms (δ'') must lie in [0, δ)");
    const double conversion = mechanismDelta == 0.0 ? delta : math::subtractRoundDown(delta, mechanismDelta);
    PBX_TRY(rho, privacy::rhoFromEpsilon(epsilon, conversion));
    return std::unique_ptr<AdvancedFilter>(
        new AdvancedFilter(epsilon, delta, conversion, rho, mechanismDelta));
}

double AdvancedFilter::crossoverEpsilon() const
{
    return math::divideRoundDown(math::multiplyRoundDown(2.0, m_rho.budget()), epsilonBudget());
}

double AdvancedFilter::crossoverCount() const
{
    return epsilonBudget() * epsilonBudget() / (2.0 * m_rho.budget());
}

std::size_t AdvancedFilter::admitsEqual(double epsilon0) const
{
    const double each = ZcdpFilter::rhoOfPureEpsilon(epsilon0);
    const double closed = std::floor(m_rho.budget() / each);
    // Above ten million requests the count is the closed form less one (a lower bound: the
    // rounded-up sums cannot lose a whole charge); below, the filter's own sums are replayed.
    if (closed > 1e7)
        return static_cast<std::size_t>(closed) - 1;
    BudgetAccount account(m_rho.budget());
    std::size_t k = 0;
    while (account.fits(each)) {
        account.add(each);
        ++k;
    }
    return k;
}

double AdvancedFilter::epsilonOf(double rho) const
{
    if (rho == 0.0)
        return 0.0;
    auto e = privacy::epsilonFromRho(rho, m_conversionDelta);
    return e ? *e : std::nan("");
}

double AdvancedFilter::deltaSpent() const
{
    if (m_rho.spent() == 0.0 && m_mechanismDelta.spent() == 0.0)
        return 0.0;
    return math::addRoundUp(m_conversionDelta, m_mechanismDelta.spent());
}

std::vector<BudgetSystem> AdvancedFilter::systems() const
{
    return {{"advanced composition", "ρ", m_rho.budget(), m_rho.spent(), epsilonBudget(), m_conversionDelta,
             epsilonSpent()}};
}

double AdvancedFilter::remainingFor(ChargeKind kind) const
{
    if (kind != ChargeKind::PureEpsilon)
        return 0.0;
    double epsilon = math::nudgeDown(std::sqrt(2.0 * m_rho.remaining()), 2);
    while (epsilon > 0.0 && !m_rho.fits(ZcdpFilter::rhoOfPureEpsilon(epsilon)))
        epsilon = math::nudgeDown(epsilon, 8);
    return epsilon > 0.0 ? epsilon : 0.0;
}

Result<void> AdvancedFilter::check(const Charge &c) const
{
    if (c.kind == ChargeKind::Rho)
        return makeError(ErrorCode::Unsupported,
                         "the advanced-composition filter composes ε-DP (and (ε, δ)-DP) mechanisms; a "
                         "Gaussian release is ρ-zCDP, not ε-DP: use the zcdp or rdp filter");
    if (c.kind == ChargeKind::ExPost)
        return makeError(ErrorCode::Unsupported,
                         "the advanced-composition filter needs each mechanism's ε before it runs; "
                         "Laplace noise reduction's loss depends on the level it stops at (Ligett et "
                         "al. 2017): use the basic, ex-post or unified filter");
    const double rho = ZcdpFilter::rhoOfPureEpsilon(c.amount);
    if (!m_rho.fits(rho))
        return makeError(ErrorCode::BudgetExceeded,
                         "this query needs ε = " + formatAmount(c.amount)
                             + " but the advanced-composition filter has room for at most ε = "
                             + formatAmount(remainingFor(ChargeKind::PureEpsilon)));
    if (c.delta > 0.0 && !m_mechanismDelta.fits(c.delta))
        return budgetExceeded("δ", c.delta, m_mechanismDelta.remaining());
    return {};
}

void AdvancedFilter::apply(const Charge &c)
{
    m_rho.add(ZcdpFilter::rhoOfPureEpsilon(c.amount));
    if (c.delta > 0.0)
        m_mechanismDelta.add(c.delta);
}

} // namespace pbx::filters
