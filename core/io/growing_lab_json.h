// SPDX-License-Identifier: MIT
// The growing-database lab's configuration document ("pbx-growing-lab") read into a
// growing::GrowingLabConfig, the configuration echoed as a result's "settings", and a run's
// GrowingLabResult written as the "pbx-simulation" document.
// Document fields: docs/growing-databases.md, "The lab document".
#pragma once

#include "core/growing/growing_lab.h"
#include "core/io/json_fields.h"
#include "core/simulation/growing_lab_result.h"
#include "core/util/result.h"

#include <cstdint>

namespace pbx::growing {

/// Reads and checks a configuration. Errors ("<CODE>: <field>: …"): INVALID_CONFIG (format, version,
/// unknown algorithm or field value, missing fields), INVALID_UNIVERSE, INVALID_ALPHA, INVALID_CAP,
/// INVALID_THRESHOLD, INVALID_LEARNING_RATE, INVALID_NOISE_EXPONENT (pmwg, nsg), CAP_REQUIRED (nsg
/// without "nsg.cap"), GROWING_NEIGHBOURS_UNSUPPORTED ("neighbours"
/// other than replace), INVALID_START_SIZE, INVALID_GAMMA, INVALID_BUDGET, INVALID_SCHEDULE,
/// INVALID_DECAY, INVALID_BETA, INVALID_BLACK_BOX.
Result<GrowingLabConfig> parseGrowingLab(const io::json::Json &document);

/// The configuration as echoed in the result's "settings" (defaults filled in).
io::json::Json growingLabSettings(const GrowingLabConfig &config, std::uint64_t seed, bool planOnly);

/// A run's result as the "pbx-simulation" document: format, version, simulation, settings, the
/// algorithm's plan (and, for a simulation, its "monte_carlo"), and the note saying whether data
/// were read.
io::json::Json growingLabResultJson(const GrowingLabResult &result);

} // namespace pbx::growing
