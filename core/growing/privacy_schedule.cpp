// SPDX-License-Identifier: MIT
#include "core/growing/privacy_schedule.h"

#include "core/growing/growing_error.h"
#include "core/math/directed_rounding.h"
#include "core/util/try.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <numbers>

namespace pbx::growing {

std::string_view scheduleKindName(ScheduleKind kind)
{
    switch (kind) {
    case ScheduleKind::Geometric:
        return "geometric";
    case ScheduleKind::Polynomial:
        return "polynomial";
    case ScheduleKind::ZcdpEqualised:
        return "zcdp-equalised";
    case ScheduleKind::ZcdpGeometric:
        return "zcdp-geometric";
    }
    return "geometric";
}

Result<ScheduleKind> parseScheduleKind(std::string_view text, std::string_view field)
{
    for (const auto kind : {ScheduleKind::Geometric, ScheduleKind::Polynomial, ScheduleKind::ZcdpEqualised,
                            ScheduleKind::ZcdpGeometric})
        if (text == scheduleKindName(kind))
            return kind;
    return growingError(kInvalidSchedule, field,
                        "unknown schedule '" + std::string(text)
                            + "' (expected geometric, polynomial, zcdp-equalised or zcdp-geometric)");
}

WeightSequence WeightSequence::geometric(double ratio)
{
    WeightSequence w;
    w.m_ratio = ratio;
    // 1 − r rounded down: for r ≥ ½ it is exact (Sterbenz), below that subtractRoundDown makes it so.
    w.m_current = math::subtractRoundDown(1.0, ratio);
    return w;
}

WeightSequence WeightSequence::polynomial()
{
    WeightSequence w;
    w.m_polynomial = true;
    // π rounded up (the double nearest π is below it), so 6/π² is rounded down.
    const double piUp = std::nextafter(std::numbers::pi, INFINITY);
    w.m_sixOverPi2 = math::divideRoundDown(6.0, math::multiplyRoundUp(piUp, piUp));
    return w;
}

double WeightSequence::next()
{
    const std::uint64_t i = m_index++;
    if (m_polynomial) {
        const double k = double(i) + 1.0; // exact below 2^53
        return math::divideRoundDown(m_sixOverPi2, math::multiplyRoundUp(k, k));
    }
    const double w = m_current;
    // Below the normal range the sign of fma's error term is no longer reliable: stop spending.
    const double following = math::multiplyRoundDown(m_current, m_ratio);
    m_current = following < DBL_MIN ? 0.0 : following;
    return w < DBL_MIN ? 0.0 : w;
}

Result<void> checkGamma(double gamma, std::string_view field)
{
    if (!(gamma > 0.0 && gamma <= 1000.0))
        return growingError(kInvalidGamma, field, "must be a finite number with 0 < gamma <= 1000");
    if (!(1.0 / (1.0 + gamma) < 1.0) || !(1.0 / ((1.0 + gamma) * (1.0 + gamma)) < 1.0))
        return growingError(kInvalidGamma, field, "is too small: 1/(1+gamma) rounds to 1");
    return {};
}

Result<PrivacySchedule> PrivacySchedule::create(ScheduleKind kind, double gamma, const Budget &budget,
                                                double beta)
{
    PBX_RETURN_IF_ERROR(checkGamma(gamma));
    PBX_RETURN_IF_ERROR(validate(budget));
    PBX_RETURN_IF_ERROR(checkBeta(beta));
    if (scheduleIsZcdp(kind) != isZcdp(budget))
        return growingError(kInvalidSchedule, "schedule.kind",
                            "'" + std::string(scheduleKindName(kind)) + "' needs "
                                + (scheduleIsZcdp(kind) ? "a zcdp or approx budget" : "a pure budget")
                                + " (budget.kind is '" + std::string(budgetKindName(budget.kind)) + "')");
    PrivacySchedule s;
    s.m_kind = kind;
    s.m_beta = beta;
    if (isZcdp(budget)) {
        PBX_TRY(rho, zcdpBudget(budget));
        s.m_total = rho;
    } else {
        s.m_total = budget.epsilon;
    }
    const double r = 1.0 / (1.0 + gamma); // any r in (0, 1): the series below is summed for this r
    switch (kind) {
    case ScheduleKind::Geometric:
    case ScheduleKind::ZcdpGeometric:
        s.m_privacyWeights = WeightSequence::geometric(r);
        break;
    case ScheduleKind::Polynomial:
        s.m_privacyWeights = WeightSequence::polynomial();
        break;
    case ScheduleKind::ZcdpEqualised:
        s.m_privacyWeights = WeightSequence::geometric(r * r);
        break;
    }
    s.m_failureWeights
        = kind == ScheduleKind::Polynomial ? WeightSequence::polynomial() : WeightSequence::geometric(r);
    return s;
}

EpochPrivacy PrivacySchedule::next()
{
    EpochPrivacy e;
    e.index = m_privacyWeights.index();
    e.weight = m_privacyWeights.next();
    e.beta = math::multiplyRoundDown(m_beta, m_failureWeights.next());
    const double spent = math::multiplyRoundDown(m_total, e.weight);
    if (scheduleIsZcdp(m_kind)) {
        e.rho = spent;
        // An ε-DP run is (ε²/2)-zCDP (Bun & Steinke 2016, Prop. 3.3): ε = √(2ρ_i), rounded down so
        // ε²/2 ≤ ρ_i (sqrt is correctly rounded; one step down covers it).
        e.epsilon = spent > 0.0 ? std::max(0.0, math::nudgeDown(std::sqrt(2.0 * spent), 1)) : 0.0;
    } else {
        e.epsilon = spent;
    }
    // Both the running sum (rounded up) and the budget bound the exact sum of the used parameters.
    m_cumulative = std::min(m_total, math::addRoundUp(m_cumulative, spent));
    e.cumulative = m_cumulative;
    return e;
}

} // namespace pbx::growing
