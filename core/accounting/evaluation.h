// SPDX-License-Identifier: MIT
// Evaluate a ledger under several composition strategies at once (the CLI's and the comparison
// view's entry point), with parallel composition over partitions.
#pragma once

#include "core/accounting/event.h"
#include "core/accounting/pld_accountant.h"
#include "core/accounting/strategy.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

namespace pbx::accounting {

/// "basic", "advanced", "optimal", "zcdp", "rdp", "pld" (the order of the report).
std::vector<std::string> allStrategyNames();

/// Builds one strategy for a ledger (no partitions). Errors: NotFound for an unknown name;
/// Unsupported when the strategy does not apply (message says why); Cancelled; InvalidArgument.
Result<std::unique_ptr<CompositionStrategy>> makeStrategy(const std::string &name, const Ledger &ledger,
                                                          const PldOptions &pldOptions = {});

struct AccountingQuery
{
    bool epsilonAtDelta = true; ///< true: report ε at `value` = δ; false: δ at `value` = ε
    double value = 1e-5;
};

/// One strategy on a ledger, with parallel composition over the ledger's partitions.
Result<StrategyAnswer> evaluateStrategy(const std::string &name, const Ledger &ledger,
                                        const AccountingQuery &query, const PldOptions &pldOptions = {});

/// All requested strategies as JSON: {"query": {"delta": …} | {"epsilon": …}, "<name>": {...}}
/// where each strategy is either {"applicable": true, "epsilon", "delta", "method", detail…} or
/// {"applicable": false, "reason": "…"} (plus "resourceLimit": true when the strategy refused
/// because it would exceed its memory/time limit, ErrorCode::ResourceLimit). ε = +∞ is written as the string "inf". Detail keys:
/// optimalOrder, rho, simpleEpsilon, discretisationInterval, optimisticEpsilon, optimisticDelta.
/// A Cancelled error is returned as such (not as "not applicable").
Result<nlohmann::json> evaluateLedger(const Ledger &ledger, const AccountingQuery &query,
                                      const std::vector<std::string> &strategies,
                                      const PldOptions &pldOptions = {});

} // namespace pbx::accounting
