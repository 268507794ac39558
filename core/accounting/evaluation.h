// SPDX-License-Identifier: MIT
// A ledger's cost under several composition strategies as JSON: the serializer of compareStrategies
// (comparison.h) that `pbx-cli account` and `pbx-cli compare --json` print, and one strategy at a
// time for callers that need a single answer.
#pragma once

#include "core/accounting/comparison.h"
#include "core/accounting/event.h"
#include "core/accounting/pld_accountant.h"
#include "core/accounting/strategy.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

namespace pbx::accounting {

/// Builds one strategy for a ledger (no partitions). Errors: NotFound for an unknown name;
/// Unsupported when the strategy does not apply (message says why); Cancelled; InvalidArgument.
Result<std::unique_ptr<CompositionStrategy>> makeStrategy(const std::string &name, const Ledger &ledger,
                                                          const PldOptions &pldOptions = {});

struct AccountingQuery
{
    bool epsilonAtDelta = true; ///< true: report ε at `value` = δ; false: δ at `value` = ε
    double value = 1e-5;
    /// > 0: basic, advanced and optimal use the per-step (ε, δ) view (ComparisonQuery).
    double perStepDelta = 0.0;
};

/// One strategy on a ledger, with parallel composition over the ledger's partitions: the
/// StrategyResult of compareStrategies (comparison.h) for that strategy alone. Errors: those of
/// compareStrategies, and the strategy's own when it does not apply (Unsupported, ResourceLimit,
/// InvalidArgument; the message names the ledger's `events[i]`).
Result<StrategyAnswer> evaluateStrategy(const std::string &name, const Ledger &ledger,
                                        const AccountingQuery &query, const PldOptions &pldOptions = {});

/// All requested strategies as JSON: {"query": {"delta": …} | {"epsilon": …}, "<name>": {...}}
/// where each strategy is either {"applicable": true, "epsilon", "delta", "method", detail…} or
/// {"applicable": false, "reason": "…"} (plus "resourceLimit": true when the strategy refused
/// because it would exceed its memory/time limit, ErrorCode::ResourceLimit). ε = +∞ is written as
/// the string "inf". Detail keys: optimalOrder, rho, simpleEpsilon, discretisationInterval,
/// optimisticEpsilon, optimisticDelta, and "perStep": {"stepDelta", "convertedSteps",
/// "stepsDelta"} when the strategy used the per-step (ε, δ) view. Partitions compose in parallel
/// (comparison.h).
/// Errors: those of compareStrategies (Cancelled, NotFound, InvalidArgument), and a strategy's
/// InvalidArgument (not reported as "not applicable").
Result<nlohmann::json> evaluateLedger(const Ledger &ledger, const AccountingQuery &query,
                                      const std::vector<std::string> &strategies,
                                      const PldOptions &pldOptions = {});

/// A comparison as JSON: the strategies as evaluateLedger writes them (with "epsilonAtDelta",
/// ε at the query's δ, in δ-at-ε mode when curves were computed) and, when computed,
/// "curves": {"profile": {"epsilon": [ε…], "delta": {"<name>": [δ…]}},
///            "rdp": {"orders", "values", "epsilonByOrder", "optimalOrder"
///                    [, "deltaByOrder", "deltaOptimalOrder" in δ-at-ε mode]},
///            "pld": {"loss", "mass", "binWidth", "infinityMass", "interval", "direction",
///                    "threshold"},
///            "prefixes": {"x", "steps", "epsilon": {"<name>": [ε…]}, "pldInterval"
///                         [, "delta": {"<name>": [δ…]} in δ-at-ε mode]}}.
/// In the curves NaN (not applicable at that point) is null and +∞ is "inf". `query` is the one
/// the comparison was computed with. Numbers are written in the shortest form that reads back
/// exactly.
nlohmann::json comparisonToJson(const Comparison &comparison, const ComparisonQuery &query);

} // namespace pbx::accounting
