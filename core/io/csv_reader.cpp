// SPDX-License-Identifier: MIT
// CSV → Table in two passes over the bytes with libcsv: the first checks the shape and decides
// each column's type, the second fills typed storage. Two cheap passes avoid keeping every
// cell as a string, which for a large file would cost far more memory than the table itself.
#include "core/io/csv_reader.h"

#include "core/io/gzip.h"
#include "core/util/try.h"

#include <csv.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <unordered_map>

namespace pbx::io {

namespace {

// One record as libcsv delivered it. Buffers are reused from row to row.
struct Row
{
    std::vector<std::string> fields; ///< only the first `count` entries are valid
    std::vector<std::size_t> lines;  ///< physical line on which each field ended
    std::size_t count = 0;
    std::size_t endLine = 0;
    bool firstIsNull = false; ///< the first field was empty and unquoted

    const std::string &field(std::size_t i) const { return fields[i]; }
};

using RowHandler = std::function<Result<void>(const Row &)>;

struct ScanContext
{
    const RowHandler *onRow = nullptr;
    std::size_t maxFields = 0;
    std::size_t line = 1;
    Row row;
    std::optional<Error> error;
};

void onField(void *data, std::size_t length, void *context)
{
    auto &ctx = *static_cast<ScanContext *>(context);
    if (ctx.error)
        return; // libcsv cannot be stopped from a callback; ignore the rest
    Row &row = ctx.row;
    if (row.count >= ctx.maxFields) {
        ctx.error
            = makeError(ErrorCode::Parse, "line " + std::to_string(ctx.line) + ": more than "
                                              + std::to_string(ctx.maxFields) + " fields; refusing the file");
        return;
    }
    if (row.fields.size() <= row.count) {
        row.fields.emplace_back();
        row.lines.emplace_back();
    }
    // CSV_EMPTY_IS_NULL gives a null pointer for an empty unquoted field; both mean empty here.
    row.fields[row.count].assign(data ? static_cast<const char *>(data) : "", data ? length : 0);
    row.lines[row.count] = ctx.line;
    if (row.count == 0)
        row.firstIsNull = data == nullptr;
    ++row.count;
}

void onRowEnd(int /*terminator*/, void *context)
{
    auto &ctx = *static_cast<ScanContext *>(context);
    if (ctx.error)
        return;
    Row &row = ctx.row;
    row.endLine = ctx.line;
    // A line of only spaces arrives as one empty unquoted field; it is a blank line, not data.
    const bool blank = row.count == 1 && row.firstIsNull;
    if (!blank) {
        if (auto handled = (*ctx.onRow)(row); !handled)
            ctx.error = handled.error();
    }
    row.count = 0;
}

std::size_t characterColumn(std::string_view line, std::size_t byteOffset)
{
    std::size_t characters = 0;
    for (std::size_t i = 0; i < byteOffset && i < line.size(); ++i) {
        if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80)
            ++characters;
    }
    return characters + 1;
}

// Feeds libcsv one physical line at a time so callbacks know the current line number. `finish`
// false: the bytes are a prefix of the file, and a record they leave open is dropped, not an error.
Result<void> scanCsv(std::string_view bytes, char delimiter, std::size_t maxFields, const RowHandler &onRow,
                     bool finish = true)
{
    csv_parser parser;
    if (csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI | CSV_EMPTY_IS_NULL) != 0)
        return makeError(ErrorCode::Parse, "CSV parser could not be initialised");
    csv_set_delim(&parser, static_cast<unsigned char>(delimiter));
    struct Guard
    {
        csv_parser *p;
        ~Guard() { csv_free(p); }
    } guard{&parser};

