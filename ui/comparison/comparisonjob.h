// SPDX-License-Identifier: MIT
// The comparison's computation, run off the GUI thread: every strategy on a ledger (the table),
// the δ(ε) privacy profile, the RDP curve over orders, the PLD as a histogram, and ε(k) over
// prefixes of the ledger. It reports progress and stops early when cancelled through its
// QPromise; the core's progress callback (the PLD's) is mapped onto the promise. It never touches
// a widget: results reach the view through a QFutureWatcher, in two stages (everything but the
// ε(k) curves first, then the whole result), so the table appears before the slow curves.
#pragma once

#include "core/accounting/event.h"
#include "core/accounting/strategy.h"

#include <QFuture>
#include <QPromise>
#include <QString>

#include <cstdint>
#include <vector>

namespace pbx::ui {

struct ComparisonInput
{
    accounting::Ledger ledger;
    /// The table reports ε at `delta` (true) or δ at `epsilon` (false). The ε(k) curves and the
    /// profile's scale always use ε at `delta`.
    bool epsilonAtDelta = true;
    double delta = 1e-5;
    double epsilon = 1.0;
    /// PLD discretisation interval d (also used by the optimal strategy's heterogeneous case).
    double pldInterval = 1e-4;
    /// ε(k) points: (x shown on the axis, number of steps composed, counts expanded). Empty: no
    /// curves.
    struct PrefixPoint
    {
        double x = 0.0;
        std::int64_t steps = 0;
    };
    std::vector<PrefixPoint> prefixes;
    /// PLD interval for the ε(k) curves (0: pldInterval). A long heterogeneous ledger uses a
    /// coarser one there: every prefix is a whole new PLD.
    double prefixPldInterval = 0.0;
    /// Number of ε values at which the δ(ε) profile is evaluated.
    int profilePoints = 64;
    /// Number of histogram bins of the PLD (fewer when the grid itself is coarser).
    int histogramBins = 90;
};

/// One strategy on the whole ledger.
struct StrategyOutcome
{
    QString name;             ///< "basic", …, "pld"
    bool applicable = false;
    QString reason;           ///< why not applicable (the core's message)
    accounting::StrategyAnswer answer; ///< the table's query (ε at δ or δ at ε)
    double epsilonAtDelta = 0.0;       ///< ε at the input δ (= answer.epsilon in ε mode)
};

struct ComparisonResult
{
    enum Stage { Summary = 1, Complete = 2 };
    int stage = Summary;
    QString error; ///< the ledger could not be evaluated at all (invalid); nothing else is set
    std::vector<StrategyOutcome> strategies; ///< in accounting::allStrategyNames() order

    /// δ(ε) at profileEpsilons, one row per strategy (NaN: not applicable).
    std::vector<double> profileEpsilons;
    std::vector<std::vector<double>> profileDeltas;

    /// Composed RDP ε̂(α) and the ε at δ each order alone would give (conversion of
    /// rdp_conversion.h at that α). Empty when RDP does not apply.
    std::vector<double> rdpOrders;
    std::vector<double> rdpValues;
    std::vector<double> rdpEpsilonByOrder;
    double rdpOptimalOrder = 0.0;

    /// The composed pessimistic PLD (the direction with the larger δ) rebinned: bin centres,
    /// mass per bin, bin width; mass at +∞. Empty when the PLD does not apply.
    std::vector<double> pldLoss;
    std::vector<double> pldMass;
    double pldBinWidth = 0.0;
    double pldInfinityMass = 0.0;
    double pldInterval = 0.0;
    bool pldAddDirection = false;

    /// ε at δ over prefixes (stage Complete only): x, then one row per strategy (NaN: not
    /// applicable to that prefix; +∞ allowed).
    std::vector<double> prefixX;
    std::vector<std::vector<double>> prefixEpsilons;
    double prefixPldInterval = 0.0; ///< the PLD interval the curves used

    double seconds = 0.0; ///< wall-clock time of the job so far
};

/// Runs the whole computation; checks `promise.isCanceled()` between steps and inside the PLD.
/// Sets progress (range 0–1000) with a short text. Adds a Summary result, then a Complete one.
void runComparison(QPromise<ComparisonResult> &promise, const ComparisonInput &input);

/// QtConcurrent::run(runComparison, input) on the global pool.
QFuture<ComparisonResult> startComparison(const ComparisonInput &input);

/// The first `steps` steps of a ledger (counts expanded; the last event's count cut).
accounting::Ledger ledgerPrefix(const accounting::Ledger &ledger, std::int64_t steps);

} // namespace pbx::ui
