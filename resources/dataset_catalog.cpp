// SPDX-License-Identifier: MIT
// Embedded datasets are a gzip-compressed CSV plus its metadata, both stored as Qt resources
// under :/datasets/; this file reads them with QFile and hands the bytes to the core readers.
#include "resources/dataset_catalog.h"

#include "core/io/csv_reader.h"
#include "core/io/dataset_metadata.h"
#include "core/io/digest.h"
#include "core/io/gzip.h"
#include "core/sources/open_source.h"
#include "core/util/try.h"

#include <QFile>
#include <QString>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <system_error>

namespace pbx::resources {

namespace {

bool equalsIgnoreCase(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
               return lower(x) == lower(y);
           });
}

Result<std::string> readResource(const std::string &name)
{
    const QString path = QStringLiteral(":/datasets/") + QString::fromStdString(name);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::Io, "cannot open embedded resource '" + path.toStdString()
                                            + "': " + file.errorString().toStdString());
    const QByteArray bytes = file.readAll();
    return std::string(bytes.constData(), static_cast<std::size_t>(bytes.size()));
}

Result<data::Table> loadEmbedded(const std::string &name)
{
    Result<std::string> metadataText = readResource(name + ".json");
    if (!metadataText)
        return metadataText.error();
    Result<io::DatasetMetadata> metadata = io::parseDatasetMetadata(*metadataText);
    if (!metadata)
        return makeError(metadata.error().code, name + ".json: " + metadata.error().message);

    Result<std::string> compressed = readResource(name + ".csv.gz");
    if (!compressed)
        return compressed.error();
    Result<std::string> csv = io::gunzip(*compressed);
    if (!csv)
        return makeError(csv.error().code, name + ".csv.gz: " + csv.error().message);

    io::CsvReadOptions options;
    options.metadata = &metadata.value();
    Result<data::Table> table = io::readCsv(*csv, name, options);
    if (!table)
        return makeError(table.error().code, name + ".csv.gz: " + table.error().message);
    return table->withPublic(true); // embedded datasets are published data
}

bool isFile(const std::filesystem::path &path)
{
    std::error_code error;
    return std::filesystem::is_regular_file(path, error);
}

// "<path>.json" first (it names one file exactly), then the same stem with ".json".
std::optional<std::filesystem::path> findSidecar(const std::filesystem::path &csv)
{
    std::filesystem::path sibling = csv;
    sibling += ".json";
    if (isFile(sibling))
        return sibling;
    std::filesystem::path stem = csv;
    if (stem.extension() == ".gz")
        stem.replace_extension();
    if (stem.extension() == ".csv") {
        stem.replace_extension(".json");
        if (isFile(stem))
            return stem;
    }
    return std::nullopt;
}

} // namespace

std::vector<std::string> embeddedDatasetNames()
{
    return {std::string(defaultDatasetName)};
}

Result<data::Table> loadDataset(std::string_view nameOrPath)
{
    if (nameOrPath.empty())
        return makeError(ErrorCode::InvalidArgument, "no dataset name or file given");
    for (const std::string &name : embeddedDatasetNames()) {
        if (equalsIgnoreCase(name, nameOrPath))
            return loadEmbedded(name);
    }

    const std::filesystem::path path{std::string(nameOrPath)};
    if (!isFile(path) && sources::isSourceDescriptor(nameOrPath))
        return makeError(
            ErrorCode::Unsupported,
            "'" + std::string(nameOrPath)
                + "' is a database table, whose rows stay in the database; this reads the rows "
                  "in memory, so it takes an embedded dataset or a CSV file (pbx-cli run answers "
                  "on a database table, docs/data-sources.md)");
    if (!isFile(path)) {
        std::string names;
        for (const std::string &name : embeddedDatasetNames())
            names += (names.empty() ? "" : ", ") + name;
        return makeError(ErrorCode::NotFound, "'" + std::string(nameOrPath)
                                                  + "' is neither an embedded dataset (" + names
                                                  + ") nor a readable file");
    }
    io::CsvReadOptions options;
    std::optional<io::DatasetMetadata> metadata;
    if (const auto sidecar = findSidecar(path)) {
        Result<io::DatasetMetadata> parsed = io::readDatasetMetadataFile(sidecar->string());
        if (!parsed)
            return parsed.error();
        metadata = std::move(parsed).value();
        options.metadata = &*metadata;
    }
    auto table = io::readCsvFile(path.string(), options);
    if (!table)
        return table;
    // Journals and transcripts record where the data came from and what it was, so a session is
    // never resumed or verified against other data.
    data::DatasetFiles files;
    std::error_code error;
    files.path = std::filesystem::absolute(path, error).lexically_normal().string();
    auto digest = io::sha256OfFile(path.string());
    if (!digest)
        return digest.error();
    files.sha256 = *digest;
    if (const auto sidecar = findSidecar(path)) {
        files.metadataPath = std::filesystem::absolute(*sidecar, error).lexically_normal().string();
        auto metadataDigest = io::sha256OfFile(sidecar->string());
        if (!metadataDigest)
            return metadataDigest.error();
        files.metadataSha256 = *metadataDigest;
    }
    table->setFiles(std::move(files));
    return table;
}

Result<std::shared_ptr<const data::Source>> openDataset(std::string_view text,
                                                        const std::string &metadataPath)
{
    if (!sources::isSourceDescriptor(text)) {
        if (!metadataPath.empty())
            return makeError(ErrorCode::InvalidArgument,
                             "metadata: a metadata file is given only with a database source (a CSV file's "
                             "metadata is its sidecar next to it, an embedded dataset's is built in)");
        auto table = loadDataset(text);
        if (!table)
            return table.error();
        return std::shared_ptr<const data::Source>(std::make_shared<const data::TableSource>(
            std::make_shared<const data::Table>(std::move(table).value())));
    }
    if (metadataPath.empty())
        return makeError(
            ErrorCode::InvalidArgument,
            "metadata: a database source needs its metadata file (bounds, categories and the row "
            "count are declared there, never read from the data)");
    PBX_TRY(descriptor, sources::parseSourceDescriptor(text));
    PBX_TRY(metadata, io::readDatasetMetadataFile(metadataPath));
    data::DatasetFiles files;
    std::error_code error;
    files.metadataPath = std::filesystem::absolute(metadataPath, error).lexically_normal().string();
    PBX_TRY(digest, io::sha256OfFile(metadataPath));
    files.metadataSha256 = digest;
    PBX_TRY(source, sources::openDatabaseSource(descriptor, metadata, std::move(files)));
    return std::shared_ptr<const data::Source>(std::move(source));
}

} // namespace pbx::resources
