// SPDX-License-Identifier: MIT
// Opens the database source a descriptor names (docs/data-sources.md). The one entry point the app
// layer (resources, pbx-cli, File ▸ Open dataset) calls; it sees only data::Source afterwards.
#pragma once

#include "core/data/source.h"
#include "core/io/dataset_metadata.h"
#include "core/sources/source_descriptor.h"

#include <memory>

namespace pbx::sources {

/// Opens `descriptor` with `metadata` (required for database sources: bounds, categories and the
/// row count are declared there, never read off the data). Errors: as SqliteSource::open and
/// PostgresSource::open.
/// `files`: the metadata file's path and digest (path and sha256 empty), the schema's files(): a
/// session header records them beside the descriptor.
Result<std::unique_ptr<data::Source>> openDatabaseSource(const SourceDescriptor &descriptor,
                                                         const io::DatasetMetadata &metadata,
                                                         data::DatasetFiles files = {});

} // namespace pbx::sources
