// SPDX-License-Identifier: MIT
#include "core/filters/unified_filter.h"

#include "core/math/directed_rounding.h"
#include "core/util/parameter_checks.h"
#include "core/util/try.h"

#include <cmath>

namespace pbx::filters {

Result<std::unique_ptr<UnifiedFilter>> UnifiedFilter::create(double epsilon, double delta, FilterSplit split)
{
    PBX_RETURN_IF_ERROR(split.validate());
    PBX_RETURN_IF_ERROR(checkDelta(delta, "δ", UnitInterval::Open, " for the unified filter"));
    // Round both parts down so that ε_z + ε_e ≤ ε and δ_z + δ_e ≤ δ hold exactly.
    const double epsilonExPost = math::nudgeDown(epsilon * split.expostEpsilonShare);
    const double deltaExPost = math::nudgeDown(delta * split.expostDeltaShare);
    const double epsilonZcdp = math::subtractRoundDown(epsilon, epsilonExPost);
    const double deltaZcdp = math::subtractRoundDown(delta, deltaExPost);
    PBX_TRY(zcdp, ZcdpFilter::create(epsilonZcdp, deltaZcdp));
    auto expost = std::make_unique<ExPostFilter>(epsilonExPost, deltaExPost);
    return std::unique_ptr<UnifiedFilter>(
        new UnifiedFilter(epsilon, delta, std::move(zcdp), std::move(expost)));
}

std::vector<BudgetSystem> UnifiedFilter::systems() const
{
    auto out = m_zcdp->systems();
    auto expost = m_expost->systems();
    out.insert(out.end(), expost.begin(), expost.end());
    return out;
}

double UnifiedFilter::epsilonSpent() const
{
    return math::addRoundUp(m_zcdp->epsilonSpent(), m_expost->epsilonSpent());
}

double UnifiedFilter::deltaSpent() const
{
    return math::addRoundUp(m_zcdp->deltaSpent(), m_expost->deltaSpent());
}

const BudgetAccount &UnifiedFilter::primary() const
{
    return m_zcdp->primary();
}

PrivacyFilter &UnifiedFilter::sideFor(ChargeKind kind) const
{
    if (kind == ChargeKind::ExPost)
        return *m_expost;
    return *m_zcdp;
}

Result<void> UnifiedFilter::check(const Charge &c) const
{
    return sideFor(c.kind).canCharge(c);
}

void UnifiedFilter::apply(const Charge &c)
{
    (void)sideFor(c.kind).charge(c); // check() has just accepted it
}

} // namespace pbx::filters
