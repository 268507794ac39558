// SPDX-License-Identifier: MIT
// One ledger under every composition strategy at once, with the curves the comparison view draws:
// the table's answers, the δ(ε) privacy profile, the composed RDP curve, the PLD as a histogram
// and ε at δ over prefixes of the ledger. The one computation behind the comparison view
// (ui/comparison/comparisonjob.h), `pbx-cli compare` and `pbx-cli account` (evaluation.h).
//
// Partitions: every strategy composes the ledger's disjoint partitions in parallel
// (splitByPartition + parallelCompose, McSherry 2009 Thm 4; docs/parallel-composition.md), for
// the table, the profile and every prefix alike. Post-processing events cost nothing and are
// dropped first (Dwork & Roth 2014, Prop. 2.1).
#pragma once

#include "core/accounting/event.h"
#include "core/accounting/pld_pmf.h"
#include "core/accounting/strategy.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace pbx::accounting {

/// "basic", "advanced", "optimal", "zcdp", "rdp", "pld" (the order of every report).
std::vector<std::string> allStrategyNames();

/// At most this many prefixes on the ε(k) curve.
inline constexpr std::size_t kMaxPrefixPoints = 30;
/// Beyond this many distinct steps that are not plain Gaussians, the prefix curves' PLD grid is
/// no finer than kCoarsePrefixInterval (every prefix is a whole new PLD, each step a convolution).
inline constexpr std::size_t kManyDistinctSteps = 40;
inline constexpr double kCoarsePrefixInterval = 1e-3;

/// One point of the ε(k) curve: the ledger's first `steps` steps (counts expanded), drawn at `x`.
struct PrefixPoint
{
    double x = 0.0;
    std::int64_t steps = 0;
};

/// What to compute. The table answers ε at `delta` (epsilonAtDelta) or δ at `epsilon`; the
/// curves follow: ε at `delta` always, and in δ-at-ε mode also δ at `epsilon` (the RDP curve's
/// δ by order, δ over the prefixes, the PLD histogram's threshold at `epsilon`); the profile
/// also spans the queried ε.
struct ComparisonQuery
{
    bool epsilonAtDelta = true;
    double delta = 1e-5;  ///< 0 < δ < 1 (used in ε-at-δ mode and by every curve)
    double epsilon = 1.0; ///< ε ≥ 0 finite (used in δ-at-ε mode)
    /// Strategies to run, in the order of the report (names of allStrategyNames()).
    std::vector<std::string> strategies = allStrategyNames();
    /// PLD discretisation interval d in nats, 0 < d ≤ 1 (also the optimal strategy's grid).
    double pldInterval = 1e-4;
    double pldTailMass = 1e-15;      ///< PLD mass truncated per composition (charged to δ)
    double pldMaxBins = kMaxPldBins; ///< PldOptions::maxBins: largest PLD grid, in bins
    bool pldOptimistic = true;       ///< also report the PLD bracket's lower end in the table
    /// false: only the table's answers (what `pbx-cli account` prints); no profile, RDP curve,
    /// PLD histogram or ε at `delta` in δ-at-ε mode.
    bool curves = true;
    int profilePoints = 64; ///< ε values of the δ(ε) profile (at least 8 are used)
    int histogramBins = 90; ///< bins of the PLD histogram (fewer when the grid is coarser)
    /// Prefixes of the ε(k) curve (empty: no ε(k) curve); see stepPrefixes / groupPrefixes.
    std::vector<PrefixPoint> prefixes;
    /// PLD interval of the ε(k) curve (0: pldInterval); see prefixPldInterval().
    double prefixPldInterval = 0.0;
    /// > 0: basic, advanced and optimal composition run on the per-step (ε, δ) view of the
    /// ledger, every Gaussian and zCDP step converted at this δ (per_step_dp.h), so they apply
    /// to such ledgers too; 0: they report those events as not applicable. Valid: 0 or (0, 1).
    double perStepDelta = 0.0;
};

/// How a strategy used the per-step (ε, δ) view (ComparisonQuery::perStepDelta).
struct PerStepSummary
{
    double stepDelta = 0.0;          ///< the per-step δ of each converted step
    std::int64_t convertedSteps = 0; ///< Gaussian/zCDP steps converted (counts expanded)
    /// Σ count_j·δ_j of every (ε, δ) step after amplification (converted and the ledger's own),
    /// of the part that decides the answer, rounded up: the δ the steps charge by themselves.
    double stepsDelta = 0.0;
};

/// One strategy on the whole ledger. Exactly one of `answer` and `error` is set.
struct StrategyResult
{
    std::string name;
    std::optional<StrategyAnswer> answer; ///< the table's query (ε at δ or δ at ε)
    /// Why the strategy does not apply (Unsupported, ResourceLimit, …); a message naming
    /// `events[i]` names the event's index in the whole ledger.
    std::optional<Error> error;
    /// ε at the query's δ (= answer->epsilon in ε-at-δ mode); NaN when not computed.
    double epsilonAtDelta = std::numeric_limits<double>::quiet_NaN();
    /// Set when the strategy ran on the per-step (ε, δ) view with at least one converted step.
    std::optional<PerStepSummary> perStep;
    bool applicable() const { return answer.has_value(); }
};

