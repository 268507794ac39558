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
/// Row counts of cps1988Recovery's split of a table of `rows` rows (test rows: i mod 5 = 4). The
/// split depends on the row count alone, which is public metadata: CPS1988's 28,155 rows give
/// 22,524 training and 5,631 test rows.
struct RecoverySplitSizes
{
    std::size_t trainRows = 0;
    std::size_t testRows = 0;
};
RecoverySplitSizes cps1988RecoverySplitSizes(std::size_t rows);

Result<RecoverySplit> cps1988Recovery(const data::Rows &table, const std::string &features,
                                      double labelThreshold);

} // namespace pbx::odp
