// SPDX-License-Identifier: MIT
// A table or view in a PostgreSQL database as a data::Source (libpq). The connection is opened with
// the startup options `default_transaction_read_only=on` and `statement_timeout=<ms>` (checked after
// connecting), so every statement pbx sends runs in a READ ONLY transaction and is cancelled by the
// server after the timeout. Each aggregate is one PQexecParams round trip: one statement, its values
// bound as parameters ($1 …), its identifiers quoted by PQescapeIdentifier.
//
// A lost connection (server stopped, network gone) fails the call in progress with Io; the next
// call first tries to reconnect (PQreset) once, so a session continues after the server is back.
// A failed call is never retried: its error reaches the caller, who has spent nothing yet.
//
// Cancel (setCancelRequested): the statement in progress is cancelled with PQcancel (a request on a
// connection of its own, which the server answers by stopping the statement: SQLSTATE 57014), and
// calls fail with Cancelled until the request is withdrawn; the connection stays usable.
#pragma once

#include "core/data/source.h"
#include "core/io/dataset_metadata.h"
#include "core/sources/declared_schema.h"
#include "core/sources/source_descriptor.h"
#include "core/sources/sql_statement.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

struct pg_cancel;
struct pg_conn;
struct pg_result;

namespace pbx::sources {

class PostgresSource final : public data::Source
{
public:
    /// Connects, checks the session is read-only, and builds the schema from `metadata` and the
    /// catalogue (pg_attribute; no row is read). Errors: Io "postgresql: cannot connect to …: <libpq's
    /// message>"; NotFound "postgresql: no table or view '<name>' in database '<db>'"; Unsupported
    /// when the server did not accept the read-only setting; then as declaredSchema(); when the
    /// metadata declares "rows", one COUNT(*) checks it (checkDeclaredRows).
    /// The schema's files() as SqliteSource::open sets them.
    static Result<std::unique_ptr<PostgresSource>> open(const PostgresDescriptor &descriptor,
                                                        const io::DatasetMetadata &metadata,
                                                        data::DatasetFiles files = {});
    ~PostgresSource() override;

    const data::Table &schema() const override { return m_schema; }
    data::SourceKind kind() const override { return data::SourceKind::Postgres; }
    std::string location() const override;
    std::optional<std::size_t> declaredRowCount() const override { return m_declaredRows; }
    /// The declared count; else, when the metadata says "public": true, the table's COUNT(*) on
    /// first use (countsRowsOnFirstUse), cached. Errors: rowCountFailed (Io, ResourceLimit).
    Result<std::optional<std::size_t>> publicRowCount() const override;
    std::optional<std::size_t> knownPublicRowCount() const override;
    std::string descriptor() const override { return sourceDescriptorText(m_descriptor); }
    /// "table", or "schema.table" when the descriptor names a schema (for messages, unquoted).
    std::string qualifiedName() const;
    /// PQcancel for the statement in progress (see the file comment).
    void setCancelRequested(bool requested) const override;

private:
    PostgresSource() = default;
    Result<data::QueryStatistics> computeStatistics(const data::CompiledQuery &query) const override;
    Result<data::CategoryCounts> computeCategoryCounts(std::size_t column,
                                                       const data::Predicate &where) const override;

    using ResultHandle = std::unique_ptr<pg_result, void (*)(pg_result *)>;
    /// Runs one statement and returns its rows (PGRES_TUPLES_OK). Reconnects first when the
    /// connection was lost. Errors: Io (connection, query), ResourceLimit (statement timeout).
    Result<ResultHandle> run(const SqlStatement &statement) const;
    Result<std::string> quote(std::string_view name) const;
    /// The table's columns from pg_attribute. Errors: NotFound when there is no such relation.
    Result<std::vector<CatalogColumn>> readCatalogue() const;

    pg_conn *m_connection = nullptr;
    PostgresDescriptor m_descriptor;
    std::string m_quotedTable;
    data::Table m_schema;
    std::optional<std::size_t> m_declaredRows;
    bool m_countsOnFirstUse = false;                  ///< public, no declared rows: COUNT(*) on first use
    mutable std::optional<std::size_t> m_countedRows; ///< that count, once run (under m_countedMutex)
    mutable std::mutex m_countedMutex; ///< after m_mutex when both are held; alone in knownPublicRowCount
    QuoteIdentifier m_quote;
    mutable std::mutex m_mutex;
    mutable bool m_lost = false;                 ///< a call lost the connection: the next one resets it first
    mutable std::atomic<bool> m_cancel{false};   ///< setCancelRequested
    mutable std::mutex m_cancelMutex;            ///< guards m_cancelHandle (m_mutex is held by run())
    mutable pg_cancel *m_cancelHandle = nullptr; ///< the running statement's, while run() waits
};

} // namespace pbx::sources
