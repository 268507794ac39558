// SPDX-License-Identifier: MIT
// The growing-database lab run: a plan (epochs or per-step schedule, privacy, accuracy bounds) needs
// no data; the simulation replays a public table's rows as a stream in a seeded order and measures
// the error — true answers are read to score, never to decide. The result is a GrowingLabResult
// (core/io/growing_lab_json.h writes it as the "pbx-simulation" document of
// docs/growing-databases.md, "The lab document").
#pragma once

#include "core/data/table.h"
#include "core/growing/growing_lab.h"
#include "core/growing/lab_monte_carlo.h"
#include "core/simulation/growing_lab_result.h"
#include "core/util/result.h"

#include <cstdint>

namespace pbx::growing {

/// Runs the lab. `table` is null for a plan (`planOnly`): nothing is read. A simulation needs a
/// public table (else Unsupported), start_size ≤ end ≤ rows, and for bbscheduler/bbimprover a
/// laplace-k box with predicates or (bbscheduler) a smalldb box with "m" (SmallDBG); nsg needs
/// "nsg.queries"; ermg at most 1000 releases. Every simulation except PMWG's is a Monte Carlo over
/// `repetitions` seeded arrival orders (labOrderSeed) summarised in its `monteCarlo`; `progress` is
/// told after each repetition (SmallDBG: each epoch) and may stop the run. Errors: as
/// parseGrowingLab; INVALID_CONFIG ("stream.end", "black_box.queries", "nsg.queries",
/// "schedule.every"); the predicates' errors; EPOCH_OVERFLOW; SMALLDB_TOO_LARGE; ResourceLimit
/// (Newton's method not converging); Cancelled (`progress` returned false).
Result<GrowingLabResult> runGrowingLab(const GrowingLabConfig &config, const data::Table *table,
                                       std::uint64_t seed, bool planOnly, const LabProgress &progress = {});

} // namespace pbx::growing
