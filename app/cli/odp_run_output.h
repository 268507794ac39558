// SPDX-License-Identifier: MIT
// How `pbx-cli run` prints an output-DP event: the reservation, the released answers and
// entries, the realised cell and the settled cost (docs/output-dp.md §2).
#pragma once

#include "core/session/ledger_event.h"

#include <ostream>

namespace pbx::cli {

/// One line, e.g. "s1: released svt, j = 1 of c = 3 (reserved ε = 0.5, settled ε = 0.3, 0.2
/// returned; answers ⊥⊤⊥; released 16 = 1520)", or "s1: refused — <reason>".
void printOdpEvent(const session::LedgerEvent &event, std::ostream &out);

/// A growing-database stream: a header line ("g1: released bbscheduler, 5 of 5 epochs, ε = 0.484375
/// (series ≤ 0.5)" or the refusal) and one line per epoch ("  BBScheduler epoch 3 of 5: t = 8000,
/// ε = 0.03125; answers 0.3052, 0.1104 (scale 0.008, bound 0.6614)").
void printGrowingEvent(const session::LedgerEvent &event, std::ostream &out);

} // namespace pbx::cli
