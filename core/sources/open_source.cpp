// SPDX-License-Identifier: MIT
#include "core/sources/open_source.h"

#include "core/sources/postgres_source.h"
#include "core/sources/sqlite_source.h"

namespace pbx::sources {

Result<std::unique_ptr<data::Source>> openDatabaseSource(const SourceDescriptor &descriptor,
                                                         const io::DatasetMetadata &metadata,
                                                         data::DatasetFiles files)
{
    if (const auto *sqlite = std::get_if<SqliteDescriptor>(&descriptor)) {
        auto source = SqliteSource::open(*sqlite, metadata, std::move(files));
        if (!source)
            return source.error();
        return std::unique_ptr<data::Source>(std::move(source).value());
    }
    auto source = PostgresSource::open(std::get<PostgresDescriptor>(descriptor), metadata, std::move(files));
    if (!source)
        return source.error();
    return std::unique_ptr<data::Source>(std::move(source).value());
}

} // namespace pbx::sources
