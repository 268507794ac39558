// SPDX-License-Identifier: MIT
// A table or view in an SQLite file as a data::Source (SQLite's C API). The file is opened with
// SQLITE_OPEN_READONLY (and PRAGMA query_only): pbx never writes to it. Each aggregate is one
// prepared statement (core/sources/sql_statement.h) stepped to its end; a statement running past the
// descriptor's statement_timeout is interrupted by a progress handler and returns ResourceLimit; one
// running when the user cancels (setCancelRequested) is interrupted by the same handler and returns
// Cancelled.
#pragma once

#include "core/data/source.h"
#include "core/io/dataset_metadata.h"
#include "core/sources/declared_schema.h"
#include "core/sources/source_descriptor.h"
#include "core/sources/sql_statement.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>

struct sqlite3;
struct sqlite3_stmt;

namespace pbx::sources {

class SqliteSource final : public data::Source
{
public:
    /// Opens `descriptor.path` read-only and builds the schema from `metadata` and the table's
    /// catalogue (PRAGMA table_info; no row is read). Errors: Io "sqlite: cannot open '<path>': …"
    /// (a missing or unreadable file, not a database); NotFound "sqlite: no table or view '<name>'
    /// in '<path>'"; then as declaredSchema(); when the metadata declares "rows", one COUNT(*) checks
    /// it (checkDeclaredRows). The schema's files() are `files`: the metadata file's path and
    /// digest, given by the caller (path and sha256 empty: a database has no file digest).
    static Result<std::unique_ptr<SqliteSource>> open(const SqliteDescriptor &descriptor,
                                                      const io::DatasetMetadata &metadata,
                                                      data::DatasetFiles files = {});
    ~SqliteSource() override;

    const data::Table &schema() const override { return m_schema; }
    data::SourceKind kind() const override { return data::SourceKind::Sqlite; }
    std::string location() const override;
    std::optional<std::size_t> declaredRowCount() const override { return m_declaredRows; }
    /// The declared count; else, when the metadata says "public": true, the table's COUNT(*) on
    /// first use (countsRowsOnFirstUse), cached. Errors: rowCountFailed (Io, ResourceLimit).
    Result<std::optional<std::size_t>> publicRowCount() const override;
    std::optional<std::size_t> knownPublicRowCount() const override;
    std::string descriptor() const override { return sourceDescriptorText(m_descriptor); }
    /// sqlite3_interrupt stops the running statement at its next step (the progress handler, every
    /// 10,000 virtual-machine steps, would wait for many rows when each row is costly to compute).
    void setCancelRequested(bool requested) const override;

private:
    SqliteSource() = default;
    Result<data::QueryStatistics> computeStatistics(const data::CompiledQuery &query) const override;
    Result<data::CategoryCounts> computeCategoryCounts(std::size_t column,
                                                       const data::Predicate &where) const override;

    /// Runs `statement` to its end, each result row through `onRow`. Errors: Io, ResourceLimit.
    Result<void> run(const SqlStatement &statement, const std::function<void(sqlite3_stmt *)> &onRow) const;
    static int progress(void *self);

    sqlite3 *m_db = nullptr;
    SqliteDescriptor m_descriptor;
    std::string m_quotedTable;
    data::Table m_schema;
    std::optional<std::size_t> m_declaredRows;
    bool m_countsOnFirstUse = false;                  ///< public, no declared rows: COUNT(*) on first use
    mutable std::optional<std::size_t> m_countedRows; ///< that count, once run (under m_countedMutex)
    mutable std::mutex m_countedMutex; ///< after m_mutex when both are held; alone in knownPublicRowCount
    QuoteIdentifier m_quote;
    mutable std::mutex m_mutex;
    mutable std::chrono::steady_clock::time_point m_deadline;
    mutable std::atomic<bool> m_cancel{false}; ///< setCancelRequested; read by progress() and run()
};

} // namespace pbx::sources
