// SPDX-License-Identifier: MIT
// Quantiles by the exponential mechanism (McSherry & Talwar 2007, "Mechanism design via
// differential privacy", FOCS, Thm 6 (privacy) and Thm 8 (utility); Smith 2011, "Privacy-preserving
// statistical estimation with optimal convergence rates", STOC, §3 for the continuous version),
// and the smooth sensitivity of the median (Nissim, Raskhodnikova & Smith 2007, "Smooth
// sensitivity and sampling in private data analysis", STOC, Def. 2.2, Prop. 3.4 and Lemma 2.6/2.9)
// as an explained example of data-dependent noise. Derivations: docs/strategies-inference.md,
// "Quantiles".
#pragma once

#include "core/mechanisms/random_bits.h"
#include "core/strategies/strategy_error.h"
#include "core/util/result.h"

#include <cstddef>
#include <vector>

namespace pbx::strategies {

/// INVALID_QUANTILE unless 0 < q < 1.
Result<void> checkQuantile(double q);

/// The continuous exponential mechanism's distribution over intervals: data clipped to [lo, hi]
/// and sorted z_1 ≤ … ≤ z_n, z_0 = lo, z_{n+1} = hi; interval i = [z_i, z_{i+1}] (i = 0…n) has
/// utility −|i − qn| and probability ∝ (z_{i+1} − z_i)·exp(ε·u_i/2) (zero-length intervals get 0).
/// ε-DP under add/remove and replace (Δu ≤ 1). Computed in log space.
struct QuantileIntervals
{
    std::vector<double> points;        ///< n + 2 endpoints z_0 … z_{n+1}
    std::vector<double> probabilities; ///< n + 1 interval probabilities
};
/// Valid: ε finite > 0, 0 < q < 1, lo < hi finite, x finite (may be empty: every candidate then scores 0).
/// Errors: INVALID_EPSILON, INVALID_QUANTILE, INVALID_BOUNDS.
Result<QuantileIntervals> continuousQuantileDistribution(std::vector<double> x, double q, double epsilon,
                                                         double lo, double hi);

/// E|Y − truth| for Y drawn from the intervals (uniform inside the chosen interval).
double expectedAbsoluteError(const QuantileIntervals &d, double truth);
/// E|i − qn| over the chosen interval index i (the rank error in rows).
double expectedRankError(const QuantileIntervals &d, double q);

/// The discrete version over a public grid of candidates y: utility
/// u(y) = −max(0, #{x < y} − qn, qn − #{x ≤ y}) (0 exactly at a q-quantile, ties handled; Δu ≤ 1)
/// and P(y) ∝ exp(ε·u(y)/2).
struct QuantileGridDistribution
{
    std::vector<double> utilities;
    std::vector<double> probabilities;
};
/// Valid: ε finite > 0, 0 < q < 1, grid non-empty, finite and strictly increasing.
/// Errors: INVALID_EPSILON, INVALID_QUANTILE, INVALID_BOUNDS.
Result<QuantileGridDistribution> gridQuantileDistribution(std::vector<double> x, double q, double epsilon,
                                                          const std::vector<double> &grid);

/// One exact draw of the grid exponential mechanism: a uniform candidate is accepted with
/// probability exp(−(γ(y) − min γ)), γ(y) = ε′·|u(y)|/2 rounded up to a multiple of 2^−32 and drawn
/// by the exact Bernoulli(exp(−γ)) sampler (Canonne, Kamath & Steinke 2020, Alg. 1), with
/// ε′ = ε − 2^−30: the rounding moves each log-weight by < 2^−32, so the draw is ε-DP
/// (docs/strategies-inference.md, "An exact exponential-mechanism sampler"). Expected tries
/// ≤ grid size. Returns the index into `grid`.
/// Valid: as gridQuantileDistribution, and ε ≥ 2^−20. Errors: as there; the source's error (Io).
Result<std::size_t> sampleGridQuantile(std::vector<double> x, double q, double epsilon,
                                       const std::vector<double> &grid, mechanisms::RandomBits &bits);

/// McSherry–Talwar accuracy (Thm 8 with Δu = 1): with probability ≥ 1 − β the released candidate's
/// utility is within (2/ε)·ln(|grid|/β) of the best candidate's, i.e. its rank is within that many
/// rows of a q-quantile's rank plus the best candidate's own rank distance (0 when the grid
/// contains every possible data value, as for integer data on an integer grid).
/// Valid: ε > 0, gridSize ≥ 1, 0 < β < 1.
double quantileRankErrorBound(double epsilon, std::size_t gridSize, double beta);

/// Smooth sensitivity of the (lower) median, replace-one neighbours, values clipped to [lo, hi]:
/// S*_β(x) = max_{k≥0} e^{−kβ} A^{(k)}(x) with
/// A^{(k)}(x) = max_{0≤t≤k+1} (y_{min(m+t, n+1)} − y_{max(m+t−k−1, 0)}), y_0 = lo, y_{n+1} = hi,
/// m = ⌊(n+1)/2⌋ (NRS 2007, Prop. 3.4). Stops once e^{−kβ}(hi − lo) ≤ the running maximum; O(n²)
/// in the worst case (tiny β). Never shown outside simulation mode: S* is not private.
struct SmoothSensitivity
{
    double value = 0.0;        ///< S*_β
    std::size_t argmax = 0;    ///< the k attaining it
    std::vector<double> curve; ///< e^{−kβ}A^{(k)} for k = 0 … (the last k examined)
};
/// Valid: β > 0, lo < hi, x finite. Errors: INVALID_BOUNDS, INVALID_CONFIG (β).
Result<SmoothSensitivity> medianSmoothSensitivity(std::vector<double> x, double beta, double lo, double hi);

/// β for the pure ε-DP release median + (2(γ+1)/ε)·S*_β·Z, Z with density ∝ 1/(1 + |z|^γ):
/// β = ε/(2(γ+1)) (NRS 2007, Lemma 2.6 with the admissible noise of Lemma 2.9; γ = 2 is Cauchy).
/// Note the parentheses: ε/2·(γ+1) is a common and wrong reading.
inline double smoothSensitivityBeta(double epsilon, double gamma)
{
    return epsilon / (2.0 * (gamma + 1.0));
}

} // namespace pbx::strategies
