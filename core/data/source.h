// SPDX-License-Identifier: MIT
// Where a dataset's rows live, and the aggregates computed where they live (docs/data-sources.md).
// A Source shows its schema (names, types, declared bounds and categories, the declared row count)
// to anyone. Its aggregates — count, clipped sum and centred clipped sum for a predicate, and a
// histogram's per-category counts — are private: they are computed from the rows, so they are
// reached only through a SourceAggregates, which comes from exactly the two doors of Rows
// (core/data/rows.h, docs/private-data.md):
//   (a) a session::Session, for its own source: every release that reads them is charged;
//   (b) publicAggregates(), which succeeds only for a source whose data are declared public.
// Implementations: TableSource (the in-memory table, through the existing code paths: the same
// numbers bit for bit), and the SQLite and PostgreSQL sources of core/sources, which push the
// aggregates down into the database (one statement per call).
//
// Failure before the charge: a database call may fail (a dropped connection, a statement timeout, a
// locked file). Every aggregate is returned as a Result and computed in full before a caller may
// spend anything on it, so the caller's order — compute the true answer, then charge, then draw the
// noise — turns any failure into a refusal with nothing spent (the session must keep that order;
// docs/data-sources.md, "Wiring"). Whether a call fails depends on the server, not on the rows'
// values — except that a statement's running time, and so a timeout, may (docs/data-sources.md,
// "Read-only, timeouts, failures").
#pragma once

#include "core/data/predicate.h"
#include "core/data/query.h"
#include "core/data/rows.h"
#include "core/data/table.h"
#include "core/util/result.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pbx::session {
class Session;
}

namespace pbx::data {

enum class SourceKind { InMemory, Sqlite, Postgres };

/// "in-memory table", "SQLite", "PostgreSQL".
std::string_view sourceKindName(SourceKind kind);

/// True per-cell counts of a categorical column's declared categories, over the rows a predicate
/// selects. Private: only mechanisms may read them. labels[i] is the i-th declared category (empty
/// cells included); a row whose value is missing (SQL NULL) or not a declared label falls in no cell,
/// exactly as `column == "label"` matches it for no label.
struct CategoryCounts
{
    std::vector<std::string> labels;
    std::vector<std::int64_t> counts; ///< same size as labels
};

class SourceAggregates;

/// A dataset wherever it lives. Not copyable; the implementations are safe to call from one thread
/// at a time per source (database sources serialise their calls on an internal mutex).
class Source
{
public:
    Source() = default;
    Source(const Source &) = delete;
    Source &operator=(const Source &) = delete;
    virtual ~Source() = default;

