// SPDX-License-Identifier: MIT
// A session: a dataset, a privacy filter and the append-only ledger of every request.
#pragma once

#include "core/data/rows.h"
#include "core/data/sensitivity.h"
#include "core/data/source.h"
#include "core/data/table.h"
#include "core/filters/privacy_filter.h"
#include "core/mechanisms/noise_source.h"
#include "core/session/ledger_event.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace pbx::session {

struct SessionSettings
{
    double epsilon = 1.0;
    double delta = 1e-6;
    data::Neighbouring neighbours = data::Neighbouring::AddRemove;
    filters::FilterKind filter = filters::FilterKind::Zcdp;
    /// The unified filter's split of (ε, δ) between its ex-post and zCDP sides.
    filters::FilterSplit split;
    /// Seeded, reproducible noise (teaching, tests; not for real releases). Unset: OS random.
    std::optional<std::uint64_t> seed;

    /// Errors: InvalidArgument for ε ≤ 0 or non-finite, δ ∉ (0, 1) (zCDP) or δ ∉ [0, 1) (basic).
    /// An odometer session has no ε budget: its ε is not checked, and Session::create sets it to +∞.
    Result<void> validate() const;
};

/// What Ask checks first of every request, before anything is spent: the accuracy target is
/// valid (AccuracyTarget::validate) and a per-query maximum, when set, is a finite number > 0.
/// Errors: InvalidArgument naming the field.
Result<void> checkTargetAndCap(const QueryRequest &request);

/// The release method that answers a count, sum or mean request under `settings`: the request's,
/// or defaultMechanism() for the filter, checked with checkMechanism(). Errors: a method the
/// filter cannot account, or one that does not fit the aggregate or target (see mechanism_choice.h).
Result<ReleaseMethod> releaseMethodFor(const QueryRequest &request, const SessionSettings &settings);

class Session
{
public:
    /// Errors: settings invalid (see SessionSettings::validate).
    static Result<std::unique_ptr<Session>> create(std::shared_ptr<const data::Table> table,
                                                   SessionSettings settings);
    /// A session over a data source wherever it lives (core/data/source.h; an in-memory table is
    /// a data::TableSource, the overload above). Errors: as above.
    static Result<std::unique_ptr<Session>> create(std::shared_ptr<const data::Source> source,
                                                   SessionSettings settings);

    /// Rebuilds a session from a saved ledger: every recorded charge (each attempt's) is paid
    /// again to a fresh filter in the original order, so the restored spend is identical.
    /// Errors (Parse): the events do not fit the budget, a cost is invalid or differs from the sum
    /// of its attempts, or indices are out of order (the document was edited or is corrupt).
    static Result<std::unique_ptr<Session>> restore(std::shared_ptr<const data::Table> table,
                                                    SessionSettings settings,
                                                    std::vector<LedgerEvent> events);
    static Result<std::unique_ptr<Session>> restore(std::shared_ptr<const data::Source> source,
                                                    SessionSettings settings,
                                                    std::vector<LedgerEvent> events);

    /// Answers a request (time independent of how many came before; bench/bench_session.cpp):
    /// calibrates the noise to its accuracy target, asks the filter, and
    /// appends a released or refused event to the ledger (returned). The mechanism is the
    /// request's, or defaultMechanism() for the filter (see core/session/release_plan.h).
    /// Errors (nothing is appended, nothing is spent): invalid request (unknown column, bad
    /// predicate, invalid bounds or target, a mechanism the filter cannot account); a request kind
    /// the source cannot answer (checkRequestOnSource); a failed database call (Io, ResourceLimit:
    /// the true answer is computed before anything is charged, docs/data-sources.md).
    Result<LedgerEvent> ask(QueryRequest request);

    /// The source's schema: for a database source a table without rows (compile against it).
    const data::Table &table() const { return *m_table; }
    std::shared_ptr<const data::Table> sharedTable() const { return m_table; }
    const data::Source &source() const { return *m_source; }
    std::shared_ptr<const data::Source> sharedSource() const { return m_source; }
    /// The public row count used for planning, as far as it is known without asking the database
    /// (data::Source::knownPublicRowCount(): the declared count, or a public table's COUNT(*) once
    /// a release or the audit of a reopened session ran it): 0 when unknown (a database source whose
    /// metadata declares none; its releases are refused, or count first: releaseRowCount).
    std::size_t publicRowCount() const { return m_source->knownPublicRowCount().value_or(0); }
    const SessionSettings &settings() const { return m_settings; }
    const filters::PrivacyFilter &filter() const { return *m_filter; }
    const std::vector<LedgerEvent> &events() const { return m_events; }

    /// Called for each output-DP request once it is admitted and before any noise is drawn, with
    /// the pending event (index, request, reservation; no cell yet): a journal makes it durable so
    /// that a crash is charged the worst case (docs/output-dp.md §2). An error refuses the request
    /// with nothing reserved or spent.
    using ReservationHook = std::function<Result<void>(const LedgerEvent &pending)>;
    void setReservationHook(ReservationHook hook) { m_reservationHook = std::move(hook); }

private:
    Session(std::shared_ptr<const data::Source> source, SessionSettings settings,
            std::unique_ptr<filters::PrivacyFilter> filter);
    LedgerEvent &append(LedgerEvent event);
    /// Door (a) of core/data/rows.h: this session's own rows, for the release paths below, each of
    /// which charges the filter before it releases anything computed from them. In-memory sources
    /// only: a database source's schema holds no rows, and ask() refuses every request kind that
    /// would read them (checkRequestOnSource) before reaching a path that calls this.
    data::Rows privateRows() const { return data::Rows(*m_table); }
    /// Door (a) of core/data/source.h: this session's own source's aggregates (counts, clipped
    /// sums, per-category counts), computed before anything is charged.
    data::SourceAggregates privateAggregates() const { return data::SourceAggregates(*m_source); }
    /// The noise of the next event (index m_events.size()): seeded per event when the session has
    /// a seed, else the operating system's. Opened before anything is charged, so a failure (Io)
    /// refuses the request with nothing spent.
    Result<mechanisms::NoiseSource> nextNoiseSource() const;
    /// Single release, doubling and noise reduction (RequestFamily::Release).
    Result<LedgerEvent> askRelease(QueryRequest request);
    /// Histogram, quantile, derived and workload requests (strategy_release.cpp).
    Result<LedgerEvent> askStrategy(QueryRequest request);
    /// Output-DP mechanisms: reserve, run, settle (odp_release.cpp).
    Result<LedgerEvent> askOdp(QueryRequest request);
    /// Growing-database streams: one charge per epoch (growing_release.cpp).
    Result<LedgerEvent> askGrowing(QueryRequest request);

    std::shared_ptr<const data::Source> m_source;
    std::shared_ptr<const data::Table> m_table; ///< m_source->schema()
    SessionSettings m_settings;
    std::unique_ptr<filters::PrivacyFilter> m_filter;
    std::vector<LedgerEvent> m_events;
    /// How many Brownian runs have been accounted ex-post so far (each takes δ_n, see
    /// release_plan.h): counted as events are appended, so ask() is O(1) in the ledger's length.
    std::size_t m_expostBrownianRuns = 0;
    ReservationHook m_reservationHook;
};

} // namespace pbx::session
