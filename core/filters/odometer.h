// SPDX-License-Identifier: MIT
// Privacy odometers: a running bound ε_n on the privacy loss that holds at every n at once, so the
// analyst may stop whenever (and for whatever reason) and state the bound reached. Wired
// into sessions by OdometerFilter (odometer_filter.h).
#pragma once

#include "core/util/result.h"

#include <cstddef>
#include <memory>
#include <vector>

namespace pbx::filters {

/// An odometer's reading after n releases: P(∃n : L_n > epsilon_n) ≤ delta, the same δ for the whole
/// session (Rogers, Roth, Ullman & Vadhan 2016: an odometer tracks "realized privacy loss as he
/// goes, without needing to pre-specify a privacy budget"). Stopping at any time, for any reason,
/// the transcript so far is (epsilon, delta)-ex-post private. ε in nats, rounded up.
struct OdometerReading
{
    double epsilon = 0.0;
    double delta = 0.0;
};

/// The λ-grid zCDP odometer: with R_n = Σρ_i (predictable ρ_i-zCDP steps; a pure ε_i-DP step as
/// ε_i²/2, Bun & Steinke 2016, Prop. 1.4),
///   u_n = min_j [ (1 + λ_j)·R_n + ln(J/δ)/λ_j ],   λ_j = 2^{j/2}, j = 0 … 24 (J = 25).
/// Validity: for every λ > 0, exp(λL_n − λ(λ+1)R_n) is a non-negative supermartingale (the Rényi
/// bound at order λ + 1, conditionally on the past), so by Ville's inequality
/// P(∃n : L_n ≥ (1+λ)R_n + ln(1/δ_j)/λ) ≤ δ_j; a union over the 25 λ's with δ_j = δ/25. This is the
/// kind of odometer of Whitehouse, Ramdas, Rogers & Wu 2023 ("Fully adaptive composition in
/// differential privacy", ICML) that holds at all times at once, paying ln 25 in place of ln(1/δ)'s
/// fixed-time tuning — the price of not committing to a budget.
///
/// The basic pure odometer Σε_i (δ = 0, pure losses are bounded pointwise) runs alongside on pure
/// steps; reading() reports the smaller of the two once a Gaussian step made the basic one void.
class ZcdpOdometer
{
public:
    /// Errors: InvalidArgument for δ ∉ (0, 1).
    static Result<ZcdpOdometer> create(double delta);

    /// Adds a pure ε-DP step (ε ≥ 0 finite; errors InvalidArgument otherwise).
    Result<void> addPureEpsilon(double epsilon);
    /// Adds `count` ε-bounded-range steps: ρ += count·ε²/8 (Cesar & Rogers 2021) and the basic
    /// Σε += count·ε (each step is ε-DP). Errors: InvalidArgument for ε < 0 or not finite.
    Result<void> addBoundedRange(double epsilon, std::size_t count);
    /// Adds a ρ-zCDP step (ρ ≥ 0 finite; errors InvalidArgument otherwise).
    Result<void> addRho(double rho);

    double rho() const { return m_rho; }           ///< R_n, rounded up
    double basicEpsilon() const { return m_pure; } ///< Σε_i, rounded up (+∞ after a ρ step)
    /// u_n of the λ-grid alone, rounded up.
    double lambdaGridEpsilon() const { return lambdaGridEpsilon(m_rho, m_delta); }
    /// The λ-grid bound for a spend of R = `rho` at `delta`, rounded up. Valid: rho ≥ 0, 0 < δ < 1.
    static double lambdaGridEpsilon(double rho, double delta);
    /// min(basic, λ-grid) and δ (the basic bound needs no δ, the reading still states δ).
    OdometerReading reading() const;

private:
    explicit ZcdpOdometer(double delta) : m_delta(delta) {}
    double m_delta;
    double m_rho = 0.0;
    double m_pure = 0.0;
};

/// Lécuyer's RDP odometer (Lécuyer 2021, "Practical privacy filters and odometers with Rényi
/// differential privacy", arXiv 2103.01379; the construction of the author's code,
/// PrivacyOdometerEngine). On a grid of orders Λ, per order a doubling sequence of Rényi filters
/// with budgets γ_α·2^f (f = 0, 1, …), γ_α = ln(2|Λ|/δ)/(α − 1), and failure probabilities
/// δ_{α,f} = δ/(2|Λ|(f + 1)²) (they sum to δ·π²/12 < δ). With R_α(n) the Rényi sum at α and
/// f_α(n) the least f with R_α(n) ≤ γ_α·2^f,
///   u_n = min_α [ γ_α·2^{f_α(n)} + ln(1/δ_{α,f_α(n)})/(α − 1) ].
/// Validity: for each (α, f), exp((α − 1)(L_n − R_α(n))) is a supermartingale; Ville's inequality
/// bounds P(∃n : R_α(n) ≤ γ_α2^f, L_n > γ_α2^f + ln(1/δ_{α,f})/(α − 1)) by δ_{α,f}; a union over
/// (α, f). Only the basic (Markov) conversion is valid here: an odometer bounds the loss's tail, not
/// a hockey-stick divergence.
class RdpOdometer
{
public:
    /// Errors: InvalidArgument for δ ∉ (0, 1), an empty grid or an order ≤ 1 or not finite.
    static Result<RdpOdometer> create(double delta, std::vector<double> orders);

    /// Adds a step's Rényi curve (one value per order, ≥ 0 or +∞; rounded up by the caller, e.g.
    /// roundedCurve). Errors: InvalidArgument (shape, a negative value).
    Result<void> add(const std::vector<double> &curve);

    const std::vector<double> &orders() const { return m_orders; }
    const std::vector<double> &sums() const { return m_sums; }
    /// γ_α of order i.
    double gamma(std::size_t i) const;
    /// f_α(n) of order i (the doubling level whose budget holds the sum so far).
    int level(std::size_t i) const;
    /// The bound of order i alone, rounded up (+∞ for an infinite sum).
    double epsilonAt(std::size_t i) const;
    /// The minimum over the orders; `order` receives the index that attains it.
    OdometerReading reading(std::size_t *order = nullptr) const;

private:
    RdpOdometer(double delta, std::vector<double> orders)
        : m_delta(delta), m_orders(std::move(orders)), m_sums(m_orders.size(), 0.0)
    {}
    double m_delta;
    std::vector<double> m_orders;
    std::vector<double> m_sums;
};

} // namespace pbx::filters