    /// The schema as a Table: column names, types, declared bounds and categories, the public
    /// flag, name and provenance. For database sources it holds no rows (rowCount() == 0): compile
    /// predicates and queries against it (Predicate::compile, CompiledQuery::compile).
    virtual const Table &schema() const = 0;
    virtual SourceKind kind() const = 0;
    /// Where the data live, for the dataset panel and the session header, one line without any
    /// secret, e.g. "SQLite file /data/cps.db, table cps" or "PostgreSQL database pbx on /run/pg
    /// (user ana), table cps".
    virtual std::string location() const = 0;
    /// The public row count used for planning: the metadata's "rows" for database sources, checked
    /// at open to be the table's (unset when the metadata declares none), the table's row count in
    /// memory (as today). It bounds the number of rows a sum adds, which the floating-point slack of
    /// data::computedSumSensitivity relies on.
    virtual std::optional<std::size_t> declaredRowCount() const = 0;
    /// The public row count a release plans with (session::releaseRowCount): declaredRowCount()
    /// when set; for a database source whose metadata declares no "rows" but says the data are
    /// public ("public": true), the table's own COUNT(*), run on first use (never at open: a slow
    /// view must not make opening slow), under the statement timeout and read-only, then cached;
    /// unset otherwise (the count of private data is private: nothing plans with it). Thread-safe
    /// as the aggregates are. Errors (nothing cached, the next call counts again): the count's
    /// Io or ResourceLimit, one line beginning "rows: ".
    virtual Result<std::optional<std::size_t>> publicRowCount() const { return declaredRowCount(); }
    /// publicRowCount() as far as it is known without asking the database: the declared count, or
    /// the table's once counted (for the report, the ledger's conversions and the dataset panel).
    virtual std::optional<std::size_t> knownPublicRowCount() const { return declaredRowCount(); }
    /// A database source's descriptor as sources::sourceDescriptorText writes it ("sqlite:…",
    /// "postgresql://…"; never a password), which reopens it: recorded in session headers. Empty
    /// for an in-memory table (its files() or name say where it came from).
    virtual std::string descriptor() const { return {}; }
    /// Whether the data themselves are declared public (schema().isPublic()).
    bool isPublic() const { return schema().isPublic(); }
    /// Cancels the source's database work, from any thread (the GUI's Cancel while a request runs
    /// off its thread): while `requested` is true, the statement running now is stopped (SQLite:
    /// its progress handler interrupts it; PostgreSQL: PQcancel) and every call that starts, or
    /// ends after it was set, fails with Cancelled ("… was cancelled; nothing was computed") —
    /// before anything is charged, as a timeout is. The caller sets it back to false once its
    /// work has stopped. An in-memory table's aggregates are not interrupted (nothing to do).
    virtual void setCancelRequested(bool requested) const { (void)requested; }

private:
    friend class SourceAggregates;
    // The aggregates; reached only through SourceAggregates (see the file comment).
    virtual Result<QueryStatistics> computeStatistics(const CompiledQuery &query) const = 0;
    virtual Result<CategoryCounts> computeCategoryCounts(std::size_t column,
                                                         const Predicate &where) const = 0;
};

/// Door (b): the aggregates of `source` because its data are declared public. Refers to `source`,
/// which must outlive it. Decided from the public flag alone. Errors: Unsupported, naming `use`, as
/// publicRows().
Result<SourceAggregates> publicAggregates(const Source &source, std::string_view use);

/// Read access to one source's aggregates (who may hold one: the file comment). Cheap to copy.
class SourceAggregates
{
public:
    const Source &source() const { return *m_source; }

    /// The exact statistics of `query` over the source, every sum a release needs in one call:
    /// count; for sum and mean also Σ clip(x, L, U) and Σ (clip(x, L, U) − (L+U)/2), L, U =
    /// query.bounds(). A missing value (SQL NULL, or in SQLite a non-number in a numeric column)
    /// counts as L in the sums and compares like NaN in the predicate (==, <, <=, >, >= false,
    /// != true). Precondition: `query` was compiled against source().schema().
    /// Errors: NotFound when the query names a column the schema lacks; Io when the database call
    /// fails (connection lost, server gone, file unreadable), ResourceLimit when it ran over the
    /// statement timeout — one line naming the source; nothing partial is returned.
    Result<QueryStatistics> statistics(const CompiledQuery &query) const;

    /// Per-category counts of categorical column `column` over the rows `where` selects (one
    /// GROUP BY in a database). Errors: NotFound for an unknown column; InvalidArgument when the
    /// column is numeric or its categories were inferred from the data (a histogram's cells must be
    /// declared); then as statistics().
    Result<CategoryCounts> categoryCounts(std::string_view column, const Predicate &where = {}) const;

private:
    explicit SourceAggregates(const Source &source) : m_source(&source) {}
    friend class session::Session;                                                                // door (a)
    friend Result<SourceAggregates> publicAggregates(const Source &source, std::string_view use); // door (b)

    const Source *m_source;
};

/// The in-memory table as a Source: its aggregates run the existing code paths
/// (CompiledQuery::evaluate, Predicate::evaluate) on its rows, so the numbers are those of today's
/// releases bit for bit. It reads the rows only inside its private aggregate functions (a friend of
/// Rows for that), which only a SourceAggregates reaches.
class TableSource final : public Source
{
public:
    explicit TableSource(std::shared_ptr<const Table> table);

    const Table &schema() const override { return *m_table; }
    SourceKind kind() const override { return SourceKind::InMemory; }
    std::string location() const override;
    std::optional<std::size_t> declaredRowCount() const override { return m_table->rowCount(); }
    const std::shared_ptr<const Table> &table() const { return m_table; }

private:
    Result<QueryStatistics> computeStatistics(const CompiledQuery &query) const override;
    Result<CategoryCounts> computeCategoryCounts(std::size_t column, const Predicate &where) const override;

    std::shared_ptr<const Table> m_table;
};

} // namespace pbx::data
