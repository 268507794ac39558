// SPDX-License-Identifier: MIT
// Advanced composition: the Dwork–Rothblum–Vadhan bound (the "advanced" strategy), plus the
// Kairouz–Oh–Viswanath analytic bound and Steinke's zCDP-route bound as comparison formulas.
#pragma once

#include "core/accounting/event.h"
#include "core/accounting/strategy.h"

#include <memory>
#include <vector>

namespace pbx::accounting {

/// One group of identical steps of an (ε, δ)-DP composition.
struct EpsilonDeltaSteps
{
    double epsilon = 0.0;
    double delta = 0.0;
    std::int64_t count = 1;
};

/// Dwork–Rothblum–Vadhan 2010 advanced composition (Dwork & Roth 2014, Thm 3.20), in its
/// heterogeneous form (same Azuma argument with per-step range ε_j):
///   ε' = √(2 log(1/δ') Σ ε_j²) + Σ ε_j (e^{ε_j} − 1),   δ_total = δ' + Σ δ_j.
/// Homogeneous: ε√(2k log(1/δ')) + kε(e^ε − 1). Returns ε' rounded up. Valid: 0 < δ' < 1.
double drvEpsilon(const std::vector<EpsilonDeltaSteps> &steps, double deltaPrime);

/// Kairouz–Oh–Viswanath 2015 (arXiv 1311.0776) Thm 3.5 (heterogeneous; Thm 3.4 when equal):
///   ε' = min{ Σε_j, Σε_j·tanh(ε_j/2) + √(2Σε_j²·log(e + √(Σε_j²)/δ̃)),
///             Σε_j·tanh(ε_j/2) + √(2Σε_j²·log(1/δ̃)) },   1 − δ_total = (1 − δ̃)Π(1 − δ_j).
/// (ε_j(e^{ε_j}−1)/(e^{ε_j}+1) = ε_j tanh(ε_j/2).) Rounded up. Valid: 0 < δ̃ < 1.
double kovAnalyticEpsilon(const std::vector<EpsilonDeltaSteps> &steps, double deltaTilde);

/// Steinke's advanced composition via zCDP (Steinke 2022, arXiv 2210.00597; composition-basics):
///   ε' = ½Σε_j² + √(2 log(1/δ') Σε_j²),  δ_total = δ' + Σδ_j. Rounded up. Valid: 0 < δ' < 1.
double zcdpRouteEpsilon(const std::vector<EpsilonDeltaSteps> &steps, double deltaPrime);

/// The "advanced" strategy: DRV (above), reporting basic composition instead when it is smaller
/// (both are valid; the method field says which). Not applicable to Gaussian/zCDP events.
class AdvancedComposition final : public CompositionStrategy
{
public:
    static Result<std::unique_ptr<AdvancedComposition>> fromLedger(const Ledger &ledger);

    std::string name() const override { return "advanced"; }
    Result<StrategyAnswer> epsilonForDelta(double delta) const override;
    Result<StrategyAnswer> deltaForEpsilon(double epsilon) const override;

private:
    std::vector<EpsilonDeltaSteps> m_steps;
    double m_sumEpsilon = 0.0; ///< basic ε
    double m_basicDelta = 0.0; ///< 1 − Π(1 − δ_j)
    double m_sumDelta = 0.0;   ///< Σ δ_j (DRV's δ charge)
    double m_sumSquares = 0.0; ///< Σ ε_j²
    double m_drift = 0.0;      ///< Σ ε_j (e^{ε_j} − 1)
};

/// Collects the per-step (ε, δ) of every event (after amplification), grouped by event.
/// Errors: Unsupported (with the event index) for events without an (ε, δ) guarantee.
Result<std::vector<EpsilonDeltaSteps>> collectEpsilonDeltaSteps(const Ledger &ledger);

} // namespace pbx::accounting