    ScanContext ctx;
    ctx.onRow = &onRow;
    ctx.maxFields = maxFields;
    std::size_t pos = 0;
    while (pos < bytes.size() && !ctx.error) {
        const std::size_t newline = bytes.find('\n', pos);
        const std::size_t end = newline == std::string_view::npos ? bytes.size() : newline + 1;
        const std::string_view chunk = bytes.substr(pos, end - pos);
        const std::size_t parsed = csv_parse(&parser, chunk.data(), chunk.size(), onField, onRowEnd, &ctx);
        if (ctx.error)
            break;
        if (parsed != chunk.size())
            return makeError(ErrorCode::Parse,
                             "line " + std::to_string(ctx.line) + ", character "
                                 + std::to_string(characterColumn(chunk, parsed))
                                 + ": malformed quoting (a quote inside an unquoted field, or "
                                   "text after a closing quote)");
        pos = end;
        if (newline != std::string_view::npos)
            ++ctx.line;
    }
    if (!ctx.error && finish && csv_fini(&parser, onField, onRowEnd, &ctx) != 0)
        return makeError(ErrorCode::Parse,
                         "line " + std::to_string(ctx.line) + ": the file ends inside a quoted field");
    if (ctx.error)
        return *ctx.error;
    return {};
}

// Whole-cell parse as a finite double; "+4" is accepted like "4".
std::optional<double> parseNumber(std::string_view text)
{
    if (!text.empty() && text.front() == '+') {
        text.remove_prefix(1);
        if (!text.empty() && (text.front() == '+' || text.front() == '-'))
            return std::nullopt;
    }
    double value = 0.0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(value))
        return std::nullopt;
    return value;
}

std::string shownText(std::string_view text)
{
    constexpr std::size_t limit = 40;
    return "'" + std::string(text.substr(0, limit)) + (text.size() > limit ? "…'" : "'");
}

struct ColumnPlan
{
    std::string name;
    data::ColumnType type = data::ColumnType::Numeric;
    bool typeDeclared = false;
    const ColumnMetadata *metadata = nullptr;
};

class CsvReader
{
public:
    CsvReader(std::string_view bytes, const CsvReadOptions &options) : m_bytes(bytes), m_options(options) {}

    Result<std::vector<data::Column>> read()
    {
        if (auto first = scanCsv(m_bytes, m_options.delimiter, m_options.maxColumns,
                                 [this](const Row &row) { return inspect(row); });
            !first)
            return first.error();
        if (m_plans.empty())
            return makeError(ErrorCode::Parse, "the file is empty; expected a header row");
        if (m_rows == 0)
            return makeError(ErrorCode::Parse, "the file has a header but no data rows");

        m_columns.resize(m_plans.size());
        m_labels.resize(m_plans.size());
        for (std::size_t c = 0; c < m_plans.size(); ++c) {
            data::Column &column = m_columns[c];
            column.info.name = m_plans[c].name;
            column.info.type = m_plans[c].type;
            if (column.info.type == data::ColumnType::Numeric) {
                column.numeric.reserve(m_rows);
            } else {
                column.codes.reserve(m_rows);
                if (const ColumnMetadata *declared = m_plans[c].metadata;
                    declared && !declared->categories.empty())
                    internAll(c, declared->categories);
            }
        }
        m_header = false;
        if (auto second = scanCsv(m_bytes, m_options.delimiter, m_options.maxColumns,
                                  [this](const Row &row) { return fill(row); });
            !second)
            return second.error();
        sortInferredDictionaries();
        return std::move(m_columns);
    }

private:
    std::string where(const Row &row, std::size_t c) const
    {
        return "line " + std::to_string(row.lines[c]) + ", column " + std::to_string(c + 1) + " ('"
               + m_plans[c].name + "')";
    }

