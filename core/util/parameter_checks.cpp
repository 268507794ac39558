// SPDX-License-Identifier: MIT
#include "core/util/parameter_checks.h"

#include <cmath>
#include <string>

namespace pbx {

namespace {
Error rangeError(std::string_view field, std::string_view rule, std::string_view suffix)
{
    std::string message(field);
    message += ' ';
    message += rule;
    message += suffix;
    return makeError(ErrorCode::InvalidArgument, std::move(message));
}
} // namespace

Result<void> checkNonNegative(double value, std::string_view field, Zero zero, Infinity infinity,
                              std::string_view suffix)
{
    // Written with negated comparisons so that NaN fails every check.
    const bool aboveLower = zero == Zero::Allowed ? value >= 0.0 : value > 0.0;
    const bool finiteEnough = infinity == Infinity::Allowed || std::isfinite(value);
    if (aboveLower && finiteEnough)
        return {};
    const std::string_view rule
        = infinity == Infinity::Allowed
              ? (zero == Zero::Allowed ? "must be a number ≥ 0" : "must be a number > 0")
              : (zero == Zero::Allowed ? "must be a finite number ≥ 0" : "must be a finite number > 0");
    return rangeError(field, rule, suffix);
}

Result<void> checkPositive(double value, std::string_view field, std::string_view suffix)
{
    return checkNonNegative(value, field, Zero::Excluded, Infinity::Excluded, suffix);
}

Result<void> checkEpsilon(double epsilon, std::string_view field, Zero zero, Infinity infinity,
                          std::string_view suffix)
{
    return checkNonNegative(epsilon, field, zero, infinity, suffix);
}

Result<void> checkRho(double rho, std::string_view field, Zero zero)
{
    return checkNonNegative(rho, field, zero);
}

Result<void> checkSensitivity(double sensitivity, std::string_view field, Zero zero)
{
    return checkNonNegative(sensitivity, field, zero);
}

Result<void> checkProbability(double value, std::string_view field, UnitInterval range,
                              std::string_view suffix)
{
    bool inside = false;
    std::string_view rule;
    switch (range) {
    case UnitInterval::Open:
        inside = value > 0.0 && value < 1.0;
        rule = "must lie strictly between 0 and 1";
        break;
    case UnitInterval::ClosedOpen:
        inside = value >= 0.0 && value < 1.0;
        rule = "must lie in [0, 1)";
        break;
    case UnitInterval::OpenClosed:
        inside = value > 0.0 && value <= 1.0;
        rule = "must lie in (0, 1]";
        break;
    case UnitInterval::Closed:
        inside = value >= 0.0 && value <= 1.0;
        rule = "must lie in [0, 1]";
        break;
    case UnitInterval::AboveZero:
        inside = value > 0.0;
        rule = "must be > 0";
        break;
    }
    if (inside)
        return {};
    return rangeError(field, rule, suffix);
}

Result<void> checkDelta(double delta, std::string_view field, UnitInterval range, std::string_view suffix)
{
    return checkProbability(delta, field, range, suffix);
}

} // namespace pbx
