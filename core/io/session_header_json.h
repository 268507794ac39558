// SPDX-License-Identifier: MIT
// The session header shared by transcripts and journals: dataset, budget, neighbouring relation,
// filter (with the unified split) and noise mode.
#pragma once

#include "core/io/json_fields.h"
#include "core/session/session.h"

namespace pbx::io {

/// Writes dataset, budget, neighbours, filter and noise of `session` into `doc`.
void writeSessionHeader(const session::Session &session, json::Json &doc);

struct SessionHeader
{
    std::string datasetName;         ///< embedded name, or the CSV file's stem
    std::optional<std::size_t> rows; ///< the dataset's row count (absent in old files)
    /// CSV datasets: path and digests (absent in old files); database sources: the metadata
    /// file's path and digest (path and sha256 empty).
    std::optional<data::DatasetFiles> files;
    /// Database sources: the descriptor (data::Source::descriptor(); never a password).
    std::string source;
    session::SessionSettings settings;
};

/// Reads what writeSessionHeader wrote (tolerant of extra fields). Errors: Parse naming the field.
Result<SessionHeader> readSessionHeader(const json::Json &doc);

/// What to hand resources::openDataset: the recorded descriptor of a database source, else the
/// recorded CSV path when there is one, else the name.
std::string datasetToLoad(const SessionHeader &header);

/// Checks that `table` is the dataset the header recorded: the same row count, and for a CSV
/// file the same SHA-256 of its bytes and of its metadata sidecar. Errors: InvalidArgument
/// saying what differs (e.g. "the dataset file /d/x.csv has changed since …").
Result<void> checkDataset(const SessionHeader &header, const data::Table &table);
/// The same for any source: its declared row count, and for a database source the same
/// descriptor and the same SHA-256 of its metadata file.
Result<void> checkDataset(const SessionHeader &header, const data::Source &source);

} // namespace pbx::io
