// SPDX-License-Identifier: MIT
#include "core/datasets/cps1988_smalldb.h"

#include "core/growing/growing_error.h"
#include "core/growing/stream_model.h"
#include "core/util/try.h"

#include <string>
#include <utility>
#include <vector>

namespace pbx::growing {

namespace {

struct SmallDbAttribute
{
    const char *column;
    std::vector<std::string> labels;
};

const std::vector<SmallDbAttribute> &smallDbAttributes()
{
    static const std::vector<SmallDbAttribute> attributes{
        {"region", {"northeast", "midwest", "south", "west"}},
        {"smsa", {"no", "yes"}},
        {"parttime", {"no", "yes"}}};
    return attributes;
}

/// Each attribute's column and code map, from the declared metadata alone.
Result<std::vector<std::pair<std::size_t, std::vector<int>>>> smallDbColumns(const data::Table &table)
{
    std::vector<std::pair<std::size_t, std::vector<int>>> out;
    for (const auto &attr : smallDbAttributes()) {
        auto i = table.columnIndex(attr.column);
        if (!i)
            return makeError(ErrorCode::NotFound, std::string(kInvalidBlackBox)
                                                      + ": black_box: the table has no column '" + attr.column
                                                      + "'");
        if (table.columnInfo(*i).type != data::ColumnType::Categorical)
            return growingError(kInvalidBlackBox, "black_box",
                                std::string("column '") + attr.column + "' is not categorical");
        PBX_TRY(map, declaredUniverseMap(table, *i, attr.labels, kRowOutsideUniverse, "black_box"));
        out.emplace_back(*i, std::move(map));
    }
    return out;
}

} // namespace

Result<SmallDbInstance> cpsSmallDbInstance(const data::Rows &rows)
{
    auto inst = cpsSmallDbInstance(rows.table());
    if (!inst)
        return inst;
    const auto columns = *smallDbColumns(rows.table());
    inst->rowCells.assign(rows.rowCount(), 0);
    for (std::size_t a = 0; a < columns.size(); ++a) {
        const auto &[column, map] = columns[a];
        const auto codes = rows.codes(column);
        for (std::size_t row = 0; row < rows.rowCount(); ++row)
            inst->rowCells[row]
                = static_cast<std::uint32_t>(inst->rowCells[row] * smallDbAttributes()[a].labels.size()
                                             + std::size_t(map[std::size_t(codes[row])]));
    }
    return inst;
}

Result<SmallDbInstance> cpsSmallDbInstance(const data::Table &table)
{
    PBX_RETURN_IF_ERROR(smallDbColumns(table));
    const auto &attributes = smallDbAttributes();
    SmallDbInstance inst;
    // Cell j = region·4 + smsa·2 + parttime. Queries: every 1-way marginal cell, then every 2-way one
    // (pairs of attributes in order), as in docs/growing-databases.md.
    auto valueOf = [](std::size_t cell, std::size_t attribute) {
        return attribute == 0 ? cell / 4 : attribute == 1 ? (cell / 2) % 2 : cell % 2;
    };
    for (std::size_t a = 0; a < attributes.size(); ++a)
        for (std::size_t v = 0; v < attributes[a].labels.size(); ++v) {
            std::vector<std::uint8_t> q(16, 0);
            for (std::size_t cell = 0; cell < 16; ++cell)
                q[cell] = valueOf(cell, a) == v ? 1 : 0;
            inst.queries.push_back(std::move(q));
            inst.names.push_back(std::string(attributes[a].column) + " == \"" + attributes[a].labels[v]
                                 + "\"");
        }
    for (std::size_t a = 0; a < attributes.size(); ++a)
        for (std::size_t b = a + 1; b < attributes.size(); ++b)
            for (std::size_t v = 0; v < attributes[a].labels.size(); ++v)
                for (std::size_t w = 0; w < attributes[b].labels.size(); ++w) {
                    std::vector<std::uint8_t> q(16, 0);
                    for (std::size_t cell = 0; cell < 16; ++cell)
                        q[cell] = valueOf(cell, a) == v && valueOf(cell, b) == w ? 1 : 0;
                    inst.queries.push_back(std::move(q));
                    inst.names.push_back(std::string(attributes[a].column) + " == \""
                                         + attributes[a].labels[v] + "\" and " + attributes[b].column
                                         + " == \"" + attributes[b].labels[w] + "\"");
                }
    return inst;
}

} // namespace pbx::growing
