// SPDX-License-Identifier: MIT
#include "core/datasets/cps1988_ermg.h"

#include "core/growing/growing_error.h"
#include "core/util/try.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

namespace pbx::growing {

namespace {

/// The instance's seven columns, checked from the schema alone (no row is read).
Result<std::array<std::size_t, 7>> ermColumns(const data::Table &table)
{
    auto column = [&](const char *name, data::ColumnType type) -> Result<std::size_t> {
        auto i = table.columnIndex(name);
        if (!i)
            return makeError(ErrorCode::NotFound, std::string("the table has no column '") + name + "'");
        if (table.columnInfo(*i).type != type)
            return growingError(kInvalidConfig, "dataset",
                                std::string("column '") + name + "' has the wrong type");
        return *i;
    };
    std::array<Result<std::size_t>, 7> cols{
        column("education", data::ColumnType::Numeric),    column("experience", data::ColumnType::Numeric),
        column("wage", data::ColumnType::Numeric),         column("smsa", data::ColumnType::Categorical),
        column("parttime", data::ColumnType::Categorical), column("ethnicity", data::ColumnType::Categorical),
        column("region", data::ColumnType::Categorical)};
    std::array<std::size_t, 7> out{};
    for (std::size_t k = 0; k < cols.size(); ++k) {
        if (!cols[k])
            return cols[k].error();
        out[k] = *cols[k];
    }
    return out;
}

} // namespace

Result<void> checkCpsErmData(const data::Table &table)
{
    PBX_RETURN_IF_ERROR(ermColumns(table));
    return {};
}

Result<ErmData> cpsErmData(const data::Rows &table)
{
    PBX_TRY(checked, ermColumns(table.table()));
    const std::array<std::size_t, 7> &cols = checked;
    auto categoryIs = [&](std::size_t col, const char *label) {
        const auto &cats = table.columnInfo(col).categories;
        std::vector<double> out(table.rowCount(), 0.0);
        const auto codes = table.codes(col);
        for (std::size_t r = 0; r < out.size(); ++r)
            out[r] = codes[r] >= 0 && std::size_t(codes[r]) < cats.size()
                     && cats[std::size_t(codes[r])] == label;
        return out;
    };
    const std::size_t n = table.rowCount();
    ErmData d;
    d.features.resize(Eigen::Index(n), 9);
    d.labels.resize(Eigen::Index(n));
    const auto education = table.numeric(cols[0]);
    const auto experience = table.numeric(cols[1]);
    const auto wage = table.numeric(cols[2]);
    const auto smsa = categoryIs(cols[3], "yes");
    const auto parttime = categoryIs(cols[4], "yes");
    const auto afam = categoryIs(cols[5], "afam");
    const auto midwest = categoryIs(cols[6], "midwest");
    const auto south = categoryIs(cols[6], "south");
    const auto west = categoryIs(cols[6], "west");
    // A missing value counts as 0 (a public rule: nothing may refuse or fail on a row's value).
    auto unit = [](double v) { return std::isnan(v) ? 0.0 : std::clamp(v, 0.0, 1.0); };
    for (std::size_t r = 0; r < n; ++r) {
        const Eigen::Index i = Eigen::Index(r);
        const std::array<double, 9> row{unit(education[r] / 20.0),
                                        unit((experience[r] + 8.0) / 72.0),
                                        smsa[r],
                                        parttime[r],
                                        afam[r],
                                        midwest[r],
                                        south[r],
                                        west[r],
                                        1.0};
        for (Eigen::Index k = 0; k < 9; ++k)
            d.features(i, k) = row[std::size_t(k)] / 3.0; // ‖x‖₂ ≤ √9/3 = 1
        d.labels(i) = wage[r] >= 500.0 ? 1.0 : -1.0;
    }
    return d;
}

} // namespace pbx::growing
