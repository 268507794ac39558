// SPDX-License-Identifier: MIT
// The Rényi-DP (RDP) privacy filter: per-order budgets on a fixed grid of orders, each request
// charged its RDP curve, admitted while some order stays within its budget.
#pragma once

#include "core/filters/privacy_filter.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

namespace pbx::filters {

/// The filter's default grid of Rényi orders (24 orders, fixed before the first request):
/// {1.5, 1.75, 2, 2.5, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40, 48, 56, 64, 128, 256}.
/// It starts at 1.5 because the improved conversion is unstable as α → 1.
std::vector<double> defaultFilterOrders();

/// The largest RDP sum at order α that still converts to (ε, δ)-DP by the improved conversion
/// ε = r + ln(1 − 1/α) − (ln δ + ln α)/(α − 1) (Canonne, Kamath & Steinke 2020, Prop. 12; Balle
/// et al. 2020, Thm 21; Asoodeh et al. 2020, eq. 20), inverted:
///   B(α) = ε − ln(1 − 1/α) − (ln(1/δ) − ln α)/(α − 1),
/// rounded down (relative 1e-12 of its terms). May be ≤ 0 (the order can certify nothing).
/// Units: nats. Valid: ε > 0, 0 < δ < 1, α > 1 finite (not checked here).
double rdpOrderBudget(double epsilon, double delta, double alpha);

/// The improved conversion of an RDP sum r at order α to ε at δ, rounded up (the inverse of
/// rdpOrderBudget; same sources). Valid: r ≥ 0, 0 < δ < 1, α > 1.
double rdpOrderEpsilon(double rdp, double delta, double alpha);

/// The δ each order of a grid of `orderCount` orders pays: δ/|Λ| rounded down, or δ itself for a
/// one-order grid (Feldman & Zrnic's filter; no union over orders).
double rdpOrderDelta(double delta, std::size_t orderCount);

/// An RDP curve evaluated on `orders` and rounded up for the filter: f(α)·(1 + 1e-12), nudged up
/// a few ulps; NaN becomes +∞ (a curve that cannot be evaluated is never under-charged).
std::vector<double> roundedCurve(const std::vector<double> &orders, const std::function<double(double)> &f);

/// Tight RDP of any pure ε-DP mechanism, rounded up: the randomized-response curve
/// ε − ln((1 + e^{−ε})/(1 + e^{−(2α−1)ε}))/(α − 1) (Steinke, differentialprivacy.org 2024-05-27,
/// Theorem 4) with an absolute margin for its cancellation, capped by the exact upper bounds ε
/// and αε²/2 (Bun & Steinke 2016, Prop. 1.4), each rounded up. It is exactly the curve of the
/// exact discrete Laplace mechanism on a count (a two-point privacy loss ±ε), the noise pbx uses.
double pureEpsilonRdpUp(double epsilon, double alpha);

/// One order of the filter's grid.
struct RdpOrder
{
    double alpha = 0.0;  ///< the order α > 1
    double delta = 0.0;  ///< the share of δ this order pays, δ/|Λ| (rounded down)
    double budget = 0.0; ///< B(α) at that share (rounded down); ≤ 0: dead from the start
    double spent = 0.0;  ///< Σ of the admitted requests' r(α), rounded up (may be +∞)
    /// Still able to admit: spent ≤ budget and budget > 0. Sums never decrease: a dead order
    /// stays dead.
    bool live() const { return budget > 0.0 && spent <= budget; }
};

/// Checks that `curve` gives one RDP value per order of a grid of `orderCount` orders and none is
/// negative (+∞ and NaN, "no bound at that order", pass). Errors: InvalidArgument naming the fault.
Result<void> checkRdpCurve(const std::vector<double> &curve, std::size_t orderCount);

/// The Rényi filter over a grid of orders Λ with the δ split across the orders (Feldman & Zrnic
/// 2021, "Individual privacy accounting via a Rényi filter", for one order; Lécuyer 2021,
/// "Practical privacy filters and odometers with Rényi differential privacy", for a grid).
/// Fixed before the first request: Λ and δ_α = δ/|Λ|, B_α = rdpOrderBudget(ε, δ_α, α).
/// A request with RDP curve r(·) is admitted iff some α has S_α ⊕ r(α) ≤ B_α; on admission every
/// order is charged, S_α ← S_α ⊕ r(α) (also orders already over budget). Reject-and-continue: a
/// refused request pays nothing and later, cheaper ones may still pass.
///
/// Guarantee: the halted transcript is (ε, δ)-DP. Proof (the δ split is what makes a grid valid;
/// without it the argument gives δ·|Λ|): couple the run with the single-order filter at each α;
/// by Feldman & Zrnic that run is (α, B_α)-RDP, hence (ε, δ_α)-DP by the improved conversion; the
/// grid run equals the single-order run at the first order still within budget at the end, so a
/// union over the orders gives Σδ_α = δ. A one-order grid is Feldman & Zrnic's filter itself
/// (δ not split). Charges must be predictable (fixed before the request's noise is drawn).
///
/// Behind the PrivacyFilter interface: a PureEpsilon charge ε is charged pureEpsilonRdpUp(ε, ·)
/// (valid for any ε-DP mechanism); a Rho charge ρ the zCDP line ρα (Bun & Steinke 2016), exact
/// for the (discrete) Gaussian and for each step of Brownian noise reduction; a BoundedRange
/// charge of `count` ε-steps count·r_BR(α; ε), the tight curve of any ε-bounded-range mechanism
/// (privacy::rdpBoundedRange; the exponential mechanism's selection); ExPost charges are
/// refused (Laplace noise reduction's loss depends on where it stops: no Rényi curve is known
/// before it runs). The primary system is the ε the sums convert to at the best order.
class RdpFilter final : public PrivacyFilter
{
public:
    /// Errors: InvalidArgument for ε ≤ 0, δ ∉ (0, 1), an empty grid or an order ≤ 1 or not
    /// finite, or when no order can certify anything (every B_α ≤ 0: ε too small for δ/|Λ|).
    static Result<std::unique_ptr<RdpFilter>> create(double epsilon, double delta,
                                                     std::vector<double> orders = defaultFilterOrders());