    // Pass 1: header, shape, emptiness and types.
    Result<void> inspect(const Row &row)
    {
        if (m_plans.empty())
            return readHeader(row);
        if (row.count != m_plans.size())
            return makeError(ErrorCode::Parse, "line " + std::to_string(row.endLine) + ": expected "
                                                   + std::to_string(m_plans.size())
                                                   + " fields as in the header, found "
                                                   + std::to_string(row.count));
        if (++m_rows > m_options.maxRows)
            return makeError(ErrorCode::Parse, "more than " + std::to_string(m_options.maxRows)
                                                   + " data rows; refusing the file");
        for (std::size_t c = 0; c < row.count; ++c) {
            const std::string_view cell = row.field(c);
            if (cell.empty())
                return makeError(ErrorCode::Parse,
                                 where(row, c)
                                     + ": empty cell; missing values are not supported, so remove "
                                       "or fill in this row");
            ColumnPlan &plan = m_plans[c];
            if (plan.type != data::ColumnType::Numeric || parseNumber(cell))
                continue;
            if (plan.typeDeclared)
                return makeError(ErrorCode::Parse,
                                 where(row, c) + ": " + shownText(cell)
                                     + " is not a finite number, but the metadata declares the "
                                       "column numeric");
            plan.type = data::ColumnType::Categorical;
        }
        return {};
    }

    Result<void> readHeader(const Row &row)
    {
        std::unordered_map<std::string_view, std::size_t> seen;
        for (std::size_t c = 0; c < row.count; ++c) {
            const std::string_view name = row.field(c);
            const std::string at
                = "line " + std::to_string(row.lines[c]) + ", column " + std::to_string(c + 1);
            if (name.empty())
                return makeError(ErrorCode::Parse, at + ": empty column name in the header");
            if (const auto [it, inserted] = seen.emplace(name, c); !inserted)
                return makeError(ErrorCode::Parse, at + ": duplicate column name " + shownText(name)
                                                       + " (also column " + std::to_string(it->second + 1)
                                                       + ")");
        }
        for (std::size_t c = 0; c < row.count; ++c) {
            ColumnPlan plan;
            plan.name = std::string(row.field(c));
            if (m_options.metadata)
                plan.metadata = m_options.metadata->column(plan.name);
            if (const ColumnMetadata *declared = plan.metadata) {
                // Declared bounds imply numeric and declared categories imply categorical.
                if (declared->type)
                    plan.type = *declared->type;
                else if (!declared->categories.empty())
                    plan.type = data::ColumnType::Categorical;
                plan.typeDeclared = declared->type || declared->bounds || !declared->categories.empty();
            }
            m_plans.push_back(std::move(plan));
        }
        if (m_options.metadata) {
            for (const ColumnMetadata &described : m_options.metadata->columns) {
                if (!seen.count(described.name))
                    return makeError(ErrorCode::NotFound, "the metadata describes column "
                                                              + shownText(described.name)
                                                              + ", which the CSV header does not have");
            }
        }
        return {};
    }

    // Pass 2: typed storage. Shape and numbers were validated in pass 1.
    Result<void> fill(const Row &row)
    {
        if (!m_header) {
            m_header = true;
            return {};
        }
        for (std::size_t c = 0; c < row.count; ++c) {
            data::Column &column = m_columns[c];
            const std::string &cell = row.field(c);
            if (column.info.type == data::ColumnType::Numeric) {
                column.numeric.push_back(*parseNumber(cell));
                continue;
            }
            auto &labels = m_labels[c];
            auto found = labels.find(cell);
            if (found == labels.end()) {
                const ColumnMetadata *declared = m_plans[c].metadata;
                if (declared && !declared->categories.empty())
                    return makeError(ErrorCode::Parse, where(row, c) + ": label " + shownText(cell)
                                                           + " is not among the declared categories");
                const auto code = static_cast<std::int32_t>(column.info.categories.size());
                found = labels.emplace(cell, code).first;
                column.info.categories.emplace_back(cell);
            }
            column.codes.push_back(found->second);
        }
        return {};
    }

    void internAll(std::size_t c, const std::vector<std::string> &labels)
    {
        for (const std::string &label : labels) {
            m_labels[c].emplace(label, static_cast<std::int32_t>(m_columns[c].info.categories.size()));
            m_columns[c].info.categories.push_back(label);
        }
    }

