// SPDX-License-Identifier: MIT
#include "core/filters/basic_filter.h"

namespace pbx::filters {

std::vector<BudgetSystem> BasicFilter::systems() const
{
    return {
        {"pure ε", "ε", m_epsilon.budget(), m_epsilon.spent(), m_epsilon.budget(), 0.0, m_epsilon.spent()}};
}

Result<void> BasicFilter::check(const Charge &c) const
{
    if (c.kind == ChargeKind::Rho)
        return makeError(ErrorCode::Unsupported,
                         "the basic filter composes pure ε only; a Gaussian release is not pure DP");
    if (c.kind == ChargeKind::ExPost && c.delta > 0.0)
        return makeError(
            ErrorCode::Unsupported,
            "the basic filter admits only pure ex-post mechanisms (δ = 0); use the ex-post filter");
    if (!m_epsilon.fits(c.amount))
        return budgetExceeded("ε", c.amount, m_epsilon.remaining());
    return {};
}

} // namespace pbx::filters
