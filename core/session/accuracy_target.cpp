// SPDX-License-Identifier: MIT
#include "core/session/accuracy_target.h"

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
    if (!(error > 0.0) || !std::isfinite(error))
        return makeError(ErrorCode::InvalidArgument, "target error must be a finite number > 0");
    if (!(confidence > 0.0 && confidence < 1.0))
        return makeError(ErrorCode::InvalidArgument,
                         "target confidence must lie strictly between 0 and 1 (e.g. 0.95)");
    return {};
}


} // namespace pbx::session
