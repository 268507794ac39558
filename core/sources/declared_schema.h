// SPDX-License-Identifier: MIT
// The schema of a database source, from the sidecar metadata (core/io/dataset_metadata.h) and the
// database's catalogue — never from the rows: bounds, category domains and the row count are the
// metadata's declarations; the catalogue only confirms the columns exist and gives a type where
// the metadata gives none.
#pragma once

#include "core/data/table.h"
#include "core/io/dataset_metadata.h"
#include "core/util/result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pbx::sources {

/// What the database's catalogue says of a column's type.
enum class CatalogType {
    Numeric, ///< integer, real, numeric types (SQLite: INTEGER, REAL or NUMERIC affinity)
    Text,    ///< text and character types (SQLite: TEXT affinity)
    Untyped, ///< SQLite: no declared type or BLOB affinity; any declared type is accepted
    Other,   ///< PostgreSQL: anything else (date, boolean, json …): not usable
};

struct CatalogColumn
{
    std::string name;
    CatalogType type = CatalogType::Untyped;
    std::string typeName; ///< the database's own spelling, for messages ("timestamp with time zone")
};

/// Builds the schema Table (no rows) of table `tableName` from `metadata`, whose columns, in their
/// order, are the source's columns (a database column the metadata does not describe is not part of
/// the source). Per column: the declared type, or the catalogue's (Numeric → numeric, Text →
/// categorical); declared bounds; declared categories (none: the labels are not declared, the column
/// is marked domainFromData, and a histogram over it is refused). Name: metadata.name, else the
/// table's; provenance as applyDatasetMetadata() writes it, after `location`; the public flag.
/// Errors: InvalidArgument "metadata: columns: a database source needs its columns described" when
/// the metadata has none; NotFound when it describes a column the table lacks; InvalidArgument when
/// a declared type contradicts the catalogue (numeric over a text column), or a column's type is
/// neither declared nor numeric/text in the catalogue — each naming the column.
Result<data::Table> declaredSchema(const io::DatasetMetadata &metadata,
                                   const std::vector<CatalogColumn> &catalog, const std::string &tableName,
                                   const std::string &location);

/// The loader's check of a declared row count, as for a CSV file (io::applyDatasetMetadata): the
/// table `tableName` must have exactly `declared` rows. Run once at open, before any session exists,
/// on the owner's own table: the public row count a session plans with (and the floating-point slack
/// of data::computedSumSensitivity, which needs it to bound the number of summed rows) is then the
/// table's. Errors: InvalidArgument "the metadata declares 28155 rows, but table 'cps' has 28154".
Result<void> checkDeclaredRows(std::size_t declared, std::int64_t actual, const std::string &tableName);

/// Whether a source opened with `metadata` counts its table's rows on first use
/// (data::Source::publicRowCount): the metadata declares no "rows" but says the data are public.
/// A private table's count is never run: it would be a private number a plan depends on.
bool countsRowsOnFirstUse(const io::DatasetMetadata &metadata);

/// The refusal when that count fails (a timeout, a lost connection): `failure`'s code, one line
/// "rows: cannot count the rows of table 'cps' (its metadata says the data are public but declares
/// no "rows"; a release plans with the table's count): <failure>".
Error rowCountFailed(const Error &failure, const std::string &tableName);

} // namespace pbx::sources
