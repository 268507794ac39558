// SPDX-License-Identifier: MIT
// Datasets by name: the ones embedded in the program (Qt resources) or CSV files on disk.
#pragma once

#include "core/data/source.h"
#include "core/data/table.h"
#include "core/util/result.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace pbx::resources {

/// The dataset the application opens when the user has not chosen one.
inline constexpr std::string_view defaultDatasetName = "cps1988";

/// Names of the datasets compiled into the program, e.g. {"cps1988"}.
std::vector<std::string> embeddedDatasetNames();

/// Loads a dataset. `nameOrPath` is either an embedded name (case-insensitive; it wins over a
/// file of the same name) or the path of a CSV file, optionally gzip-compressed. A file is read
/// with inferred column types unless a metadata sidecar exists next to it: "<path>.json", or
/// the path with ".csv"/".csv.gz" replaced by ".json"; that sidecar's types, bounds,
/// categories and provenance are then applied. Embedded datasets always carry their metadata
/// and are public (Table::isPublic()); a file is public only if its metadata says "public": true.
/// Errors: InvalidArgument for an empty name; NotFound when it is neither an embedded name nor
/// an existing file; otherwise the errors of io::readCsv() and io::parseDatasetMetadata().
Result<data::Table> loadDataset(std::string_view nameOrPath);

/// Opens a dataset wherever it lives (docs/data-sources.md): a database descriptor
/// (`sqlite:PATH?table=NAME`, `postgresql://…?table=NAME`) with its metadata file, which is
/// required (bounds, categories and the row count are declared there, never read from the data;
/// its path and SHA-256 are recorded in the source's schema files()); otherwise loadDataset(text)
/// as an in-memory table, whose metadata is its sidecar file (`metadataPath` must then be empty).
/// Errors: InvalidArgument "metadata: …" for a missing or unexpected metadata file; those of
/// sources::parseSourceDescriptor, io::readDatasetMetadataFile, sources::openDatabaseSource and
/// loadDataset.
Result<std::shared_ptr<const data::Source>> openDataset(std::string_view text,
                                                        const std::string &metadataPath);

} // namespace pbx::resources