    /// Succeeds when some order has room for `curve` (shape: orders().size(); values ≥ 0 or +∞,
    /// NaN counts as +∞). Errors: InvalidArgument (shape, a negative value); BudgetExceeded
    /// "no Rényi order has room for this request: at the closest, α = 28, it needs 0.001373 but
    /// 0.001167 remains" (or "every Rényi order is spent" once the filter has halted).
    Result<void> canChargeCurve(const std::vector<double> &curve) const;
    /// Charges every order if canChargeCurve succeeds; otherwise charges nothing.
    Result<void> chargeCurve(const std::vector<double> &curve);
    /// The curve charged for a PrivacyFilter charge (see class doc). Errors: Unsupported for ExPost.
    Result<std::vector<double>> curveOf(const Charge &charge) const;

    const std::vector<RdpOrder> &orders() const { return m_orders; }
    /// The order at which the sums so far convert to the least ε (the order that binds the
    /// session's guarantee); the first live order while nothing has been charged; nullopt once
    /// every order is dead.
    std::optional<std::size_t> bindingOrder() const;
    /// Has every order left its budget (no request can ever be admitted again)?
    bool halted() const;

    FilterKind kind() const override { return FilterKind::Rdp; }
    std::vector<BudgetSystem> systems() const override;
    /// min over orders of rdpOrderEpsilon(S_α, δ_α, α), at most ε; 0 while nothing was charged.
    double epsilonSpent() const override { return m_epsilon.spent(); }
    double deltaSpent() const override { return m_charged ? deltaBudget() : 0.0; }
    ChargeKind primaryKind() const override { return ChargeKind::PureEpsilon; }
    const BudgetAccount &primary() const override { return m_epsilon; }
    double epsilonOf(double native) const override { return native; }
    /// The largest ε (PureEpsilon) or ρ (Rho) one request could cost and still be admitted,
    /// rounded down; 0 for ExPost.
    double remainingFor(ChargeKind kind) const override;

protected:
    Result<void> check(const Charge &charge) const override;
    /// Accounted as it is (see the class doc).
    Charge boundedRangeAs(const Charge &charge) const override { return charge; }
    void apply(const Charge &charge) override;

private:
    RdpFilter(double epsilon, double delta, std::vector<RdpOrder> orders)
        : PrivacyFilter(epsilon, delta), m_orders(std::move(orders)), m_epsilon(epsilon)
    {}
    /// The largest x with `fits(x)` for one order, by bisection on [0, hi] (rounded down).
    double largestFitting(const RdpOrder &order, ChargeKind kind) const;
    void updateEpsilon();

    std::vector<RdpOrder> m_orders;
    BudgetAccount m_epsilon; ///< budget ε; spent: the conversion at the binding order
    bool m_charged = false;
};

} // namespace pbx::filters
