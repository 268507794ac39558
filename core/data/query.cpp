// SPDX-License-Identifier: MIT
#include "core/data/query.h"

#include <algorithm>
#include <string>

namespace pbx::data {

std::string_view aggregateName(Aggregate a)
{
    switch (a) {
    case Aggregate::Count:
        return "count";
    case Aggregate::Sum:
        return "sum";
    case Aggregate::Mean:
        return "mean";
    }
    return "count";
}

Result<Aggregate> parseAggregate(std::string_view text)
{
    for (Aggregate a : {Aggregate::Count, Aggregate::Sum, Aggregate::Mean})
        if (aggregateName(a) == text)
            return a;
    return makeError(ErrorCode::InvalidArgument,
                     "unknown aggregate '" + std::string(text) + "' (expected count, sum or mean)");
}

Result<CompiledQuery> CompiledQuery::compile(const QuerySpec &spec, const Table &table)
{
    CompiledQuery q;
    q.m_spec = spec;
    if (spec.aggregate != Aggregate::Count) {
        const std::string what(aggregateName(spec.aggregate));
        if (spec.column.empty())
            return makeError(ErrorCode::InvalidArgument, "column: a " + what + " needs a numeric column");
        auto index = table.columnIndex(spec.column);
        if (!index)
            return makeError(ErrorCode::NotFound, "column: unknown column '" + spec.column + "'");
        const ColumnInfo &info = table.columnInfo(*index);
        if (info.type != ColumnType::Numeric)
            return makeError(ErrorCode::InvalidArgument, "column: '" + spec.column + "' is categorical; a "
                                                             + what + " needs a numeric column");
        q.m_column = *index;
        if (spec.bounds)
            q.m_bounds = *spec.bounds;
        else if (info.declaredBounds)
            q.m_bounds = *info.declaredBounds;
        else
            return makeError(ErrorCode::InvalidArgument,
                             "bounds: column '" + spec.column
                                 + "' has no declared bounds; give clipping bounds [lower, upper]");
        if (auto valid = q.m_bounds.validate(); !valid)
            return makeError(valid.error().code, "bounds: " + valid.error().message);
        if (spec.aggregate == Aggregate::Mean && !(q.m_bounds.upper > q.m_bounds.lower))
            return makeError(ErrorCode::InvalidArgument, "bounds: a mean needs lower < upper");
        if (spec.aggregate == Aggregate::Sum && q.m_bounds.lower == 0.0 && q.m_bounds.upper == 0.0)
            return makeError(ErrorCode::InvalidArgument, "bounds: [0, 0] makes every sum 0");
    }
    auto predicate = Predicate::compile(spec.where, table);
    if (!predicate)
        return makeError(predicate.error().code, "where: " + predicate.error().message);
    q.m_predicate = std::move(predicate.value());
    return q;
}

QueryStatistics CompiledQuery::evaluate(const Rows &table) const
{
    std::vector<std::uint8_t> mask;
    m_predicate->evaluate(table, mask);
    QueryStatistics stats;
    if (m_spec.aggregate == Aggregate::Count) {
        std::size_t n = 0;
        for (auto m : mask)
            n += m;
        stats.count = static_cast<double>(n);
        return stats;
    }
    const auto values = table.numeric(m_column);
    const double mid = (m_bounds.lower + m_bounds.upper) / 2.0;
    std::size_t n = 0;
    double sum = 0.0, centred = 0.0;
    for (std::size_t i = 0; i < mask.size(); ++i) {
        if (!mask[i])
            continue;
        const double x = std::clamp(values[i], m_bounds.lower, m_bounds.upper);
        ++n;
        sum += x;
        centred += x - mid;
    }
    stats.count = static_cast<double>(n);
    stats.clippedSum = sum;
    stats.centredSum = centred;
    return stats;
}

} // namespace pbx::data
