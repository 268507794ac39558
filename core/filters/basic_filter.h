// SPDX-License-Identifier: MIT
#pragma once

#include "core/filters/privacy_filter.h"

namespace pbx::filters {

/// Basic composition filter for pure ε-DP: HALT when Σε_i would exceed ε (Rogers, Roth, Ullman,
/// Vadhan 2016: valid with adaptively chosen ε_i). Also admits pure ex-post mechanisms (Laplace
/// noise reduction) debited with their realised loss, which is the δ = 0 case of the ex-post
/// filter (docs/accuracy-first.md §4.2). The stopped interaction is (ε, 0)-DP.
class BasicFilter final : public PrivacyFilter
{
public:
    /// Precondition: ε > 0 finite (checked by PrivacyFilter::create).
    BasicFilter(double epsilon, double delta) : PrivacyFilter(epsilon, delta), m_epsilon(epsilon) {}

    const BudgetAccount &primary() const override { return m_epsilon; }
    FilterKind kind() const override { return FilterKind::Basic; }
    std::vector<BudgetSystem> systems() const override;
    double epsilonSpent() const override { return m_epsilon.spent(); }
    double deltaSpent() const override { return 0.0; }
    ChargeKind primaryKind() const override { return ChargeKind::PureEpsilon; }
    double epsilonOf(double native) const override { return native; }
    double remainingFor(ChargeKind kind) const override
    {
        return kind == ChargeKind::Rho ? 0.0 : m_epsilon.remaining();
    }

protected:
    Result<void> check(const Charge &charge) const override;
    void apply(const Charge &charge) override { m_epsilon.add(charge.amount); }

private:
    BudgetAccount m_epsilon;
};

} // namespace pbx::filters
