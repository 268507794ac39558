// SPDX-License-Identifier: MIT
// A read-only columnar table: numeric columns as doubles, categorical columns as integer codes
// into a per-column dictionary. Column metadata carries the *declared* (public) clipping bounds;
// they are never derived from the data, since data-derived bounds would leak private values.
// The values themselves are private to the table: they are read only through a data::Rows, which
// only a session or the public-data check hands out (core/data/rows.h, docs/private-data.md).
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
    /// True when the column's type, or (categorical) its category list, was inferred from the data
    /// rather than declared in metadata: showing it discloses values (a label present in one row).
    bool domainFromData = false;
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
    /// Index of the column called `name` (exact, case-sensitive match), or nullopt.
    std::optional<std::size_t> columnIndex(std::string_view name) const;

    /// Returns a copy with the declared bounds of numeric column `column` replaced.
    Result<Table> withDeclaredBounds(std::string_view column, Bounds bounds) const;

    /// Whether the data themselves are public: an embedded dataset, a file whose metadata says
    /// "public": true (a knowing declaration by the user), or a synthetic table generated from
    /// public metadata alone. Only then may anything read true answers and show what it computed
    /// from them without charging a privacy budget (the relative-error lab). Default false.
    bool isPublic() const { return m_public; }
    /// Returns a copy with isPublic() set to `declaredPublic`.
    Table withPublic(bool declaredPublic) const;
    /// Names of the columns whose type or categories were inferred from the data (domainFromData).
    std::vector<std::string> columnsWithDomainFromData() const;

    /// The loader's step of applying a metadata sidecar (core/io/dataset_metadata.cpp) without
    /// handing it the rows: a copy called `name` with column i's info replaced by infos[i] (same
    /// type) and, where recodes[i] is non-empty, every code c of categorical column i replaced by
    /// recodes[i][c] (−1: a label the metadata does not declare). isPublic() is kept.
    /// Errors: InvalidArgument when the sizes differ, a type changes, or a code in use maps to −1
    /// ("column 'x': label 'y' is not among the declared categories"); then as create().
    Result<Table> redescribed(std::string name, std::string provenance, std::vector<ColumnInfo> infos,
                              const std::vector<std::vector<std::int32_t>> &recodes) const;

private:
    // The rows: only through a data::Rows (core/data/rows.h), the one door to private data.
    friend class Rows;
    std::span<const double> numeric(std::size_t column) const { return m_columns[column].numeric; }
    std::span<const std::int32_t> codes(std::size_t column) const { return m_columns[column].codes; }
    const Column &column(std::size_t index) const { return m_columns[index]; }

    std::string m_name;
    std::string m_provenance;
    std::optional<DatasetFiles> m_files;
    std::vector<Column> m_columns;
    std::size_t m_rowCount = 0;
    bool m_public = false;
};

} // namespace pbx::data
