// SPDX-License-Identifier: MIT
// A column as a vector of counts, the input of the sparse-vector "large entries" release
// (docs/output-dp.md §3): one count per category, or per whole number of a numeric column's
// declared bounds (values rounded to the nearest whole number and clipped to the bounds).
#pragma once

#include "core/data/rows.h"
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

/// The labels of `column`'s counts, from metadata alone (no row is read): the declared categories,
/// or the whole numbers of the declared bounds. Errors: NotFound for an unknown column;
/// InvalidArgument naming "column" for a categorical column whose categories were inferred from
/// the data (the vector's length would then depend on the rows), a numeric column without declared
/// bounds or spanning more than 10⁴ whole numbers.
Result<std::vector<std::string>> columnCountLabels(const data::Table &table, const std::string &column);

/// Counts of `column` in `table`, labelled by columnCountLabels. Each count changes by at most 1 when one row
/// is added or removed (by at most 1 in each of two entries when a row is replaced), so each has
/// sensitivity 1. Errors: as columnCountLabels.
Result<ColumnCounts> columnCounts(const data::Rows &table, const std::string &column);

} // namespace pbx::odp
