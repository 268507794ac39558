// SPDX-License-Identifier: MIT
// Rényi-DP curves ε̂(α) of single mechanisms, on a grid of orders α > 1 (natural logarithms).
#pragma once

#include <vector>

namespace pbx::privacy {

/// dp_accounting's default order grid (DEFAULT_RDP_ORDERS): 1.1, 1.2, …, 10.9, then 11…63, then
/// 128, 256, 512, 1024 (156 orders). Used so results are comparable with dp_accounting/Opacus.
std::vector<double> defaultRdpOrders();

/// Gaussian mechanism, noise std σ, sensitivity Δ: ε̂(α) = αΔ²/(2σ²) (Mironov 2017, Prop. 7).
/// Exact. Valid for α > 1, σ > 0.
double rdpGaussian(double sigma, double sensitivity, double alpha);

/// Laplace mechanism with ε₀ = Δ/b (Mironov 2017, Prop. 6, tight):
///   ε̂(α) = ε₀ + log1p((α−1)·expm1((1−2α)ε₀)/(2α−1))/(α−1);  α = ∞: ε₀.
/// Exact up to rounding; evaluated as ε₀ + c·log1p(v)/v with v = (α−1)c, stable as α → 1.
double rdpLaplace(double epsilon0, double alpha);

/// Tight RDP of any ε-DP mechanism (attained by binary randomized response):
///   ε̂(α) = ε − log((1 + e^{−ε})/(1 + e^{−(2α−1)ε}))/(α−1) ≤ min(ε, αε²/2)
/// (Steinke 2022, arXiv 2210.00597; differentialprivacy.org/pdp-to-zcdp Thm 4). α = ∞: ε.
double rdpPureDp(double epsilon, double alpha);

/// Tight RDP of any η-bounded-range mechanism (its privacy loss lies in an interval of length η;
/// the exponential mechanism calibrated to ε-DP is ε-bounded-range: Durfee & Rogers 2019, arXiv
/// 1905.04273; Dong, Durfee & Rogers 2020, arXiv 1909.13830):
///   r_BR(α; η) = sup_{a ∈ [−η, 0]} ln(q₁e^{αa} + q₂e^{α(a+η)})/(α − 1),
///   q₂ = (1 − e^a)/(e^{a+η} − e^a), q₁ = 1 − q₂,
/// the worst loss distribution on the two end points of [a, a + η] with E_Q[e^L] = 1 (convexity
/// of z ↦ z^α pushes any loss in the interval to its end points: Steinke, differentialprivacy.org
/// 2021-07-20, Theorem 4's rounding argument; derivation in docs/selection.md). Evaluated by a
/// 4001-point grid in a plus a golden-section refinement in log space, rounded up by 1e-9
/// relative, and capped by the exact upper bounds αη²/8 (Cesar & Rogers 2021) and rdpPureDp(η, α).
/// Units: nats. Valid: η ≥ 0 finite, α > 1 (α = ∞: η). Checked values (η = 0.1): 0.00249896,
/// 0.00992182, 0.0354665 at α = 2, 8, 32.
double rdpBoundedRange(double eta, double alpha);

/// (ξ, ρ)-zCDP as an RDP curve: ε̂(α) = ξ + ρα (Bun & Steinke 2016, Def. 1.1).
double rdpZcdp(double rho, double alpha, double xi = 0.0);

/// How fractional orders of the subsampled Gaussian are evaluated.
enum class FractionalOrderMethod {
    /// Mironov–Talwar–Zhang 2019 (arXiv 1908.10530, §3.3) series with the signs of the
    /// generalised binomials kept (as Opacus): the exact value, plus a bound on the truncated tail,
    /// and never above the exact integer-order value at ⌈α⌉ (RDP is non-decreasing in α).
    SignedSeries,
    /// dp_accounting 0.6.0 (`_compute_log_a_frac`): the same series with |C(α,i)|, an upper bound;
    /// +∞ when it has not converged after 1000 terms. For reproducing dp_accounting exactly.
    AbsoluteSeries,
};

/// RDP of the Poisson-subsampled Gaussian mechanism (sampling rate q, noise multiplier
/// z = σ/Δ), add/remove neighbours. Integer α: the exact binomial expansion
///   A_α = Σ_{i=0}^{α} C(α,i) q^i (1−q)^{α−i} exp((i²−i)/(2z²)),  ε̂ = log(A_α)/(α−1)
/// (Mironov, Talwar & Zhang 2019, arXiv 1908.10530, §3.2; Abadi et al. 2016). Fractional α:
/// see FractionalOrderMethod. q = 0 ⇒ 0; q = 1 ⇒ α/(2z²); α = ∞ ⇒ ∞. Result may be +∞.
/// Valid: 0 ≤ q ≤ 1, z > 0, α > 1.
double rdpSubsampledGaussian(double q, double noiseMultiplier, double alpha,
                             FractionalOrderMethod method = FractionalOrderMethod::SignedSeries);

/// RDP of the Gaussian mechanism (noise multiplier z = σ/Δ, Δ the replace-one ℓ2 sensitivity)
/// on a subset of fixed size γn drawn uniformly without replacement, replace-one neighbours
/// (n public). Integer α ≥ 2: the general bound of Wang, Balle & Kasiviswanathan 2019
/// ("Subsampled Rényi DP and analytical moments accountant", AISTATS; arXiv 1808.00087,
/// Thm 9) with the base curve ε(j) = j/(2z²) and ε(∞) = ∞:
///   A = 1 + γ²C(α,2)·min{4(e^{ε(2)} − 1), 2e^{ε(2)}} + Σ_{j=3}^{α} 2γ^j C(α,j) e^{(j−1)ε(j)},
///   ε̂(α) = log(A)/(α − 1);
/// fractional α: the cumulant log A interpolated linearly between ⌊α⌋ and ⌈α⌉ (ibid. Cor. 10;
/// the CGF is convex in α), with log A = 0 at α = 1. γ = 0 ⇒ 0; γ = 1 ⇒ α/(2z²). Rounded up
/// (relative 1e-12 + α·1e-15 covers the log-space sum). Result may be +∞ (z tiny).
/// Valid: 0 ≤ γ ≤ 1, z > 0, α > 1 finite.
double rdpSampledWithoutReplacementGaussian(double gamma, double noiseMultiplier, double alpha);

} // namespace pbx::privacy
