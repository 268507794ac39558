// SPDX-License-Identifier: MIT
#include "core/filters/privacy_filter.h"

#include "core/filters/basic_filter.h"
#include "core/filters/zcdp_filter.h"
#include "core/math/directed_rounding.h"
#include "core/privacy/zcdp_conversion.h"

#include <cmath>
#include <cstdio>

namespace pbx::filters {

std::string_view filterKindName(FilterKind kind)
{
    return kind == FilterKind::Basic ? "basic" : "zcdp";
}

Result<FilterKind> parseFilterKind(std::string_view text)
{
    if (text == "basic")
        return FilterKind::Basic;
    if (text == "zcdp")
        return FilterKind::Zcdp;
    return makeError(ErrorCode::InvalidArgument,
                     "unknown filter '" + std::string(text) + "' (expected basic or zcdp)");
}

std::string formatAmount(double value)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.4g", value);
    return buffer;
}

double PrivacyFilter::remaining() const
{
    const double r = math::subtractRoundDown(m_budget, m_spent);
    return r > 0.0 ? r : 0.0;
}

Result<void> PrivacyFilter::canSpend(double cost) const
{
    if (!(cost >= 0.0) || !std::isfinite(cost))
        return makeError(ErrorCode::InvalidArgument, "a privacy cost must be a finite number ≥ 0");
    // cost ≤ RD(budget − spent) implies spent + cost ≤ budget in exact arithmetic.
    if (cost <= remaining())
        return {};
    const std::string unit(unitSymbol());
    return makeError(ErrorCode::BudgetExceeded, "this query needs " + unit + " = " + formatAmount(cost)
                                                    + " but " + formatAmount(remaining()) + " remains");
}

Result<void> PrivacyFilter::spend(double cost)
{
    if (auto fits = canSpend(cost); !fits)
        return fits;
    // Rounded up, and never above the budget: exact spent + cost ≤ budget and the budget is a
    // double, so the rounded-up sum cannot pass it.
    m_spent = math::addRoundUp(m_spent, cost);
    return {};
}

Result<std::unique_ptr<PrivacyFilter>> PrivacyFilter::create(FilterKind kind, double epsilon, double delta)
{
    if (!(epsilon > 0.0) || !std::isfinite(epsilon))
        return makeError(ErrorCode::InvalidArgument, "ε must be a finite number > 0");
    if (!(delta >= 0.0 && delta < 1.0))
        return makeError(ErrorCode::InvalidArgument, "δ must lie in [0, 1)");
    if (kind == FilterKind::Basic)
        return std::unique_ptr<PrivacyFilter>(std::make_unique<BasicFilter>(epsilon, delta));
    auto zcdp = ZcdpFilter::create(epsilon, delta);
    if (!zcdp)
        return zcdp.error();
    return std::unique_ptr<PrivacyFilter>(std::move(zcdp.value()));
}

Result<std::unique_ptr<ZcdpFilter>> ZcdpFilter::create(double epsilon, double delta)
{
    if (!(delta > 0.0 && delta < 1.0))
        return makeError(ErrorCode::InvalidArgument, "the zCDP filter needs 0 < δ < 1");
    auto rho = privacy::rhoFromEpsilon(epsilon, delta);
    if (!rho)
        return rho.error();
    return std::unique_ptr<ZcdpFilter>(new ZcdpFilter(epsilon, delta, *rho));
}

double ZcdpFilter::epsilonOf(double rho) const
{
    auto eps = privacy::epsilonFromRho(rho, deltaBudget());
    return eps ? *eps : std::nan("");
}

} // namespace pbx::filters
