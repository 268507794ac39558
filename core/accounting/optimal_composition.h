// SPDX-License-Identifier: MIT
// Optimal composition of (ε, δ)-DP mechanisms: Kairouz–Oh–Viswanath's exact homogeneous curve,
// and Murtagh–Vadhan's heterogeneous optimum evaluated through a pessimistic PLD.
#pragma once

#include "core/accounting/basic_composition.h"
#include "core/accounting/event.h"
#include "core/accounting/pld_accountant.h"
#include "core/accounting/strategy.h"

#include <memory>
#include <optional>
#include <utility>
#include <vector>

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

    /// deltaForEpsilon(ε).delta at many ε at once (the comparison's δ(ε) profile): heterogeneous
    /// ledgers sweep their pessimistic PLD once (PldAccountant::upperDeltas: upper bounds, equal
    /// to deltaForEpsilon's to ~1e-12 relative), raised by 2e-12 relative so that no value is
    /// below deltaForEpsilon's, instead of once per ε, each capped by basic composition;
    /// homogeneous ones evaluate the KOV closed form at each ε. In the order of
    /// `epsilons`. Errors: InvalidArgument (an ε negative or not finite).
    Result<std::vector<double>> upperDeltas(const std::vector<double> &epsilons) const;

private:
    Result<StrategyAnswer> optimalEpsilonForDelta(double delta) const;
    Result<StrategyAnswer> optimalDeltaForEpsilon(double epsilon) const;

    double m_epsilon0 = 0.0;
    double m_delta0 = 0.0;
    std::int64_t m_k = 0;
    std::unique_ptr<PldAccountant> m_pld;      ///< heterogeneous case
    std::unique_ptr<BasicComposition> m_basic; ///< the cap: optimal ≤ basic
};

/// The optimal strategy's ε at δ (and δ at ε) over growing prefixes of one ledger (the
/// comparison's ε(k) curve) by one running product, for the prefixes whose heterogeneous
/// (ε, δ) steps overflow the exact atoms (pld_atoms.h limits). OptimalComposition::fromLedger
/// composes each such prefix afresh: its groups sorted by (ε, δ), the first exactly on their
/// atoms until the limit, that block rounded up to the grid once and every later group rounded up
/// by itself, then convolved. Here each new piece of the ledger (an event's steps within one
/// prefix) is rounded up to the grid by itself and convolved onto the previous prefix's product
/// once (a few atoms on the grid: a direct convolution). Every unit rounded here lies inside one
/// unit fromLedger rounds, and a sum of losses each rounded up to the grid is at least the sum
/// rounded up once (Σ⌈ℓ_j⌉ ≥ ⌈Σℓ_j⌉), so this PLD dominates fromLedger's atom by atom (same
/// masses, losses not smaller): δ(ε) and ε(δ) are not smaller than fromLedger's on the same
/// prefix (measured 1e-5 to 1e-4 relative above on the comparepinned ledgers), each an upper
/// bound, capped by basic composition as OptimalComposition caps it.
/// Heterogeneous prefixes within the atom limits are answered from the running atoms (exact at
/// any interval, composed in ledger order rather than fromLedger's sorted order, an event split
/// across prefixes in pieces: within round-off of fromLedger's, both upper bounds), capped by
/// basic composition likewise. Homogeneous prefixes are not answered here (Unsupported): the
/// caller builds OptimalComposition for them (the KOV closed form).
class OptimalPrefixComposer
{
public:
    /// `ledger` must be valid (validateLedger) and outlive this object; options: the grid
    /// (interval, tailMass, maxBins) of the prefixes' PLD, as fromLedger would take it.
    OptimalPrefixComposer(const Ledger &ledger, const PldOptions &options);
    ~OptimalPrefixComposer();
    OptimalPrefixComposer(const OptimalPrefixComposer &) = delete;
    OptimalPrefixComposer &operator=(const OptimalPrefixComposer &) = delete;

    /// ε at `delta` and, when `epsilon` is set, δ at it (else NaN) of the ledger's first `steps`
    /// steps (counts expanded, post-processing steps counted as ledgerPrefix counts them), for
    /// `steps` not smaller than at the previous call. Errors: Unsupported when fromLedger answers
    /// the prefix as cheaply (see above); those of the steps' (ε, δ) (approxDpStepAt) and of the
    /// composition (ResourceLimit). After an error other than Unsupported every later call fails.
    Result<std::pair<double, double>> upTo(std::int64_t steps, double delta, std::optional<double> epsilon);

    /// True once the prefixes are answered by the running product (tests).
    bool composing() const;

private:
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace pbx::accounting
