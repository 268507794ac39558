// SPDX-License-Identifier: MIT
// Brownian noise reduction (Whitehouse, Ramdas, Wu, Rogers 2022, "Brownian Noise Reduction",
// NeurIPS 2022; docs/accuracy-first.md §3.1–3.2) and its zCDP accounting inside a zCDP filter
// (Rogers, Samorodnitsky, Wu, Ramdas 2023; docs/accuracy-first.md §4.4).
//
// Units throughout: the Brownian "time" T is a variance, in squared query units; the noise at
// time T has standard deviation √T. Sensitivity Δ is the ℓ2-sensitivity of the query. ρ is in
// nats per Rényi order.
#pragma once

#include "core/mechanisms/noise_source.h"
#include "core/util/result.h"

#include <cstddef>
#include <vector>

namespace pbx::mechanisms {

/// One Brownian path for one query f(x) ∈ R^d, d ≥ 1 (a scalar query is d = 1).
///
/// Time runs backwards: the path starts at a large time T_1 with B_1 ~ N(0, T_1·I_d) and each
/// reduceTo(T_{k+1}) with T_{k+1} < T_k moves along the *same* path by the Brownian-bridge step
/// (docs/accuracy-first.md §3.1, [DERIVED]):
///
///     q = T_{k+1}/T_k,   B_{k+1} = q·B_k + √(T_{k+1}(1 − q))·Z,   Z ~ N(0, I_d),
///
/// which gives Cov(B_i, B_j) = min(T_i, T_j)·I exactly, the joint law of a Brownian motion read
/// at those times. The released values are y_k = f(x) + B_k. Because the earlier, noisier values
/// are a data-independent randomisation of the latest one, the privacy loss of the released
/// prefix y_{1:k} equals that of y_k alone (§1.2), so the whole reduction costs what its least
/// noisy release costs: ρ = Δ²/(2·T_stop) (see brownianTotalRho()).
///
/// Accounting: in the zCDP filter (recommended, §4.4) charge brownianRho(Δ, T_1) before start()
/// and brownianStepRho(Δ, T_k, T_{k+1}) before each reduceTo(); or, in the ex-post filter, fix a
/// BrownianBoundary (expost_boundaries.h) before start() and allow only times with
/// E(T) ≤ ε_e − S (§4.2).
///
/// Soundness rules the caller must keep (§6.1): charge the next step's cost to the filter
/// *before* calling reduceTo(); never reuse a path for another query, and re-ask
/// the same query by continuing this path, never by starting a new one; let stopping decisions
/// read only released values and public scales, never f(x).
///
/// The noise is continuous floating point (NoiseSource), open to Mironov's (2012) least-
/// significant-bit attack; Brownian noise reduction with discrete noise is not covered by the
/// papers (§6.2).
class BrownianNoiseReduction
{
public:
    /// Starts a path of dimension d at time T_1 = initialTime: B_1 ~ N(0, T_1·I_d).
    /// Valid: dimension ≥ 1; initialTime > 0 finite (a variance, squared query units).
    /// Errors: InvalidArgument otherwise.
    static Result<BrownianNoiseReduction> start(std::size_t dimension, double initialTime,
                                                NoiseSource &noise);

    /// Restores a path saved earlier (e.g. a reopened session): the current noise B_k and its time
    /// T_k. Only the latest point matters for the future (Markov property of the bridge).
    /// Valid: currentNoise non-empty and finite; currentTime > 0 finite; steps ≥ 1.
    /// Errors: InvalidArgument otherwise.
    static Result<BrownianNoiseReduction> resume(std::vector<double> currentNoise, double currentTime,
                                                 int steps = 1);

    /// The bridge step to T_{k+1} = nextTime < T_k, in place (§3.1, [DERIVED]; Cov(B_i, B_j) =
    /// min(T_i, T_j) is checked by Monte Carlo in tst_brownian). The bridge variance is computed from
    /// the ratio, T_{k+1}·(1 − q) with 1 − q = (T_k − T_{k+1})/T_k: the difference of the two stored
    /// doubles is exact (Sterbenz) for q ≥ ½ and correctly rounded otherwise, so 1 − q stays
    /// accurate to an ulp even as q → 1, where 1 − fl(q) would lose digits (§6.2).
    /// Valid: 0 < nextTime < time(), finite. Errors: InvalidArgument otherwise (the path is then
    /// unchanged). The caller must have charged brownianStepRho(Δ, time(), nextTime) first.
    Result<void> reduceTo(double nextTime, NoiseSource &noise);

