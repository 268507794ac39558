// SPDX-License-Identifier: MIT
#include "core/data/source.h"

#include <string>

namespace pbx::data {

std::string_view sourceKindName(SourceKind kind)
{
    switch (kind) {
    case SourceKind::InMemory:
        return "in-memory table";
    case SourceKind::Sqlite:
        return "SQLite";
    case SourceKind::Postgres:
        return "PostgreSQL";
    }
    return "in-memory table";
}

Result<SourceAggregates> publicAggregates(const Source &source, std::string_view use)
{
    if (!source.isPublic())
        return makeError(ErrorCode::Unsupported,
                         std::string(use)
                             + " reads the rows of the dataset, which is not declared public, and has no "
                               "privacy budget to charge: ask it in a session (pbx-cli run, or the app), or "
                               "declare the data public in their metadata (\"public\": true)");
    return SourceAggregates(source);
}

Result<QueryStatistics> SourceAggregates::statistics(const CompiledQuery &query) const
{
    return m_source->computeStatistics(query);
}

Result<CategoryCounts> SourceAggregates::categoryCounts(std::string_view column, const Predicate &where) const
{
    const Table &schema = m_source->schema();
    const std::optional<std::size_t> index = schema.columnIndex(column);
    if (!index)
        return makeError(ErrorCode::NotFound, "column: unknown column '" + std::string(column) + "'");
    const ColumnInfo &info = schema.columnInfo(*index);
    if (info.type != ColumnType::Categorical)
        return makeError(ErrorCode::InvalidArgument,
                         "column: '" + info.name
                             + "' is numeric; per-category counts need a categorical column");
    if (info.domainFromData || info.categories.empty())
        return makeError(ErrorCode::InvalidArgument,
                         "column: the categories of '" + info.name
                             + "' were inferred from the data; declare them in the metadata");
    return m_source->computeCategoryCounts(*index, where);
}

TableSource::TableSource(std::shared_ptr<const Table> table) : m_table(std::move(table)) {}

std::string TableSource::location() const
{
    if (m_table->files())
        return "in-memory table read from " + m_table->files()->path;
    return "in-memory table " + m_table->name();
}

Result<QueryStatistics> TableSource::computeStatistics(const CompiledQuery &query) const
{
    // The precondition of CompiledQuery::evaluate, checked so a mismatch is an error, not a crash.
    if (query.spec().aggregate != Aggregate::Count) {
        const auto column = m_table->columnIndex(query.spec().column);
        if (!column || m_table->columnInfo(*column).type != ColumnType::Numeric)
            return makeError(ErrorCode::NotFound,
                             "column: '" + query.spec().column + "' is not a numeric column of this table");
    }
    return query.evaluate(Rows(*m_table));
}

Result<CategoryCounts> TableSource::computeCategoryCounts(std::size_t column, const Predicate &where) const
{
    const Rows rows(*m_table);
    std::vector<std::uint8_t> mask;
    where.evaluate(rows, mask);
    const ColumnInfo &info = m_table->columnInfo(column);
    CategoryCounts counts;
    counts.labels = info.categories;
    counts.counts.assign(info.categories.size(), 0);
    const auto codes = rows.codes(column);
    for (std::size_t i = 0; i < mask.size(); ++i)
        if (mask[i])
            ++counts.counts[static_cast<std::size_t>(codes[i])];
    return counts;
}

} // namespace pbx::data
