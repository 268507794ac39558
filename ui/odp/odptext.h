// SPDX-License-Identifier: MIT
// How an output-DP request and its ledger event read in the GUI (ledger rows, the result card,
// Query ▸ Sparse vector), as QStrings of core/report/event_description.h's words: the request in
// one line, and the outcome — reserved worst case E*, the
// realised cell j of c, the settled ε and what was returned, E* − E(j) (Hartmann, Bindschaedler,
// Bentkamp & West 2023, Algorithm 1 and Lemma 8; docs/output-dp.md §2–§3).
#pragma once

#include "core/session/ledger_event.h"

#include <QString>

namespace pbx::ui {

/// "sparse vector(education) ≥ 500, c = 3, ε = 1" (or the PTR, early-stop or recover request in one
/// line) for a request with `odp` set; empty otherwise.
QString describeOdpRequest(const session::QueryRequest &request);

/// "reserved ε = 1 · realised cell j = 2 of c = 3 · settled ε = 0.74 · returned 0.26" for a
/// released event with an ODP record; when it was settled at its worst case (no cell), says so.
/// Empty for other events.
QString odpOutcomeText(const session::LedgerEvent &event);

/// The result card's headline for a released ODP event: what the realised cell released ("j = 1 of
/// c = 2 flagged", "IQR ≈ 3.2, median 5.4", "mean ≈ 612.3 after 40 steps", "model released (noisy
/// test error 0.31)"), or "settled at the worst case". Empty for other events.
QString odpHeadline(const session::LedgerEvent &event);

/// E* − E(cell) of an ODP event: the ε the filter held at admission and gave back at settlement
/// (0 when settled at the worst case or without a record).
double odpReturnedEpsilon(const session::LedgerEvent &event);

} // namespace pbx::ui
