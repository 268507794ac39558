// SPDX-License-Identifier: MIT
// Discretised privacy-loss distributions of single mechanisms: Gaussian and Laplace noise (with
// optional Poisson subsampling, each direction of add/remove), randomized response and the
// worst case of an (ε, δ)-DP mechanism.
#pragma once

#include "core/accounting/pld_pmf.h"
#include "core/mechanisms/noise_kind.h"

#include <utility>
#include <vector>

namespace pbx::accounting {

/// Which ordered pair of neighbouring output distributions a PLD describes (dp_accounting
/// AdjacencyType): Remove: P = M(x), Q = M(x minus a record); Add: the reverse order. For
/// mechanisms without subsampling both give the same PLD. Replace (Gaussian only): Poisson
/// sampling under replace-one, P = q·μ(x+C) + (1−q)·μ(x), Q = q·μ(x−C) + (1−q)·μ(x) with C the
/// bound on each record's contribution ‖f(r)‖ (the pair of Zhu, Dong & Wang 2022, "Optimal
/// accounting of DP via characteristic function", AISTATS, §5; dp_accounting REPLACE); it is
/// symmetric (x ↦ −x swaps P and Q). With q = 1 it is the Gaussian at distance 2C.
enum class PldDirection { Remove, Add, Replace };

using mechanisms::NoiseKind;

/// The privacy loss of an additive-noise mechanism, optionally Poisson-subsampled with rate q
/// (add/remove neighbours; dp_accounting `AdditiveNoisePrivacyLoss`, docs/composition.md §1.5): with noise
/// density μ and shift Δ, Remove compares q·μ(x+Δ) + (1−q)·μ(x) with μ(x); Add compares μ(x)
/// with q·μ(x−Δ) + (1−q)·μ(x). The loss is non-increasing in x.
class AdditiveNoiseLoss
{
public:
    AdditiveNoiseLoss(NoiseKind kind, double noiseParameter, double sensitivity, double samplingRate,
                      PldDirection direction);

    /// Exact hockey-stick divergence δ(ε) = μ_upper(X ≤ x_ε) − e^ε μ_lower(X ≤ x_ε), x_ε the
    /// largest x with loss ≥ ε; closed forms when q = 1 (Balle–Wang 2018 Thm 8 for the Gaussian,
    /// docs/composition.md §1.3 for Laplace). Any real ε; result in [0, 1].
    double delta(double epsilon) const;
    /// Whether deltaComplement is available (unsampled Gaussian noise).
    bool hasComplement() const;
    /// δ(ε) − (1 − e^ε) = E[(e^{ε−Y} − 1)₊], accurate where δ(ε) ≈ 1 − e^ε (ε < 0); only when
    /// hasComplement(): e^ε·δ(−ε) by the symmetry of the Gaussian PLD (Balle & Wang 2018, Thm 8).
    double deltaComplement(double epsilon) const;
    /// P_upper[loss ≥ t] (the survival function of the privacy-loss random variable).
    double survival(double t) const;
    /// The loss range kept by the discretisation: the loss at the tails where the Gaussian noise
    /// mass is ½e^{−50} (dp_accounting's log-mass truncation), Laplace's exact range.
    double epsilonLower() const { return m_epsLower; }
    double epsilonUpper() const { return m_epsUpper; }

private:
    double noiseCdf(double x) const;
    double noiseLogCdf(double x) const;
    double muUpperCdf(double x) const;
    double muLowerLogCdf(double x) const;
    double lossWithoutSampling(double x) const;
    double loss(double x) const;
    double inverseLossWithoutSampling(double l) const;
    /// Largest x with loss(x) ≥ l; ±∞ outside the range.
    double inverseLoss(double l) const;

    NoiseKind m_kind;
    double m_param;
    double m_sens;
    double m_q;
    PldDirection m_dir;
    double m_epsLower = 0.0;
    double m_epsUpper = 0.0;
};

/// The number of grid bins connectTheDots / privacyBuckets would allocate for `loss` at interval
/// d (≈ (ε_upper − ε_lower)/d + 2), computed in double before any allocation; +∞ when the loss
/// range is not finite (e.g. σ so small that Δ²/σ² overflows). Callers compare it with
/// kMaxPldBins (pld_pmf.h) and refuse instead of allocating.
double pldGridBins(const AdditiveNoiseLoss &loss, double interval);

/// Pessimistic PMF by connect-the-dots (Doroshenko, Ghazi, Kamath, Kumar & Manurangsi 2022,
/// arXiv 2207.04380, Alg. 1): on the grid i·d, i from ⌊ε_lower/d⌋ to ⌈ε_upper/d⌉, masses chosen so
/// the PMF's δ equals the mechanism's δ at every grid point and lies above it in between;
/// p_∞ = δ(top). Negative masses from round-off are clipped to 0 (which only raises δ); their
/// total goes to errorL1 (the lower bound of pld_bracket.h subtracts it).
PldPmf connectTheDots(const AdditiveNoiseLoss &loss, double interval);

/// Optimistic PMF by privacy buckets with floor rounding (Meiser & Mohammadi 2018; dp_accounting
/// `pessimistic_estimate=False`): the mass with loss in [i·d, (i+1)·d) goes to i·d, mass above the
/// range to its top bin, mass below the range is dropped. Its δ(ε) is a lower bound.
PldPmf privacyBuckets(const AdditiveNoiseLoss &loss, double interval);

/// PMF of a distribution of finitely many losses (ℓ, mass) plus p_∞: losses rounded up to the
/// grid (pessimistic; coupling argument: δ is increasing in every loss) or down (optimistic).
PldPmf discretePmf(const std::vector<std::pair<double, double>> &lossMasses, double infinityMass,
                   double interval, bool pessimistic);

/// The PLD dominating every (ε, δ)-DP mechanism (Kairouz, Oh & Viswanath 2015; Murtagh & Vadhan
/// 2016): +∞ w.p. δ, +ε w.p. (1−δ)/(1+e^{−ε}), −ε w.p. (1−δ)/(1+e^ε). Binary randomized response
/// with parameter ε is the case δ = 0.
PldPmf approxDpPmf(double epsilon, double delta, double interval, bool pessimistic);

/// Bins approxDpPmf(epsilon, ·, interval, ·) spans, 2⌈ε/interval⌉ + 2 (an upper bound for both
/// roundings), as a double so that a huge ε/interval does not overflow. Callers compare it with
/// PldOptions::maxBins before building the PMF: ε = 10⁹ at interval 10⁻⁴ would need 2·10¹³ bins.
double approxDpPmfBins(double epsilon, double interval);

/// k-ary randomized response, replace-one (dp_accounting `from_randomized_response`): with
/// probability p output a uniform bucket, else the input. Losses ±L, L = log(k/p − k + 1), and 0.
PldPmf randomizedResponsePmf(double noiseParameter, int buckets, double interval, bool pessimistic);

} // namespace pbx::accounting
