// SPDX-License-Identifier: MIT
// PMWG streams in a session (private multiplicative weights for growing databases; Cummings,
// Krehbiel, Lai & Tantipongpipat, "Differential privacy for growing databases", NeurIPS 2018, §4.2):
// the session's rows arrive in a seeded order; the public histogram x̂ over the universe (the lab's
// CPS1988 binning) moves towards the uniform distribution on every arrival; at evenly spaced
// checkpoints random 2-/3-way conjunctions (a public coin: the arrival order's seed) are asked;
// the growing sparse vector (count scale) tests each query's hardness |q(x_t) − ⟨q, x̂⟩| against T
// under the mandatory time cap H(t) = ⌊c₀(1 + H_t − H_n)⌋; a hard (⊤) query releases
// q(x_t) + Lap(3σ(t)) (drawn exactly: (count + Z)/t, Z discrete Laplace; NSG's SvtNoise) and moves
// x̂ by a multiplicative-weights step; easy and capped queries are answered from x̂ (public, free). Only the
// sparse vector reads the data, so PMWG's rounds are NSG's rounds: each is charged when it opens with its
// whole worst case (7/3)f(s) (ρ: its square over 2), exactly growing_nsg's charge (docs/growing-databases.md
// §9, "PMWG").
#pragma once

#include "core/data/table.h"
#include "core/filters/privacy_filter.h"
#include "core/growing/growing_svt.h"
#include "core/growing/pmwg.h"
#include "core/mechanisms/noise_source.h"
#include "core/session/ledger_event.h"

#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace pbx::session {

/// Largest number of queries (checkpoints × per_checkpoint) one PMWG stream asks in a session:
/// every answer is recorded, and each query is a vector over up to N = 4800 cells.
inline constexpr std::uint64_t kMaxPmwgQuestions = 100000;

/// The lab's PMWG configuration of a "pmwg" request (universe size, start size and budget copied
/// in; uniform arrivals always on). Errors (code word and field): INVALID_CONFIG ("algorithm";
/// "pmwg.checkpoints" outside 1 … 10000; "pmwg.per_checkpoint" when checkpoints × per_checkpoint
/// exceeds kMaxPmwgQuestions or is 0), INVALID_UNIVERSE ("pmwg.universe"), INVALID_ALPHA
/// ("pmwg.alpha"), INVALID_NOISE_EXPONENT ("pmwg.p"), INVALID_CAP ("pmwg.c0"), INVALID_THRESHOLD
/// ("pmwg.T"), INVALID_LEARNING_RATE ("pmwg.eta"), INVALID_START_SIZE, INVALID_BUDGET (budget.*).
Result<growing::PmwgConfig> growingPmwgConfig(const GrowingRequestSpec &spec);

/// The noise unit σ(t) = σ_n (n/t)^p the session runs at: NSG's session unit (growingNsgUnit) for
/// the time cap c₀ and threshold T of the resolved configuration — zcdp/approx: the lab's σ_n;
/// pure: the lab's σ_n scaled by (W + (4/3)f(n))/W so the charges' worst case is the budget ε.
/// Errors: as growingPmwgConfig.
Result<growing::NoiseUnit> growingPmwgUnit(const GrowingRequestSpec &spec);

/// The charge of a round opened at s: ε = (7/3)f(s) (pure budgets) or ρ = ((7/3)f(s))²/2 (zcdp and
/// approx budgets), rounded up — nsgRoundCharge. Precondition: s ≥ n, a valid unit.
filters::Charge pmwgRoundCharge(const GrowingRequestSpec &spec, const growing::NoiseUnit &unit,
                                std::uint64_t start);

/// The charges' worst case over all transcripts that respect the cap, in the charge's unit
/// (nsgChargeWorstCase with the time cap c₀): at most the budget up to rounding. Precondition:
/// valid spec and unit.
double pmwgChargeWorstCase(const GrowingRequestSpec &spec, const growing::NoiseUnit &unit);

/// The seed of the query workload: the arrival order's seed XOR 0x706d7767 ("pmwg", as the lab).
std::uint64_t pmwgQuerySeed(std::uint64_t orderSeed);

/// The next random query: m ∈ {2, 3} distinct attributes (a Fisher–Yates draw from `rng`, portable
/// across standard libraries) with uniformly chosen values, as (attribute, value) pairs.
std::vector<std::pair<std::size_t, std::size_t>> pmwgNextQuery(const growing::Universe &universe,
                                                               std::mt19937_64 &rng);

/// "region = south ∧ education 12 yrs" (attribute names and value labels of the CPS1988 universes,
/// docs/growing-databases.md §5).
std::string pmwgQueryText(std::span<const std::pair<std::size_t, std::size_t>> terms);

/// Runs the stream over `order` (row indices in arrival order, at least `end` of them). Each round
/// is charged to `filter` when it opens (before its threshold draw); a refusal (BudgetExceeded)
/// stops the stream, keeps what was released and sets record.refusedEpoch to the refused round's
/// index. Fills event.attempts (one per charged round; its release the ⊤ answer), event.cost,
/// status, answer, error bar, accounting and reason, and record.pmwg. Errors: INVALID_UNIVERSE /
/// ROW_OUTSIDE_UNIVERSE (nothing spent), a filter error other than BudgetExceeded before anything
/// is charged, Io when the random source fails.
Result<void> runPmwgStream(const GrowingRequestSpec &spec, const data::Rows &table,
                           std::span<const std::uint32_t> order, std::uint64_t end,
                           filters::PrivacyFilter &filter, mechanisms::NoiseSource &noise, LedgerEvent &event,
                           GrowingRecord &record);

/// "PMWG round 2: opened at t = 5068, ⊤ at t = 9000 (query 57), ε = 0.0332" (ρ for zCDP budgets).
/// Precondition: e.growingRecord()->pmwg with that round.
std::string pmwgRoundLabel(const LedgerEvent &e, std::size_t round);

/// "PMWG stream, t = 14000 … all rows, universe small (N = 160), practical T = 0.05, η = 0.3,
/// c₀ = 40, p = 0.5, 40 × 25 queries, ε ≤ 1". Precondition: a pmwg spec.
std::string describePmwgRequest(const GrowingRequestSpec &spec);

/// pbx-cli verify for a PMWG event: σ_n, N and the worst case as the request gives them; then the
/// public half of the stream is replayed from the record alone — the checkpoint times and caps,
/// the queries regenerated from the order's seed, x̂ moved by the uniform updates and by the
/// multiplicative-weights steps at the recorded ⊤ answers — and checked: every easy or capped answer
/// equals ⟨q, x̂⟩ bit for bit, a query is capped exactly when the ⊤ answers so far reach H(t), each
/// round opens at the first uncapped query after the previous ⊤ and is charged exactly
/// pmwgRoundCharge (record and attempt), each ⊤ answer's scale is 3σ(t) and equals its release, the
/// costs sum to the event's cost, and the stream stops early only at a recorded refused round.
/// Errors: Parse naming the event and what differs.
Result<void> auditPmwgEvent(const LedgerEvent &e, const GrowingRequestSpec &spec, std::uint64_t end);

} // namespace pbx::session
