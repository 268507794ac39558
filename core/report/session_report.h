// SPDX-License-Identifier: MIT
// The session report's facts, gathered once from a session (live in the GUI, or replayed from a
// transcript or journal by `pbx-cli report`): the dataset and its provenance, the budget and the
// filter, every ledger event, the budget path, and the composition comparison of the session's
// ledger (or why it cannot be made). report_html.h writes them out.
#pragma once

#include "core/accounting/comparison.h"
#include "core/filters/privacy_filter.h"
#include "core/report/event_description.h" // describeRequest: a request in the report's words
#include "core/session/session.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pbx::report {

/// What the caller knows about where the session came from.
struct ReportSource
{
    std::string path;                   ///< the transcript or journal read (empty: a live session)
    std::string generator;              ///< e.g. "pbx-cli 0.1.0"
    std::string created;                ///< when the report was made, e.g. "2026-11-26 04:30 UTC"
    std::vector<std::string> fileNotes; ///< a journal's notes (torn line dropped, …)
};

/// One column of the dataset, as public metadata shows it (never values read from the data).
struct ReportColumn
{
    std::string name;
    std::string type; ///< "numeric" or "categorical"
    std::optional<data::Bounds> declaredBounds;
    std::string description;
    /// A categorical column's declared categories, in code order; empty when the categories were
    /// read from the data (domainFromData), which the report must not list.
    std::vector<std::string> categories;
    /// The column's type or categories were inferred from the data, not declared in metadata
    /// (data::ColumnInfo::domainFromData): the report says so instead of listing them.
    bool domainFromData = false;
};

/// The composition comparison of the session's ledger, or why there is none.
struct ReportComparison
{
    double delta = 0.0;            ///< the δ the table's ε's are at
    std::size_t privacyEvents = 0; ///< events of the accounting ledger
    /// The per-step δ at which basic, advanced and optimal composition state each Gaussian or
    /// zCDP step as (ε, δ) (accounting::autoPerStepDelta(δ, k), the comparison view's default);
    /// 0 when the ledger has no such step.
    double perStepDelta = 0.0;
    std::int64_t convertedSteps = 0; ///< k: the Gaussian and zCDP steps (counts expanded)
    std::optional<accounting::Comparison> comparison;
    std::string unavailable; ///< set when comparison is unset: one sentence, why
};

struct SessionReport
{
    ReportSource source;
    // The dataset.
    std::string datasetName;
    std::size_t rows = 0;
    std::vector<ReportColumn> columns;
    std::string provenance;                  ///< the table's provenance text (may be empty)
    std::optional<data::DatasetFiles> files; ///< CSV datasets: paths and SHA-256 digests
    // Budget, filter, noise.
    session::SessionSettings settings;
    std::vector<filters::BudgetSystem> systems; ///< the filter's budgets and spend
    double epsilonSpent = 0.0;                  ///< ε-equivalent of the spend at δ (a gauge)
    double deltaSpent = 0.0;
    std::string nativeUnit; ///< "ε" or "ρ": the unit of the events' spentAfter
    // The ledger.
    std::vector<session::LedgerEvent> events;
    /// Distinct mechanism names, in order of first use; a growing stream recorded before the exact
    /// noise (session::recordedNoiseDesign) as "<name>:continuous".
    std::vector<std::string> mechanisms;
    ReportComparison comparison;

    bool seeded() const { return settings.seed.has_value(); }
};

/// Gathers the report of `session`. The comparison runs every composition strategy on
/// accounting::ledgerFromSession(session) at the session's δ (or 1e-6 when the budget's δ is 0),
/// table only (no curves), with the comparison view's default per-step (ε, δ) view (Gaussian and
/// zCDP steps converted at δ/(2k) for basic, advanced and optimal composition: the report and the
/// view give the same numbers for one ledger); a ledger that cannot be accounted (e.g. no release at all;
/// output-DP events enter as their settled ε and δ, which only basic composition accepts) leaves
/// `comparison.unavailable` saying why: the report is made whatever the ledger holds. Cost: one run of every
/// strategy on the ledger (the comparison view's table).
SessionReport collectReport(const session::Session &session, ReportSource source);

/// The accuracy target in words: "±40 at 95 %" or "±5 % (relative) at 95 %".
std::string describeTarget(const session::AccuracyTarget &target);

/// A number as the report prints it: up to 6 significant digits, "∞" for +∞, "–" for NaN.
std::string formatNumber(double x, int digits = 6);

/// As formatNumber, rounded up to `digits` significant digits (never below x): how the report
/// prints ε, δ and ρ spent or composed, so that no privacy loss is under-reported.
std::string formatUpper(double x, int digits = 6);

/// As formatNumber, rounded down (never above x): how the report prints what remains.
std::string formatLower(double x, int digits = 6);

/// A strategy's ε in the comparison table as the comparison view's table prints it
/// (formatDisplay rounded up, four significant digits: "4.618", "∞"); "does not apply" when the
/// strategy gave no answer.
std::string comparisonEpsilonText(const accounting::StrategyResult &strategy);

} // namespace pbx::report
