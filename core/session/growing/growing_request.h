// SPDX-License-Identifier: MIT
// A growing-database stream as a session request (`"type": "growing"` in run files): the
// session's rows arrive in a seeded order from start_size to end, and a Laplace-k black box is
// re-run on the rows so far (Cummings, Krehbiel, Lai & Tantipongpipat, NeurIPS 2018): BBScheduler
// (§3.1) at each epoch start t_i, BBImprover (§3.2) at t = n, n+m, n+2m, …. Each run is one charge
// to the session's filter — ε_i (pure schedules) or ρ_i (zCDP schedules, every BBImprover run)
// exactly as growing::PrivacySchedule / growing::BBImprover compute them. What the event records
// (docs/growing-databases.md, "In a session").
#pragma once

#include "core/growing/privacy_schedule.h"
#include "core/session/growing/growing_pmwg_request.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pbx::session {

/// The stream a request runs ("algorithm"). Not growing::LabAlgorithm: the lab has no SmallDBG
/// stream (it runs the smalldb box under BBScheduler), a session does.
enum class GrowingAlgorithm { BBScheduler, BBImprover, Nsg, Pmwg, Ermg, SmallDb };
/// "bbscheduler", "bbimprover", "nsg", "pmwg", "ermg", "smalldb" (the request's "algorithm").
std::string_view growingAlgorithmName(GrowingAlgorithm algorithm);

/// NSG's cap on hard answers ("nsg.cap.kind"): Time, H(t) = ⌊c_0(1 + H_t − H_n)⌋, or Constant c.
enum class NsgCapKind { Time, Constant };
std::string_view nsgCapKindName(NsgCapKind kind); ///< "time" or "constant"

/// An approx budget's conversion as the request names it ("budget.conversion"): "cks" or "simple".
std::string_view zcdpConversionName(privacy::ZcdpConversion conversion);

/// The request's parameters: the fields of the pbx-growing-lab document that describe one stream
/// (docs/growing-databases.md, "The lab document"), without the simulation-only ones.
struct GrowingRequestSpec
{
    GrowingAlgorithm algorithm = GrowingAlgorithm::BBScheduler;
    std::uint64_t startSize = 1000;         ///< n ≥ 1 ("stream.start_size")
    std::optional<std::uint64_t> end;       ///< last time (rows), n ≤ end ≤ rows; unset: every row
    std::string order = "random";           ///< "random" or "sorted:<predicate>" ("stream.order")
    std::optional<std::uint64_t> orderSeed; ///< the arrival order's seed ("stream.seed"); unset: drawn
    growing::BudgetKind budgetKind = growing::BudgetKind::Pure;        ///< "budget.kind"
    double epsilon = 0.0;                                              ///< pure, approx: the series' ε
    double rho = 0.0;                                                  ///< zcdp: the series' ρ
    double delta = 0.0;                                                ///< approx: δ
    privacy::ZcdpConversion conversion = privacy::ZcdpConversion::Cks; ///< approx ("budget.conversion")
    /// bbscheduler, smalldb, ermg unless ermgImprover: "schedule.kind"
    growing::ScheduleKind schedule = growing::ScheduleKind::Geometric;
    bool ermgImprover = false; ///< ermg: BBImprover's runs (schedule.kind "improver": a, every)
    double gamma = 1.0;        ///< bbscheduler: γ ∈ (0, 1000]
    double decay = 0.1;        ///< bbimprover: a ∈ (0, 1) ("schedule.a")
    std::uint64_t every = 1;   ///< bbimprover: m ≥ 1, a run every m rows ("schedule.every")
    double nsgExponent = 0.5;  ///< nsg: p ∈ [0, 1] ("nsg.p"), σ(t) = σ_n (n/t)^p
    double nsgThreshold = 0.5; ///< nsg: T ∈ [0, 1] ("nsg.T"), fraction scale
    NsgCapKind nsgCapKind = NsgCapKind::Time; ///< nsg ("nsg.cap.kind")
    double nsgCap = 10.0;                     ///< nsg: c_0 (time) or c (constant) ("nsg.cap")
    std::uint64_t nsgCheckpoints = 40;        ///< nsg: evenly spaced times n … end ("nsg.checkpoints")
    PmwgRequestSpec pmwg;                     ///< pmwg: its "pmwg" block
    double ermLambda = 0.01;                  ///< ermg: λ > 0 ("erm.lambda"), the L2 regulariser
    double ermTol = 1e-10;            ///< ermg: Newton's gradient tolerance ("erm.tol"), 1e-10 … 1e-2
    std::uint64_t smallDbSize = 8;    ///< smalldb: m, the synthetic database's rows ("black_box.m")
    std::vector<std::string> queries; ///< counting predicates: the laplace-k box's, or nsg's (k ≥ 1)
    double beta = 0.05;               ///< total failure probability of the bounds
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
    std::vector<double> answers; ///< per query: the noisy fraction at t_i (ermg: θ̃ + noise, smalldb: q(y))
    std::vector<std::uint32_t> cells; ///< smalldb: the synthetic database y as counts per universe cell
};

/// NSG (Cummings et al. 2018, §4): one sparse-vector round, charged when it opens.
struct NsgRoundRecord
{
    std::uint64_t index = 0;           ///< from 0
    std::uint64_t start = 0;           ///< s_i: the time of its first query (its threshold draw)
    std::optional<std::uint64_t> halt; ///< the time of its ⊤ (unset: still open at the end)
    double charge = 0.0;               ///< ε = (7/3)f(s_i), or ρ = ((7/3)f(s_i))²/2, rounded up
};

/// NSG: one hard (⊤) query and its numeric answer.
struct NsgHardRecord
{
    std::uint64_t time = 0;
    std::uint64_t query = 0; ///< index of the predicate
    double answer = 0.0;     ///< q(x_t) + Lap(3σ(t)) (fraction scale)
    double scale = 0.0;      ///< 3σ(t)
};

/// NSG: what was asked at one checkpoint (every predicate in turn).
struct NsgCheckpointRecord
{
    std::uint64_t time = 0;
    std::uint64_t cap = 0;    ///< H(t)
    std::uint64_t hard = 0;   ///< hard answers so far (after this checkpoint)
    std::uint64_t capped = 0; ///< queries not answered because the cap bound (nothing released)
};

/// NSG's record: the noise unit, the rounds (one attempt each), the ⊤ answers and the checkpoints;
/// a query neither hard nor capped was answered ⊥.
struct NsgRecord
{
    double sigmaN = 0.0;    ///< σ_n (fraction scale) the session ran at
    double worstCase = 0.0; ///< the charges' worst case over all transcripts (the stream's budget)
    std::vector<NsgRoundRecord> rounds;
    std::vector<NsgHardRecord> hard;
    std::vector<NsgCheckpointRecord> checkpoints;
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
    /// NSG streams (then `epochs` is empty and `refusedEpoch` names the refused round).
    std::optional<NsgRecord> nsg;
    /// PMWG streams (then `epochs` is empty and `refusedEpoch` names the refused round).
    std::optional<PmwgRecord> pmwg;
};

} // namespace pbx::session
