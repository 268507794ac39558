// SPDX-License-Identifier: MIT
// The one door to a table's rows (docs/private-data.md). A Table shows its schema and
// metadata to anyone; its values only through a Rows, and a Rows comes from exactly two places:
//   (a) a session::Session, for its own table: every release that reads the rows is charged to
//       that session's filter before anything is released (core/session);
//   (b) publicRows(), which succeeds only for a table whose data are declared public
//       (Table::isPublic(): an embedded dataset, a CSV whose metadata says "public": true, or a
//       table synthesised from metadata alone). Labs, lessons, simulations and the CLI's side
//       commands (pbx-cli odp svt | iqr | recover, simulate) reach rows only this way.
// Code holding neither cannot read a value: Table::numeric/codes/column are private. Aggregates of a
// data::Source (core/data/source.h) are reached through the same two doors (SourceAggregates).
#pragma once

#include "core/data/table.h"
#include "core/util/result.h"

#include <cstdint>
#include <span>
#include <string_view>

namespace pbx::session {
class Session;
}

namespace pbx::data {

class Rows;
class TableSource;

/// Door (b): read access to `table`'s rows because its data are declared public. The Rows refers
/// to `table`, which must outlive it. Decided from the public flag alone, never from the rows.
/// Errors: Unsupported, naming `use` (e.g. "pbx-cli odp iqr"), when table.isPublic() is false:
/// "<use> reads the rows of the dataset, which is not declared public; ...".
Result<Rows> publicRows(const Table &table, std::string_view use);

/// Read access to one table's rows (see the file comment for who may hold one). Cheap to copy;
/// refers to the table, which must outlive it. The schema accessors forward to the table so that
/// code reading rows can keep its shape.
class Rows
{
public:
    const Table &table() const { return *m_table; }
    std::size_t rowCount() const { return m_table->rowCount(); }
    std::size_t columnCount() const { return m_table->columnCount(); }
    const ColumnInfo &columnInfo(std::size_t column) const { return m_table->columnInfo(column); }
    std::optional<std::size_t> columnIndex(std::string_view name) const { return m_table->columnIndex(name); }
    const std::string &name() const { return m_table->name(); }
    bool isPublic() const { return m_table->isPublic(); }

    /// Values of a numeric column (size rowCount()). Precondition: the column is numeric.
    std::span<const double> numeric(std::size_t column) const { return m_table->numeric(column); }
    /// Codes of a categorical column (size rowCount()). Precondition: the column is categorical.
    std::span<const std::int32_t> codes(std::size_t column) const { return m_table->codes(column); }
    /// Whole column (info and storage). Precondition: column < columnCount().
    const Column &column(std::size_t column) const { return m_table->column(column); }

private:
    explicit Rows(const Table &table) : m_table(&table) {}
    friend class session::Session;                                            // door (a)
    friend Result<Rows> publicRows(const Table &table, std::string_view use); // door (b)
    // Not a third door: TableSource reads its table's rows only inside its private aggregate
    // functions, which only a SourceAggregates (from door (a) or (b)) reaches (core/data/source.h).
    friend class TableSource;

    const Table *m_table;
};

} // namespace pbx::data