/// The composed RDP curve ε̂(α) of the part that decides the RDP answer (the whole ledger without
/// partitions), and what each order alone certifies (Canonne, Kamath & Steinke 2020, Prop. 12;
/// RdpAccountant::epsilonByOrder / deltaByOrder, which split δ exactly as the answer does, so
/// the smallest value of the query's curve IS the table's RDP answer). Empty when RDP does not
/// apply or was not requested.
struct RdpCurve
{
    std::vector<double> orders;
    std::vector<double> values;
    std::vector<double> epsilonByOrder; ///< ε at the query's δ by order (+∞: no bound there)
    double optimalOrder = 0.0;          ///< the order of the smallest ε at δ
    /// δ-at-ε mode only: δ at the query's ε by order, and the order of the smallest.
    std::vector<double> deltaByOrder;
    double deltaOptimalOrder = 0.0;
};

/// The pessimistic PLD (the direction with the larger δ at the PLD's ε, of the part that decides
/// the PLD answer) rebinned over the range holding all but 1e-9 of its finite mass. Empty when the
/// PLD does not apply or was not requested.
struct PldHistogram
{
    std::vector<double> loss; ///< bin centres (nats)
    std::vector<double> mass; ///< probability per bin
    double binWidth = 0.0;
    double infinityMass = 0.0; ///< mass at +∞ loss (charged to δ)
    double interval = 0.0;     ///< the PLD grid d
    bool addDirection = false; ///< true: the add direction (D' = D ∪ {x}) is shown
    /// The loss threshold whose excess δ pays: the PLD's ε at the query's δ in ε-at-δ mode, the
    /// query's ε in δ-at-ε mode (+∞ when the PLD has no finite ε).
    double threshold = 0.0;
};

struct Comparison
{
    std::vector<StrategyResult> strategies; ///< in query.strategies order
    /// δ(ε) at profileEpsilons, one row per strategy (NaN: not applicable at that ε). Upper
    /// bounds, the max over partitions.
    std::vector<double> profileEpsilons;
    std::vector<std::vector<double>> profileDeltas;
    RdpCurve rdp;
    PldHistogram pld;
    /// ε at the query's δ over the prefixes: x, steps, then one row per strategy (NaN: not
    /// applicable to that prefix; +∞ allowed). Empty without prefixes.
    std::vector<double> prefixX;
    std::vector<std::int64_t> prefixSteps;
    std::vector<std::vector<double>> prefixEpsilons;
    /// δ-at-ε mode only: δ at the query's ε over the same prefixes, one row per strategy.
    std::vector<std::vector<double>> prefixDeltas;
    double prefixPldInterval = 0.0; ///< the PLD interval the ε(k) curves used
    std::size_t partitions = 1;     ///< ledgers composed in parallel (splitByPartition)

    const StrategyResult *find(const std::string &name) const;
};

/// Where compareStrategies is. `fraction` in [0, 1] never decreases.
struct ComparisonProgress
{
    enum class Phase { Strategy, Profile, Prefixes, Done };
    Phase phase = Phase::Strategy;
    double fraction = 0.0;
    std::string strategy;   ///< Strategy: the strategy being built
    std::int64_t done = 0;  ///< Strategy: PLD/optimal groups composed; Prefixes: prefix number (1-based)
    std::int64_t total = 0; ///< … of this many (0: not known)
};
/// Return false to cancel: compareStrategies then fails with Cancelled.
using ComparisonProgressCallback = std::function<bool(const ComparisonProgress &)>;
/// Receives everything but the ε(k) curves as soon as they are known (the table comes first).
using ComparisonSummaryCallback = std::function<void(const Comparison &)>;

/// Runs every requested strategy on `ledger` (composing partitions in parallel) and computes the
/// curves the query asks for. A strategy that does not apply is reported in its StrategyResult,
/// not as an error. Rounding: every ε and δ is an upper bound (rounded up by the strategies; the
/// parallel composition takes maxima).
/// Errors: InvalidArgument (invalid ledger, naming `events[i].field`; δ outside (0, 1) naming
/// "delta"; ε negative or not finite naming "epsilon"; interval outside (0, 1] naming
/// "pldInterval"; per-step δ outside {0} ∪ (0, 1) naming "perStepDelta"); NotFound (unknown
/// strategy name); Cancelled (the callback returned false). A per-step conversion that fails
/// (e.g. no finite ε) is the three strategies' reason, not an error.
Result<Comparison> compareStrategies(const Ledger &ledger, const ComparisonQuery &query,
                                     const ComparisonProgressCallback &progress = {},
                                     const ComparisonSummaryCallback &summary = {});

/// Prefixes of the ε(k) curve over steps: at most `maxPoints` prefixes, evenly spread over the
/// ledger's steps (counts expanded), x = steps. Empty for a ledger without steps.
std::vector<PrefixPoint> stepPrefixes(const Ledger &ledger, std::size_t maxPoints = kMaxPrefixPoints);

/// Prefixes of the ε(k) curve over groups of events (e.g. a session's requests): `origins[i]` is
/// the group (0-based, non-decreasing) of ledger event i; x = group number r (1-based), steps =
/// the steps of every event of groups 0..r−1. At most `maxPoints` prefixes, the last one r =
/// `groups`. Empty when groups ≤ 0.
std::vector<PrefixPoint> groupPrefixes(const Ledger &ledger, const std::vector<std::size_t> &origins,
                                       int groups, std::size_t maxPoints = kMaxPrefixPoints);

/// The PLD interval of the ε(k) curves: kCoarsePrefixInterval when the ledger has more than
/// kManyDistinctSteps distinct steps that are not unsampled Gaussians (those merge exactly) and
/// `pldInterval` is finer; otherwise `pldInterval`. The table keeps `pldInterval`.
double prefixPldInterval(const Ledger &ledger, double pldInterval);

/// The first `steps` steps of a ledger (counts expanded; the last event's count cut).
Ledger ledgerPrefix(const Ledger &ledger, std::int64_t steps);

} // namespace pbx::accounting
