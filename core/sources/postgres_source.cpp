// SPDX-License-Identifier: MIT
#include "core/sources/postgres_source.h"

#include "core/util/try.h"

#include <libpq-fe.h>

#include <algorithm>
#include <charconv>
#include <deque>
#include <vector>

namespace pbx::sources {

namespace {

constexpr Oid float8Oid = 701; // pg_type.h: FLOAT8OID
constexpr Oid textOid = 25;    // TEXTOID

// libpq's messages end in a newline and may hold several lines: one line for the user.
std::string oneLine(const char *message)
{
    std::string text = message ? message : "";
    std::replace(text.begin(), text.end(), '\n', ' ');
    std::replace(text.begin(), text.end(), '\t', ' ');
    while (!text.empty() && text.back() == ' ')
        text.pop_back();
    // libpq may repeat its message for a lost connection ("… request. … request."): keep one copy.
    const std::size_t half = text.size() / 2;
    if (text.size() > 2 && text.size() % 2 == 1 && text[half] == ' '
        && text.compare(0, half, text, half + 1, half) == 0)
        text.resize(half);
    return text.empty() ? "no message from libpq" : text;
}

// The shortest text that reads back as the same double: the server's float8 input is exact.
std::string doubleText(double value)
{
    char buffer[64];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    return ec == std::errc() ? std::string(buffer, end) : std::string("NaN");
}

Result<double> parseDouble(const char *text, const std::string &where)
{
    double value = 0.0;
    const std::string_view view(text);
    const auto [end, ec] = std::from_chars(view.data(), view.data() + view.size(), value);
    if (ec != std::errc() || end != view.data() + view.size())
        return makeError(ErrorCode::Io,
                         where + "unexpected number '" + std::string(view) + "' from the server");
    return value;
}

Result<std::int64_t> parseCount(const char *text, const std::string &where)
{
    std::int64_t value = 0;
    const std::string_view view(text);
    const auto [end, ec] = std::from_chars(view.data(), view.data() + view.size(), value);
    if (ec != std::errc() || end != view.data() + view.size())
        return makeError(ErrorCode::Io,
                         where + "unexpected count '" + std::string(view) + "' from the server");
    return value;
}

CatalogType catalogType(char category)
{
    // pg_type.typcategory: N numeric, S string; anything else is not usable here.
    if (category == 'N')
        return CatalogType::Numeric;
    if (category == 'S')
        return CatalogType::Text;
    return CatalogType::Other;
}

// The connection: libpq's keyword/value pairs, the read-only and timeout settings as startup
// options (a descriptor cannot carry `options`, so nothing overrides them).
pg_conn *connect(const PostgresDescriptor &descriptor)
{
    std::vector<const char *> keys;
    std::vector<const char *> values;
    std::deque<std::string> owned; // the values' storage: a deque never moves what it holds
    const auto add = [&](const char *key, std::string value) {
        if (!value.empty()) {
            owned.push_back(std::move(value));
            keys.push_back(key);
            values.push_back(owned.back().c_str());
        }
    };
    add("host", descriptor.host);
    add("port", descriptor.port);
    add("user", descriptor.user);
    add("dbname", descriptor.database);
    add("sslmode", descriptor.sslmode);
    add("connect_timeout", std::to_string(descriptor.connectTimeoutS));
    // Over TCP, a peer that vanished without closing is noticed within about a minute (ignored on
    // a Unix socket).
    add("keepalives", "1");
    add("keepalives_idle", "30");
    add("keepalives_interval", "10");
    add("keepalives_count", "3");
    add("options", "-c default_transaction_read_only=on -c statement_timeout="
                       + std::to_string(descriptor.statementTimeoutMs) + " -c extra_float_digits=3");
    add("application_name", "pbx");
    keys.push_back(nullptr);
    values.push_back(nullptr);
    pg_conn *connection = PQconnectdbParams(keys.data(), values.data(), 0);
    // Server notices (a shutdown warning, …) are not written to the program's stderr.
    if (connection)
        PQsetNoticeProcessor(
            connection, [](void *, const char *) {}, nullptr);
    return connection;
}

} // namespace

Result<std::unique_ptr<PostgresSource>> PostgresSource::open(const PostgresDescriptor &descriptor,
                                                             const io::DatasetMetadata &metadata,
                                                             data::DatasetFiles files)
{
    std::unique_ptr<PostgresSource> source(new PostgresSource());
    source->m_descriptor = descriptor;
    source->m_connection = connect(descriptor);
    if (!source->m_connection)
        return makeError(ErrorCode::ResourceLimit, "postgresql: out of memory opening a connection");
    if (PQstatus(source->m_connection) != CONNECTION_OK)
        return makeError(ErrorCode::Io, "postgresql: cannot connect to " + source->location() + ": "
                                            + oneLine(PQerrorMessage(source->m_connection)));
    source->m_quote = [raw = source.get()](std::string_view name) { return raw->quote(name); };
    PBX_TRY(quotedTable, source->quote(descriptor.table));
    source->m_quotedTable = std::move(quotedTable);
    if (!descriptor.schema.empty()) {
        PBX_TRY(quotedSchema, source->quote(descriptor.schema));
        source->m_quotedTable = quotedSchema + "." + source->m_quotedTable;
    }

    // The options took: every statement runs read-only, under the timeout.
    PBX_TRY(settings, source->run({"SELECT current_setting('transaction_read_only')", {}}));
    if (std::string_view(PQgetvalue(settings.get(), 0, 0)) != "on")
        return makeError(ErrorCode::Unsupported, "postgresql: the server did not make the session read-only; "
                                                 "pbx reads only through a read-only session");
    PBX_TRY(catalog, source->readCatalogue());
    PBX_TRY(schema, declaredSchema(metadata, catalog, source->qualifiedName(), source->location()));
    source->m_schema = std::move(schema);
    source->m_schema.setFiles(std::move(files));
    if (metadata.rows) {
        PBX_TRY(counted, source->run({"SELECT COUNT(*) FROM " + source->m_quotedTable, {}}));
        PBX_TRY(rows, parseCount(PQgetvalue(counted.get(), 0, 0), "postgresql: "));
        PBX_RETURN_IF_ERROR(checkDeclaredRows(*metadata.rows, rows, source->qualifiedName()));
    }
    source->m_declaredRows = metadata.rows;
    source->m_countsOnFirstUse = countsRowsOnFirstUse(metadata);
    return source;
}

Result<std::optional<std::size_t>> PostgresSource::publicRowCount() const
{
    if (!m_countsOnFirstUse)
        return m_declaredRows;
    if (auto known = knownPublicRowCount())
        return known;
    const std::lock_guard lock(m_mutex);
    if (auto known = knownPublicRowCount()) // counted while this call waited
        return known;
    {
        auto counted = run({"SELECT COUNT(*) FROM " + m_quotedTable, {}});
        if (!counted)
            return rowCountFailed(counted.error(), qualifiedName());
        if (PQntuples(counted->get()) != 1 || PQnfields(counted->get()) != 1)
            return rowCountFailed(makeError(ErrorCode::Io, "the count returned no row"), qualifiedName());
        auto rows = parseCount(PQgetvalue(counted->get(), 0, 0), "postgresql: ");
        if (!rows || *rows < 0)
            return rowCountFailed(rows ? makeError(ErrorCode::Io, "a negative count") : rows.error(),
                                  qualifiedName());
        const std::lock_guard countedLock(m_countedMutex);
        m_countedRows = static_cast<std::size_t>(*rows);
    }
    return knownPublicRowCount();
}

std::optional<std::size_t> PostgresSource::knownPublicRowCount() const
{
    if (!m_countsOnFirstUse)
        return m_declaredRows;
    // Not m_mutex, which a running statement holds: the GUI thread asks this while a request or a
    // count runs on a worker, and must not wait for it.
    const std::lock_guard lock(m_countedMutex);
    return m_countedRows;
}

Result<std::vector<CatalogColumn>> PostgresSource::readCatalogue() const
{
    // The relation's live columns and their types' categories (no row is read). The name goes in
    // quoted, so to_regclass resolves exactly this spelling.
    const SqlStatement catalogue{
        "SELECT a.attname, format_type(a.atttypid, a.atttypmod), t.typcategory "
        "FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type t ON t.oid = a.atttypid "
        "WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum",
        {m_quotedTable}};
    PBX_TRY(columns, run(catalogue));
    std::vector<CatalogColumn> catalog;
    for (int row = 0; row < PQntuples(columns.get()); ++row) {
        CatalogColumn column;
        column.name = PQgetvalue(columns.get(), row, 0);
        column.typeName = PQgetvalue(columns.get(), row, 1);
        column.type = catalogType(PQgetvalue(columns.get(), row, 2)[0]);
        catalog.push_back(std::move(column));
    }
    if (catalog.empty())
        return makeError(ErrorCode::NotFound, "postgresql: no table or view '" + qualifiedName()
                                                  + "' in database '" + m_descriptor.database + "'");
    return catalog;
}

PostgresSource::~PostgresSource()
{
    PQfinish(m_connection);
}

std::string PostgresSource::location() const
{
    const PostgresDescriptor &d = m_descriptor;
    std::string text = "PostgreSQL database " + d.database + " on "
                       + (d.host.empty() ? std::string("the default host") : d.host);
    if (!d.port.empty())
        text += " port " + d.port;
    if (!d.user.empty())
        text += " (user " + d.user + ")";
    return text + ", table " + qualifiedName();
}

std::string PostgresSource::qualifiedName() const
{
    return m_descriptor.schema.empty() ? m_descriptor.table : m_descriptor.schema + "." + m_descriptor.table;
}

Result<std::string> PostgresSource::quote(std::string_view name) const
{
    if (name.find('\0') != std::string_view::npos)
        return makeError(ErrorCode::InvalidArgument, "postgresql: a name cannot contain a NUL byte");
    char *quoted = PQescapeIdentifier(m_connection, name.data(), name.size());
    if (!quoted)
        return makeError(ErrorCode::InvalidArgument, "postgresql: cannot quote the name '" + std::string(name)
                                                         + "': " + oneLine(PQerrorMessage(m_connection)));
    std::string text(quoted);
    PQfreemem(quoted);
    return text;
}

Result<PostgresSource::ResultHandle> PostgresSource::run(const SqlStatement &statement) const
{
    const std::string where = "postgresql (" + m_descriptor.database + ", table " + qualifiedName() + "): ";
    if (m_lost || PQstatus(m_connection) != CONNECTION_OK) {
        PQreset(m_connection); // once per call; the options (read-only, timeout) are kept
        m_lost = PQstatus(m_connection) != CONNECTION_OK;
        if (PQstatus(m_connection) != CONNECTION_OK)
            return makeError(ErrorCode::Io,
                             where + "cannot reach the server: " + oneLine(PQerrorMessage(m_connection))
                                 + "; nothing was computed");
    }
    // The handle a Cancel uses is in place before the flag is read: a cancel asked for after this
    // point either is seen below or reaches the statement through PQcancel.
    {
        const std::lock_guard cancelLock(m_cancelMutex);
        m_cancelHandle = PQgetCancel(m_connection);
    }
    const auto releaseHandle = [this](int *) {
        const std::lock_guard cancelLock(m_cancelMutex);
        PQfreeCancel(m_cancelHandle);
        m_cancelHandle = nullptr;
    };
    int token = 0;
    const std::unique_ptr<int, decltype(releaseHandle)> handleOwner(&token, releaseHandle);
    const auto cancelled = [&] {
        return makeError(ErrorCode::Cancelled, where + "the query was cancelled; nothing was computed");
    };
    if (m_cancel)
        return cancelled();
    std::vector<std::string> texts;
    std::vector<Oid> types;
    texts.reserve(statement.parameters.size());
    for (const SqlParameter &parameter : statement.parameters) {
        const bool number = std::holds_alternative<double>(parameter);
        texts.push_back(number ? doubleText(std::get<double>(parameter)) : std::get<std::string>(parameter));
        types.push_back(number ? float8Oid : textOid);
    }
    std::vector<const char *> values;
    for (const std::string &text : texts)
        values.push_back(text.c_str());
    ResultHandle result(PQexecParams(m_connection, statement.text.c_str(), static_cast<int>(values.size()),
                                     types.data(), values.data(), nullptr, nullptr, 0),
                        PQclear);
    // Cancelled while it ran (the server's 57014, as for a timeout) or just after: cancelled.
    if (m_cancel)
        return cancelled();
    if (result && PQresultStatus(result.get()) == PGRES_TUPLES_OK)
        return result;
    const char *state = result ? PQresultErrorField(result.get(), PG_DIAG_SQLSTATE) : nullptr;
    if (state && std::string_view(state) == "57014")
        return makeError(ErrorCode::ResourceLimit, where + "the query ran over the statement timeout ("
                                                       + std::to_string(m_descriptor.statementTimeoutMs)
                                                       + " ms) and was cancelled; nothing was computed");
    const std::string message
        = result ? oneLine(PQresultErrorMessage(result.get())) : oneLine(PQerrorMessage(m_connection));
    // Lost: libpq says so, or the error is libpq's own (no SQLSTATE: the socket closed), a connection
    // exception (class 08) or an operator intervention that ends the session (57P01 to 57P05).
    const std::string_view code = state ? state : "";
    if (PQstatus(m_connection) != CONNECTION_OK || code.empty() || code.starts_with("08")
        || code.starts_with("57P")) {
        m_lost = true; // the next call reconnects first
        return makeError(ErrorCode::Io, where + "the connection to the server was lost (" + message
                                            + "); nothing was computed");
    }
    return makeError(ErrorCode::Io, where + "the query failed: " + message + "; nothing was computed");
}

void PostgresSource::setCancelRequested(bool requested) const
{
    m_cancel = requested;
    if (!requested)
        return;
    const std::lock_guard cancelLock(m_cancelMutex);
    if (m_cancelHandle) {
        char message[256];
        (void)PQcancel(m_cancelHandle, message, sizeof message); // best effort: run() checks m_cancel
    }
}

Result<data::QueryStatistics> PostgresSource::computeStatistics(const data::CompiledQuery &query) const
{
    const std::lock_guard lock(m_mutex);
    PBX_TRY(statement, statisticsStatement(SqlDialect::Postgres, m_quote, m_quotedTable, m_schema, query));
    PBX_TRY(result, run(statement));
    const std::string where = "postgresql (" + m_descriptor.database + "): ";
    pg_result *rows = result.get();
    if (PQntuples(rows) != 1 || PQnfields(rows) < 1)
        return makeError(ErrorCode::Io, where + "the aggregate returned no row");
    data::QueryStatistics statistics;
    PBX_TRY(count, parseCount(PQgetvalue(rows, 0, 0), where));
    statistics.count = static_cast<double>(count);
    if (PQnfields(rows) == 3) {
        PBX_TRY(sum, parseDouble(PQgetvalue(rows, 0, 1), where));
        PBX_TRY(centred, parseDouble(PQgetvalue(rows, 0, 2), where));
        statistics.clippedSum = sum;
        statistics.centredSum = centred;
    }
    return statistics;
}

Result<data::CategoryCounts> PostgresSource::computeCategoryCounts(std::size_t column,
                                                                   const data::Predicate &where) const
{
    const std::lock_guard lock(m_mutex);
    PBX_TRY(statement,
            categoryCountsStatement(SqlDialect::Postgres, m_quote, m_quotedTable, m_schema, column, where));
    PBX_TRY(result, run(statement));
    const std::string context = "postgresql (" + m_descriptor.database + "): ";
    data::CategoryCounts counts;
    counts.labels = m_schema.columnInfo(column).categories;
    counts.counts.assign(counts.labels.size(), 0);
    pg_result *rows = result.get();
    for (int row = 0; row < PQntuples(rows); ++row) {
        if (PQgetisnull(rows, row, 0))
            continue; // missing: in no cell
        const std::string label(PQgetvalue(rows, row, 0),
                                static_cast<std::size_t>(PQgetlength(rows, row, 0)));
        PBX_TRY(count, parseCount(PQgetvalue(rows, row, 1), context));
        const auto found = std::find(counts.labels.begin(), counts.labels.end(), label);
        if (found != counts.labels.end())
            counts.counts[static_cast<std::size_t>(found - counts.labels.begin())] += count;
    }
    return counts;
}

} // namespace pbx::sources
