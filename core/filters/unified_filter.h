// SPDX-License-Identifier: MIT
#pragma once

#include "core/filters/expost_filter.h"
#include "core/filters/zcdp_filter.h"

namespace pbx::filters {

/// The unified filter (Rogers et al. 2023, Theorem 3; derived in docs/accuracy-first.md §4.3). The
/// budget is split in advance, ε = ε_z + ε_e and δ = δ_z + δ_e, into a zCDP sub-filter
/// (ρ(ε_z, δ_z); Gaussian releases, pure releases as ε²/2) and an ex-post sub-filter (ε_e, δ_e;
/// noise reduction) running concurrently. A charge is admitted only if its own sub-filter admits
/// it; the two never borrow from each other. Concurrent composition (Vadhan & Wang 2021; Lyu
/// 2022), or a union bound P(L_z + L_e > ε_z + ε_e) ≤ P(L_z > ε_z) + P(L_e > ε_e), gives (ε, δ)-DP.
class UnifiedFilter final : public PrivacyFilter
{
public:
    /// Errors: InvalidArgument for invalid (ε, δ) or split (each side needs a share in (0, 1)).
    static Result<std::unique_ptr<UnifiedFilter>> create(double epsilon, double delta, FilterSplit split);

    const BudgetAccount &primary() const override;
    FilterKind kind() const override { return FilterKind::Unified; }
    std::vector<BudgetSystem> systems() const override;
    double epsilonSpent() const override;
    double deltaSpent() const override;
    ChargeKind primaryKind() const override { return ChargeKind::Rho; }
    double epsilonOf(double rho) const override { return m_zcdp->epsilonOf(rho); }
    double remainingFor(ChargeKind kind) const override { return sideFor(kind).remainingFor(kind); }
    double remainingExPostDelta() const override { return m_expost->remainingExPostDelta(); }
    double expostDeltaBudget() const override { return m_expost->expostDeltaBudget(); }

    const ZcdpFilter &zcdpSide() const { return *m_zcdp; }
    const ExPostFilter &expostSide() const { return *m_expost; }

protected:
    Result<void> check(const Charge &charge) const override;
    /// ρ = count·ε²/8 (boundedRangeRho).
    Charge boundedRangeAs(const Charge &charge) const override { return boundedRangeRho(charge); }
    void apply(const Charge &charge) override;

private:
    UnifiedFilter(double epsilon, double delta, std::unique_ptr<ZcdpFilter> zcdp,
                  std::unique_ptr<ExPostFilter> expost)
        : PrivacyFilter(epsilon, delta), m_zcdp(std::move(zcdp)), m_expost(std::move(expost))
    {}
    PrivacyFilter &sideFor(ChargeKind kind) const;

    std::unique_ptr<ZcdpFilter> m_zcdp;
    std::unique_ptr<ExPostFilter> m_expost;
};

} // namespace pbx::filters
