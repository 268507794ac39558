// SPDX-License-Identifier: MIT
// The pieces of the growing-database labs' Monte Carlo that the CLI document (growing_lab.cpp) and
// the GUI lab's job (ui/growing/growinglabjob.cpp) must share to give the same numbers for the
// same seed: the arrival-order seed of each repetition, the error of a held black-box run, and
// the sample quantile.
#pragma once

#include "core/growing/stream_model.h"
#include "core/util/result.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <vector>

namespace pbx::growing {

/// The arrival-order seed of repetition `rep` (≥ 0) of a lab run with seed `seed`: one stream of
/// order seeds per lab seed (std::seed_seq over the seed's two halves, rep and a constant).
/// Not a privacy parameter: arrival orders are public coins of the simulation.
std::uint64_t labOrderSeed(std::uint64_t seed, int rep);

/// The noise seed of repetition `rep` (≥ 0) for the labs whose core run seeds its own noise (NSG):
/// `seed` itself for repetition 0 — so its transcript is the single seeded run these labs made
/// before they had repetitions — and a std::seed_seq stream over (seed, rep) for the others.
std::uint64_t labNoiseSeed(std::uint64_t seed, int rep);

/// Where a lab simulation is, after one unit of its work: a repetition, or one epoch (SmallDBG: a
/// SmallDB draw) or one fit (ERMG) of a repetition, where those take the time.
struct LabProgressStep
{
    int repetitionsDone = 0; ///< whole repetitions finished, 0 … repetitions
    int repetitions = 0;
    std::uint64_t done = 0; ///< units finished, 1 … total
    std::uint64_t total = 0;
    /// Set when a repetition has just finished, for the labs that summarise one error per run:
    /// its largest error over the stream (BBScheduler, SmallDBG) or at the last step (BBImprover).
    std::optional<double> runError;
};

/// Called after every unit of work; returning false stops the simulation, which then fails with
/// ErrorCode::Cancelled. Empty: no reports.
using LabProgress = std::function<bool(const LabProgressStep &)>;

/// Reports unit `step` (0-based) of the `steps` of repetition `rep` (0-based) of `repetitions` to
/// `progress` (if set): done = rep·steps + step + 1 of repetitions·steps; the repetition is finished
/// at its last step, which passes `runError` on. Errors: Cancelled when `progress` asks to stop.
Result<void> reportLabProgress(const LabProgress &progress, int rep, int repetitions, std::size_t step = 0,
                               std::size_t steps = 1, std::optional<double> runError = std::nullopt);

/// Worst error of one black-box run held over [start, stop] (1 ≤ start ≤ stop ≤ the counts'
/// length): every query j < `queries` answered at time `start` (its fraction over the first `start`
/// rows plus Laplace noise of `scale` > 0 on the fraction scale, drawn from `noise` in query order),
/// scored against the true fraction at every time u in [start, stop]: max_j max_u |q_j(x_u) − a_j|.
/// The staleness this measures is bounded by (t − t_i)/t (Cummings et al. 2018, staleness lemma).
double heldRunWorstError(const PrefixCounts &counts, std::size_t queries, std::uint64_t start,
                         std::uint64_t stop, double scale, std::mt19937_64 &noise);

/// Quantile q ∈ [0, 1] of a non-empty sample by linear interpolation (numpy's default).
double labQuantile(std::vector<double> sample, double q);

/// The band the labs draw around a Monte Carlo median: the 5th and 95th percentiles.
inline constexpr double kLabBandLow = 0.05;
inline constexpr double kLabBandHigh = 0.95;

} // namespace pbx::growing
