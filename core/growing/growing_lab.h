// SPDX-License-Identifier: MIT
// The growing-database lab's configuration: which algorithm, stream, budget, schedule and box
// (core/io/growing_lab_json.h reads and echoes it; core/simulation/growing_lab_run.h runs it; used by
// `pbx-cli simulate growing`). A plan (epochs or per-step schedule, privacy,
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
#include "core/util/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pbx::growing {

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

} // namespace pbx::growing
