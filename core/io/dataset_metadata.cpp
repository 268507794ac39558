// SPDX-License-Identifier: MIT
// Reading, writing and applying dataset metadata. nlohmann::json throws; every call that can
// throw stays inside this file and is converted into a Result.
#include "core/io/dataset_metadata.h"

#include "core/util/try.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

namespace pbx::io {

namespace {

using PlainJson = nlohmann::json; // not `json`: pbx::io::json is the namespace of json_fields.h

constexpr std::string_view formatName = "pbx-dataset-metadata";
constexpr std::size_t maxMetadataBytes = std::size_t{4} * 1024 * 1024;

Error parseError(const std::string &where, const std::string &message)
{
    return makeError(ErrorCode::Parse, where + ": " + message);
}

// Reads an optional string member; absent and null both mean "not given".
Result<std::string> optionalString(const PlainJson &object, const char *key, const std::string &where)
{
    const auto it = object.find(key);
    if (it == object.end() || it->is_null())
        return std::string();
    if (!it->is_string())
        return parseError(where + key, "expected a string");
    return it->get<std::string>();
}

Result<data::ColumnType> parseType(const PlainJson &value, const std::string &where)
{
    if (value.is_string()) {
        const auto &text = value.get_ref<const std::string &>();
        if (text == "numeric")
            return data::ColumnType::Numeric;
        if (text == "categorical")
            return data::ColumnType::Categorical;
    }
    return parseError(where, "expected \"numeric\" or \"categorical\"");
}

Result<data::Bounds> parseBounds(const PlainJson &value, const std::string &where)
{
    if (!value.is_array() || value.size() != 2 || !value[0].is_number() || !value[1].is_number())
        return parseError(where, "expected an array of two numbers [lower, upper]");
    const data::Bounds bounds{value[0].get<double>(), value[1].get<double>()};
    if (auto valid = bounds.validate(); !valid)
        return parseError(where, valid.error().message);
    return bounds;
}

Result<std::vector<std::string>> parseCategories(const PlainJson &value, const std::string &where)
{
    if (!value.is_array() || value.empty())
        return parseError(where, "expected a non-empty array of strings");
    std::vector<std::string> labels;
    std::unordered_set<std::string> seen;
    for (std::size_t i = 0; i < value.size(); ++i) {
        const std::string at = where + "[" + std::to_string(i) + "]";
        if (!value[i].is_string() || value[i].get_ref<const std::string &>().empty())
            return parseError(at, "expected a non-empty string");
        const auto &label = value[i].get_ref<const std::string &>();
        if (!seen.insert(label).second)
            return parseError(at, "category '" + label + "' is listed twice");
        labels.push_back(label);
    }
    return labels;
}

Result<ColumnMetadata> parseColumn(const PlainJson &value, const std::string &where)
{
    if (!value.is_object())
        return parseError(where, "expected an object");
    ColumnMetadata column;
    const auto name = value.find("name");
    if (name == value.end() || !name->is_string() || name->get_ref<const std::string &>().empty())
        return parseError(where + ".name", "expected a non-empty string");
    column.name = name->get<std::string>();

    if (const auto type = value.find("type"); type != value.end() && !type->is_null()) {
        PBX_TRY(parsed, parseType(*type, where + ".type"));
        column.type = parsed;
    }
    if (const auto bounds = value.find("bounds"); bounds != value.end() && !bounds->is_null()) {
        if (column.type == data::ColumnType::Categorical)
            return parseError(where + ".bounds", "bounds apply to numeric columns only");
        PBX_TRY(parsed, parseBounds(*bounds, where + ".bounds"));
        column.bounds = parsed;
    }
    if (const auto categories = value.find("categories");
        categories != value.end() && !categories->is_null()) {
        if (column.type == data::ColumnType::Numeric)
            return parseError(where + ".categories", "categories apply to categorical columns only");
        PBX_TRY(parsed, parseCategories(*categories, where + ".categories"));
        column.categories = std::move(parsed);
    }
    if (column.bounds && !column.categories.empty())
        return parseError(where, "a column cannot have both bounds and categories");
    PBX_TRY(description, optionalString(value, "description", where + "."));
    column.description = std::move(description);
    return column;
}

Result<DatasetMetadata> parseDocument(const PlainJson &document)
{
    if (!document.is_object())
        return makeError(ErrorCode::Parse, "dataset metadata: expected a JSON object");
    const auto format = document.find("format");
    if (format == document.end() || !format->is_string()
        || format->get_ref<const std::string &>() != formatName)
        return parseError("format", "expected \"" + std::string(formatName)
                                        + "\"; this is not a dataset metadata document");
    const auto version = document.find("version");
    if (version == document.end() || !version->is_number_integer())
        return parseError("version", "expected an integer");
    const auto number = version->get<std::int64_t>();
    if (number > datasetMetadataVersion)
        return makeError(ErrorCode::Unsupported, "dataset metadata version " + std::to_string(number)
                                                     + " is newer than this program understands (up to "
                                                     + std::to_string(datasetMetadataVersion)
                                                     + "); please update it");
    if (number < 1)
        return parseError("version", "expected a positive integer");

    DatasetMetadata metadata;
    const std::pair<const char *, std::string *> texts[] = {{"name", &metadata.name},
                                                            {"title", &metadata.title},
                                                            {"provenance", &metadata.provenance},
                                                            {"licence", &metadata.licence}};
    for (const auto &[key, target] : texts) {
        PBX_TRY(text, optionalString(document, key, ""));
        *target = std::move(text);
    }
    if (const auto rows = document.find("rows"); rows != document.end() && !rows->is_null()) {
        if (!rows->is_number_unsigned())
            return parseError("rows", "expected a non-negative integer");
        metadata.rows = rows->get<std::size_t>();
    }
    if (const auto declared = document.find("public"); declared != document.end() && !declared->is_null()) {
        if (!declared->is_boolean())
            return parseError("public", "expected true or false");
        metadata.isPublic = declared->get<bool>();
    }
    if (const auto columns = document.find("columns"); columns != document.end() && !columns->is_null()) {
        if (!columns->is_array())
            return parseError("columns", "expected an array");
        std::unordered_set<std::string> names;
        for (std::size_t i = 0; i < columns->size(); ++i) {
            const std::string where = "columns[" + std::to_string(i) + "]";
            PBX_TRY(column, parseColumn((*columns)[i], where));
            if (!names.insert(column.name).second)
                return parseError(where + ".name", "column '" + column.name + "' is described twice");
            metadata.columns.push_back(std::move(column));
        }
    }
    return metadata;
}

} // namespace

const ColumnMetadata *DatasetMetadata::column(std::string_view columnName) const
{
    const auto it = std::find_if(columns.begin(), columns.end(),
                                 [&](const ColumnMetadata &c) { return c.name == columnName; });
    return it == columns.end() ? nullptr : &*it;
}

Result<DatasetMetadata> parseDatasetMetadata(std::string_view text)
{
    if (text.size() > maxMetadataBytes)
        return makeError(ErrorCode::Parse, "dataset metadata is larger than 4 MiB; refusing it");
    try {
        const PlainJson document = PlainJson::parse(text.begin(), text.end());
        return parseDocument(document);
    } catch (const PlainJson::parse_error &error) {
        return makeError(ErrorCode::Parse,
                         "dataset metadata is not valid JSON (at byte " + std::to_string(error.byte) + ")");
    } catch (const PlainJson::exception &error) {
        // e.g. a number too large for a double; the message names the problem.
        return makeError(ErrorCode::Parse, std::string("dataset metadata: ") + error.what());
    } catch (const std::exception &error) {
        return makeError(ErrorCode::Parse, std::string("dataset metadata: ") + error.what());
    }
}

Result<DatasetMetadata> readDatasetMetadataFile(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return makeError(ErrorCode::Io, "cannot open '" + path + "'");
    std::string text(maxMetadataBytes + 1, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    if (in.bad())
        return makeError(ErrorCode::Io, "cannot read '" + path + "'");
    text.resize(static_cast<std::size_t>(in.gcount()));
    auto metadata = parseDatasetMetadata(text);
    if (!metadata)
        return makeError(metadata.error().code, path + ": " + metadata.error().message);
    return metadata;
}

std::string datasetMetadataToJson(const DatasetMetadata &metadata)
{
    nlohmann::ordered_json document;
    document["format"] = formatName;
    document["version"] = datasetMetadataVersion;
    if (!metadata.name.empty())
        document["name"] = metadata.name;
    if (!metadata.title.empty())
        document["title"] = metadata.title;
    if (metadata.rows)
        document["rows"] = *metadata.rows;
    if (!metadata.provenance.empty())
        document["provenance"] = metadata.provenance;
    if (!metadata.licence.empty())
        document["licence"] = metadata.licence;
    if (metadata.isPublic)
        document["public"] = true;
    auto columns = nlohmann::ordered_json::array();
    for (const ColumnMetadata &column : metadata.columns) {
        nlohmann::ordered_json entry;
        entry["name"] = column.name;
        if (column.type)
            entry["type"] = *column.type == data::ColumnType::Numeric ? "numeric" : "categorical";
        if (column.bounds)
            entry["bounds"] = {column.bounds->lower, column.bounds->upper};
        if (!column.categories.empty())
            entry["categories"] = column.categories;
        if (!column.description.empty())
            entry["description"] = column.description;
        columns.push_back(std::move(entry));
    }
    document["columns"] = std::move(columns);
    // Replace invalid UTF-8 instead of throwing: the writer must not fail on odd labels.
    return document.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

Result<data::Table> applyDatasetMetadata(const data::Table &table, const DatasetMetadata &metadata)
{
    if (metadata.rows && *metadata.rows != table.rowCount())
        return makeError(ErrorCode::InvalidArgument, "the metadata declares " + std::to_string(*metadata.rows)
                                                         + " rows, but the data has "
                                                         + std::to_string(table.rowCount()));
    for (const ColumnMetadata &described : metadata.columns) {
        if (!table.columnIndex(described.name))
            return makeError(ErrorCode::NotFound, "the metadata describes column '" + described.name
                                                      + "', which the data does not have");
    }

    // The metadata only describes: new infos and a re-coding into the declared category order;
    // the table applies them to its rows (the loader never holds them, core/data/rows.h).
    std::vector<data::ColumnInfo> infos;
    std::vector<std::vector<std::int32_t>> recodes(table.columnCount());
    infos.reserve(table.columnCount());
    for (std::size_t i = 0; i < table.columnCount(); ++i) {
        data::ColumnInfo info = table.columnInfo(i);
        const ColumnMetadata *described = metadata.column(info.name);
        if (!described) {
            infos.push_back(std::move(info));
            continue;
        }
        const std::string where = "column '" + info.name + "': ";
        const bool numeric = info.type == data::ColumnType::Numeric;
        if (described->type && *described->type != info.type)
            return makeError(ErrorCode::InvalidArgument,
                             where + "the metadata declares it " + (numeric ? "categorical" : "numeric")
                                 + ", but it is " + (numeric ? "numeric" : "categorical"));
        if (!described->description.empty())
            info.description = described->description;
        // Declared type (and, for categories, declared list): nothing shown comes from the data.
        if (described->type && (numeric || !described->categories.empty()))
            info.domainFromData = false;
        if (described->bounds) {
            if (!numeric)
                return makeError(ErrorCode::InvalidArgument, where + "bounds apply to numeric columns only");
            info.declaredBounds = described->bounds;
        }
        if (!described->categories.empty()) {
            if (numeric)
                return makeError(ErrorCode::InvalidArgument,
                                 where + "categories apply to categorical columns only");
            // Re-code into the declared order; every label in the data must be declared (an
            // unused dictionary entry, mapped to −1, simply disappears).
            std::unordered_map<std::string_view, std::int32_t> declared;
            for (std::size_t c = 0; c < described->categories.size(); ++c)
                declared.emplace(described->categories[c], static_cast<std::int32_t>(c));
            std::vector<std::int32_t> &remap = recodes[i];
            remap.assign(info.categories.size(), -1);
            for (std::size_t c = 0; c < info.categories.size(); ++c)
                if (const auto found = declared.find(info.categories[c]); found != declared.end())
                    remap[c] = found->second;
            info.categories = described->categories;
        }
        infos.push_back(std::move(info));
    }

    std::string provenance = metadata.provenance.empty() ? table.provenance() : metadata.provenance;
    if (!metadata.licence.empty())
        provenance += (provenance.empty() ? "Licence: " : " Licence: ") + metadata.licence;
    auto described = table.redescribed(metadata.name.empty() ? table.name() : metadata.name,
                                       std::move(provenance), std::move(infos), recodes);
    if (!described)
        return described;
    return described->withPublic(metadata.isPublic || table.isPublic());
}

} // namespace pbx::io
