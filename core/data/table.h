// SPDX-License-Identifier: MIT
// A read-only columnar table: numeric columns as doubles, categorical columns as integer codes
// into a per-column dictionary. Column metadata carries the *declared* (public) clipping bounds;
// they are never derived from the data, since data-derived bounds would leak private values.
#pragma once

#include "core/util/result.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pbx::data {

enum class ColumnType { Numeric, Categorical };

/// A closed interval [lower, upper] used to clip values before aggregation.
struct Bounds
{
    double lower = 0.0;
    double upper = 0.0;
    /// Errors: InvalidArgument when a bound is NaN/∞ or lower > upper.
    Result<void> validate() const;
};

struct ColumnInfo
{
    std::string name;
    ColumnType type = ColumnType::Numeric;
    std::optional<Bounds> declaredBounds; ///< numeric columns only; public metadata
    std::string description;              ///< free text, e.g. "weekly wage, US dollars"
    std::vector<std::string> categories;  ///< categorical columns only: code → label
};

/// One column's storage. Exactly one of `numeric` / `codes` is filled, per `info.type`.
struct Column
{
    ColumnInfo info;
    std::vector<double> numeric;
    std::vector<std::int32_t> codes;
};

/// The files a table was read from, so a session can be tied to exactly this data: absolute
/// paths and SHA-256 digests (lowercase hex) of the CSV file's bytes and of its metadata sidecar
/// (empty when there is none).
struct DatasetFiles
{
    std::string path;
    std::string sha256;
    std::string metadataPath;
    std::string metadataSha256;
};

class Table
{
public:
    Table() = default;

    /// Builds a table. Errors: InvalidArgument when columns differ in length, names repeat or are
    /// empty, a code is outside its dictionary, or a declared bound is invalid.
    static Result<Table> create(std::string name, std::vector<Column> columns, std::string provenance = {});

    const std::string &name() const { return m_name; }
    const std::string &provenance() const { return m_provenance; }
    /// Set when the table was loaded from a file (resources::loadDataset); unset for embedded
    /// and generated tables.
    const std::optional<DatasetFiles> &files() const { return m_files; }
    void setFiles(DatasetFiles files) { m_files = std::move(files); }
    std::size_t rowCount() const { return m_rowCount; }
    std::size_t columnCount() const { return m_columns.size(); }
    const ColumnInfo &columnInfo(std::size_t column) const { return m_columns[column].info; }
    /// Whole column (info and storage), e.g. to copy it into a new table.
    /// Precondition: index < columnCount().
    const Column &column(std::size_t index) const { return m_columns[index]; }
    /// Index of the column called `name` (exact, case-sensitive match), or nullopt.
    std::optional<std::size_t> columnIndex(std::string_view name) const;

    /// Values of a numeric column (size rowCount()). Precondition: the column is numeric.
    std::span<const double> numeric(std::size_t column) const { return m_columns[column].numeric; }
    /// Codes of a categorical column (size rowCount()). Precondition: the column is categorical.
    std::span<const std::int32_t> codes(std::size_t column) const { return m_columns[column].codes; }

    /// Returns a copy with the declared bounds of numeric column `column` replaced.
    Result<Table> withDeclaredBounds(std::string_view column, Bounds bounds) const;

private:
    std::string m_name;
    std::string m_provenance;
    std::optional<DatasetFiles> m_files;
    std::vector<Column> m_columns;
    std::size_t m_rowCount = 0;
};

} // namespace pbx::data
