// SPDX-License-Identifier: MIT
#include "core/sources/declared_schema.h"

#include "core/util/try.h"

#include <algorithm>

namespace pbx::sources {

namespace {

Result<data::ColumnType> columnType(const io::ColumnMetadata &declared, const CatalogColumn &catalogued,
                                    const std::string &tableName)
{
    const std::string where = "column '" + declared.name + "': ";
    if (catalogued.type == CatalogType::Other)
        return makeError(ErrorCode::InvalidArgument, where + "its database type '" + catalogued.typeName
                                                         + "' is neither numeric nor text");
    if (declared.type) {
        if (*declared.type == data::ColumnType::Numeric && catalogued.type == CatalogType::Text)
            return makeError(ErrorCode::InvalidArgument,
                             where + "the metadata declares it numeric, but table '" + tableName
                                 + "' stores it as " + catalogued.typeName);
        return *declared.type;
    }
    if (catalogued.type == CatalogType::Numeric)
        return data::ColumnType::Numeric;
    if (catalogued.type == CatalogType::Text)
        return data::ColumnType::Categorical;
    return makeError(ErrorCode::InvalidArgument,
                     where + "the database declares no type for it; declare \"type\" in the metadata");
}

} // namespace

Result<data::Table> declaredSchema(const io::DatasetMetadata &metadata,
                                   const std::vector<CatalogColumn> &catalog, const std::string &tableName,
                                   const std::string &location)
{
    if (metadata.columns.empty())
        return makeError(ErrorCode::InvalidArgument,
                         "metadata: columns: a database source needs its columns described");
    std::vector<data::Column> columns;
    for (const io::ColumnMetadata &declared : metadata.columns) {
        const auto found = std::find_if(catalog.begin(), catalog.end(),
                                        [&](const CatalogColumn &c) { return c.name == declared.name; });
        if (found == catalog.end())
            return makeError(ErrorCode::NotFound, "the metadata describes column '" + declared.name
                                                      + "', which table '" + tableName + "' does not have");
        PBX_TRY(type, columnType(declared, *found, tableName));
        data::Column column;
        column.info.name = declared.name;
        column.info.type = type;
        column.info.description = declared.description;
        if (type == data::ColumnType::Numeric) {
            if (!declared.categories.empty())
                return makeError(ErrorCode::InvalidArgument,
                                 "column '" + declared.name
                                     + "': categories apply to categorical columns only");
            column.info.declaredBounds = declared.bounds;
        } else {
            if (declared.bounds)
                return makeError(ErrorCode::InvalidArgument,
                                 "column '" + declared.name + "': bounds apply to numeric columns only");
            column.info.categories = declared.categories;
            column.info.domainFromData = declared.categories.empty();
        }
        columns.push_back(std::move(column));
    }
    std::string provenance = location;
    if (!metadata.provenance.empty())
        provenance += ". " + metadata.provenance;
    if (!metadata.licence.empty())
        provenance += " Licence: " + metadata.licence;
    PBX_TRY(table, data::Table::create(metadata.name.empty() ? tableName : metadata.name, std::move(columns),
                                       std::move(provenance)));
    return table.withPublic(metadata.isPublic);
}

Result<void> checkDeclaredRows(std::size_t declared, std::int64_t actual, const std::string &tableName)
{
    if (actual < 0 || static_cast<std::size_t>(actual) != declared)
        return makeError(ErrorCode::InvalidArgument, "the metadata declares " + std::to_string(declared)
                                                         + " rows, but table '" + tableName + "' has "
                                                         + std::to_string(actual));
    return {};
}

bool countsRowsOnFirstUse(const io::DatasetMetadata &metadata)
{
    return !metadata.rows && metadata.isPublic;
}

Error rowCountFailed(const Error &failure, const std::string &tableName)
{
    return makeError(failure.code, "rows: cannot count the rows of table '" + tableName
                                       + "' (its metadata says the data are public but declares no \"rows\"; "
                                         "a release plans with the table's count): "
                                       + failure.message);
}

} // namespace pbx::sources
