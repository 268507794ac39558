// SPDX-License-Identifier: MIT
#include "core/io/dataset_metadata_file.h"

#include "core/io/json_fields.h"
#include "core/io/text_file.h"
#include "core/util/try.h"

#include <filesystem>
#include <unordered_set>

namespace pbx::io {

namespace {

constexpr std::size_t maxDocumentBytes = std::size_t{4} * 1024 * 1024; // parseDatasetMetadata's limit

Error fieldError(const std::string &field, const std::string &message)
{
    return makeError(ErrorCode::InvalidArgument, field + ": " + message);
}

Result<void> checkText(const std::string &field, const std::string &text)
{
    if (!json::isUtf8(text))
        return fieldError(field, "not valid UTF-8 text");
    return {};
}

Result<void> checkCategories(const std::string &where, const std::vector<std::string> &categories)
{
    std::unordered_set<std::string> seen;
    for (std::size_t i = 0; i < categories.size(); ++i) {
        const std::string at = where + ".categories[" + std::to_string(i) + "]";
        if (categories[i].empty())
            return fieldError(at, "a category label cannot be empty");
        PBX_RETURN_IF_ERROR(checkText(at, categories[i]));
        if (!seen.insert(categories[i]).second)
            return fieldError(at, "category '" + categories[i] + "' is listed twice");
    }
    return {};
}

Result<void> checkColumn(const ColumnMetadata &column, const std::string &where)
{
    if (column.bounds && column.type == data::ColumnType::Categorical)
        return fieldError(where + ".bounds", "bounds apply to numeric columns only");
    if (column.bounds) {
        if (auto valid = column.bounds->validate(); !valid)
            return fieldError(where + ".bounds", valid.error().message);
    }
    if (!column.categories.empty() && column.type == data::ColumnType::Numeric)
        return fieldError(where + ".categories", "categories apply to categorical columns only");
    if (column.bounds && !column.categories.empty())
        return fieldError(where, "a column cannot have both bounds and categories");
    PBX_RETURN_IF_ERROR(checkCategories(where, column.categories));
    return checkText(where + ".description", column.description);
}

} // namespace

std::vector<std::string> datasetMetadataSidecars(const std::string &csvPath)
{
    namespace fs = std::filesystem;
    std::vector<std::string> places{csvPath + ".json"};
    fs::path stem(csvPath);
    if (stem.extension() == ".gz")
        stem.replace_extension();
    if (stem.extension() == ".csv")
        places.push_back(stem.replace_extension(".json").string());
    return places;
}

Result<void> checkDatasetMetadata(const DatasetMetadata &metadata)
{
    const std::pair<const char *, const std::string *> texts[] = {{"name", &metadata.name},
                                                                  {"title", &metadata.title},
                                                                  {"provenance", &metadata.provenance},
                                                                  {"licence", &metadata.licence}};
    for (const auto &[key, text] : texts)
        PBX_RETURN_IF_ERROR(checkText(key, *text));
    std::unordered_set<std::string> names;
    for (std::size_t i = 0; i < metadata.columns.size(); ++i) {
        const ColumnMetadata &column = metadata.columns[i];
        const std::string where = "columns[" + std::to_string(i) + "]";
        if (column.name.empty())
            return fieldError(where + ".name", "a column name cannot be empty");
        PBX_RETURN_IF_ERROR(checkText(where + ".name", column.name));
        if (!names.insert(column.name).second)
            return fieldError(where + ".name", "column '" + column.name + "' is described twice");
        PBX_RETURN_IF_ERROR(checkColumn(column, where + " ('" + column.name + "')"));
    }
    const std::string text = datasetMetadataToJson(metadata);
    if (text.size() > maxDocumentBytes)
        return makeError(ErrorCode::InvalidArgument,
                         "the metadata would be larger than 4 MiB, which the reader refuses");
    // The reader is the judge of the format: what is written must be what it accepts.
    if (auto back = parseDatasetMetadata(text); !back)
        return makeError(ErrorCode::InvalidArgument, back.error().message);
    return {};
}

Result<void> writeDatasetMetadataFile(const std::string &path, const DatasetMetadata &metadata,
                                      const std::vector<std::string> &inputs)
{
    PBX_RETURN_IF_ERROR(checkDatasetMetadata(metadata));
    for (const std::string &input : inputs)
        if (samePlace(path, input))
            return makeError(ErrorCode::InvalidArgument,
                             path + " names the same file as " + input + ", which it would overwrite");
    const auto exists = [&path] {
        std::error_code ec;
        return std::filesystem::symlink_status(path, ec).type() != std::filesystem::file_type::not_found;
    };
    const auto alreadyThere = [&path] {
        return makeError(ErrorCode::Io, path
                                            + ": already exists; a dataset's metadata file is never "
                                              "replaced (move it away first)");
    };
    if (exists())
        return alreadyThere();
    PBX_TRY(file, AtomicFile::open(path));
    auto written = file.commitNew(datasetMetadataToJson(metadata));
    if (!written && exists()) // created by someone else between the check and the rename
        return alreadyThere();
    return written;
}

} // namespace pbx::io
