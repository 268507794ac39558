// SPDX-License-Identifier: MIT
#include "core/sources/open_source.h"

#include "core/sources/postgres_source.h"
#include "core/sources/sqlite_source.h"
#include "core/util/try.h"

namespace pbx::sources {

Result<std::unique_ptr<data::Source>> openDatabaseSource(const SourceDescriptor &descriptor,
                                                         const io::DatasetMetadata &metadata,
                                                         data::DatasetFiles files)
{
    if (const auto *sqlite = std::get_if<SqliteDescriptor>(&descriptor)) {
        PBX_TRY(source, SqliteSource::open(*sqlite, metadata, std::move(files)));
        return std::unique_ptr<data::Source>(std::move(source));
    }
    PBX_TRY(source,
            PostgresSource::open(std::get<PostgresDescriptor>(descriptor), metadata, std::move(files)));
    return std::unique_ptr<data::Source>(std::move(source));
}

} // namespace pbx::sources
