// SPDX-License-Identifier: MIT
#include "core/datasets/cps1988_pmwg.h"

#include "core/growing/growing_error.h"
#include "core/growing/stream_model.h"
#include "core/util/try.h"

#include <algorithm>
#include <array>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace pbx::growing {

namespace {

/// Index of the first cut point above v (cuts ascending): the band of v.
std::size_t band(double v, std::initializer_list<double> cuts)
{
    std::size_t b = 0;
    for (const double c : cuts)
        b += v >= c ? 1 : 0;
    return b;
}

/// The universe's columns and code maps from the declared metadata alone (no row is read).
struct UniverseColumns
{
    Universe universe;
    std::vector<std::size_t> categorical;      ///< region, ethnicity, smsa, parttime
    std::vector<std::vector<int>> codeToValue; ///< per categorical column: code ↦ value
    std::vector<std::size_t> numeric;          ///< education, experience, wage
};

Result<UniverseColumns> universeColumns(const data::Table &table, std::string_view name,
                                        std::string_view field)
{
    PBX_TRY(u, universeShape(name, field));
    auto column = [&](const char *c, data::ColumnType type) -> Result<std::size_t> {
        auto i = table.columnIndex(c);
        if (!i)
            return makeError(ErrorCode::NotFound, std::string(kInvalidUniverse) + ": " + std::string(field)
                                                      + ": the table has no column '" + c + "'");
        if (table.columnInfo(*i).type != type)
            return growingError(kInvalidUniverse, field,
                                std::string("column '") + c + "' is not "
                                    + (type == data::ColumnType::Categorical ? "categorical" : "numeric"));
        return *i;
    };
    struct Categorical
    {
        const char *column;
        std::vector<std::string> labels; ///< value order of the attribute
    };
    const std::array<Categorical, 4> categorical{{{"region", {"northeast", "midwest", "south", "west"}},
                                                  {"ethnicity", {"cauc", "afam"}},
                                                  {"smsa", {"no", "yes"}},
                                                  {"parttime", {"no", "yes"}}}};
    UniverseColumns out;
    out.universe = std::move(u);
    for (const auto &c : categorical) {
        PBX_TRY(i, column(c.column, data::ColumnType::Categorical));
        PBX_TRY(map, declaredUniverseMap(table, i, c.labels, kRowOutsideUniverse, field));
        out.codeToValue.push_back(std::move(map));
        out.categorical.push_back(i);
    }
    for (const char *c : {"education", "experience", "wage"}) {
        PBX_TRY(i, column(c, data::ColumnType::Numeric));
        out.numeric.push_back(i);
    }
    return out;
}

} // namespace

Result<Universe> cpsUniverse(const data::Table &table, std::string_view name, std::string_view field)
{
    PBX_TRY(columns, universeColumns(table, name, field));
    return std::move(columns.universe);
}

Result<Universe> cpsUniverse(const data::Rows &table, std::string_view name, std::string_view field)
{
    PBX_TRY(columns, universeColumns(table.table(), name, field));
    Universe u = std::move(columns.universe);
    const auto &numeric = columns.numeric;
    const bool full = u.sizes.size() == 7;
    u.rowCells.resize(table.rowCount());
    for (std::size_t row = 0; row < table.rowCount(); ++row) {
        std::size_t cell = 0;
        for (std::size_t a = 0; a < columns.categorical.size(); ++a) {
            // Every stored code is within the declared dictionary, and declaredUniverseMap mapped
            // each of its categories into the universe: no row can fall outside it.
            const auto code = table.codes(columns.categorical[a])[row];
            cell = cell * u.sizes[a] + std::size_t(columns.codeToValue[a][std::size_t(code)]);
        }
        cell = cell * 5 + band(table.numeric(numeric[0])[row], {9, 12, 13, 16});
        if (full) {
            cell = cell * 5 + band(table.numeric(numeric[1])[row], {5, 15, 25, 35});
            cell = cell * 6
                   + band(std::min(table.numeric(numeric[2])[row], 5000.0), {250, 400, 600, 850, 1200});
        }
        u.rowCells[row] = static_cast<std::uint32_t>(cell);
    }
    return u;
}

} // namespace pbx::growing
