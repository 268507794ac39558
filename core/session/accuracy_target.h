// SPDX-License-Identifier: MIT
// What the user asks for: the answer within ±a (absolute) or ±α·|answer| (relative), with
// probability at least 1 − β.
#pragma once

#include "core/util/result.h"

#include <string_view>

namespace pbx::session {

enum class TargetKind { Absolute, Relative };

std::string_view targetKindName(TargetKind kind); ///< "absolute" or "relative"
Result<TargetKind> parseTargetKind(std::string_view text);

struct AccuracyTarget
{
    TargetKind kind = TargetKind::Absolute;
    double error = 1.0;       ///< a (answer units) for absolute; α (a fraction, e.g. 0.05) for relative
    double confidence = 0.95; ///< 1 − β

    double beta() const { return 1.0 - confidence; }
    /// Errors: InvalidArgument for an error that is not a finite number > 0, or a confidence
    /// outside the open interval (0, 1).
    Result<void> validate() const;
};

} // namespace pbx::session
