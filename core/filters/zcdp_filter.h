// SPDX-License-Identifier: MIT
#pragma once

#include "core/filters/privacy_filter.h"

namespace pbx::filters {

/// Fully adaptive zCDP filter (Whitehouse, Ramdas, Rogers, Wu 2023; docs/accuracy-first.md §4.1):
/// mechanism n+1 runs only if Σ_{m ≤ n+1} ρ_m ≤ ρ(ε, δ). The stopped interaction is (ε, δ)-DP
/// with ε = ρ + 2√(ρ·ln(1/δ)); the budget ρ(ε, δ) is that relation inverted stably and rounded
/// down. Proof sketch: exp(λL_n − λ(λ+1)Σρ_m) is a supermartingale; Ville's inequality at the
/// stopping time with λ = (ε−ρ)/(2ρ) gives P(L ≥ ε) ≤ δ.
///
/// Pure ε-DP charges are admitted as ρ = ε²/2 (Bun & Steinke 2016, Prop. 1.4), rounded up.
/// The same class serves the brownian-zcdp filter, whose Brownian noise-reduction steps arrive as
/// ρ increments (docs/accuracy-first.md §4.4); which mechanisms may use it is the session's choice.
class ZcdpFilter final : public PrivacyFilter
{
public:
    /// Errors: InvalidArgument for ε ≤ 0 or δ ∉ (0, 1).
    static Result<std::unique_ptr<ZcdpFilter>> create(double epsilon, double delta,
                                                      FilterKind kind = FilterKind::Zcdp);

    const BudgetAccount &primary() const override { return m_rho; }
    FilterKind kind() const override { return m_kind; }
    std::vector<BudgetSystem> systems() const override;
    double epsilonSpent() const override { return epsilonOf(m_rho.spent()); }
    double deltaSpent() const override { return m_rho.spent() > 0.0 ? deltaBudget() : 0.0; }
    ChargeKind primaryKind() const override { return ChargeKind::Rho; }
    double epsilonOf(double rho) const override;
    /// ρ left for Rho; for PureEpsilon the largest ε with ε²/2 ≤ ρ left; 0 for ExPost.
    double remainingFor(ChargeKind kind) const override;

    /// ρ = ε²/2 rounded up: the zCDP cost of a pure ε-DP release.
    static double rhoOfPureEpsilon(double epsilon);

protected:
    Result<void> check(const Charge &charge) const override;
    /// ρ = count·ε²/8 (boundedRangeRho).
    Charge boundedRangeAs(const Charge &charge) const override { return boundedRangeRho(charge); }
    void apply(const Charge &charge) override;

private:
    ZcdpFilter(double epsilon, double delta, double rhoBudget, FilterKind kind)
        : PrivacyFilter(epsilon, delta), m_rho(rhoBudget), m_kind(kind)
    {}
    BudgetAccount m_rho;
    FilterKind m_kind;
};

} // namespace pbx::filters
