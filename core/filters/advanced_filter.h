// SPDX-License-Identifier: MIT
// The advanced-composition filter for adaptively chosen ε (and (ε, δ)) mechanisms.
#pragma once

#include "core/filters/privacy_filter.h"

namespace pbx::filters {

/// The advanced-composition filter (Whitehouse, Ramdas, Rogers & Wu 2023, "Fully adaptive
/// composition in differential privacy", ICML: filters that "match the rates of advanced
/// composition, including constants, despite allowing for adaptively chosen privacy parameters").
/// Target (ε, δ) split as δ = δ' + δ'' before the first request (δ' for the conversion, δ'' for
/// the mechanisms' own δ_j; δ'' = 0 when every request is pure). Request j, an (ε_j, δ_j)-DP
/// mechanism with ε_j and δ_j fixed before it runs, is admitted iff
///   √(2·ln(1/δ')·(S2 ⊕ ε_j²)) + (S2 ⊕ ε_j²)/2 ≤ ε   and   D ⊕ δ_j ≤ δ'',
/// then S2 ← S2 ⊕ ε_j², D ← D ⊕ δ_j. The halted transcript is (ε, δ' + δ'')-DP.
/// The rule is the zCDP filter with ρ_j = ε_j²/2 (Bun & Steinke 2016, Prop. 1.4) and the
/// Bun–Steinke conversion: ρ + 2√(ρL) = S2/2 + √(2L·S2) at ρ = S2/2 (the zCDP filter's proof by
/// a supermartingale and Ville's inequality, Whitehouse et al. 2023), so it is kept in ρ = S2/2
/// with budget ρ(ε, δ') rounded down. For equal ε_j = ε₀ it admits ⌊2ρ(ε, δ')/ε₀²⌋ requests where
/// basic composition admits ⌊ε/ε₀⌋: it wins for ε₀ < ε₀* = 2ρ/ε, i.e. beyond k* = ε²/(2ρ) requests
/// (crossoverEpsilon, crossoverCount).
///
/// Behind the PrivacyFilter interface: PureEpsilon charges are the ε_j (their `delta`, if any,
/// the δ_j); Rho and ExPost charges are refused (a Gaussian release is not ε-DP; Laplace noise
/// reduction's ε is not known before it stops).
class AdvancedFilter final : public PrivacyFilter
{
public:
    /// δ' = δ − mechanismDelta. Errors: InvalidArgument for ε ≤ 0, δ ∉ (0, 1), or
    /// mechanismDelta ∉ [0, δ).
    static Result<std::unique_ptr<AdvancedFilter>> create(double epsilon, double delta,
                                                          double mechanismDelta = 0.0);

    /// The per-request ε₀ below which this filter admits more equal requests than basic
    /// composition: 2ρ(ε, δ')/ε (Whitehouse et al. 2023 against Σε_j ≤ ε). Rounded down.
    double crossoverEpsilon() const;
    /// k* = ε²/(2ρ(ε, δ')): beyond about this many equal requests the filter wins.
    double crossoverCount() const;
    /// The number of equal pure requests of ε₀ each it admits from empty, ⌊ρ(ε, δ')/(ε₀²/2)⌋ up
    /// to rounding: the filter's own rounded-up sums replayed (above 10⁷ requests, the closed form
    /// less one, a lower bound). Valid: ε₀ > 0.
    std::size_t admitsEqual(double epsilon0) const;
    /// δ' (the conversion's share) and δ'' (the mechanisms' share).
    double conversionDelta() const { return m_conversionDelta; }
    double mechanismDelta() const { return m_mechanismDelta.budget(); }

    FilterKind kind() const override { return FilterKind::Advanced; }
    std::vector<BudgetSystem> systems() const override;
    /// √(2 ln(1/δ')·S2) + S2/2 rounded up (0 while nothing was charged).
    double epsilonSpent() const override { return epsilonOf(m_rho.spent()); }
    /// δ' once anything was charged, plus the δ_j's admitted.
    double deltaSpent() const override;
    ChargeKind primaryKind() const override { return ChargeKind::Rho; }
    const BudgetAccount &primary() const override { return m_rho; }
    /// ρ + 2√(ρ·ln(1/δ')) rounded up.
    double epsilonOf(double rho) const override;
    /// The largest ε_j that still fits (PureEpsilon); 0 for Rho and ExPost.
    double remainingFor(ChargeKind kind) const override;

protected:
    Result<void> check(const Charge &charge) const override;
    void apply(const Charge &charge) override;

private:
    AdvancedFilter(double epsilon, double delta, double conversionDelta, double rhoBudget,
                   double mechanismDelta)
        : PrivacyFilter(epsilon, delta), m_conversionDelta(conversionDelta), m_rho(rhoBudget),
          m_mechanismDelta(mechanismDelta)
    {}
    double m_conversionDelta;
    BudgetAccount m_rho;            ///< S2/2, the Σ ε_j²/2 admitted (each rounded up)
    BudgetAccount m_mechanismDelta; ///< D, the Σ δ_j admitted, within δ''
};

} // namespace pbx::filters
