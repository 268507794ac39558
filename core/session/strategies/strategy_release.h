// SPDX-License-Identifier: MIT
// Checks for strategy requests (histogram, quantile, derived, workload) that need no budget, so a
// run can refuse a bad file before anything is spent; and the audit of their recorded costs.
#pragma once

#include "core/data/table.h"
#include "core/session/session.h"
#include "core/util/result.h"

#include <span>
#include <string>

namespace pbx::session {

/// Everything about a strategy request that can be checked against the table's public schema:
/// the column and its kind, bins, bounds, q, the target kind, the strategy and its workload.
/// Errors: InvalidArgument / NotFound / the strategies' coded errors, naming the field.
Result<void> checkStrategyRequest(const QueryRequest &request, const data::Table &table,
                                  data::Neighbouring neighbours);

/// What a mode request (checked by checkStrategyRequest) will be charged, from public information
/// only: `picks` picks at `epsilonPerPick` each (0 for a one-category column), the filter charge
/// (bounded range for the exponential mechanism, pure k·ε for report-noisy-max), and whether
/// max_cost capped ε below what the target needs.
struct ModeCost
{
    double epsilonPerPick = 0.0;
    std::size_t picks = 1;
    filters::Charge charge;
    double cost = 0.0; ///< the event's recorded cost: picks·ε rounded up (0 for one category)
    bool capped = false;
};
ModeCost modeCost(const QueryRequest &request, const data::Table &table, data::Neighbouring neighbours);

/// A one-line description for ledgers: "histogram of region where …", "quantile q=0.5 of wage",
/// "share of h1: cells 2 within 0, 1, 2, 3", "workload prefixes of education (tree b=3 + LS)".
/// Precondition: request.strategy() is set.
std::string describeStrategyRequest(const QueryRequest &request);

/// The cost check of a recorded strategy event for `pbx-cli verify`: a derived event costs 0 and
/// releases nothing; otherwise one attempt carries the whole cost, and the cost is not below what
/// the recorded noise scale implies (histogram: 1/t per cell, doubled under replace-one; workload:
/// Δ/t with Δ recomputed from the strategy and the column's bounds). A quantile's ε is recomputed
/// from its request (target, confidence, public grid, max_cost), and its error bar from that ε.
/// Errors: Parse.
Result<void> auditStrategyEvent(const LedgerEvent &event, const data::Table &table,
                                const SessionSettings &settings);

/// A released derived answer recomputed from `earlier` (the events before it): its source, the
/// last released histogram with the id it names, must exist, and its value and error bar must be
/// those deriveAnswer gives (to 1e-9 relative). Other events pass. Errors: Parse.
Result<void> auditDerivedEvent(const LedgerEvent &event, std::span<const LedgerEvent> earlier,
                               const SessionSettings &settings);

} // namespace pbx::session
