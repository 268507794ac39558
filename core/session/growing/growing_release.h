// SPDX-License-Identifier: MIT
// Growing-database streams in a session (Cummings, Krehbiel, Lai & Tantipongpipat, "Differential
// privacy for growing databases", NeurIPS 2018, §3.1 BBScheduler and §3.2 BBImprover): the plan
// (data-free), the checks run before anything is spent, and the audit `pbx-cli verify` runs on a
// recorded event. Each run of the black box is its own charge to the session's filter, made when
// the run starts; a filter refusal stops the stream and everything released before it stays
// recorded and charged (docs/growing-databases.md, "In a session").
#pragma once

#include "core/data/table.h"
#include "core/growing/bb_improver.h"
#include "core/growing/bb_scheduler.h"
#include "core/mechanisms/discrete_samplers.h"
#include "core/mechanisms/noise_source.h"
#include "core/session/session.h"

#include <string>
#include <vector>

namespace pbx::session {

/// Largest number of epochs, and of epochs × queries, one stream may have in a session: every
/// answer is recorded in the ledger, so a γ so small that the stream has tens of thousands of
/// epochs is refused with a message instead of writing a huge transcript.
inline constexpr std::uint64_t kMaxGrowingEpochs = 10000;
inline constexpr std::uint64_t kMaxGrowingAnswers = 1000000;

/// The scheduler configuration of a request (Laplace-k box with k = the number of predicates).
/// Errors (code word and field, growing_error.h): INVALID_CONFIG ("algorithm" other than
/// bbscheduler), INVALID_START_SIZE, INVALID_GAMMA, INVALID_BUDGET, INVALID_SCHEDULE (a pure
/// schedule with a zcdp/approx budget or the reverse), INVALID_BETA, INVALID_BLACK_BOX (no
/// predicates).
Result<growing::SchedulerConfig> growingSchedulerConfig(const GrowingRequestSpec &spec);

/// The improver configuration of a "bbimprover" request (Laplace-k box, k = the number of
/// predicates). Errors: INVALID_CONFIG ("algorithm" other than bbimprover; "schedule.every" < 1),
/// INVALID_START_SIZE, INVALID_DECAY ("schedule.a" ∉ (0, 1)), INVALID_BUDGET, INVALID_SCHEDULE
/// ("budget.kind" pure: BBImprover needs zcdp or approx), INVALID_BETA, INVALID_BLACK_BOX.
Result<growing::ImproverConfig> growingImproverConfig(const GrowingRequestSpec &spec);

/// The stream's last time: spec.end, or the table's row count. Errors: INVALID_CONFIG
/// ("stream.end") when it exceeds the rows or is below start_size.
Result<std::uint64_t> growingStreamEnd(const GrowingRequestSpec &spec, const data::Table &table);

/// Every epoch whose start is ≤ end (growing::planEpochs): ε_i, ρ_i, β_i and the bounds, all from
/// the parameters alone. Errors: as growingSchedulerConfig and growingStreamEnd; INVALID_CONFIG
/// ("schedule.gamma") beyond kMaxGrowingEpochs epochs or kMaxGrowingAnswers answers, or when an
/// epoch's ε underflows to 0; EPOCH_OVERFLOW.
Result<std::vector<growing::EpochPlan>> growingEpochPlan(const GrowingRequestSpec &spec,
                                                         const data::Table &table);

/// One planned run of the black box, whatever the algorithm: BBScheduler's epoch i, or
/// BBImprover's run at t (its answers held for t … last).
struct GrowingRunPlan
{
    std::uint64_t index = 0; ///< from 0
    std::uint64_t start = 0; ///< the run's time: it reads the first `start` arriving rows
    std::uint64_t last = 0;  ///< the last time answered from it (≤ the stream's end)
    double epsilon = 0.0;    ///< the Laplace-k box's ε (> 0)
    double rho = 0.0;        ///< ρ charged (zCDP schedules, BBImprover); 0 for pure schedules
    double beta = 0.0;       ///< the run's share of β
    double scale = 0.0;      ///< Laplace scale k/(ε·start) on the fraction scale, rounded up
    double bound = 0.0;      ///< α + staleness over start … last (probability ≥ 1 − Σβ)
    filters::Charge charge;  ///< what the filter is charged before the run's noise is drawn
    /// The exact sampler's parameter: BBScheduler and BBImprover the count-scale discrete Laplace
    /// scale s ≥ scale·start (countLaplaceScale); ERMG σ² in grid units; SmallDBG unused.
    mechanisms::Rational noise;
    /// ERMG: the power-of-two grid θ is snapped to before its discrete Gaussian noise; else 0.
    double grid = 0.0;
};

/// Which noise a BBScheduler, BBImprover or ERMG stream draws: Exact, the discrete noise every new
/// stream draws (growing_exact_noise.h), or Continuous, the floating-point Laplace/Gaussian noise of
/// transcripts recorded before it (docs/growing-databases.md §9, "Earlier transcripts"). The two
/// charge the same; they differ in the recorded bounds (and ERMG's σ) and in what verify checks of
/// the answers. pbx-cli verify accepts a recorded stream under either, so no record is lost.
enum class GrowingNoiseDesign {
    Exact,
    Continuous,
};

/// Every run of the stream with its charge, from the parameters alone: BBScheduler's epochs
/// (growingEpochPlan, charged by growingEpochCharge) or BBImprover's runs at t = n + jm ≤ end, each
/// charged ρ_t = growing::BBImprover::step(t).rho (rounded down from m·ρ/(Z t'^{1+a}), t' = t+m−1;
/// the box runs at ε_t = √(2ρ_t) rounded down, so ε_t²/2 ≤ ρ_t, Bun & Steinke 2016 Prop. 1.4).
/// Each run draws exact discrete Laplace noise on the counts at the scale `noise` = scale·t rounded
/// up (growing_exact_noise.h), and its bound is the discrete tail's α = w/t (w the smallest integer
/// with P(|Z| > w) ≤ β_t/k, countLaplaceBound; at most the continuous α plus 1/t) plus the
/// staleness (last − t)/last. Errors: as growingEpochPlan or growingImproverConfig and
/// growingStreamEnd; INVALID_CONFIG ("schedule.every") beyond kMaxGrowingEpochs runs,
/// ("black_box.queries") beyond kMaxGrowingAnswers answers, ("budget.rho") when a run's ε
/// underflows to 0; INVALID_BUDGET ("budget") when a count-scale scale exceeds the sampler's 2^40.
/// With `design` Continuous (earlier transcripts, for verify): the bound is the continuous Laplace
/// tail α(ε_t, t, β_t) plus the staleness, as recorded before the exact noise, `noise` is unset and
/// no sampler limit applies.
Result<std::vector<GrowingRunPlan>> growingRunPlan(const GrowingRequestSpec &spec, const data::Table &table,
                                                   GrowingNoiseDesign design = GrowingNoiseDesign::Exact);

/// What the whole unbounded series of runs sums to at most: the schedule's total (ε or ρ) or
/// BBImprover's ρ. Errors: as growingSchedulerConfig / growingImproverConfig.
Result<double> growingSeriesTotal(const GrowingRequestSpec &spec);

/// "BBScheduler" or "BBImprover" (the name of the request's algorithm, as the paper writes it).
std::string growingAlgorithmTitle(const GrowingRequestSpec &spec);

/// The charge of one planned epoch: ρ_i for zCDP schedules (the box runs at ε_i = √(2ρ_i) rounded
/// down, and ε_i-DP implies ε_i²/2 ≤ ρ_i-zCDP, Bun & Steinke 2016 Prop. 1.4), else ε_i (pure
/// ε_i-DP: the noise scale k/(ε_i t_i) is rounded up).
filters::Charge growingEpochCharge(const GrowingRequestSpec &spec, const growing::EpochPlan &epoch);

/// Runs a BBScheduler or BBImprover stream: each run of `plan` is charged first (runPlannedStream),
/// then answers every query as (count + Z)/t, the prefix count from `counts` (the predicates along
/// the arrival order) plus Z exact discrete Laplace at run.noise (count scale), so every released
/// value times t is an integer. Errors: as runPlannedStream; when the random source fails after a
/// charge, its error (Io) and nothing of the stream is released (the filter keeps the charges).
Result<void> runLaplaceKStream(const GrowingRequestSpec &spec, const std::vector<GrowingRunPlan> &plan,
                               const growing::PrefixCounts &counts, filters::PrivacyFilter &filter,
                               mechanisms::NoiseSource &noise, LedgerEvent &event, GrowingRecord &record);

/// Checks a growing request before anything is spent: the session's neighbouring relation is
/// replace-one (GROWING_NEIGHBOURS_UNSUPPORTED otherwise: the analysis is for replace-one
/// neighbouring streams, whose size equals the time), the plan exists, every predicate compiles
/// against the table (INVALID_BLACK_BOX naming "black_box.queries[j]"), a "sorted:<predicate>"
/// order compiles, and the session's filter can account the charge kind at all (Unsupported: a
/// zCDP schedule's ρ under the basic, ex-post or odp filter).
Result<void> checkGrowingRequest(const QueryRequest &request, const data::Table &table,
                                 const SessionSettings &settings);

/// "BBScheduler epoch 3 of 5: t = 8000, ε = 0.0625" (ρ for zCDP schedules; epochs numbered from 0
/// as in the paper's t_i = n(1+γ)^i); "BBImprover run 3 of 271: t = 1300, ρ = 1.2e-05".
/// Precondition: e.growingRecord() with that epoch.
std::string growingEpochLabel(const LedgerEvent &event, std::size_t epoch);

/// "BBScheduler stream, t = 1000 … 28155, geometric γ = 1, ε ≤ 0.5, 2 queries" ("BBImprover
/// stream, …, a = 0.1, every 100 rows, ρ ≤ 0.5, …"): the ledger's description of a growing
/// request. Precondition: request.growing().
std::string describeGrowingRequest(const QueryRequest &request);

/// "the round before it stays released and charged" (count 1) or "the 3 epochs before it stay
/// released and charged": the end of a refused stream's reason. `unit`: the singular noun
/// ("epoch", "run", "round"); its plural adds an "s".
std::string releasedBefore(std::size_t count, const std::string &unit);

/// Recomputes a growing event from its request (pbx-cli verify): the plan's (growingRunPlan) t_i,
/// last time, ε_i, ρ_i, β_i, scale and bound for every recorded epoch or run, each attempt's cost equal to
/// its epoch's charge and its releases equal to the recorded answers, each BBScheduler or BBImprover
/// answer a count over t (isCountFraction: the exact noise releases (count + Z)/t), the epochs
/// consecutive from 0, the event's cost the rounded-up sum, and a stream cut short only by a recorded
/// refusal. A BBScheduler, BBImprover or ERMG event whose recorded bounds (and σ) are the continuous
/// design's (recordedNoiseDesign: recorded before the exact noise) is audited against that design,
/// with the same checks but none of the answers' integrality or grid; its charges are recomputed
/// exactly as for the exact design (they are the same).
/// Errors: Parse naming the event and what differs.
Result<void> auditGrowingEvent(const LedgerEvent &event, const data::Table &table,
                               const SessionSettings &settings);

/// The noise a recorded BBScheduler, BBImprover or ERMG event drew, told by its recorded numbers:
/// Continuous when its first epoch's (or run's, release's) scale and bound are bit for bit the
/// continuous design's (growingRunPlan with GrowingNoiseDesign::Continuous) and not the exact
/// design's; Exact otherwise (also for an event with no epoch: both designs charge the same). The
/// bounds of the two differ (the exact tail vs the continuous one; ERMG's σ too), so no new event
/// is taken for an old one unless its numbers are the old design's.
GrowingNoiseDesign recordedNoiseDesign(const LedgerEvent &event, const data::Table &table);

} // namespace pbx::session
