// SPDX-License-Identifier: MIT
// The strategies & inference lab run: a "pbx-simulation" result document. Simulation mode: true
// answers are read to score accuracy, never to decide; anything that reads a table runs only on
// public data (data::Table::isPublic()).
#pragma once

#include "core/data/table.h"
#include "core/io/json_fields.h"
#include "core/strategies/strategies_lab.h"
#include "core/util/result.h"

#include <cstdint>

namespace pbx::strategies {

/// Runs the experiment. `table` must be public when labNeedsTable (else Unsupported with the
/// lab's refusal). Errors: as parseLabConfig and the building blocks; NotFound (column); Cancelled.
Result<io::json::Json> runStrategiesLab(const LabConfig &config, const data::Table *table, std::uint64_t seed,
                                        const LabProgress &progress = {});

} // namespace pbx::strategies