    std::size_t dimension() const { return m_noise.size(); }
    /// The current time T_k (variance, squared query units).
    double time() const { return m_time; }
    /// √T_k, the current noise standard deviation (query units), rounded up.
    double standardDeviation() const;
    /// The number of points drawn on this path so far (1 after start()).
    int steps() const { return m_steps; }
    /// The current noise vector B_k. Private: never show it outside a simulation mode.
    const std::vector<double> &noise() const { return m_noise; }

    /// y_k = f(x) + B_k for a scalar query. Errors: InvalidArgument unless dimension() == 1.
    Result<double> release(double exactValue) const;
    /// y_k = f(x) + B_k. Errors: InvalidArgument unless exactValue.size() == dimension().
    Result<std::vector<double>> releaseVector(const std::vector<double> &exactValue) const;

private:
    BrownianNoiseReduction(std::vector<double> noise, double time, int steps)
        : m_noise(std::move(noise)), m_time(time), m_steps(steps)
    {}
    std::vector<double> m_noise;
    double m_time;
    int m_steps;
};

/// ρ of a Gaussian release at time T: Δ²/(2T), the zCDP cost of the first Brownian release
/// y_1 = f(x) + B_{T_1} and, by telescoping, the total cost of a Brownian noise reduction stopped
/// at T (see brownianTotalRho()). Bun & Steinke 2016, Prop. 1.6; docs/accuracy-first.md §4.4
/// [DERIVED]. Units: Δ in query units (ℓ2), T in squared query units, ρ in nats per order.
/// Rounded up. Valid: Δ ≥ 0 finite, T > 0 finite. Errors: InvalidArgument otherwise.
Result<double> brownianRho(double sensitivity, double time);

/// The zCDP increment of the bridge step T_k → T_{k+1} (docs/accuracy-first.md §4.4, [DERIVED]):
///
///     ρ_step = (Δ²/2)·(1/T_{k+1} − 1/T_k) = Δ²·(1 − q)/(2·T_{k+1}),  q = T_{k+1}/T_k.
///
/// Proof sketch (§4.4): given y_{1:k} (Markov property, reverse filtration), y_{k+1} is
/// N((1−q)·f(x) + q·y_k, T_{k+1}(1−q)·I): a Gaussian mechanism whose mean moves by
/// (1−q)(f(x) − f(x')), so its ℓ2-sensitivity is (1−q)Δ and ρ = (1−q)²Δ²/(2T_{k+1}(1−q)).
/// The increment is known before sampling (predictable), so each step is just one more zCDP
/// mechanism in the filter of §4.1. Rounded up (1 − q from the exact difference of the stored
/// times, then a few ulps). Valid: Δ ≥ 0 finite, 0 < nextTime < currentTime, finite.
/// Errors: InvalidArgument otherwise.
Result<double> brownianStepRho(double sensitivity, double currentTime, double nextTime);

/// The total ρ of a Brownian noise reduction stopped at T_stop (docs/accuracy-first.md §4.4,
/// [DERIVED]): ρ(BNR) = Δ²/(2·T_stop), the telescoping sum of Δ²/(2T_1) and the step increments.
/// Exactly the cost of one Gaussian release with σ² = T_stop: no boundary and no δ. Example:
/// T = 100, 50, 25, 10 costs 0.005 + 0.005 + 0.01 + 0.03 = 0.05 = 1/(2·10). Rounded up; the sum
/// of the individually rounded-up increments is ≥ this value. Same ranges and errors as
/// brownianRho().
Result<double> brownianTotalRho(double sensitivity, double stopTime);

/// The smallest time whose Gaussian cost fits ρ: T = Δ²/(2ρ), rounded up (more noise is safe;
/// §6.2), so brownianRho(Δ, T) ≤ ρ up to the ulp-level upward rounding of brownianRho itself.
/// Use it as the floor of a grid under a per-query cap or a remaining budget.
/// Valid: Δ > 0 finite, ρ > 0 finite. Errors: InvalidArgument otherwise.
Result<double> brownianTimeForRho(double sensitivity, double rho);

/// Simulation-only diagnostic: the realised privacy loss of releasing y = f(x) + B at time T
/// against the neighbour x', with v = f(x) − f(x') (docs/accuracy-first.md §3.2, [DERIVED]):
///
///     L_T = ‖v‖²/(2T) + ⟨v, B⟩/T.
///
/// It needs f(x'), so it may be shown only in a synthetic-data demo mode (§6.4), never computed
/// on real data for a stopping decision (§6.1 rule 2). Not rounded. Valid: equal non-zero sizes,
/// T > 0 finite. Errors: InvalidArgument otherwise.
Result<double> brownianPrivacyLoss(const std::vector<double> &difference, const std::vector<double> &noise,
                                   double time);

} // namespace pbx::mechanisms
