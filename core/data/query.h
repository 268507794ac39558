// SPDX-License-Identifier: MIT
// A statistical query over a table: count, clipped sum or clipped mean of a column, over the
// rows matching a predicate. Compiled once (column lookup, predicate compilation) and evaluated
// exactly; the exact statistics never leave the core except through a mechanism.
#pragma once

#include "core/data/predicate.h"
#include "core/data/table.h"

#include <optional>
#include <string>

namespace pbx::data {

enum class Aggregate { Count, Sum, Mean };

std::string_view aggregateName(Aggregate a); ///< "count", "sum", "mean"
Result<Aggregate> parseAggregate(std::string_view text);

struct QuerySpec
{
    Aggregate aggregate = Aggregate::Count;
    std::string column;           ///< required for sum and mean, ignored for count
    std::optional<Bounds> bounds; ///< clipping bounds; default: the column's declared bounds
    std::string where;            ///< predicate text; empty = every row
};

/// Exact statistics of the matching rows. Private: only mechanisms may read them.
struct QueryStatistics
{
    double count = 0.0;      ///< number of matching rows
    double clippedSum = 0.0; ///< Σ clip(x, L, U) over matching rows (sum and mean only)
    double centredSum = 0.0; ///< Σ (clip(x, L, U) − (L+U)/2) over matching rows (mean only)
};

class CompiledQuery
{
public:
    /// Compiles `spec` against `table`. Errors (naming the field): unknown or categorical column
    /// for sum/mean, missing bounds (column without declared bounds and none given), invalid
    /// bounds, predicate errors.
    static Result<CompiledQuery> compile(const QuerySpec &spec, const Table &table);

    const QuerySpec &spec() const { return m_spec; }
    /// The clipping bounds in force (sum/mean), after defaulting to the declared bounds.
    Bounds bounds() const { return m_bounds; }
    /// The compiled `where` (compile() always sets it).
    const Predicate &predicate() const { return *m_predicate; }
    /// Exact statistics. Precondition: `table` has the schema the query was compiled against.
    QueryStatistics evaluate(const Rows &table) const;

private:
    QuerySpec m_spec;
    std::optional<Predicate> m_predicate;
    std::size_t m_column = 0;
    Bounds m_bounds;
};

} // namespace pbx::data
