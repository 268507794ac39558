// SPDX-License-Identifier: MIT
// The smallest privacy parameters a user may give (a session's budget, a mechanism's step): the
// range checks of parameter_checks.h accept any ε > 0, but values far below any meaningful one
// arise only by mistake, and there the arithmetic cannot keep its promise to round losses up.
#pragma once

#include "core/util/result.h"

#include <string_view>

namespace pbx {

/// Smallest ε a budget or a mechanism's step may be given (1e-6): smaller ones arise only by
/// mistake (ε = 1e-320 is subnormal), and there noise scales Δ/ε overflow to ∞ and accountants
/// lose their precision (e^ε − 1 rounds to 0, so a composed cost came out as exactly 0).
inline constexpr double kMinGivenEpsilon = 1e-6;
/// Smallest δ > 0 a budget may be given (1e-100); δ = 0 stays allowed where it is.
inline constexpr double kMinGivenDelta = 1e-100;

/// A given ε (a budget, a step): finite and ≥ kMinGivenEpsilon. Errors: InvalidArgument
/// "<field> must be a finite number of at least 1e-06 (kMinGivenEpsilon); smaller values lose
/// the precision the accounting needs".
Result<void> checkGivenEpsilon(double epsilon, std::string_view field);
/// A given δ: 0 or ≥ kMinGivenDelta (NaN and the range are left to checkDelta). Errors:
/// InvalidArgument "<field> must be 0 or at least 1e-100 (kMinGivenDelta); …".
Result<void> checkGivenDelta(double delta, std::string_view field);

} // namespace pbx
