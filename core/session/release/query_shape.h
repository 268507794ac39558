// SPDX-License-Identifier: MIT
// What a query releases (its noisy channels) and how its answer and error bar follow from the
// released values alone — shared by single releases, doubling and noise reduction.
#pragma once

#include "core/data/query.h"
#include "core/data/sensitivity.h"
#include "core/session/accuracy_target.h"
#include "core/session/ledger_event.h"

#include <string_view>
#include <vector>

namespace pbx::session {

/// One noisy quantity: count, clipped sum, or the centred sum of a mean.
struct Channel
{
    std::string quantity;
    double exact = 0.0;       ///< private: read only by mechanisms
    double sensitivity = 1.0; ///< ℓ1 = ℓ2 for a scalar
    double weight = 1.0;      ///< its weight in the error-bar numerator
};

/// How a cost grows as noise shrinks: ε ∝ 1/scale (Laplace, ex-post Brownian) or ρ ∝ 1/scale²
/// (Gaussian, Brownian in zCDP). Decides how a level's cost is split between channels.
enum class CostGrowth { Linear, Quadratic };

/// The sensitivity a "sum" or "centred-sum" channel is calibrated and audited with: the nominal
/// Δ (data/sensitivity.h) padded for floating-point summation over the public row count
/// (data::computedSumSensitivity). Counts are exact integers and keep Δ = 1.
double sumChannelSensitivity(std::string_view quantity, data::Bounds bounds, data::Neighbouring neighbours,
                             double publicRowCount);

class QueryShape
{
public:
    /// Count and sum: one channel. Mean: the centred clipped sum Σ(clip(x) − m₀) and the count,
    /// with the estimator m̂ = m₀ + Ŝ/Ĉ clipped to [L, U] and the bound (w_S + h·w_C)/Ĉ, h = (U−L)/2,
    /// valid when Ĉ > w_C (see release_plan.h). `bounds` are the clipping bounds in force.
    static QueryShape of(data::Aggregate aggregate, data::Bounds bounds, const data::QueryStatistics &exact,
                         data::Neighbouring neighbours, double publicRowCount);

    const std::vector<Channel> &channels() const { return m_channels; }
    bool isMean() const { return m_mean; }

    /// Shares of a level's cost per channel minimising the error-bar numerator Σ weight_i·w_i:
    /// with w ∝ Δ/c (linear) the optimum is c_i ∝ √(Δ_i·weight_i); with w ∝ Δ/√c (quadratic)
    /// c_i ∝ (Δ_i·weight_i)^{2/3} (Lagrange conditions). One channel: {1}.
    std::vector<double> costShares(CostGrowth growth) const;

    /// Σ weight_i·w_i: the half-width itself for count/sum, the numerator for a mean.
    double widthNumerator(const std::vector<double> &halfWidths) const;

    /// Fills estimate and halfWidth of an attempt from its released values and their half-widths.
    void estimate(Attempt &attempt, const std::vector<double> &halfWidths) const;

    /// Could a level with this numerator certify the target for the largest answer the query
    /// can take (public bound: row count × largest |clipped value|)? Decides the noisiest level.
    bool couldCertify(double numerator, const AccuracyTarget &target) const;

    /// Early abandonment (docs/accuracy-first.md §5.2; count and sum with a relative target): with
    /// probability ≥ 1 − β the answer is smaller than the least noisy level could certify.
    bool hopeless(const Attempt &attempt, double leastNoisyNumerator, const AccuracyTarget &target) const;

    /// Does the attempt prove the target met? Absolute: w ≤ a. Relative: |y| − w > 0 and
    /// w ≤ α(|y| − w), evaluated with directed rounding (mechanisms::acceptsRelativeError) so
    /// that floating point never certifies an answer the exact inequality refuses.
    static bool certifies(const Attempt &attempt, const AccuracyTarget &target);

private:
    std::vector<Channel> m_channels;
    bool m_mean = false;
    data::Bounds m_bounds;
    double m_largestAnswer = 0.0;
    double m_publicRowCount = 0.0;
};

} // namespace pbx::session
