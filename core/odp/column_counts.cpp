// SPDX-License-Identifier: MIT
#include "core/odp/column_counts.h"

#include "core/util/try.h"

#include <algorithm>
#include <cmath>

namespace pbx::odp {

Result<std::vector<std::string>> columnCountLabels(const data::Table &t, const std::string &name)
{
    const auto col = t.columnIndex(name);
    if (!col)
        return makeError(ErrorCode::NotFound, "column: unknown column '" + name + "'");
    const auto &info = t.columnInfo(*col);
    if (info.type == data::ColumnType::Categorical) {
        // The vector's length and labels are released (the answers, the flagged labels): from
        // the data they would tell whether a row carries a label.
        if (info.domainFromData)
            return makeError(ErrorCode::InvalidArgument,
                             "column: its categories were inferred from the data; declare them in metadata");
        return info.categories;
    }
    if (!info.declaredBounds)
        return makeError(ErrorCode::InvalidArgument, "column: '" + name + "' has no declared bounds");
    const double lo = std::ceil(info.declaredBounds->lower);
    const double hi = std::floor(info.declaredBounds->upper);
    if (!(hi >= lo) || hi - lo > 10000)
        return makeError(ErrorCode::InvalidArgument,
                         "column: '" + name + "' must span between 1 and 10001 whole numbers");
    std::vector<std::string> labels;
    for (double v = lo; v <= hi; v += 1.0)
        labels.push_back(std::to_string(static_cast<std::int64_t>(v)));
    return labels;
}

Result<ColumnCounts> columnCounts(const data::Rows &t, const std::string &name)
{
    PBX_TRY(labels, columnCountLabels(t.table(), name));
    const std::size_t col = *t.columnIndex(name);
    const auto &info = t.columnInfo(col);
    ColumnCounts out;
    out.labels = std::move(labels);
    out.counts.assign(out.labels.size(), 0);
    if (info.type == data::ColumnType::Categorical) {
        for (std::int32_t c : t.codes(col))
            if (c >= 0 && static_cast<std::size_t>(c) < out.counts.size())
                ++out.counts[static_cast<std::size_t>(c)];
        return out;
    }
    const double lo = std::ceil(info.declaredBounds->lower);
    const double hi = std::floor(info.declaredBounds->upper);
    for (double v : t.numeric(col)) {
        if (std::isnan(v))
            continue; // a missing value is in no count
        const double r = std::round(std::clamp(v, lo, hi));
        ++out.counts[static_cast<std::size_t>(r - lo)];
    }
    return out;
}

} // namespace pbx::odp
