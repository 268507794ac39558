// SPDX-License-Identifier: MIT
// CPS1988 as the logistic-regression task of budget recovery (core/odp/budget_recovery.h).
#pragma once

#include "core/data/rows.h"
#include "core/odp/budget_recovery.h"
#include "core/util/result.h"

#include <string>

namespace pbx::odp {

/// CPS1988 as a logistic-regression task: label y = +1 iff wage > labelThreshold; features
/// "full" = (1, edu/20, (exp+8)/72, afam, smsa, midwest, south, west, parttime)/√7 or
/// "weak" = (1, afam, midwest, south, west)/√3, each clipped to its declared bounds; split by row
/// position: row i is a test row iff i mod 5 = 4 (replace-one). Errors: NotFound for a missing
/// column; InvalidArgument for an unknown feature set.
Result<RecoverySplit> cps1988Recovery(const data::Rows &table, const std::string &features,
                                      double labelThreshold);

} // namespace pbx::odp
