// SPDX-License-Identifier: MIT
// NSG (Numeric Sparse for growing databases; Cummings, Krehbiel, Lai & Tantipongpipat 2018, §4) run
// on its own over a public table replayed as a stream: counting queries asked at checkpoints, the
// hard (⊤) ones released with numeric answers under the mandatory cap, and the privacy realised by
// the transcript against the worst case. Simulation mode (seeded noise): teaching and tests only.
// Derivations: docs/growing-databases.md, "NSG" and "The lab document".
#pragma once

#include "core/growing/growing_svt.h"
#include "core/growing/stream_model.h"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace pbx::growing {

struct NsgConfig
{
    std::uint64_t startSize = 1000;  ///< n
    double exponent = 0.5;           ///< p ∈ [0, 1]: σ(t) = σ_n (n/t)^p (p = 1 only with a constant cap)
    std::optional<HardQueryCap> cap; ///< mandatory (CAP_REQUIRED without it)
    double threshold = 0.5;          ///< T ∈ [0, 1] (fraction scale), the same at every time
    Budget budget;                   ///< σ_n is set so the worst case equals it (nsgSigmaForBudget)
};

/// Errors (named field): CAP_REQUIRED ("nsg.cap"); INVALID_CAP; INVALID_NOISE_EXPONENT ("nsg.p");
/// INVALID_THRESHOLD ("nsg.T"); INVALID_START_SIZE; INVALID_BUDGET.
Result<void> validate(const NsgConfig &config);

/// The noise unit σ(t) = σ_n (n/t)^p whose worst case meets the budget. Errors: as validate().
Result<NoiseUnit> nsgNoiseUnit(const NsgConfig &config);

/// NSG's worst case in the budget's unit: ε (pure) or ρ (zcdp, approx). Precondition: valid config.
double nsgWorstCase(const NoiseUnit &unit, const NsgConfig &config);

/// One NSG round: opened at `start` (its threshold draw), halted at `halt` (a ⊤) or still open.
/// `atgCost` = f(s) + f(t_h) (the sparse-vector part), `cost` = f(s) + (4/3)f(t_h) with the numeric
/// answer (NATG); an open round costs f(s). Both rounded up.
struct NsgRound
{
    std::uint64_t start = 0;
    std::optional<std::uint64_t> halt;
    double atgCost = 0.0;
    double cost = 0.0;
};

/// The rounds of a transcript from its round starts and hard-query times (start i halts at hard i).
std::vector<NsgRound> nsgRounds(const NoiseUnit &unit, const std::vector<std::uint64_t> &roundStarts,
                                const std::vector<std::uint64_t> &hardTimes);

struct NsgRun
{
    struct Hard
    {
        std::uint64_t time = 0;
        std::size_t query = 0;   ///< index of the counting query (its predicate)
        double answer = 0.0;     ///< released: q(x_t) + Lap(3σ(t)) (fraction scale)
        double trueAnswer = 0.0; ///< simulation only: scores the answer
    };
    struct Checkpoint
    {
        std::uint64_t time = 0;
        std::uint64_t cap = 0;  ///< H(t) (or the constant c)
        std::size_t hard = 0;   ///< hard answers so far
        std::size_t capped = 0; ///< queries at this checkpoint not answered because the cap bound
        std::size_t misjudged = 0; ///< simulation only: ⊥ on a query whose true answer is ≥ T, or ⊤ below T
    };
    NoiseUnit unit;
    std::vector<Hard> hardQueries;
    std::vector<Checkpoint> checkpoints;
    std::vector<NsgRound> rounds;
    std::size_t queries = 0;          ///< queries asked (answered or capped)
    double realised = 0.0;            ///< in the budget's unit
    double realisedEpsilon = 0.0;     ///< f(n) + (7/3)Σ f(e_i) (pure ex-post loss, every budget kind)
    double realisedRho = 0.0;         ///< (49/18)Σ f(s_i)²
    double worstCase = 0.0;           ///< in the budget's unit
    double meanAbsNumericError = 0.0; ///< over the hard answers (0 when there are none)
};

/// The stream's first `end` rows along `order` (an arrival order of row indices); at `checkpoints`
/// evenly spaced times from n to end (one checkpoint: at end) every counting query (`masks[j][row]`
/// ∈ {0, 1}, count-scale sensitivity 1) is asked in turn. Errors: as validate(); INVALID_CONFIG
/// ("stream.end" when end < n or end > order.size(); "nsg.checkpoints" outside 1 … 100000;
/// "nsg.queries" when there is none).
Result<NsgRun> simulateNsg(const NsgConfig &config, const std::vector<std::vector<std::uint8_t>> &masks,
                           std::span<const std::uint32_t> order, std::uint64_t end, int checkpoints,
                           std::uint64_t seed);

} // namespace pbx::growing