    // Inferred dictionaries are built in order of first appearance; sorting them makes the codes
    // independent of row order. Declared dictionaries keep the declared order.
    void sortInferredDictionaries()
    {
        for (std::size_t c = 0; c < m_columns.size(); ++c) {
            data::Column &column = m_columns[c];
            const ColumnMetadata *declared = m_plans[c].metadata;
            if (column.info.type != data::ColumnType::Categorical
                || (declared && !declared->categories.empty()))
                continue;
            std::vector<std::string> sorted = column.info.categories;
            std::sort(sorted.begin(), sorted.end());
            std::unordered_map<std::string_view, std::int32_t> newCode;
            for (std::size_t i = 0; i < sorted.size(); ++i)
                newCode.emplace(sorted[i], static_cast<std::int32_t>(i));
            std::vector<std::int32_t> remap(column.info.categories.size());
            for (std::size_t i = 0; i < remap.size(); ++i)
                remap[i] = newCode.at(column.info.categories[i]);
            for (std::int32_t &code : column.codes)
                code = remap[static_cast<std::size_t>(code)];
            column.info.categories = std::move(sorted);
        }
    }

    std::string_view m_bytes;
    const CsvReadOptions &m_options;
    std::vector<ColumnPlan> m_plans;
    std::size_t m_rows = 0;
    bool m_header = false;
    std::vector<data::Column> m_columns;
    std::vector<std::unordered_map<std::string, std::int32_t>> m_labels;
};

Result<std::string> readWholeFile(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return makeError(ErrorCode::Io, "cannot open '" + path + "'");
    std::string bytes;
    constexpr std::size_t chunk = std::size_t{1} << 20;
    while (in) {
        const std::size_t before = bytes.size();
        if (before > maxCsvFileBytes)
            return makeError(ErrorCode::Io, "'" + path + "' is larger than "
                                                + std::to_string(maxCsvFileBytes >> 20)
                                                + " MiB; refusing to read it");
        bytes.resize(before + chunk);
        in.read(bytes.data() + before, static_cast<std::streamsize>(chunk));
        bytes.resize(before + static_cast<std::size_t>(in.gcount()));
    }
    if (in.bad())
        return makeError(ErrorCode::Io, "cannot read '" + path + "'");
    return bytes;
}

Result<data::Table> buildTable(std::string_view bytes, std::string tableName, std::string provenance,
                               const CsvReadOptions &options)
{
    if (options.delimiter == '"' || options.delimiter == '\r' || options.delimiter == '\n')
        return makeError(ErrorCode::InvalidArgument, "the CSV delimiter cannot be a quote or a line break");
    if (options.maxRows == 0 || options.maxColumns == 0)
        return makeError(ErrorCode::InvalidArgument, "CSV row and column limits must be positive");
    constexpr std::string_view bom = "\xEF\xBB\xBF";
    if (bytes.substr(0, bom.size()) == bom)
        bytes.remove_prefix(bom.size());

    PBX_TRY(columns, CsvReader(bytes, options).read());
    // What the reader found is what the data say; applyDatasetMetadata() clears the mark for
    // every column whose type and categories are declared.
    for (data::Column &column : columns)
        column.info.domainFromData = true;
    Result<data::Table> table
        = data::Table::create(std::move(tableName), std::move(columns), std::move(provenance));
    if (!table || !options.metadata)
        return table;
    return applyDatasetMetadata(*table, *options.metadata);
}

// The bytes previewCsvFile() reads: at most `maxBytes` of the file, cut after its last line end
// when the file is longer (so no line is parsed half). `cut` tells whether bytes were left.
Result<std::string> readPrefix(const std::string &path, std::size_t maxBytes, bool &cut)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return makeError(ErrorCode::Io, "cannot open '" + path + "'");
    std::string bytes(maxBytes + 1, '\0');
    in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (in.bad())
        return makeError(ErrorCode::Io, "cannot read '" + path + "'");
    bytes.resize(static_cast<std::size_t>(in.gcount()));
    if (looksGzipped(bytes))
        return makeError(
            ErrorCode::Unsupported,
            path + ": gzip-compressed; decompress it to import it (it can still be opened as it is)");
    cut = bytes.size() > maxBytes;
    if (cut) {
        bytes.resize(maxBytes);
        const std::size_t lastLineEnd = bytes.rfind('\n');
        bytes.resize(lastLineEnd == std::string::npos ? 0 : lastLineEnd + 1);
    }
    return bytes;
}

} // namespace

