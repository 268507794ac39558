// SPDX-License-Identifier: MIT
// PMWG streams as session requests (Cummings, Krehbiel, Lai & Tantipongpipat, "Differential
// privacy for growing databases", NeurIPS 2018, §4.2): the request's PMWG fields and what the
// ledger event records. Plain data, kept apart from growing_request.h so that the stream kinds do
// not share one struct body; docs/growing-databases.md §9, "PMWG".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pbx::session {

/// The "pmwg" block of a request: the lab document's fields (docs/growing-databases.md §5 and §8)
/// without "uniform_update" (a session always moves x̂ towards the uniform distribution on every
/// arrival: the analysis needs it).
struct PmwgRequestSpec
{
    std::string universe = "small";   ///< "small" (N = 160) or "full" (N = 4800) over CPS1988
    std::string mode = "practical";   ///< "practical" or "theory" (T, η, c₀ from α)
    double alpha = 0.1;               ///< theory: α ∈ (0, 1)
    double exponent = 0.5;            ///< p ∈ [0, 1): σ(t) = σ_n (n/t)^p ("pmwg.p")
    double c0 = 40.0;                 ///< practical: the time cap's c₀ ≥ 1
    double threshold = 0.05;          ///< practical: T ∈ (0, 1) ("pmwg.T")
    double eta = 0.3;                 ///< practical: η ∈ (0, 1]
    std::uint64_t checkpoints = 40;   ///< evenly spaced times n … end
    std::uint64_t perCheckpoint = 25; ///< random 2-/3-way conjunctions asked at each checkpoint
};

/// One hard (⊤) query and its released numeric answer.
struct PmwgHardRecord
{
    std::uint64_t time = 0;
    std::uint64_t query = 0; ///< index among all queries asked (checkpoint c, k: c·per_checkpoint + k)
    double answer = 0.0;     ///< q(x_t) + Lap(3σ(t)) (fraction scale)
    double scale = 0.0;      ///< 3σ(t), rounded up
};

/// What was answered at one checkpoint, in the order asked.
struct PmwgCheckpointRecord
{
    std::uint64_t time = 0;
    std::uint64_t cap = 0;       ///< H(t)
    std::uint64_t hard = 0;      ///< hard answers so far (after this checkpoint)
    std::uint64_t capped = 0;    ///< queries answered from x̂ because the cap bound
    std::vector<double> answers; ///< every answer released: ⟨q, x̂⟩ (easy, capped) or the ⊤ answer
};

/// One sparse-vector round, charged when it opened.
struct PmwgRoundRecord
{
    std::uint64_t index = 0;           ///< from 0
    std::uint64_t start = 0;           ///< s_i: the time of its first query (its threshold draw)
    std::optional<std::uint64_t> halt; ///< the time of its ⊤ (unset: still open at the end)
    double charge = 0.0;               ///< ε = (7/3)f(s_i), or ρ = ((7/3)f(s_i))²/2, rounded up
};

/// PMWG's record: the noise unit, the rounds (one attempt each), the hard answers and every answer
/// by checkpoint. The queries themselves are public: regenerated from the arrival order's seed.
struct PmwgRecord
{
    std::uint64_t universe = 0; ///< N
    double sigmaN = 0.0;        ///< σ_n (fraction scale)
    double worstCase = 0.0;     ///< the charges' worst case over all transcripts (the budget)
    std::vector<PmwgRoundRecord> rounds;
    std::vector<PmwgHardRecord> hard;
    std::vector<PmwgCheckpointRecord> checkpoints;
};

} // namespace pbx::session
