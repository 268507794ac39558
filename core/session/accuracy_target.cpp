// SPDX-License-Identifier: MIT
#include "core/session/accuracy_target.h"

#include "core/util/parameter_checks.h"

#include <cmath>
#include <string>

namespace pbx::session {

std::string_view targetKindName(TargetKind kind)
{
    return kind == TargetKind::Absolute ? "absolute" : "relative";
}

Result<TargetKind> parseTargetKind(std::string_view text)
{
    if (text == "absolute")
        return TargetKind::Absolute;
    if (text == "relative")
        return TargetKind::Relative;
    return makeError(ErrorCode::InvalidArgument,
                     "unknown target kind '" + std::string(text) + "' (expected absolute or relative)");
}

Result<void> AccuracyTarget::validate() const
{
    PBX_RETURN_IF_ERROR(checkPositive(error, "target error"));
    PBX_RETURN_IF_ERROR(
        checkProbability(confidence, "target confidence", UnitInterval::Open, " (e.g. 0.95)"));
    return {};
}

} // namespace pbx::session
