// SPDX-License-Identifier: MIT
#include "core/filters/odp_privacy_filter.h"

#include "core/util/try.h"

namespace pbx::filters {

namespace {
/// The Lemma 3 guarantee of an ordinary charge (one cell, E ≡ amount, its δ).
Result<odp::OdpGuarantee> guaranteeOf(const Charge &c)
{
    return odp::trivialGuarantee(c.amount, c.delta);
}

std::string labelOf(ChargeKind kind)
{
    return kind == ChargeKind::PureEpsilon ? "pure ε release" : "noise-reduction level";
}
} // namespace

Result<std::unique_ptr<OdpPrivacyFilter>> OdpPrivacyFilter::create(double epsilon, double delta)
{
    PBX_TRY(filter, odp::OdpFilter::create(epsilon, delta));
    return std::unique_ptr<OdpPrivacyFilter>(new OdpPrivacyFilter(epsilon, delta, std::move(filter)));
}

std::vector<BudgetSystem> OdpPrivacyFilter::systems() const
{
    return {{"ODP", "ε", m_odp.epsilonBudget(), m_odp.epsilonSpent(), m_odp.epsilonBudget(),
             m_odp.deltaBudget(), m_odp.epsilonSpent()}};
}

double OdpPrivacyFilter::remainingFor(ChargeKind kind) const
{
    if (kind == ChargeKind::Rho || m_odp.openRequest())
        return 0.0;
    return m_odp.epsilonRemaining();
}

double OdpPrivacyFilter::remainingExPostDelta() const
{
    return m_odp.openRequest() ? 0.0 : m_odp.deltaRemaining();
}

Result<void> OdpPrivacyFilter::check(const Charge &c) const
{
    if (c.kind == ChargeKind::Rho)
        return makeError(
            ErrorCode::Unsupported,
            "the odp filter composes (E, δ) costs (Hartmann et al. 2023, Theorem 7); a ρ (zCDP) charge has no ODP "
            "cost — use laplace, laplace-nr or brownian, or the zcdp or unified filter");
    PBX_TRY(g, guaranteeOf(c));
    return m_odp.admits(g);
}

void OdpPrivacyFilter::apply(const Charge &c)
{
    // check() has just accepted it: the reservation and its one-cell settlement cannot fail.
    (void)m_odp.charge(*guaranteeOf(c), 0, labelOf(c.kind));
}

Result<int> OdpPrivacyFilter::reserve(const odp::OdpGuarantee &guarantee, const std::string &label)
{
    return m_odp.reserve(guarantee, label);
}

Result<double> OdpPrivacyFilter::settle(int id, int cell)
{
    return m_odp.settle(id, cell);
}

Result<double> OdpPrivacyFilter::settleWorstCase(int id)
{
    return m_odp.settleWorstCase(id);
}

} // namespace pbx::filters
