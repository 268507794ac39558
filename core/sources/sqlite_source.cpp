// SPDX-License-Identifier: MIT
#include "core/sources/sqlite_source.h"

#include "core/util/try.h"

#include <sqlite3.h>

#include <algorithm>
#include <cctype>

namespace pbx::sources {

namespace {

// SQLite's own identifier quoting: "%w" doubles every '"' (sqlite3_mprintf, "The %w format").
Result<std::string> quoteSqliteIdentifier(std::string_view name)
{
    if (name.find('\0') != std::string_view::npos)
        return makeError(ErrorCode::InvalidArgument, "sqlite: a name cannot contain a NUL byte");
    const std::string copy(name);
    char *quoted = sqlite3_mprintf("\"%w\"", copy.c_str());
    if (!quoted)
        return makeError(ErrorCode::ResourceLimit, "sqlite: out of memory quoting a name");
    std::string text(quoted);
    sqlite3_free(quoted);
    return text;
}

// Column affinity from a declared type (SQLite, "Determination Of Column Affinity").
CatalogType affinity(std::string declared)
{
    std::transform(declared.begin(), declared.end(), declared.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    if (declared.find("INT") != std::string::npos)
        return CatalogType::Numeric;
    if (declared.find("CHAR") != std::string::npos || declared.find("CLOB") != std::string::npos
        || declared.find("TEXT") != std::string::npos)
        return CatalogType::Text;
    if (declared.empty() || declared.find("BLOB") != std::string::npos)
        return CatalogType::Untyped;
    return CatalogType::Numeric; // REAL, FLOA, DOUB, and the NUMERIC default
}

std::string columnText(sqlite3_stmt *statement, int column)
{
    const auto *text = reinterpret_cast<const char *>(sqlite3_column_text(statement, column));
    const int bytes = sqlite3_column_bytes(statement, column);
    return text ? std::string(text, static_cast<std::size_t>(bytes)) : std::string();
}

} // namespace

Result<std::unique_ptr<SqliteSource>> SqliteSource::open(const SqliteDescriptor &descriptor,
                                                         const io::DatasetMetadata &metadata,
                                                         data::DatasetFiles files)
{
    std::unique_ptr<SqliteSource> source(new SqliteSource());
    source->m_descriptor = descriptor;
    source->m_quote = quoteSqliteIdentifier;
    const int opened = sqlite3_open_v2(descriptor.path.c_str(), &source->m_db, SQLITE_OPEN_READONLY, nullptr);
    if (opened != SQLITE_OK)
        return makeError(ErrorCode::Io,
                         "sqlite: cannot open '" + descriptor.path + "': "
                             + (source->m_db ? sqlite3_errmsg(source->m_db) : sqlite3_errstr(opened)));
    sqlite3_progress_handler(source->m_db, 10'000, &SqliteSource::progress, source.get());
    sqlite3_busy_timeout(source->m_db, std::min(descriptor.statementTimeoutMs, 10'000));
    PBX_TRY(quotedTable, quoteSqliteIdentifier(descriptor.table));
    source->m_quotedTable = std::move(quotedTable);

    SqlStatement queryOnly{"PRAGMA query_only = 1", {}};
    PBX_RETURN_IF_ERROR(source->run(queryOnly, [](sqlite3_stmt *) {}));
    // The catalogue: names and declared types, from the schema, not from a row.
    std::vector<CatalogColumn> catalog;
    const SqlStatement tableInfo{"SELECT name, type FROM pragma_table_info(?1)", {descriptor.table}};
    PBX_RETURN_IF_ERROR(source->run(tableInfo, [&](sqlite3_stmt *row) {
        CatalogColumn column;
        column.name = columnText(row, 0);
        column.typeName = columnText(row, 1);
        column.type = affinity(column.typeName);
        catalog.push_back(std::move(column));
    }));
    if (catalog.empty())
        return makeError(ErrorCode::NotFound,
                         "sqlite: no table or view '" + descriptor.table + "' in '" + descriptor.path + "'");
    PBX_TRY(schema, declaredSchema(metadata, catalog, descriptor.table, source->location()));
    source->m_schema = std::move(schema);
    source->m_schema.setFiles(std::move(files));
    if (metadata.rows) {
        std::int64_t rows = -1;
        PBX_RETURN_IF_ERROR(source->run({"SELECT COUNT(*) FROM " + source->m_quotedTable, {}},
                                        [&](sqlite3_stmt *row) { rows = sqlite3_column_int64(row, 0); }));
        PBX_RETURN_IF_ERROR(checkDeclaredRows(*metadata.rows, rows, descriptor.table));
    }
    source->m_declaredRows = metadata.rows;
    source->m_countsOnFirstUse = countsRowsOnFirstUse(metadata);
    return source;
}

Result<std::optional<std::size_t>> SqliteSource::publicRowCount() const
{
    if (!m_countsOnFirstUse)
        return m_declaredRows;
    if (auto known = knownPublicRowCount())
        return known;
    const std::lock_guard lock(m_mutex);
    if (auto known = knownPublicRowCount()) // counted while this call waited
        return known;
    {
        std::int64_t rows = -1;
        if (auto counted = run({"SELECT COUNT(*) FROM " + m_quotedTable, {}},
                               [&](sqlite3_stmt *row) { rows = sqlite3_column_int64(row, 0); });
            !counted)
            return rowCountFailed(counted.error(), m_descriptor.table);
        if (rows < 0)
            return rowCountFailed(makeError(ErrorCode::Io, "the count returned no row"), m_descriptor.table);
        const std::lock_guard counted(m_countedMutex);
        m_countedRows = static_cast<std::size_t>(rows);
    }
    return knownPublicRowCount();
}

std::optional<std::size_t> SqliteSource::knownPublicRowCount() const
{
    if (!m_countsOnFirstUse)
        return m_declaredRows;
    // Not m_mutex, which a running statement holds: the GUI thread asks this while a request or a
    // count runs on a worker, and must not wait for it.
    const std::lock_guard lock(m_countedMutex);
    return m_countedRows;
}

SqliteSource::~SqliteSource()
{
    sqlite3_close_v2(m_db);
}

std::string SqliteSource::location() const
{
    return "SQLite file " + m_descriptor.path + ", table " + m_descriptor.table;
}

void SqliteSource::setCancelRequested(bool requested) const
{
    m_cancel = requested;
    // Safe from another thread while the connection is open (SQLite, "Interrupt A Long-Running
    // Query"); with no statement running it does nothing, and run() checks m_cancel first.
    if (requested)
        sqlite3_interrupt(m_db);
}

int SqliteSource::progress(void *self)
{
    // Non-zero interrupts the running statement (SQLITE_INTERRUPT).
    const auto *source = static_cast<SqliteSource *>(self);
    return source->m_cancel || std::chrono::steady_clock::now() > source->m_deadline ? 1 : 0;
}

Result<void> SqliteSource::run(const SqlStatement &statement,
                               const std::function<void(sqlite3_stmt *)> &onRow) const
{
    const std::string where = "sqlite (" + m_descriptor.path + "): ";
    const auto cancelled = [&] {
        return makeError(ErrorCode::Cancelled, where + "the query was cancelled; nothing was computed");
    };
    if (m_cancel)
        return cancelled();
    m_deadline
        = std::chrono::steady_clock::now() + std::chrono::milliseconds(m_descriptor.statementTimeoutMs);
    sqlite3_stmt *prepared = nullptr;
    if (sqlite3_prepare_v2(m_db, statement.text.c_str(), static_cast<int>(statement.text.size() + 1),
                           &prepared, nullptr)
        != SQLITE_OK) {
        const std::string message = sqlite3_errmsg(m_db);
        sqlite3_finalize(prepared);
        return makeError(ErrorCode::Io, where + "the query failed: " + message);
    }
    const std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt *)> owner(prepared, sqlite3_finalize);
    for (std::size_t i = 0; i < statement.parameters.size(); ++i) {
        const int index = static_cast<int>(i + 1);
        const SqlParameter &parameter = statement.parameters[i];
        const int bound = std::holds_alternative<double>(parameter)
                              ? sqlite3_bind_double(prepared, index, std::get<double>(parameter))
                              : sqlite3_bind_text64(prepared, index, std::get<std::string>(parameter).data(),
                                                    std::get<std::string>(parameter).size(), SQLITE_TRANSIENT,
                                                    SQLITE_UTF8);
        if (bound != SQLITE_OK)
            return makeError(ErrorCode::Io, where + "cannot bind a value: " + sqlite3_errmsg(m_db));
    }
    for (;;) {
        const int stepped = sqlite3_step(prepared);
        // A statement that ends after the cancel was asked for counts as cancelled too.
        if (m_cancel)
            return cancelled();
        if (stepped == SQLITE_DONE)
            return {};
        if (stepped == SQLITE_ROW) {
            onRow(prepared);
            continue;
        }
        if (stepped == SQLITE_INTERRUPT)
            return makeError(ErrorCode::ResourceLimit, where + "the query ran over the statement timeout ("
                                                           + std::to_string(m_descriptor.statementTimeoutMs)
                                                           + " ms) and was stopped; nothing was computed");
        return makeError(ErrorCode::Io, where + "the query failed: " + sqlite3_errmsg(m_db));
    }
}

Result<data::QueryStatistics> SqliteSource::computeStatistics(const data::CompiledQuery &query) const
{
    const std::lock_guard lock(m_mutex);
    PBX_TRY(statement, statisticsStatement(SqlDialect::Sqlite, m_quote, m_quotedTable, m_schema, query));
    data::QueryStatistics statistics;
    bool seen = false;
    PBX_RETURN_IF_ERROR(run(statement, [&](sqlite3_stmt *row) {
        seen = true;
        statistics.count = static_cast<double>(sqlite3_column_int64(row, 0));
        if (sqlite3_column_count(row) == 3) {
            statistics.clippedSum = sqlite3_column_double(row, 1);
            statistics.centredSum = sqlite3_column_double(row, 2);
        }
    }));
    if (!seen)
        return makeError(ErrorCode::Io, "sqlite (" + m_descriptor.path + "): the aggregate returned no row");
    return statistics;
}

Result<data::CategoryCounts> SqliteSource::computeCategoryCounts(std::size_t column,
                                                                 const data::Predicate &where) const
{
    const std::lock_guard lock(m_mutex);
    PBX_TRY(statement,
            categoryCountsStatement(SqlDialect::Sqlite, m_quote, m_quotedTable, m_schema, column, where));
    data::CategoryCounts counts;
    counts.labels = m_schema.columnInfo(column).categories;
    counts.counts.assign(counts.labels.size(), 0);
    PBX_RETURN_IF_ERROR(run(statement, [&](sqlite3_stmt *row) {
        if (sqlite3_column_type(row, 0) == SQLITE_NULL)
            return; // missing: in no cell
        const std::string label = columnText(row, 0);
        const auto found = std::find(counts.labels.begin(), counts.labels.end(), label);
        if (found != counts.labels.end())
            counts.counts[static_cast<std::size_t>(found - counts.labels.begin())]
                += sqlite3_column_int64(row, 1);
    }));
    return counts;
}

} // namespace pbx::sources
