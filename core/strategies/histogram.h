// SPDX-License-Identifier: MIT
// Histogram queries: the counts of all cells of a public partition released together, with one
// charge (parallel composition), exact discrete noise per cell and an error bar per cell.
// Derivation: docs/strategies-inference.md, "Histograms and parallel composition".
#pragma once

#include "core/data/predicate.h"
#include "core/data/table.h"
#include "core/mechanisms/discrete_mechanisms.h"
#include "core/mechanisms/random_bits.h"
#include "core/strategies/strategy_error.h"
#include "core/util/result.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace pbx::strategies {

/// Largest number of cells a histogram (or an ordered domain) may have: 2^16.
inline constexpr std::size_t kMaxCells = std::size_t{1} << 16;

/// A public partition of one column's domain. Categorical column: one cell per category of the
/// declared dictionary (`edges` empty). Numeric column: cells [e_0, e_1), …, [e_{m−1}, e_m] with
/// public edges; a value is first clipped to [e_0, e_m], so every row lands in exactly one cell.
struct HistogramBins
{
    std::string column;
    std::vector<double> edges; ///< numeric columns: m + 1 strictly increasing finite edges
};

/// Unit cells for an integer (ordinal) domain lo…hi: edges lo, lo+1, …, hi+1, so cell i holds the
/// value lo + i. Valid: lo < hi integers with hi − lo + 1 ≤ kMaxCells.
/// Errors: INVALID_BOUNDS.
Result<std::vector<double>> unitEdges(double lo, double hi);

/// The true counts of a histogram (never shown outside simulation mode).
struct HistogramCounts
{
    std::vector<std::string> labels;  ///< one per cell: the category, or "[a, b)"
    std::vector<std::int64_t> counts; ///< rows per cell (size = labels.size())
};

/// Counts rows of `table` matching `predicate` per cell of `bins`. The cells come from public
/// information only (the declared dictionary or the given edges), empty cells included: dropping
/// an empty cell would reveal that it is empty.
/// Errors: NotFound (unknown column); INVALID_BOUNDS (numeric column without edges, edges not
/// strictly increasing or not finite, more than kMaxCells cells, edges given for a categorical
/// column, or a categorical dictionary inferred from the data rather than declared).
/// The cells of `bins` over `table`'s column, from public information alone (no row is read):
/// the declared dictionary, or one "[a, b)" label per pair of edges (the last "[a, b]").
/// Errors: as countHistogram.
Result<std::vector<std::string>> histogramCells(const data::Table &table, const HistogramBins &bins);
Result<HistogramCounts> countHistogram(const data::Rows &table, const HistogramBins &bins,
                                       const data::Predicate &predicate = {});
/// As countHistogram, over the rows whose `rows` entry is non-zero (one entry per table row: a
/// predicate's mask, possibly thinned by sampling). Errors: as countHistogram; InvalidArgument when
/// `rows` has another size.
Result<HistogramCounts> countHistogramRows(const data::Rows &table, const HistogramBins &bins,
                                           const std::vector<std::uint8_t> &rows);

/// Cost of running one mechanism on each part of a partition of the rows by a public function of
/// the row alone (parallel composition; McSherry 2009, PINQ, Thm 4). `addRemoveCosts[j]` is part
/// j's guarantee for one added or removed row; `replaceCosts[j]` (same size, or empty) for one
/// replaced row that stays in part j. Add/remove: max_j. Replace: a changed row may leave part j
/// and enter part j′, so max(max_{j≠j′} (c_j + c_{j′}), max_j replaceCost_j); with no replace costs
/// given, 2·max_j c_j (≥ that, since a part's replace cost is at most twice its add/remove cost).
/// Units: ε (pure DP) or ρ (zCDP): both add over independent mechanisms. Valid: non-negative
/// finite costs. Errors: InvalidArgument.
/// Derivation: docs/strategies-inference.md, "Parallel composition under replace-one".
Result<double> parallelCompositionCost(std::span<const double> addRemoveCosts, data::Neighbouring neighbours,
                                       std::span<const double> replaceCosts = {});

/// How a histogram will be released: the per-cell mechanism (integer sensitivity 1) and the
/// charge for all cells together under the relation.
struct HistogramPlan
{
    mechanisms::DiscreteNoiseMechanism cell; ///< applied independently to every cell
    data::Neighbouring neighbours = data::Neighbouring::AddRemove;
    double charge = 0.0;       ///< ε (Laplace) or ρ (Gaussian) for the whole histogram, rounded up
    double cellVariance = 0.0; ///< variance of one cell's noise (an upper bound for the Gaussian)
};

/// The least noise whose whole-histogram charge is ≤ `charge`: per-cell cost = charge under
/// add/remove, charge/2 under replace (a replaced row moves between two cells: ℓ1 sensitivity 2,
/// ℓ2 sensitivity √2, so ε and ρ both double; see parallelCompositionCost).
/// Units: ε (Laplace) or ρ (Gaussian). Errors: INVALID_EPSILON (charge not finite > 0), or the
/// mechanism's InvalidArgument when the noise is outside the samplers' range.
Result<HistogramPlan> planHistogram(mechanisms::DiscreteNoiseKind kind, double charge,
                                    data::Neighbouring neighbours);

/// Variance of discrete-Laplace noise with scale t: 2e^{−1/t}/(1 − e^{−1/t})²; for the discrete
/// Gaussian with parameter σ², σ² itself (an upper bound; Canonne, Kamath & Steinke 2020, Prop. 5).
double discreteNoiseVariance(const mechanisms::DiscreteNoiseMechanism &mechanism);

/// A released histogram.
struct HistogramRelease
{
    std::vector<std::string> labels;
    std::vector<std::int64_t> noisy; ///< count + noise, per cell (may be negative)
    double charge = 0.0;
    double cellVariance = 0.0;
    double beta = 0.05;          ///< per-cell miss probability of the error bar
    std::uint64_t halfWidth = 0; ///< P(|noisy_i − count_i| ≤ halfWidth) ≥ 1 − β for each cell
};

/// Adds one exact draw of the plan's noise to every cell. The caller charges plan.charge first.
/// Valid: 0 < β < 1. Errors: InvalidArgument (β); the source's error (Io).
Result<HistogramRelease> releaseHistogram(const HistogramCounts &counts, const HistogramPlan &plan,
                                          double beta, mechanisms::RandomBits &bits);

} // namespace pbx::strategies
