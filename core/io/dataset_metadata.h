// SPDX-License-Identifier: MIT
// The JSON sidecar that describes a dataset: column types, declared clipping bounds, category
// domains, descriptions, provenance and licence. Bounds and categories here are public,
// domain-knowledge choices made by whoever publishes the dataset; nothing in this file is ever
// computed from the data, because data-derived bounds would leak private values.
//
//   {"format": "pbx-dataset-metadata", "version": 1, "name": "cps1988", "title": "...",
//    "rows": 28155, "provenance": "...", "licence": "...",
//    "columns": [{"name": "wage", "type": "numeric", "bounds": [0, 5000], "description": "..."},
//                {"name": "region", "type": "categorical",
//                 "categories": ["northeast", "midwest", "south", "west"]}]}
#pragma once

#include "core/data/table.h"
#include "core/util/result.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pbx::io {

/// The metadata format version this program reads and writes.
inline constexpr int datasetMetadataVersion = 1;

struct ColumnMetadata
{
    std::string name;
    std::optional<data::ColumnType> type; ///< unset: inferred from the data
    std::optional<data::Bounds> bounds;   ///< numeric columns only
    std::string description;
    /// Categorical columns only: the public domain of labels, in display order. When set, the
    /// table's dictionary is exactly this list (labels absent from the data still count, e.g. as
    /// empty histogram bins) and a label outside it is an error.
    std::vector<std::string> categories;
};

struct DatasetMetadata
{
    std::string name; ///< short identifier, e.g. "cps1988"; empty: keep the caller's name
    std::string title;
    std::string provenance;
    std::string licence;
    std::optional<std::size_t> rows; ///< when set, the data must have exactly this many rows
    /// "public": true — whoever publishes the file declares the data themselves public (not only
    /// this metadata). Then tools that read true answers without charging a budget (the
    /// relative-error lab) may run on it. Never inferred; default false.
    bool isPublic = false;
    std::vector<ColumnMetadata> columns;

    /// The entry for `columnName` (exact match), or nullptr.
    const ColumnMetadata *column(std::string_view columnName) const;
};

/// Parses a metadata document. Tolerant: unknown keys are ignored and every key except
/// "format" and "version" is optional. Strict where it matters: "format" must be
/// "pbx-dataset-metadata"; "version" must be an integer from 1 to datasetMetadataVersion;
/// column names must be unique and non-empty; bounds must be two finite numbers with
/// lower ≤ upper and only on numeric columns; categories only on categorical columns, unique.
/// Input larger than 4 MiB is refused. Errors: Parse, naming the offending key
/// (e.g. "columns[2].bounds: …") or the byte offset of a JSON syntax error; Unsupported for a
/// version newer than this program understands.
Result<DatasetMetadata> parseDatasetMetadata(std::string_view json);

/// Reads and parses a metadata file (UTF-8 path). Errors: Io when the file cannot be read,
/// otherwise as parseDatasetMetadata(), prefixed with the file name.
Result<DatasetMetadata> readDatasetMetadataFile(const std::string &path);

/// Writes `metadata` as a version-1 document (pretty-printed, keys in a fixed order).
std::string datasetMetadataToJson(const DatasetMetadata &metadata);

/// Returns a copy of `table` with the metadata applied: name (when metadata.name is set),
/// provenance (metadata.provenance plus the licence), the public flag, and per column the
/// description, declared bounds and category order; a column whose type (and categories, if
/// categorical) are declared is no longer marked domainFromData. Errors: NotFound when the metadata describes
/// a column the table lacks; InvalidArgument when a declared type differs from the column's type, a label in
/// the data is missing from the declared categories, or the row count differs from metadata.rows.
Result<data::Table> applyDatasetMetadata(const data::Table &table, const DatasetMetadata &metadata);

} // namespace pbx::io
