// SPDX-License-Identifier: MIT
// Compiles a predicate and an aggregate into one parameterised SQL statement (docs/data-sources.md,
// "Push-down"). Values — numbers, labels, bounds — are bound parameters; identifiers — the table and
// column names — are quoted by the database library (a QuoteIdentifier: sqlite3_mprintf("%w"),
// PQescapeIdentifier). Nothing the user typed is spliced into the SQL text: the text is made of
// this file's fixed words, quoted identifiers and placeholders.
//
// Semantics, the same as the in-memory evaluator's (core/data/predicate.cpp, core/data/query.cpp):
// every comparison is two-valued — `(x op ?) IS TRUE`, and `!=` is `(x = ?) IS NOT TRUE` — so a
// missing value (SQL NULL) compares as NaN does in memory (== < <= > >= false, != true) and `not`,
// `and`, `or` never meet SQL's unknown. Numeric values are compared and summed as doubles
// (PostgreSQL: CAST(x AS double precision); SQLite: a value that is not an integer or a real is
// missing). Clipping: MIN(MAX(·)) in SQLite, LEAST(GREATEST(·)) in PostgreSQL, of COALESCE(x, L),
// so a missing value counts as the lower bound L. Sums: SQLite's TOTAL (a double, never an integer
// overflow), PostgreSQL's COALESCE(SUM(·), 0) over doubles.
#pragma once

#include "core/data/predicate.h"
#include "core/data/query.h"
#include "core/data/table.h"
#include "core/util/result.h"

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace pbx::sources {

enum class SqlDialect { Sqlite, Postgres };

/// One bound parameter: a double (placeholder typed double precision in PostgreSQL) or a text.
using SqlParameter = std::variant<double, std::string>;

/// One statement: its text (placeholders ?1, ?2 … in SQLite, $1, $2 … in PostgreSQL) and the
/// values of its placeholders in order.
struct SqlStatement
{
    std::string text;
    std::vector<SqlParameter> parameters;
};

/// Quotes one identifier with the database library's own function. Errors: InvalidArgument for a
/// name the library cannot quote (a NUL byte, invalid encoding).
using QuoteIdentifier = std::function<Result<std::string>(std::string_view name)>;

/// The statement for `query`'s statistics over `quotedTable`: `SELECT COUNT(*)` for a count;
/// `SELECT COUNT(*), Σ clip, Σ (clip − mid)` for a sum or mean (one row, in that order).
/// Errors: NotFound when the query or its predicate names a column `schema` lacks or whose type
/// differs; as QuoteIdentifier.
Result<SqlStatement> statisticsStatement(SqlDialect dialect, const QuoteIdentifier &quote,
                                         std::string_view quotedTable, const data::Table &schema,
                                         const data::CompiledQuery &query);

/// The statement for the per-value counts of categorical column `column` of `schema` over the rows
/// `where` selects: `SELECT value, COUNT(*) … GROUP BY 1` (text values; NULL for missing).
/// Errors: as statisticsStatement.
Result<SqlStatement> categoryCountsStatement(SqlDialect dialect, const QuoteIdentifier &quote,
                                             std::string_view quotedTable, const data::Table &schema,
                                             std::size_t column, const data::Predicate &where);

} // namespace pbx::sources
