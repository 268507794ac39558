// SPDX-License-Identifier: MIT
// The strategies & inference lab run: a StrategiesLabResult (core/io/strategies_lab_json.h writes it
// as the "pbx-simulation" document). Simulation mode: true
// answers are read to score accuracy, never to decide; anything that reads a table runs only on
// public data (data::Table::isPublic()).
#pragma once

#include "core/data/table.h"
#include "core/simulation/strategies_lab_result.h"
#include "core/strategies/strategies_lab.h"
#include "core/util/result.h"

#include <cstdint>

namespace pbx::strategies {

/// Runs the experiment. `table` must be public when labNeedsTable (else Unsupported with the
/// lab's refusal). Errors: as parseLabConfig and the building blocks; NotFound (column); Cancelled.
Result<StrategiesLabResult> runStrategiesLab(const LabConfig &config, const data::Table *table,
                                             std::uint64_t seed, const LabProgress &progress = {});

} // namespace pbx::strategies
