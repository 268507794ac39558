// SPDX-License-Identifier: MIT
// A column as a vector of counts, the input of the sparse-vector "large entries" release
// (docs/output-dp.md §3): one count per category, or per whole number of a numeric column's
// declared bounds (values rounded to the nearest whole number and clipped to the bounds).
#pragma once

#include "core/data/table.h"
#include "core/util/result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pbx::odp {

struct ColumnCounts
{
    std::vector<std::int64_t> counts; ///< one per label, in label order
    std::vector<std::string> labels;  ///< category names, or the whole numbers as text
};

/// Counts of `column` in `table`. Each count changes by at most 1 when one row is added or removed
/// (by at most 1 in each of two entries when a row is replaced), so each has sensitivity 1.
/// Errors: NotFound for an unknown column; InvalidArgument naming "column" for a numeric column
/// without declared bounds or spanning more than 10⁴ whole numbers.
Result<ColumnCounts> columnCounts(const data::Table &table, const std::string &column);

} // namespace pbx::odp
