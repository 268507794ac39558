// SPDX-License-Identifier: MIT
// NSG streams in a session (Numeric Sparse for growing databases; Cummings, Krehbiel, Lai &
// Tantipongpipat, "Differential privacy for growing databases", NeurIPS 2018, §4): the session's
// rows arrive in a seeded order; at evenly spaced checkpoints every counting predicate is asked in
// turn; the sparse vector (on the count scale, where a count's sensitivity is 1 at every time)
// answers ⊥, or ⊤ with a numeric answer q(x_t) + Lap(3σ(t)), under the mandatory hard-query cap.
// Every draw is exact discrete Laplace on the count scale (SvtNoise, growing_exact_noise.h): the
// ⊤ answer is (count + Z)/t, and the test is decided in integers.
// A filter needs each charge fixed before the noise it covers is drawn, so each round is charged
// when it opens (its threshold draw at s) with the round's whole worst case: the round is
// f(s) + (4/3)f(t_h)-DP with t_h ≥ s and f non-increasing, hence (7/3)f(s)-DP whatever its outcome;
// ε = (7/3)f(s) for pure budgets, ρ = ((7/3)f(s))²/2 for zcdp and approx ones (Bun & Steinke 2016,
// Prop. 1.4). Proof that the charges never under-report, and their worst case:
// docs/growing-databases.md, "In a session".
#pragma once

#include "core/filters/privacy_filter.h"
#include "core/growing/nsg_run.h"
#include "core/mechanisms/discrete_samplers.h"
#include "core/mechanisms/noise_source.h"
#include "core/session/ledger_event.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace pbx::session {

/// The NSG configuration of an "nsg" request. Errors (code word and field): INVALID_CONFIG
/// ("algorithm"; "nsg.checkpoints" outside 1 … 10000; "nsg.queries" empty), CAP_REQUIRED,
/// INVALID_CAP, INVALID_NOISE_EXPONENT ("nsg.p"), INVALID_THRESHOLD ("nsg.T"), INVALID_START_SIZE,
/// INVALID_BUDGET.
Result<growing::NsgConfig> growingNsgConfig(const GrowingRequestSpec &spec);

/// The noise unit σ(t) = σ_n (n/t)^p a session runs at. zcdp and approx budgets: the lab's
/// (growing::nsgNoiseUnit: the worst case Σ((7/3)f(s_i))²/2 ≤ (49/18)f(n)²B equals the budget's ρ).
/// Pure budgets: the lab's σ_n scaled up by (W + (4/3)f(n))/W, W = growing::nsgWorstCaseEpsilon,
/// rounded up, so that the charges' worst case (7/3)f(n)(1 + C) — the first round is charged
/// (7/3)f(n), not the lab's f(n) + (4/3)f(e_1) — still equals the budget's ε.
/// Errors: as growingNsgConfig.
Result<growing::NoiseUnit> growingNsgUnit(const GrowingRequestSpec &spec);

/// The charge of a round opened at s: ε = (7/3)f(s) (pure budgets) or ρ = ((7/3)f(s))²/2 (zcdp and
/// approx budgets), rounded up. Precondition: s ≥ n, a valid unit.
filters::Charge nsgRoundCharge(const GrowingRequestSpec &spec, const growing::NoiseUnit &unit,
                               std::uint64_t start);

/// The worst case of the charges over all transcripts that respect the cap, in the charge's unit:
/// W + (4/3)f(n) (pure) or growing::nsgWorstCaseRho (ρ), rounded up; at most the request's budget
/// up to rounding. Precondition: valid spec and unit.
double nsgChargeWorstCase(const GrowingRequestSpec &spec, const growing::NoiseUnit &unit);

