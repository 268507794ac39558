// SPDX-License-Identifier: MIT
// Optimal composition of (ε, δ)-DP mechanisms: Kairouz–Oh–Viswanath's exact homogeneous curve,
// and Murtagh–Vadhan's heterogeneous optimum evaluated through a pessimistic PLD.
#pragma once

#include "core/accounting/basic_composition.h"
#include "core/accounting/event.h"
#include "core/accounting/pld_accountant.h"
#include "core/accounting/strategy.h"

#include <memory>

namespace pbx::accounting {

/// δ of the k-fold (adaptive) composition of (ε₀, δ₀)-DP mechanisms at ε, exactly
/// (Kairouz, Oh & Viswanath 2015, arXiv 1311.0776, Thm 3.3):
///   δ_RR(ε) = (1+e^{ε₀})^{−k} Σ_l C(k,l) max(0, e^{(k−l)ε₀} − e^{ε+lε₀}),
///   δ = 1 − (1−δ₀)^k (1 − δ_RR(ε)),
/// summed in log space over the non-zero terms; rounded up, capped at 1. Any real ε; ε₀ ≥ 0,
/// 0 ≤ δ₀ < 1, k ≥ 1 (cost O(k)).
double kovOptimalDelta(double epsilon0, double delta0, std::int64_t k, double epsilon);

/// The smallest ε ≥ 0 with kovOptimalDelta ≤ δ, by bisection to 1e-12 relative (upper end
/// returned); +∞ when δ < 1 − (1−δ₀)^k. Valid: 0 < δ < 1. Errors: InvalidArgument.
Result<double> kovOptimalEpsilon(double epsilon0, double delta0, std::int64_t k, double delta);

/// KOV15 Thm 3.3 in its published discrete form, as dp_accounting `advanced_composition`: the
/// smallest ε of the form ε₀(k − 2i), i = 0…⌊k/2⌋, whose δ_i satisfies 1 − (1−δ₀)^k(1 − δ_i) ≤ δ.
/// Errors: Unsupported when even i = 0 (ε = kε₀) is not enough (δ < 1 − (1−δ₀)^k).
Result<double> kovGridEpsilon(double epsilon0, double delta0, std::int64_t k, double delta);

/// The largest per-step ε₀ whose kovGridEpsilon(ε₀, δ₀, k, δ) ≤ ε (dp_accounting
/// `get_smallest_epsilon_from_advanced_composition`), by bisection to 1e-12 relative, lower end
/// returned (the private side). Errors: InvalidArgument.
Result<double> kovGridLargestStepEpsilon(double epsilon, double delta, std::int64_t k, double delta0);

/// The "optimal" strategy. Homogeneous ledgers (every step the same (ε₀, δ₀) after amplification):
/// the exact KOV curve. Heterogeneous ledgers: the optimal composition of Murtagh & Vadhan 2016
/// (Thm 1.5, #P-hard exactly) evaluated as a pessimistic PLD of the worst-case (ε_j, δ_j) PLDs
/// (upper bound, with the optimistic lower bound and interval as detail). Either way the answer
/// is min(optimal, basic): the optimum is never worse than basic composition (basic is one of
/// the compositions it optimises over), but the pessimistic PLD's discretisation can put its
/// evaluation a hair above basic (0.35005 vs 0.34994 for a few pure steps); the method then says
/// basic decided. Not applicable to Gaussian / zCDP events (no per-step (ε, δ); see
/// per_step_dp.h for their per-step view).
class OptimalComposition final : public CompositionStrategy
{
public:
    static Result<std::unique_ptr<OptimalComposition>> fromLedger(const Ledger &ledger,
                                                                  const PldOptions &options = {});

    std::string name() const override { return "optimal"; }
    Result<StrategyAnswer> epsilonForDelta(double delta) const override;
    Result<StrategyAnswer> deltaForEpsilon(double epsilon) const override;

    bool isHomogeneous() const { return !m_pld; }

private:
    Result<StrategyAnswer> optimalEpsilonForDelta(double delta) const;
    Result<StrategyAnswer> optimalDeltaForEpsilon(double epsilon) const;

    double m_epsilon0 = 0.0;
    double m_delta0 = 0.0;
    std::int64_t m_k = 0;
    std::unique_ptr<PldAccountant> m_pld;      ///< heterogeneous case
    std::unique_ptr<BasicComposition> m_basic; ///< the cap: optimal ≤ basic
};

} // namespace pbx::accounting
