// SPDX-License-Identifier: MIT
#include "core/filters/expost_filter.h"

namespace pbx::filters {

std::vector<BudgetSystem> ExPostFilter::systems() const
{
    return {
        {"ex-post", "ε", m_loss.budget(), m_loss.spent(), m_loss.budget(), m_delta.budget(), m_loss.spent()}};
}

Result<void> ExPostFilter::check(const Charge &c) const
{
    if (c.kind == ChargeKind::Rho)
        return makeError(
            ErrorCode::Unsupported,
            "the ex-post filter takes ex-post and pure ε mechanisms; a Gaussian release needs a zCDP "
            "filter (or the unified filter)");
    if (!m_loss.fits(c.amount))
        return budgetExceeded("ex-post ε", c.amount, m_loss.remaining());
    if (!m_delta.fits(c.delta))
        return budgetExceeded("ex-post δ", c.delta, m_delta.remaining());
    return {};
}

void ExPostFilter::apply(const Charge &c)
{
    m_loss.add(c.amount);
    if (c.delta > 0.0)
        m_delta.add(c.delta);
}

} // namespace pbx::filters
