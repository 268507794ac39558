// SPDX-License-Identifier: MIT
// Writing a dataset's metadata sidecar (the format of dataset_metadata.h) next to its CSV file, as
// File ▸ Import CSV does. What is written is exactly what parseDatasetMetadata() reads back; the
// file is created atomically (a temporary file, fsync, then a rename that never replaces), so a
// failed write leaves nothing behind and an existing file is never changed.
#pragma once

#include "core/io/dataset_metadata.h"
#include "core/util/result.h"

#include <string>
#include <vector>

namespace pbx::io {

/// The places the loader (resources::loadDataset) looks for the metadata of the CSV file
/// `csvPath`, in its order: "<csvPath>.json", then — for a name ending in ".csv" or ".csv.gz" —
/// the path with that ending replaced by ".json" ("survey.csv" → "survey.csv.json",
/// "survey.json"). The first is where a new sidecar is written.
std::vector<std::string> datasetMetadataSidecars(const std::string &csvPath);

/// Checks that `metadata` is a document parseDatasetMetadata() accepts and that reads back as the
/// same values: every text valid UTF-8; column names non-empty and unique; bounds finite with
/// lower ≤ upper and only on a column not declared categorical; categories non-empty, unique and
/// only on a column not declared numeric; not both; the document at most 4 MiB. Errors:
/// InvalidArgument naming the field, e.g. "columns[1] ('wage').bounds: lower bound 10 is above
/// the upper bound 5".
Result<void> checkDatasetMetadata(const DatasetMetadata &metadata);

/// Writes `metadata` (datasetMetadataToJson) to a new file at `path` (UTF-8). Refuses, before
/// anything is written: metadata that checkDatasetMetadata() refuses; a path that names the same
/// file as one of `inputs` (by device and inode when both exist, so a link to the CSV counts as the
/// CSV; else by canonical path); and a path where anything already exists — a sidecar already
/// there is what earlier sessions recorded the digest of, so it is never replaced. Errors:
/// InvalidArgument as checkDatasetMetadata() or "<path> names the same file as <input>, which it
/// would overwrite"; Io "<path>: already exists; a dataset's metadata file is never replaced
/// (move it away first)" or naming the reason the file cannot be created. On any error nothing
/// exists at `path` that was not there before.
Result<void> writeDatasetMetadataFile(const std::string &path, const DatasetMetadata &metadata,
                                      const std::vector<std::string> &inputs);

} // namespace pbx::io
