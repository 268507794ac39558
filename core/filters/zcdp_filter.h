// SPDX-License-Identifier: MIT
#pragma once

#include "core/filters/privacy_filter.h"

namespace pbx::filters {

/// Fully adaptive zCDP filter (Whitehouse, Ramdas, Rogers, Wu 2023; accuracy-first.md §4.2):
/// mechanism n+1 runs only if Σ_{m ≤ n+1} ρ_m ≤ ρ(ε, δ). The stopped interaction is (ε, δ)-DP
/// with ε = ρ + 2√(ρ·ln(1/δ)); the budget ρ(ε, δ) is that relation inverted stably and rounded
/// down. Proof sketch: exp(λL_n − λ(λ+1)Σρ_m) is a supermartingale; Ville's inequality at the
/// stopping time with λ = (ε−ρ)/(2ρ) gives P(L ≥ ε) ≤ δ.
class ZcdpFilter final : public PrivacyFilter
{
public:
    /// Errors: InvalidArgument for ε ≤ 0 or δ ∉ (0, 1).
    static Result<std::unique_ptr<ZcdpFilter>> create(double epsilon, double delta);

    FilterKind kind() const override { return FilterKind::Zcdp; }
    std::string_view unitSymbol() const override { return "ρ"; }
    std::string_view unitName() const override { return "rho"; }
    double epsilonSpent() const override { return epsilonOf(spent()); }
    double deltaSpent() const override { return spent() > 0.0 ? deltaBudget() : 0.0; }
    double epsilonOf(double rho) const override;

private:
    ZcdpFilter(double epsilon, double delta, double rhoBudget)
        : PrivacyFilter(epsilon, delta, rhoBudget)
    {}
};

} // namespace pbx::filters
