// SPDX-License-Identifier: MIT
// Workload-aware per-query caps: spread what remains of the budget over the requests still to
// come, so that one request of many cannot eat the whole budget.
#pragma once

#include "core/filters/privacy_filter.h"
#include "core/session/ledger_event.h"

#include <cstddef>
#include <optional>

namespace pbx::session {

/// The default cap of a doubling or noise-reduction request when the user set none: what the
/// filter can still pay in the unit this request would be charged in (PrivacyFilter::remainingFor),
/// divided by `plannedQueries`, the number of requests still to come including this one (a
/// public number: the length of a request file, or the user's "plan for N more queries"), rounded
/// down. Returns nullopt — no cap beyond the budget — when the request sets maxCost itself, is a
/// single calibrated release (its cost is fixed by its target), `plannedQueries` is 0, or nothing
/// remains (the refusal then says so). Spending at most remaining/k on each of k requests keeps
/// every one of them affordable; the guarantee is unchanged (the filter still enforces it).
std::optional<double> plannedCap(const filters::PrivacyFilter &filter, const QueryRequest &request,
                                 std::size_t plannedQueries);

/// `request` with maxCost set to plannedCap() when that is defined; otherwise, unless the request
/// sets maxCost, with plannedQueries set so that the release caps whichever side pays (the unified
/// filter's routed Brownian runs).
QueryRequest withPlannedCap(QueryRequest request, const filters::PrivacyFilter &filter,
                            std::size_t plannedQueries);

} // namespace pbx::session
