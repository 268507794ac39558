// SPDX-License-Identifier: MIT
// The replays `pbx-cli verify` adds to the growing-database audits: where an NSG stream's rounds
// open (as the PMWG audit replays for PMWG), and the charge of the epoch or round a stream
// records as refused, so that the ledger replay can check the budget truly refused it.
#pragma once

#include "core/filters/privacy_filter.h"
#include "core/session/ledger_event.h"

#include <optional>

namespace pbx::data {
class Table;
}

namespace pbx::session {

/// Replays the public half of an NSG stream (Cummings et al. 2018; core/session/growing_nsg.cpp):
/// at each checkpoint the queries are asked in order; a query is capped when the ⊤ answers so far
/// reach H(t); otherwise a round opens at it if none is open, and it halts the open round iff the
/// next recorded ⊤ names this time and query. Every recorded round must open exactly where the
/// replay opens it, the capped and ⊤ counts of every checkpoint must be the replayed ones, and a
/// recorded refusal must fall where the replay opens the next round at the last checkpoint.
/// Precondition: auditNsgEvent passed (times, caps, charges and ⊤ records are consistent).
/// Errors: Parse, naming the event, the round and the time it should open at.
Result<void> auditNsgRoundOpenings(const LedgerEvent &event, const data::Table &table);

/// The charge the filter refused when `event` (a growing-database stream) records a refused epoch,
/// run or round: the planned epoch's charge (BBScheduler, BBImprover, ERMG, SmallDBG), or the
/// round's charge at the time the replay opens it (NSG, PMWG: the last recorded checkpoint).
/// nullopt when the event records no refusal or is not a growing stream.
/// Precondition: the event passed auditEventCost. Errors: Parse.
Result<std::optional<filters::Charge>> growingRefusedCharge(const LedgerEvent &event,
                                                            const data::Table &table);

} // namespace pbx::session
