// SPDX-License-Identifier: MIT
// zCDP accounting: ρ's add; conversion to (ε, δ) by Canonne–Kamath–Steinke (and Bun–Steinke).
#pragma once

#include "core/accounting/event.h"
#include "core/accounting/strategy.h"

#include <memory>

namespace pbx::accounting {

/// zCDP accounting (Bun & Steinke 2016, arXiv 1605.02065): per event ρ — Gaussian Δ²/(2σ²)
/// (Prop. 1.6); zCDP events ρ; pure / randomized response / Laplace (ε₀ = Δ/b) the tight
/// ρ = ε·tanh(ε/2) of the ε-DP guarantee after amplification (Steinke 2022); composition adds ρ
/// (Lemma 2.3). Conversion: tight CKS20 (reported), Bun–Steinke ρ + 2√(ρ log 1/δ) as detail.
/// Not applicable (Unsupported): (ε, δ) events with δ > 0, subsampled Gaussian / zCDP events.
class ZcdpAccountant final : public CompositionStrategy
{
public:
    static Result<std::unique_ptr<ZcdpAccountant>> fromLedger(const Ledger &ledger);

    std::string name() const override { return "zcdp"; }
    Result<StrategyAnswer> epsilonForDelta(double delta) const override;
    Result<StrategyAnswer> deltaForEpsilon(double epsilon) const override;

    double rho() const { return m_rho; }

private:
    double m_rho = 0.0;
};

/// ρ of one step of the event (see ZcdpAccountant), rounded up. Errors: Unsupported, with reason.
Result<double> zcdpRhoPerStep(const PrivacyEvent &event, Neighbouring relation);

} // namespace pbx::accounting
