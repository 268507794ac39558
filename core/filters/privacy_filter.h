// SPDX-License-Identifier: MIT
// Privacy filters: a stopping rule over adaptively chosen mechanisms that refuses any request
// that would exceed the budget and admits every request that fits (an exact fit included).
#pragma once

#include "core/util/result.h"

#include <memory>
#include <string>
#include <string_view>

namespace pbx::filters {

enum class FilterKind {
    Basic, ///< pure ε, sequential composition; Laplace mechanisms
    Zcdp,  ///< fully adaptive zCDP filter (Whitehouse et al. 2023); Gaussian mechanisms
};

std::string_view filterKindName(FilterKind kind); ///< "basic" or "zcdp"
Result<FilterKind> parseFilterKind(std::string_view text);

/// A filter over one native privacy quantity (ε for basic, ρ for zCDP) that composes by
/// addition. Budget arithmetic uses directed rounding: a charge is added rounded up and the
/// remaining budget is computed rounded down, so floating-point error can neither make it accept
/// an overspend nor refuse a request costing exactly remaining() (accuracy-first.md §8.2).
class PrivacyFilter
{
public:
    virtual ~PrivacyFilter() = default;

    virtual FilterKind kind() const = 0;
    /// Symbol of the native quantity, for messages: "ε" or "ρ".
    virtual std::string_view unitSymbol() const = 0;
    /// JSON-friendly name of the native quantity: "epsilon" or "rho".
    virtual std::string_view unitName() const = 0;

    /// The session's (ε, δ) guarantee this filter enforces.
    double epsilonBudget() const { return m_epsilonBudget; }
    double deltaBudget() const { return m_deltaBudget; }

    /// Budget, spend and remainder in the native unit.
    double budget() const { return m_budget; }
    double spent() const { return m_spent; }
    /// budget − spent, rounded down; never negative.
    double remaining() const;

    /// The (ε, δ) the spending so far amounts to at the session δ (an upper bound; ε rounded up).
    virtual double epsilonSpent() const = 0;
    virtual double deltaSpent() const = 0;
    /// ε-equivalent of a native amount (for gauges and the path chart), rounded up.
    virtual double epsilonOf(double native) const = 0;

    /// Succeeds when `cost` fits: cost ≤ remaining(). Errors: InvalidArgument for a negative or
    /// non-finite cost; BudgetExceeded with a message like
    /// "this query needs ρ = 0.031 but 0.012 remains".
    Result<void> canSpend(double cost) const;

    /// Charges `cost` if it fits (see canSpend); otherwise charges nothing and returns the error.
    Result<void> spend(double cost);

    /// Creates a filter enforcing (ε, δ). Errors: InvalidArgument for ε ≤ 0 or non-finite,
    /// δ ∉ (0, 1) for zCDP, δ ∉ [0, 1) for basic.
    static Result<std::unique_ptr<PrivacyFilter>> create(FilterKind kind, double epsilon, double delta);

protected:
    PrivacyFilter(double epsilonBudget, double deltaBudget, double nativeBudget)
        : m_epsilonBudget(epsilonBudget), m_deltaBudget(deltaBudget), m_budget(nativeBudget)
    {}

private:
    double m_epsilonBudget;
    double m_deltaBudget;
    double m_budget;
    double m_spent = 0.0;
};

/// Formats a privacy quantity for messages: 4 significant digits, no trailing zeros.
std::string formatAmount(double value);

} // namespace pbx::filters
