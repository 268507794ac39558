// SPDX-License-Identifier: MIT
// What the ATG panel draws: the core's sparse vector on growing data (core/growing/growing_svt.h:
// AboveThreshold for growing databases, rounds back to back as in Numeric Sparse with a constant
// cap) replayed on one counting query of a public table's rows arriving in a seeded order, with
// every noisy value it compared on the count scale. Cummings, Krehbiel, Lai & Tantipongpipat,
// "Differential privacy for growing databases", NeurIPS 2018; AboveThreshold: Dwork & Roth 2014,
// Thm 3.23. Simulation only (true answers are read to draw, never released). Plain C++, no Qt.
#pragma once

#include "core/data/table.h"
#include "core/growing/growing_svt.h"
#include "core/util/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pbx::ui {

struct AtgTraceConfig
{
    growing::NoiseUnit unit;                       ///< n, σ_n, p (σ(t) = σ_n (n/t)^p, fraction scale)
    growing::HardQueryCap cap{false, 3.0};         ///< NSG's mandatory cap (constant c ≥ 1 by default)
    std::string predicate = "region == \"south\""; ///< the counting query q
    double threshold = 0.1;                        ///< T ∈ [0, 1], fraction scale (public)
    std::string order = "random";                  ///< an arrivalOrder (core/growing/stream_model.h)
    std::uint64_t end = 0;                         ///< last time; 0 = every row
    int queries = 60;                              ///< query times, log-spaced from n to end (2–10⁴)
};

/// One query of the trace (counts = t × fractions).
struct AtgTracePoint
{
    std::uint64_t t = 0;
    double trueCount = 0.0;       ///< t·q(x_t) (simulation only)
    double publicThreshold = 0.0; ///< t·T
    bool answered = false;        ///< false: the cap binds, nothing was drawn or released
    double noisyValue = 0.0;      ///< t·q(x_t) + ν, ν ~ Lap(λ_Q·t·σ(t)) (answered only)
    double noisyThreshold = 0.0;  ///< t·T + ρ, ρ ~ Lap(λ_T·s·σ(s)) of the round (answered only)
    bool hard = false;            ///< ⊤: noisyValue ≥ noisyThreshold
    int round = -1;               ///< index into AtgTrace::rounds (answered only)
};

/// One AboveThreshold round: opened at its first query s, halted at its ⊤ (if any).
struct AtgRound
{
    std::uint64_t start = 0;
    std::optional<std::uint64_t> halt;
    double loss = 0.0;       ///< ATG's f(s) + f(t_h), or f(s) without a ⊤ (growing::atgLoss, rounded up)
    double naiveClaim = 0.0; ///< what the naive fraction-scale design claims: the same f(s) + f(t_h)
    double naiveLoss = 0.0;  ///< its true worst-case loss (growing::naiveFractionScaleLoss); halted only
};

struct AtgTrace
{
    std::vector<AtgTracePoint> points;
    std::vector<AtgRound> rounds;
    std::vector<std::uint64_t> hardTimes; ///< the core's (GrowingSparseVector::hardTimes)
    double nsgRealised = 0.0;             ///< f(n) + (7/3)Σ f(e_i), the core's realisedLoss
    double nsgWorstCase = 0.0;            ///< the core's worstCaseLoss for the cap
    std::uint64_t end = 0;
};

/// The log-spaced query times: `count` distinct integers from n to end (both included when
/// count ≥ 2 and end > n). Precondition: 1 ≤ n ≤ end.
std::vector<std::uint64_t> atgQueryTimes(std::uint64_t n, std::uint64_t end, int count);

/// Runs the core's GrowingSparseVector (noise from std::mt19937_64(seed), arrival order from
/// arrivalOrder(table, order, seed)) over the query times and records the values it compared: they
/// are re-drawn from a copy of the generator in the core's order (threshold at a round's first
/// query, then the query noise, then the numeric answer on ⊤) and checked against the core's
/// decision and generator state. Errors: the core's (INVALID_NOISE_FUNCTION, INVALID_NOISE_EXPONENT,
/// INVALID_CAP, INVALID_THRESHOLD, INVALID_START_SIZE); InvalidArgument naming "end" or "queries";
/// the predicate's parse error; Unsupported for a table not declared public (it reads true counts:
/// data::publicRows) or if the replay ever disagrees with the core (a bug).
Result<AtgTrace> traceAtg(const data::Table &table, const AtgTraceConfig &config, std::uint64_t seed);

} // namespace pbx::ui
