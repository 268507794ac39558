// SPDX-License-Identifier: MIT
// Recomputes what each recorded event must have cost from its parameters — the query's
// sensitivity (table schema, clipping bounds, neighbouring relation), its mechanism and the noise
// scales it released at — and checks the ledger replays within the budget. Used by `pbx-cli
// verify` on transcripts and journals.
#pragma once

#include "core/session/session.h"

namespace pbx::session {

/// Checks one event: its attempts add up to its cost, and the cost is not below what its
/// releases' scales imply (ε = Δ/b for Laplace-family releases; ρ = Δ²/(2σ²) for Gaussian ones;
/// for noise reduction, the cost of the last level released; for doubling, every level). Ex-post
/// Brownian runs are checked for consistency of their increments and for δ ≤ the schedule's first
/// share; their boundary's E(T) is not recomputed (its parameters are recorded only as text).
/// Errors: Parse, naming the event and what differs.
Result<void> auditEventCost(const LedgerEvent &event, const data::Table &table, const SessionSettings &settings);

/// Audits every event, then replays the ledger into a fresh filter (Session::restore).
/// Errors: the first inconsistency found.
Result<std::unique_ptr<Session>> auditLedger(std::shared_ptr<const data::Table> table, const SessionSettings &settings,
                                             const std::vector<LedgerEvent> &events);

} // namespace pbx::session
