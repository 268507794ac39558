// SPDX-License-Identifier: MIT
// One budgeted quantity (ε, ρ or δ) with directed rounding: charges are added rounded up and the
// remainder is computed rounded down, so floating-point error can neither let a filter accept an
// overspend nor refuse a request costing exactly remaining() (docs/accuracy-first.md §6.2).
#pragma once

#include "core/math/directed_rounding.h"

namespace pbx::filters {

class BudgetAccount
{
public:
    explicit BudgetAccount(double budget = 0.0) : m_budget(budget) {}

    double budget() const { return m_budget; }
    double spent() const { return m_spent; }
    /// budget − spent, rounded down; never negative.
    double remaining() const
    {
        const double r = math::subtractRoundDown(m_budget, m_spent);
        return r > 0.0 ? r : 0.0;
    }
    /// cost ≤ RD(budget − spent) implies spent + cost ≤ budget in exact arithmetic.
    bool fits(double cost) const { return cost <= remaining(); }
    /// Adds `cost` rounded up. Precondition: fits(cost). The exact sum is ≤ budget and the budget
    /// is a double, so the rounded-up sum cannot pass it.
    void add(double cost) { m_spent = math::addRoundUp(m_spent, cost); }

private:
    double m_budget;
    double m_spent = 0.0;
};

} // namespace pbx::filters