/// Charges sparse-vector round `index` (NSG or PMWG), opening at time t, before its threshold is
/// drawn. Returns true when charged (one attempt for the round added to event, event.cost grown,
/// rounded up); false when the filter refused with BudgetExceeded (event.reason and
/// record.refusedEpoch set; earlier rounds stay released). Errors: any other filter error before
/// a round was charged (index 0: nothing spent).
Result<bool> chargeSvtRound(const filters::Charge &charge, std::size_t index, std::uint64_t t,
                            filters::PrivacyFilter &filter, LedgerEvent &event, GrowingRecord &record);

/// The exact noise of the count-scale sparse vector at time t (NSG and PMWG; growing_exact_noise.h).
/// The threshold's and the query's discrete Laplace scales are λ_T·σ(t)·t and λ_Q·σ(t)·t (σ(t)
/// nudged up, the products rounded up, then up to a rational n/2^k), so with λ_T = 1, λ_Q = 2 a
/// shift of the threshold by 1 at s and of the query noise by 2 at t cost at most f(s) and f(t), as
/// in the continuous proof (docs/growing-databases.md §9, "Exact discrete noise"); the ⊤ answer's
/// fraction scale 3σ(t)
/// (rounded up; recorded) and its count-scale scale, so (count + Z)/t costs at most f(t)/3.
struct SvtNoise
{
    mechanisms::Rational threshold;    ///< ρ ~ discrete Laplace(threshold), counts
    mechanisms::Rational query;        ///< ν ~ discrete Laplace(query), counts
    double numeric = 0.0;              ///< the ⊤ answer's scale 3σ(t) on the fraction scale
    mechanisms::Rational numericCount; ///< countLaplaceScale(numeric, t)
};

/// SvtNoise at time t ≥ n. Errors: INVALID_BUDGET ("budget") when a scale exceeds the exact
/// sampler's 2^40 (a budget far too small to be useful).
Result<SvtNoise> svtNoiseAt(const growing::NoiseUnit &unit, std::uint64_t t);

/// svtNoiseAt at each time: computed for every checkpoint before a stream's first charge, so a
/// scale out of range refuses the request with nothing spent. Errors: as svtNoiseAt.
Result<std::vector<SvtNoise>> svtNoiseAtEach(const growing::NoiseUnit &unit,
                                             std::span<const std::uint64_t> times);

/// The checkpoint times n + (end − n)·c/(C − 1), c = 0 … C − 1 (C = 1: end alone).
std::vector<std::uint64_t> nsgCheckpointTimes(std::uint64_t n, std::uint64_t end, std::uint64_t checkpoints);

/// Runs the stream: `counts` are the predicates' prefix counts along the arrival order. Each round
/// is charged to `filter` when it opens; a refusal (BudgetExceeded) stops the stream, keeps what
/// was released and sets record.refusedEpoch to the refused round's index. Fills event.attempts
/// (one per charged round; its release the ⊤ answer, if any), event.cost and record.nsg. Errors:
/// a filter error other than BudgetExceeded before anything is charged (nothing spent).
Result<void> runNsgStream(const GrowingRequestSpec &spec, const growing::PrefixCounts &counts,
                          std::uint64_t end, filters::PrivacyFilter &filter, mechanisms::NoiseSource &noise,
                          LedgerEvent &event, GrowingRecord &record);

/// "NSG round 2: opened at t = 5068, ⊤ at t = 9000, ε = 0.0332" (ρ for zCDP budgets).
/// Precondition: e.growingRecord()->nsg with that round.
std::string nsgRoundLabel(const LedgerEvent &e, std::size_t round);

/// pbx-cli verify for an NSG event: σ_n as growingNsgUnit gives it, the checkpoints the planned
/// times (all of them unless a round was refused), the rounds opened at checkpoint times in order,
/// each halting at its ⊤ before the next opens, never more ⊤ answers by t than the cap H(t), each
/// round's charge and attempt cost as nsgRoundCharge gives them, each ⊤ answer's scale 3σ(t) and
/// its release, and the event's cost the rounded-up sum. Errors: Parse naming the event and what
/// differs.
Result<void> auditNsgEvent(const LedgerEvent &e, const GrowingRequestSpec &spec, std::uint64_t end);

} // namespace pbx::session
