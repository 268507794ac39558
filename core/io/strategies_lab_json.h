// SPDX-License-Identifier: MIT
// The strategies & inference lab's configuration document ("pbx-strategies-lab") read into a
// strategies::LabConfig, the configuration echoed as a result's "settings", and a run's
// StrategiesLabResult written as the "pbx-simulation" document.
#pragma once

#include "core/io/json_fields.h"
#include "core/simulation/strategies_lab_result.h"
#include "core/strategies/range_strategy.h"
#include "core/strategies/strategies_lab.h"
#include "core/util/result.h"

#include <cstdint>

namespace pbx::strategies {

/// Reads and checks a configuration. Errors (message "<CODE>: …"): INVALID_CONFIG (format,
/// version, unknown experiment or field value), INVALID_EPSILON, INVALID_QUANTILE,
/// INVALID_BRANCHING, INVALID_BOUNDS (lo ≥ hi, non-integer bounds of an ordinal domain, more than
/// 2^16 cells), NEIGHBOURS_MISMATCH ("parallel_rule": "max" under replace), NOT_CONVEX (a
/// projection onto integers, which is not convex and can increase the error).
Result<LabConfig> parseLabConfig(const io::json::Json &document);

/// The configuration as echoed in the result's "settings" (with defaults filled in).
io::json::Json labSettingsJson(const LabConfig &config, std::uint64_t seed);

/// A range strategy as the "settings" and results name it: {"kind"} and, for a tree, "branching",
/// "root" and "consistency".
io::json::Json strategyJson(const RangeStrategy &strategy);

/// A run's result as the "pbx-simulation" document: format, version, simulation, settings, the
/// experiment's fields and the simulation-mode note.
io::json::Json labResultJson(const StrategiesLabResult &result);

} // namespace pbx::strategies
