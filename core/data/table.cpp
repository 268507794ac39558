// SPDX-License-Identifier: MIT
// Table construction and validation. A Table is checked once, here, so every reader of it
// (predicates, queries, sensitivity code) may rely on consistent lengths, codes and bounds.
#include "core/data/table.h"

#include "core/util/number_format.h"
#include "core/util/try.h"

#include <cmath>
#include <unordered_set>

namespace pbx::data {

namespace {

// Messages show a bound's shortest text that reads back as the same double: exactly what was given.
Result<void> validateColumn(const Column &column, std::size_t rowCount)
{
    const ColumnInfo &info = column.info;
    const std::string where = "column '" + info.name + "'";
    if (info.type == ColumnType::Numeric) {
        if (column.numeric.size() != rowCount || !column.codes.empty())
            return makeError(ErrorCode::InvalidArgument,
                             where + ": numeric column has " + std::to_string(column.numeric.size())
                                 + " values, expected " + std::to_string(rowCount));
        if (!info.categories.empty())
            return makeError(ErrorCode::InvalidArgument, where + ": a numeric column cannot have categories");
        if (info.declaredBounds) {
            if (auto valid = info.declaredBounds->validate(); !valid)
                return makeError(ErrorCode::InvalidArgument, where + ": " + valid.error().message);
        }
        return {};
    }

    if (column.codes.size() != rowCount || !column.numeric.empty())
        return makeError(ErrorCode::InvalidArgument, where + ": categorical column has "
                                                         + std::to_string(column.codes.size())
                                                         + " codes, expected " + std::to_string(rowCount));
    if (info.declaredBounds)
        return makeError(ErrorCode::InvalidArgument, where + ": bounds apply to numeric columns only");
    // Duplicate labels would make `column == "label"` ambiguous.
    std::unordered_set<std::string_view> seen;
    for (const std::string &label : info.categories) {
        if (!seen.insert(label).second)
            return makeError(ErrorCode::InvalidArgument, where + ": category '" + label + "' appears twice");
    }
    const auto size = static_cast<std::int64_t>(info.categories.size());
    for (std::size_t row = 0; row < rowCount; ++row) {
        const std::int32_t code = column.codes[row];
        if (code < 0 || code >= size)
            return makeError(ErrorCode::InvalidArgument,
                             where + ": row " + std::to_string(row + 1) + " has code " + std::to_string(code)
                                 + ", outside the " + std::to_string(size) + " categories");
    }
    return {};
}

} // namespace

Result<void> Bounds::validate() const
{
    if (!std::isfinite(lower) || !std::isfinite(upper))
        return makeError(ErrorCode::InvalidArgument, "bounds must be finite numbers");
    if (lower > upper)
        return makeError(ErrorCode::InvalidArgument, "lower bound " + formatShortest(lower)
                                                         + " exceeds upper bound " + formatShortest(upper));
    return {};
}

Result<Table> Table::create(std::string name, std::vector<Column> columns, std::string provenance)
{
    const std::size_t rowCount = columns.empty() ? 0
                                 : columns.front().info.type == ColumnType::Numeric
                                     ? columns.front().numeric.size()
                                     : columns.front().codes.size();
    std::unordered_set<std::string_view> names;
    for (const Column &column : columns) {
        if (column.info.name.empty())
            return makeError(ErrorCode::InvalidArgument, "a column has an empty name");
        if (!names.insert(column.info.name).second)
            return makeError(ErrorCode::InvalidArgument,
                             "column name '" + column.info.name + "' appears twice");
        PBX_RETURN_IF_ERROR(validateColumn(column, rowCount));
    }

    Table table;
    table.m_name = std::move(name);
    table.m_provenance = std::move(provenance);
    table.m_columns = std::move(columns);
    table.m_rowCount = rowCount;
    return table;
}

std::optional<std::size_t> Table::columnIndex(std::string_view name) const
{
    // Linear scan: tables have few columns, and this runs at compile time of a query only.
    for (std::size_t i = 0; i < m_columns.size(); ++i) {
        if (m_columns[i].info.name == name)
            return i;
    }
    return std::nullopt;
}

Table Table::withPublic(bool declaredPublic) const
{
    Table copy = *this;
    copy.m_public = declaredPublic;
    return copy;
}

std::vector<std::string> Table::columnsWithDomainFromData() const
{
    std::vector<std::string> names;
    for (const Column &column : m_columns)
        if (column.info.domainFromData)
            names.push_back(column.info.name);
    return names;
}

Result<Table> Table::withDeclaredBounds(std::string_view column, Bounds bounds) const
{
    const std::optional<std::size_t> index = columnIndex(column);
    if (!index)
        return makeError(ErrorCode::NotFound, "unknown column '" + std::string(column) + "'");
    if (m_columns[*index].info.type != ColumnType::Numeric)
        return makeError(ErrorCode::InvalidArgument,
                         "column '" + std::string(column)
                             + "' is categorical; bounds apply to numeric columns only");
    if (auto valid = bounds.validate(); !valid)
        return makeError(ErrorCode::InvalidArgument,
                         "column '" + std::string(column) + "': " + valid.error().message);
    Table copy = *this;
    copy.m_columns[*index].info.declaredBounds = bounds;
    return copy;
}

Result<Table> Table::redescribed(std::string name, std::string provenance, std::vector<ColumnInfo> infos,
                                 const std::vector<std::vector<std::int32_t>> &recodes) const
{
    if (infos.size() != m_columns.size() || recodes.size() != m_columns.size())
        return makeError(ErrorCode::InvalidArgument, "redescribed: one info and one recoding per column");
    std::vector<Column> columns = m_columns;
    for (std::size_t i = 0; i < columns.size(); ++i) {
        Column &column = columns[i];
        const std::string where = "column '" + column.info.name + "': ";
        if (infos[i].type != column.info.type)
            return makeError(ErrorCode::InvalidArgument, where + "the type cannot change");
        const std::vector<std::int32_t> &recode = recodes[i];
        if (!recode.empty()) {
            if (column.info.type != ColumnType::Categorical || recode.size() != column.info.categories.size())
                return makeError(ErrorCode::InvalidArgument, where + "one new code per category");
            for (std::int32_t &code : column.codes) {
                const std::int32_t mapped = recode[static_cast<std::size_t>(code)];
                if (mapped < 0)
                    return makeError(ErrorCode::InvalidArgument,
                                     where + "label '"
                                         + column.info.categories[static_cast<std::size_t>(code)]
                                         + "' is not among the declared categories");
                code = mapped;
            }
        }
        column.info = std::move(infos[i]);
    }
    auto table = create(std::move(name), std::move(columns), std::move(provenance));
    if (!table)
        return table;
    return table->withPublic(m_public);
}

} // namespace pbx::data
