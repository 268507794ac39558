// SPDX-License-Identifier: MIT
#pragma once

#include "core/filters/privacy_filter.h"

namespace pbx::filters {

/// Ex-post privacy filter (Rogers, Samorodnitsky, Wu, Ramdas 2023, Lemma 5.2; derived in
/// docs/accuracy-first.md §4.2). Budget (ε_e, δ_e). With S the realised ex-post loss so far and D the
/// δs so far, mechanism i may run only if S + Ē_i ≤ ε_e and D + δ_i ≤ δ_e, where Ē_i is its largest
/// possible loss; it is then debited its realised loss E_i(y_i), and the interaction is
/// (ε_e, δ_e)-DP (basic composition of ex-post privacy, Lemma 5.1, plus a union bound).
///
/// Noise reduction fits this rule by truncating its grid: each level is charged its loss
/// increment before it is released, so every level it reaches has S + E(level) ≤ ε_e, and the
/// total charged is the loss at the stopping level. A mechanism's δ_i is paid with its first
/// charge. Pure ε-DP releases are the constant-E special case.
class ExPostFilter final : public PrivacyFilter
{
public:
    /// Precondition: ε > 0 finite, 0 ≤ δ < 1 (checked by PrivacyFilter::create).
    ExPostFilter(double epsilon, double delta)
        : PrivacyFilter(epsilon, delta), m_loss(epsilon), m_delta(delta)
    {}

    const BudgetAccount &primary() const override { return m_loss; }
    FilterKind kind() const override { return FilterKind::ExPost; }
    std::vector<BudgetSystem> systems() const override;
    double epsilonSpent() const override { return m_loss.spent(); }
    double deltaSpent() const override { return m_delta.spent(); }
    ChargeKind primaryKind() const override { return ChargeKind::ExPost; }
    double epsilonOf(double native) const override { return native; }
    double remainingFor(ChargeKind kind) const override
    {
        return kind == ChargeKind::Rho ? 0.0 : m_loss.remaining();
    }
    double remainingExPostDelta() const override { return m_delta.remaining(); }
    double expostDeltaBudget() const override { return m_delta.budget(); }

protected:
    Result<void> check(const Charge &charge) const override;
    void apply(const Charge &charge) override;

private:
    BudgetAccount m_loss;  ///< S, the realised ex-post loss
    BudgetAccount m_delta; ///< D, the δs of the mechanisms run
};

} // namespace pbx::filters
