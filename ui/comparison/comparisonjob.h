// SPDX-License-Identifier: MIT
// The comparison view's computation off the GUI thread: a thin QPromise adapter around
// accounting::compareStrategies (core/accounting/comparison.h), which computes every strategy on a
// ledger (the table), the δ(ε) privacy profile, the RDP curve, the PLD histogram and ε(k) over
// prefixes. The core's progress is mapped onto the promise (range 0–1000, with a short text) and
// a cancelled promise cancels the core. It never touches a widget: results reach the view through
// a QFutureWatcher, in stages: first the whole comparison on a coarse PLD grid (a preview, every
// ε an upper bound, in tens of milliseconds), then on the chosen grid everything but the ε(k)
// curves, then the whole result, so an edit is redrawn at once and refined as the slow parts end.
#pragma once

#include "core/accounting/comparison.h"
#include "core/accounting/event.h"
#include "core/accounting/strategy.h"

#include <QFuture>
#include <QPromise>
#include <QString>

#include <optional>
#include <vector>

namespace pbx::ui {

/// The ledger and what to compute (the table's query, PLD interval, profile points, histogram
/// bins, prefixes and their PLD interval: accounting::ComparisonQuery).
struct ComparisonInput : accounting::ComparisonQuery
{
    using PrefixPoint = accounting::PrefixPoint;
    accounting::Ledger ledger;
};

/// One strategy on the whole ledger.
struct StrategyOutcome
{
    QString name; ///< "basic", …, "pld"
    bool applicable = false;
    QString reason;                    ///< why not applicable (the core's message)
    accounting::StrategyAnswer answer; ///< the table's query (ε at δ or δ at ε)
    double epsilonAtDelta = 0.0;       ///< ε at the input δ (= answer.epsilon in ε mode)
    /// Set when the strategy ran on the per-step (ε, δ) view (basic, advanced, optimal).
    std::optional<accounting::PerStepSummary> perStep;
};

struct ComparisonResult
{
    /// Preview: every part (table and curves) on the coarse grid kPreviewPldInterval; Summary:
    /// the chosen grid, without the ε(k) curves; Complete: the chosen grid, everything.
    enum Stage { Summary = 1, Complete = 2, Preview = 3 };
    int stage = Summary;
    QString error; ///< the ledger could not be evaluated at all (invalid); nothing else is set
    std::vector<StrategyOutcome> strategies; ///< the table's rows, in accounting::allStrategyNames() order
    /// The typed result the charts draw (the ε(k) curves only at stage Complete).
    accounting::Comparison comparison;
    double seconds = 0.0; ///< wall-clock time of the job so far
};

/// The PLD interval of the preview, in nats. Coarser is cheaper and looser, never unsound: the
/// pessimistic PMF dominates the true PLD at any interval (Koskela, Jälkö & Honkela 2020;
/// Doroshenko et al. 2022 "Connect the dots"), and the bracket's lower end stays a lower bound,
/// so every ε and δ of a preview is an upper bound, as on the chosen grid (only looser). It is a
/// whole multiple of each finer interval the view offers (1e-3, 1e-4, 1e-5).
inline constexpr double kPreviewPldInterval = 1e-2;

/// The preview's input: `input` on the grid kPreviewPldInterval (the ε(k) curves on the coarser of
/// it and input's prefix grid), or nothing when input's grid is not at least 10× finer (the
/// preview would cost about as much as the result itself).
std::optional<ComparisonInput> previewInput(const ComparisonInput &input);

/// Runs accounting::compareStrategies on the input; cancelling the promise cancels it (no result
/// is added then). Sets progress (range 0–1000) with a short text. Adds a Preview result when
/// previewInput gives one, then the chosen grid's Complete result (with no Summary before it: the
/// preview already shows a whole table); without a preview, a Summary result and then a Complete
/// one when the input has prefixes. An invalid ledger or query adds one result with `error` set.
void runComparison(QPromise<ComparisonResult> &promise, const ComparisonInput &input);

/// QtConcurrent::run(runComparison, input) on the global pool.
QFuture<ComparisonResult> startComparison(const ComparisonInput &input);

} // namespace pbx::ui
