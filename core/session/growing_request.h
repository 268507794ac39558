// SPDX-License-Identifier: MIT
// A growing-database stream as a session request (`"type": "growing"` in run files): the
// session's rows arrive in a seeded order from start_size to end, and a Laplace-k black box is
// re-run on the rows so far (Cummings, Krehbiel, Lai & Tantipongpipat, NeurIPS 2018): BBScheduler
// (§3.1) at each epoch start t_i, BBImprover (§3.2) at t = n, n+m, n+2m, …. Each run is one charge
// to the session's filter — ε_i (pure schedules) or ρ_i (zCDP schedules, every BBImprover run)
// exactly as growing::PrivacySchedule / growing::BBImprover compute them. What the event records
// (docs/growing-databases.md, "In a session").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pbx::session {

/// The request's parameters: the fields of the pbx-growing-lab document that describe one stream
/// (docs/growing-databases.md, "The lab document"), without the simulation-only ones.
struct GrowingRequestSpec
{
    std::string algorithm = "bbscheduler";  ///< "bbscheduler" or "bbimprover"
    std::uint64_t startSize = 1000;         ///< n ≥ 1 ("stream.start_size")
    std::optional<std::uint64_t> end;       ///< last time (rows), n ≤ end ≤ rows; unset: every row
    std::string order = "random";           ///< "random" or "sorted:<predicate>" ("stream.order")
    std::optional<std::uint64_t> orderSeed; ///< the arrival order's seed ("stream.seed"); unset: drawn
    std::string budgetKind = "pure";        ///< "pure", "zcdp" or "approx" ("budget.kind")
    double epsilon = 0.0;                   ///< pure, approx: the series' ε
    double rho = 0.0;                       ///< zcdp: the series' ρ
    double delta = 0.0;                     ///< approx: δ
    std::string conversion = "cks";         ///< approx: "cks" or "simple"
    std::string schedule = "geometric";     ///< bbscheduler: growing::scheduleKindName
    double gamma = 1.0;                     ///< bbscheduler: γ ∈ (0, 1000]
    double decay = 0.1;                     ///< bbimprover: a ∈ (0, 1) ("schedule.a")
    std::uint64_t every = 1;                ///< bbimprover: m ≥ 1, a run every m rows ("schedule.every")
    std::vector<std::string> queries;       ///< the laplace-k box's counting predicates (k ≥ 1)
    double beta = 0.05;                     ///< total failure probability of the bounds
};

/// One epoch of the stream as released (BBScheduler), or one run (BBImprover: its "epoch" is the
/// block t … t+m−1 its answers are held for).
struct GrowingEpochRecord
{
    std::uint64_t index = 0; ///< i, from 0
    std::uint64_t start = 0; ///< t_i: the run saw the first t_i arriving rows
    std::uint64_t last = 0;  ///< the last time answered from this run
    double epsilon = 0.0;    ///< ε_i the box ran at (pure: also the charge)
    double rho = 0.0;        ///< zCDP schedules and BBImprover: ρ_i charged; 0 for pure ones
    double beta = 0.0;       ///< β_i
    double scale = 0.0;      ///< Laplace scale k/(ε_i t_i) on the fraction scale, rounded up
    double bound = 0.0; ///< α_i + s_i: with prob ≥ 1 − Σβ_i every answer of the epoch is within it
    std::vector<double> answers; ///< per query: the noisy fraction at t_i
};

/// What a growing event records besides its attempts (one attempt per charged epoch).
struct GrowingRecord
{
    std::uint64_t orderSeed = 0;     ///< the arrival order's seed used
    std::uint64_t end = 0;           ///< the stream's last time
    std::uint64_t plannedEpochs = 0; ///< epochs (runs) whose start is ≤ end
    double seriesTotal = 0.0;        ///< ε (pure) or ρ (zCDP) the whole unbounded series sums to at most
    std::vector<GrowingEpochRecord> epochs; ///< released epochs, in order
    /// Set when the filter refused epoch `*refusedEpoch`: the stream stopped there, everything
    /// before it stays released and charged.
    std::optional<std::uint64_t> refusedEpoch;
};

} // namespace pbx::session
