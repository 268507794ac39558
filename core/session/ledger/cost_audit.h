// SPDX-License-Identifier: MIT
// Recomputes what each recorded event must have cost from its parameters — the query's
// sensitivity (table schema, clipping bounds, neighbouring relation), its mechanism and the noise
// scales it released at — and checks the ledger replays within the budget. Used by `pbx-cli
// verify` on transcripts and journals.
#pragma once

#include "core/session/session.h"

namespace pbx::session {

/// The ρ a zCDP-based filter (zcdp, brownian-zcdp, the unified filter's zCDP side) charged for an
/// event recorded in pure ε: each attempt is a separate charge admitted as ρ = ε_j²/2 (Bun &
/// Steinke 2016, Prop. 1.4), so the event cost Σ_j ε_j²/2 — not (Σ_j ε_j)²/2. Rounded up as the
/// filter rounds. For multi-level Laplace doubling this is what to show as "charged".
double rhoChargedForPureEvent(const LedgerEvent &event);

/// Checks one event: its attempts add up to its cost, and the cost is not below what its
/// releases' scales imply (ε = Δ/b for Laplace-family releases; ρ = Δ²/(2σ²) for Gaussian ones;
/// for noise reduction, the cost of the last level released; for doubling, every level). Ex-post
/// Brownian runs are checked for consistency of their increments and for δ ≤ the schedule's first
/// share; their boundary's E(T) is not recomputed (its parameters are recorded only as text).
/// Errors: Parse, naming the event and what differs.
/// `publicRows`: the public row count a sum's sensitivity was computed with (unset: the table's).
Result<void> auditEventCost(const LedgerEvent &event, const data::Table &table,
                            const SessionSettings &settings, std::optional<std::size_t> publicRows = {});

/// Audits every event, then replays the ledger into a fresh filter (Session::restore).
/// Errors: the first inconsistency found.
Result<std::unique_ptr<Session>> auditLedger(std::shared_ptr<const data::Table> table,
                                             const SessionSettings &settings,
                                             const std::vector<LedgerEvent> &events);
/// The same over any source (its schema and declared row count); on a database source every
/// event must be of a kind it answers (checkRequestOnSource). Errors: also Parse for such an event.
Result<std::unique_ptr<Session>> auditLedger(std::shared_ptr<const data::Source> source,
                                             const SessionSettings &settings,
                                             const std::vector<LedgerEvent> &events);

} // namespace pbx::session
