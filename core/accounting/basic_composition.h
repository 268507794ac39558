// SPDX-License-Identifier: MIT
// Basic composition: ε's add, δ's compose as 1 − Π(1 − δ_j) ≤ Σ δ_j.
#pragma once

#include "core/accounting/event.h"
#include "core/accounting/strategy.h"

#include <memory>

namespace pbx::accounting {

/// Basic (sequential) composition (Dwork & Roth 2014, Thm 3.16; Steinke 2022, arXiv 2210.00597,
/// composition theorem): k events, event j (ε_j, δ_j)-DP after amplification, give
/// (Σ ε_j, 1 − Π(1 − δ_j))-DP; the δ form is the exact δ of the optimal composition at
/// ε = Σ ε_j (KOV 2015 Thm 3.3) and ≤ Σ δ_j. The δ of ex-post events (PrivacyEvent::expost:
/// realised losses, settled output-DP costs) is added instead, Σ δ_j, as the ex-post and ODP
/// filters compose it (Rogers et al. 2023 Lemma 5.1 with a union bound; Hartmann et al. 2023
/// Theorem 7). Both totals are rounded up.
/// Not applicable (Unsupported) to Gaussian / zCDP events or mismatched sampling.
class BasicComposition final : public CompositionStrategy
{
public:
    static Result<std::unique_ptr<BasicComposition>> fromLedger(const Ledger &ledger);

    std::string name() const override { return "basic"; }
    /// Σ ε_j if δ ≥ δ_total; +∞ otherwise (the worst-case mechanism keeps δ_total at any ε).
    Result<StrategyAnswer> epsilonForDelta(double delta) const override;
    /// δ_total if ε ≥ Σ ε_j; 1 otherwise (basic composition certifies nothing below Σ ε_j).
    Result<StrategyAnswer> deltaForEpsilon(double epsilon) const override;

    double totalEpsilon() const { return m_epsilon; }
    double totalDelta() const { return m_delta; }

private:
    double m_epsilon = 0.0;
    double m_delta = 0.0;
    bool m_expostDelta = false; ///< the ledger had ex-post events with δ > 0 (added, not multiplied)
};

} // namespace pbx::accounting
