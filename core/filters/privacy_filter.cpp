// SPDX-License-Identifier: MIT
#include "core/filters/privacy_filter.h"

#include "core/filters/advanced_filter.h"
#include "core/filters/basic_filter.h"
#include "core/filters/expost_filter.h"
#include "core/filters/odometer_filter.h"
#include "core/filters/odp_privacy_filter.h"
#include "core/filters/rdp_filter.h"
#include "core/filters/unified_filter.h"
#include "core/filters/zcdp_filter.h"
#include "core/math/directed_rounding.h"
#include "core/util/number_format.h"
#include "core/util/parameter_checks.h"
#include "core/util/try.h"

#include <cmath>

namespace pbx::filters {

namespace {
constexpr FilterKind kKinds[] = {FilterKind::Basic,   FilterKind::Zcdp,         FilterKind::ExPost,
                                 FilterKind::Unified, FilterKind::BrownianZcdp, FilterKind::Odp,
                                 FilterKind::Rdp,     FilterKind::Advanced,     FilterKind::Odometer};
}

std::string_view filterKindName(FilterKind kind)
{
    switch (kind) {
    case FilterKind::Basic:
        return "basic";
    case FilterKind::Zcdp:
        return "zcdp";
    case FilterKind::ExPost:
        return "expost";
    case FilterKind::Unified:
        return "unified";
    case FilterKind::BrownianZcdp:
        return "brownian-zcdp";
    case FilterKind::Odp:
        return "odp";
    case FilterKind::Rdp:
        return "rdp";
    case FilterKind::Advanced:
        return "advanced";
    case FilterKind::Odometer:
        return "odometer";
    }
    return "basic";
}

Result<FilterKind> parseFilterKind(std::string_view text)
{
    for (FilterKind k : kKinds)
        if (filterKindName(k) == text)
            return k;
    return makeError(
        ErrorCode::InvalidArgument,
        "unknown filter '" + std::string(text)
            + "' (expected basic, zcdp, expost, unified, brownian-zcdp, odp, rdp, advanced or odometer)");
}

std::string_view chargeKindName(ChargeKind kind)
{
    switch (kind) {
    case ChargeKind::PureEpsilon:
        return "epsilon";
    case ChargeKind::Rho:
        return "rho";
    case ChargeKind::ExPost:
        return "expost";
    case ChargeKind::BoundedRange:
        return "bounded-range";
    }
    return "epsilon";
}

std::string_view chargeUnitSymbol(ChargeKind kind)
{
    switch (kind) {
    case ChargeKind::PureEpsilon:
        return "ε";
    case ChargeKind::Rho:
        return "ρ";
    case ChargeKind::ExPost:
        return "ex-post ε";
    case ChargeKind::BoundedRange:
        return "bounded-range ε";
    }
    return "ε";
}

Result<ChargeKind> parseChargeKind(std::string_view text)
{
    for (ChargeKind k :
         {ChargeKind::PureEpsilon, ChargeKind::Rho, ChargeKind::ExPost, ChargeKind::BoundedRange})
        if (chargeKindName(k) == text)
            return k;
    return makeError(ErrorCode::InvalidArgument, "unknown cost kind '" + std::string(text)
                                                     + "' (expected epsilon, rho, expost or bounded-range)");
}

std::string formatAmount(double value)
{
    return formatSignificant(value, 4);
}

Error budgetExceeded(std::string_view what, double cost, double remaining)
{
    return makeError(ErrorCode::BudgetExceeded, "this query needs " + std::string(what) + " = "
                                                    + formatAmount(cost) + " but " + formatAmount(remaining)
                                                    + " remains");
}

Result<void> PrivacyFilter::canCharge(const Charge &c) const
{
    if (!(c.amount >= 0.0) || !std::isfinite(c.amount) || !(c.delta >= 0.0) || !std::isfinite(c.delta))
        return makeError(ErrorCode::InvalidArgument, "a privacy cost must be a finite number ≥ 0");
    if (c.count == 0 || (c.count > 1 && c.kind != ChargeKind::BoundedRange)
        || (c.kind == ChargeKind::BoundedRange && c.delta != 0.0))
        return makeError(ErrorCode::InvalidArgument,
                         "a charge repeats (count > 1) only bounded-range steps, which have no δ");
    return check(c.kind == ChargeKind::BoundedRange ? boundedRangeAs(c) : c);
}

Result<void> PrivacyFilter::charge(const Charge &c)
{
    if (auto fits = canCharge(c); !fits)
        return fits;
    apply(c.kind == ChargeKind::BoundedRange ? boundedRangeAs(c) : c);
    return {};
}

Charge PrivacyFilter::boundedRangeAs(const Charge &c) const
{
    return {ChargeKind::PureEpsilon, math::multiplyRoundUp(c.amount, static_cast<double>(c.count)), 0.0};
}

Charge boundedRangeRho(const Charge &c)
{
    const double perStep = math::multiplyRoundUp(math::multiplyRoundUp(c.amount, c.amount), 0.125);
    return {ChargeKind::Rho, math::multiplyRoundUp(perStep, static_cast<double>(c.count)), 0.0};
}

Result<void> FilterSplit::validate() const
{
    const auto share = [](double x) { return x > 0.0 && x < 1.0; };
    if (!share(expostEpsilonShare) || !share(expostDeltaShare))
        return makeError(ErrorCode::InvalidArgument,
                         "the unified filter's ex-post shares of ε and δ must lie strictly between 0 and 1");
    return {};
}

Result<std::unique_ptr<PrivacyFilter>> PrivacyFilter::create(FilterKind kind, double epsilon, double delta,
                                                             FilterSplit split)
{
    if (kind == FilterKind::Odometer) { // no ε budget
        PBX_TRY(f, OdometerFilter::create(delta));
        return std::unique_ptr<PrivacyFilter>(std::move(f));
    }
    PBX_RETURN_IF_ERROR(checkEpsilon(epsilon, "ε", Zero::Excluded));
    PBX_RETURN_IF_ERROR(checkDelta(delta, "δ", UnitInterval::ClosedOpen));
    switch (kind) {
    case FilterKind::Basic:
        return std::unique_ptr<PrivacyFilter>(std::make_unique<BasicFilter>(epsilon, delta));
    case FilterKind::ExPost:
        return std::unique_ptr<PrivacyFilter>(std::make_unique<ExPostFilter>(epsilon, delta));
    case FilterKind::Zcdp:
    case FilterKind::BrownianZcdp: {
        PBX_TRY(f, ZcdpFilter::create(epsilon, delta, kind));
        return std::unique_ptr<PrivacyFilter>(std::move(f));
    }
    case FilterKind::Unified: {
        PBX_TRY(f, UnifiedFilter::create(epsilon, delta, split));
        return std::unique_ptr<PrivacyFilter>(std::move(f));
    }
    case FilterKind::Odp: {
        PBX_TRY(f, OdpPrivacyFilter::create(epsilon, delta));
        return std::unique_ptr<PrivacyFilter>(std::move(f));
    }
    case FilterKind::Rdp: {
        PBX_TRY(f, RdpFilter::create(epsilon, delta));
        return std::unique_ptr<PrivacyFilter>(std::move(f));
    }
    case FilterKind::Advanced: {
        PBX_TRY(f, AdvancedFilter::create(epsilon, delta));
        return std::unique_ptr<PrivacyFilter>(std::move(f));
    }
    case FilterKind::Odometer:
        break; // created above
    }
    return makeError(ErrorCode::InvalidArgument, "unknown filter");
}

} // namespace pbx::filters
