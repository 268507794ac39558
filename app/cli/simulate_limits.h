// SPDX-License-Identifier: MIT
// Work and memory estimates of `pbx-cli simulate` labs, checked before a lab starts: a config whose
// estimate exceeds a named limit is refused with one line naming the fields that make it large
// (as the PLD accountant refuses a grid beyond PldOptions::maxBins before allocating). A
// growing lab with 200,000 black-box queries reached 13.7 GB in 60 s, and repetitions 100,000 with
// "every": 1 ran for minutes.
#pragma once

#include "core/data/table.h"
#include "core/growing/growing_lab.h"
#include "core/simulation/relative_error_lab.h"
#include "core/strategies/strategies_lab.h"
#include "core/util/result.h"

#include <cstddef>

namespace pbx::cli {

/// Elementary steps (a prefix count, a held answer's error, a range answered, one draw) a lab may
/// take: about a minute on one core for the growing and strategies labs.
inline constexpr double kMaxLabSteps = 4e9;
/// Memory a lab's per-query tables may take: the growing labs keep, per query, a byte per row
/// and a 4-byte prefix count per arrival (5 bytes × queries × rows).
inline constexpr double kMaxLabBytes = 1024.0 * 1024.0 * 1024.0;
/// Query answers the relative-error lab may attempt (repetitions × queries per repetition, each
/// by every method × filter): its defaults, 200 × 500, take about 230 s on 2 threads.
inline constexpr double kMaxRelativeErrorQueries = 250000.0;

/// The growing lab's estimate: memory 5·k·rows bytes (k the black box's or NSG's predicates) and
/// work repetitions × k × (rows + the times its runs hold answers) for BBScheduler, BBImprover and
/// NSG; ERMG repetitions × releases × rows. Nothing for a plan (`table` null), PMWG (one run,
/// bounded by its own checkpoint limits) or SmallDBG (SMALLDB_TOO_LARGE). Errors: ResourceLimit,
/// "INVALID_CONFIG: <field>: …" naming the fields and the limit.
Result<void> checkGrowingLabSize(const growing::GrowingLabConfig &config, const data::Table *table);

/// The strategies lab's estimate for ranges, inference and quantile experiments: repetitions ×
/// strategies × (2k + |workload|), k the column's domain (bounds, or its declared bounds), an
/// all-ranges workload k(k+1)/2. Errors: ResourceLimit naming the fields and the limit.
Result<void> checkStrategiesLabSize(const strategies::LabConfig &config, const data::Table *table);

/// The relative-error lab's estimate: repetitions × min(queries, cells). Errors: ResourceLimit
/// naming --repetitions and --queries and the limit.
Result<void> checkRelativeErrorLabSize(const simulation::LabSettings &settings, std::size_t cells);

} // namespace pbx::cli
