// SPDX-License-Identifier: MIT
// The odometer "filter" of an odometer session: no ε budget, every predictable charge admitted,
// and after each one a running ε that holds at every time at once (core/filters/odometer.h).
#pragma once

#include "core/filters/odometer.h"
#include "core/filters/privacy_filter.h"

#include <memory>

namespace pbx::filters {

/// A session run under a privacy odometer instead of a filter (Rogers, Roth, Ullman & Vadhan 2016:
/// track the realised loss "without needing to pre-specify a privacy budget"). Only δ is fixed
/// before the first request; every pure-ε or ρ charge is admitted (nothing is ever refused for
/// budget), and after n charges the session may be stopped, for any reason, with the statement
/// "the transcript so far is (ε_n, δ)-DP", ε_n = min(Σε_i, λ-grid u_n) of ZcdpOdometer (the
/// all-times kind of Whitehouse, Ramdas, Rogers & Wu 2023; the basic Σε_i while every step is pure).
///
/// Behind the PrivacyFilter interface: the primary system is ρ = R_n with an infinite budget
/// (remaining() and remainingFor() are +∞ for ε and ρ charges; a BoundedRange charge adds
/// count·ε²/8 to R_n and count·ε to Σε_i), epsilonBudget() is +∞,
/// epsilonSpent() is the odometer's ε_n and deltaSpent() its δ. ExPost charges are refused
/// (Unsupported): Laplace noise reduction's loss is not a predictable ε or ρ. Never add an
/// odometer reading into a filter's budget: a budget chosen after seeing ε_n is not a filter's.
class OdometerFilter final : public PrivacyFilter
{
public:
    /// Errors: InvalidArgument for δ ∉ (0, 1).
    static Result<std::unique_ptr<OdometerFilter>> create(double delta);

    FilterKind kind() const override { return FilterKind::Odometer; }
    std::vector<BudgetSystem> systems() const override;
    /// ε_n (nats, rounded up): min(Σε_i, λ-grid) — 0 before the first charge.
    double epsilonSpent() const override;
    /// δ, the odometer's (the statement holds with it at every n).
    double deltaSpent() const override { return deltaBudget(); }
    ChargeKind primaryKind() const override { return ChargeKind::Rho; }
    const BudgetAccount &primary() const override { return m_rho; }
    /// The λ-grid reading for a spend of ρ alone (no pure steps), rounded up: the odometer's
    /// ε-equivalent of a ρ, for gauges and paths.
    double epsilonOf(double rho) const override;
    /// +∞ for PureEpsilon and Rho (no budget); 0 for ExPost (refused).
    double remainingFor(ChargeKind kind) const override;

    const ZcdpOdometer &odometer() const { return m_odometer; }
    /// What a ledger planned in advance would have cost for the same releases, rounded up:
    /// min(Σε_i, ρ + 2√(ρ ln(1/δ))) at R_n — the ε a zCDP (or basic) filter whose budget is
    /// exactly this spend states (Bun & Steinke 2016, Prop. 1.3). ε_n − this is the price of not
    /// committing to a budget. 0 before the first charge.
    double preplannedEpsilon() const;

protected:
    Result<void> check(const Charge &charge) const override;
    /// Accounted as it is (see the class doc).
    Charge boundedRangeAs(const Charge &charge) const override { return charge; }
    void apply(const Charge &charge) override;

private:
    OdometerFilter(double delta, ZcdpOdometer odometer);
    ZcdpOdometer m_odometer;
    BudgetAccount m_rho; ///< R_n against an infinite budget (the same sum as m_odometer.rho())
};

} // namespace pbx::filters