Result<CsvPreview> previewCsv(std::string_view bytes, bool moreFollows, std::size_t maxRows, char delimiter)
{
    if (delimiter == '"' || delimiter == '\r' || delimiter == '\n')
        return makeError(ErrorCode::InvalidArgument, "the CSV delimiter cannot be a quote or a line break");
    constexpr std::string_view bom = "\xEF\xBB\xBF";
    if (bytes.substr(0, bom.size()) == bom)
        bytes.remove_prefix(bom.size());
    CsvPreview preview;
    bool full = false; // maxRows rows were taken and another record followed
    const RowHandler take = [&](const Row &row) -> Result<void> {
        if (!preview.header.empty() && preview.rows.size() == maxRows) {
            full = true;
            return makeError(ErrorCode::Cancelled, "the preview is full");
        }
        std::vector<std::string> fields(row.fields.begin(),
                                        row.fields.begin() + static_cast<std::ptrdiff_t>(row.count));
        if (preview.header.empty() && preview.rows.empty()) {
            preview.header = std::move(fields);
            return {};
        }
        preview.rows.push_back(std::move(fields));
        preview.lines.push_back(row.endLine);
        return {};
    };
    auto scanned = scanCsv(bytes, delimiter, CsvReadOptions{}.maxColumns, take, !moreFollows);
    if (!scanned && !full)
        return scanned.error();
    if (preview.header.empty())
        return makeError(ErrorCode::Parse,
                         moreFollows ? "no header row in the first " + std::to_string(bytes.size()) + " bytes"
                                     : "the file is empty; expected a header row");
    preview.whole = !full && !moreFollows;
    return preview;
}

Result<CsvPreview> previewCsvFile(const std::string &path, std::size_t maxRows, std::size_t maxBytes,
                                  char delimiter)
{
    bool cut = false;
    PBX_TRY(bytes, readPrefix(path, maxBytes, cut));
    if (cut && bytes.empty())
        return makeError(ErrorCode::Parse, path + ": the first line is longer than "
                                               + std::to_string(maxBytes) + " bytes; refusing to preview it");
    auto preview = previewCsv(bytes, cut, maxRows, delimiter);
    if (!preview)
        return makeError(preview.error().code, path + ": " + preview.error().message);
    return preview;
}

Result<data::Table> readCsv(std::string_view bytes, std::string tableName, const CsvReadOptions &options)
{
    return buildTable(bytes, std::move(tableName), {}, options);
}

Result<data::Table> readCsvFile(const std::string &path, const CsvReadOptions &options)
{
    Result<std::string> bytes = readWholeFile(path);
    if (!bytes)
        return bytes.error();
    if (looksGzipped(*bytes)) {
        Result<std::string> inflated = gunzip(*bytes, maxCsvFileBytes);
        if (!inflated)
            return makeError(inflated.error().code, path + ": " + inflated.error().message);
        bytes = std::move(inflated);
    }

    // "data.csv.gz" → "data": drop a .gz, then a .csv extension.
    std::filesystem::path stem = std::filesystem::path(path).filename();
    if (stem.extension() == ".gz")
        stem = stem.stem();
    if (stem.extension() == ".csv")
        stem = stem.stem();

    // Metadata provenance, when given, replaces this minimal note.
    Result<data::Table> table = buildTable(
        *bytes, stem.string(), "read from " + std::filesystem::path(path).filename().string(), options);
    if (!table)
        return makeError(table.error().code, path + ": " + table.error().message);
    return table;
}

} // namespace pbx::io
