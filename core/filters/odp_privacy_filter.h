// SPDX-License-Identifier: MIT
// The session's sixth filter, "odp": the ODP filter of Hartmann, Bindschaedler, Bentkamp & West
// (PoPETs 2023, Algorithm 1, Theorem 7) behind the PrivacyFilter interface, so that ordinary
// releases and ODP mechanisms (sparse vector, …) share one (ε_g, δ_g) budget. Derivation and
// protocol in docs/output-dp.md §2 and §8.
#pragma once

#include "core/filters/odp_filter.h"
#include "core/filters/privacy_filter.h"

#include <optional>
#include <string>

namespace pbx::filters {

/// Budget (ε_g, δ_g), with the arithmetic of odp::OdpFilter (admission by the worst case E*,
/// δ debited in full at admission, the realised cell's E debited at settlement; one open
/// mechanism at a time). By Theorem 7 the whole session is (ε_g, δ_g)-DP; the settled sum is an
/// a-posteriori quantity used for admission, not a DP level of the transcript.
///
/// Ordinary charges enter as one-shot ODP mechanisms:
/// - PureEpsilon ε (Laplace, Laplace doubling, strategies): the trivial guarantee (E ≡ ε, δ = 0)
///   of Lemma 3;
/// - ExPost increments (Laplace or Brownian noise reduction): each increment as a one-cell
///   mechanism, its δ with the first. A noise-reduction run charged level by level is one ODP
///   mechanism whose cells are its stopping levels (ex-post privacy implies ODP,
///   docs/output-dp.md §1), its grid truncated at admission to what remains, so the sequence of
///   increments is admitted and debited exactly as reserve(E* of the truncated grid) then
///   settle(level) would be;
/// - Rho is refused (Unsupported): a ρ charge has no ODP cost; Theorem 7 composes (E, δ) costs,
///   and realised ODP debits must not be mixed with zCDP composition across mechanisms.
class OdpPrivacyFilter final : public PrivacyFilter
{
public:
    /// Valid: ε > 0 finite, δ ∈ [0, 1). Errors: InvalidArgument naming "epsilon" or "delta".
    static Result<std::unique_ptr<OdpPrivacyFilter>> create(double epsilon, double delta);

    FilterKind kind() const override { return FilterKind::Odp; }
    std::vector<BudgetSystem> systems() const override;
    /// The settled ε (a posteriori, rounded up) and the δ debited in full.
    double epsilonSpent() const override { return m_odp.epsilonSpent(); }
    double deltaSpent() const override { return m_odp.deltaSpent(); }
    ChargeKind primaryKind() const override { return ChargeKind::ExPost; }
    const BudgetAccount &primary() const override { return m_odp.epsilonAccount(); }
    double epsilonOf(double native) const override { return native; }
    /// ε still admissible (0 for ρ, and 0 while a mechanism is open), rounded down.
    double remainingFor(ChargeKind kind) const override;
    double remainingExPostDelta() const override;
    double expostDeltaBudget() const override { return m_odp.deltaBudget(); }

    /// Admission and reservation of an ODP mechanism with its full partition, before any noise is
    /// drawn (rules R1, R2, R4, R5 of docs/output-dp.md §2). Returns the request id (1, 2, …;
    /// ordinary charges take ids too). Errors (nothing debited): InvalidArgument for an invalid
    /// guarantee; Unsupported while another mechanism is open; BudgetExceeded when E* or δ does
    /// not fit ("this mechanism needs ε = 0.6 (worst case) but 0.55 remains").
    Result<int> reserve(const odp::OdpGuarantee &guarantee, const std::string &label);
    /// Settles the open mechanism `id` in the released output's cell: debits E(cell) rounded up and
    /// returns it. Errors: InvalidArgument when `id` is not open, or when `cell` is not in the
    /// partition (then charged its worst case, never a refund).
    Result<double> settle(int id, int cell);
    /// Settles the open mechanism at its worst case E* (a crash, a cancelled or failed run).
    /// Errors: InvalidArgument when `id` is not open.
    Result<double> settleWorstCase(int id);
    /// The open mechanism's id, if any.
    std::optional<int> openRequest() const { return m_odp.openRequest(); }
    /// The underlying filter, with its history (for transcripts and charts).
    const odp::OdpFilter &odp() const { return m_odp; }

protected:
    Result<void> check(const Charge &charge) const override;
    void apply(const Charge &charge) override;

private:
    OdpPrivacyFilter(double epsilon, double delta, odp::OdpFilter filter)
        : PrivacyFilter(epsilon, delta), m_odp(std::move(filter))
    {}
    odp::OdpFilter m_odp;
};

} // namespace pbx::filters
