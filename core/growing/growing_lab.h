// SPDX-License-Identifier: MIT
// The growing-database lab as a document: a "pbx-growing-lab" configuration in, a "pbx-simulation"
// result out (used by `pbx-cli simulate growing`). A plan (epochs or per-step schedule, privacy,
// accuracy bounds) needs no data; the simulation replays a public table's rows as a stream in a
// seeded order and measures the error — true answers are read to score, never to decide.
// Document fields and derivations: docs/growing-databases.md, "The lab document".
#pragma once

#include "core/data/table.h"
#include "core/growing/bb_improver.h"
#include "core/growing/bb_scheduler.h"
#include "core/growing/ermg.h"
#include "core/growing/lab_monte_carlo.h"
#include "core/growing/nsg_run.h"
#include "core/growing/pmwg.h"
#include "core/growing/smalldb.h"
#include "core/io/json_fields.h"
#include "core/util/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pbx::growing {

/// |Q| of the SmallDB teaching instance (cpsSmallDbInstance): 8 one-way + 20 two-way marginal cells.
inline constexpr std::size_t kCpsSmallDbQueries = 28;

enum class LabAlgorithm { BBScheduler, BBImprover, Pmwg, Nsg, Ermg };

/// "bbscheduler", "bbimprover", "pmwg", "nsg", "ermg" (the document's "algorithm" and, prefixed with
/// "growing-", the result's "simulation").
std::string_view labAlgorithmName(LabAlgorithm algorithm);

struct GrowingLabConfig
{
    LabAlgorithm algorithm = LabAlgorithm::BBScheduler;
    std::string dataset = "cps1988";
    std::uint64_t startSize = 1000;
    std::string order = "random";
    std::optional<std::uint64_t> end; ///< default: the table's row count (required for a plan only)
    Budget budget;
    ScheduleKind schedule = ScheduleKind::Geometric; ///< bbscheduler
    std::optional<double> gamma; ///< bbscheduler; nullopt = "optimal" (minimises the worst epoch)
    double decay = 0.1;          ///< bbimprover: a
    std::uint64_t every = 1;     ///< bbimprover: m
    BlackBox box;
    std::size_t smallDbSize
        = 0; ///< smalldb with "m": the multiset size m of the CPS teaching instance (0: none)
    std::vector<std::string> queries; ///< laplace-k or nsg predicates (empty: plan only)
    double beta = 0.05;
    int repetitions = 200;          ///< seeded arrival orders simulated (nsg, ermg: 1 unless given)
    std::string universe = "small"; ///< pmwg
    PmwgConfig pmwg;                ///< pmwg (start size, universe size and budget copied in)
    bool ermScheduler = false; ///< ermg: BBScheduler epochs (schedule.kind zcdp-*) instead of improver runs
    double ermLambda = 0.01;   ///< ermg: λ > 0
    double ermTol = 1e-10;     ///< ermg: Newton's gradient tolerance, charged in the sensitivity
    int ermDraws = 200;        ///< ermg: noise draws per run for the measured excess risk
    NsgConfig nsg;             ///< nsg (start size and budget copied in)
    int checkpoints = 40;      ///< pmwg, nsg
    int perCheckpoint = 25;    ///< pmwg
};

/// The lab's BBScheduler (also ERMG's with a zCDP schedule): start size, budget, schedule, β, box,
/// and γ when the configuration fixes one (else the default 1; "optimal" is the caller's search).
SchedulerConfig schedulerConfigOf(const GrowingLabConfig &config);

/// The lab's BBImprover (also ERMG's improver grid): start size, a, m, budget, β, box.
ImproverConfig improverConfigOf(const GrowingLabConfig &config);

/// Reads and checks a configuration. Errors ("<CODE>: <field>: …"): INVALID_CONFIG (format, version,
/// unknown algorithm or field value, missing fields), INVALID_UNIVERSE, INVALID_ALPHA, INVALID_CAP,
/// INVALID_THRESHOLD, INVALID_LEARNING_RATE, INVALID_NOISE_EXPONENT (pmwg, nsg), CAP_REQUIRED (nsg
/// without "nsg.cap"), GROWING_NEIGHBOURS_UNSUPPORTED ("neighbours"
/// other than replace), INVALID_START_SIZE, INVALID_GAMMA, INVALID_BUDGET, INVALID_SCHEDULE,
/// INVALID_DECAY, INVALID_BETA, INVALID_BLACK_BOX.
Result<GrowingLabConfig> parseGrowingLab(const io::json::Json &document);

/// The configuration as echoed in the result's "settings" (defaults filled in).
io::json::Json growingLabSettings(const GrowingLabConfig &config, std::uint64_t seed, bool planOnly);

/// Runs the lab. `table` is null for a plan (`planOnly`): nothing is read. A simulation needs a
/// public table (else Unsupported), start_size ≤ end ≤ rows, and for bbscheduler/bbimprover a
/// laplace-k box with predicates or (bbscheduler) a smalldb box with "m" (SmallDBG); nsg needs
/// "nsg.queries"; ermg at most 1000 releases. Every simulation except PMWG's is a Monte Carlo over
/// `repetitions` seeded arrival orders (labOrderSeed) summarised in "monte_carlo"; `progress` is
/// told after each repetition (SmallDBG: each epoch) and may stop the run. Errors: as
/// parseGrowingLab; INVALID_CONFIG ("stream.end", "black_box.queries", "nsg.queries",
/// "schedule.every"); the predicates' errors; EPOCH_OVERFLOW; SMALLDB_TOO_LARGE; ResourceLimit
/// (Newton's method not converging); Cancelled (`progress` returned false).
Result<io::json::Json> runGrowingLab(const GrowingLabConfig &config, const data::Table *table,
                                     std::uint64_t seed, bool planOnly, const LabProgress &progress = {});

} // namespace pbx::growing
