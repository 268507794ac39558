// SPDX-License-Identifier: MIT
// The ODP filter: sequential composition with a-posteriori ε debits (Hartmann, Bindschaedler,
// Bentkamp & West, PoPETs 2023, Algorithm 1 and Theorem 7; Appendix A's filter form). Derivation
// and protocol in docs/output-dp.md.
#pragma once

#include "core/filters/budget_account.h"
#include "core/privacy/odp_guarantee.h"

#include <optional>
#include <string>
#include <vector>

namespace pbx::odp {

/// One step of the filter's history, for transcripts and charts.
struct OdpFilterEntry
{
    int id = 0;                   ///< 1-based request number
    std::string label;            ///< e.g. "sparse vector"
    double reservedEpsilon = 0.0; ///< E* held at admission
    double delta = 0.0;           ///< δ debited at admission, in full
    std::optional<int> cell;      ///< the realised cell (unset while open, or for a worst-case settle)
    double settledEpsilon = 0.0;  ///< E(cell) debited at settlement (E* when settled at the worst case)
    bool open = true;
};

/// Budget (ε_g, δ_g). A mechanism with guarantee (E, δ) is admitted iff
/// Σ settled + E* ≤ ε_g and Σ δ + δ ≤ δ_g (rule R1, admission by the worst case); δ is debited in
/// full at admission (R2: the δ of a mechanism is spent when it runs, whatever its output); at
/// settlement the realised cell's E is debited and the rest of the reservation released. While a
/// mechanism is open every other request is refused (R4: Theorem 7 composes sequentially).
/// By Theorem 7 the whole interaction is (ε_g, δ_g)-DP; the realised spend is an a-posteriori
/// quantity, not a DP level of the transcript (R6). Arithmetic uses filters::BudgetAccount
/// (charges rounded up, remainders rounded down), so the budget is never exceeded.
class OdpFilter
{
public:
    /// Valid: ε_g > 0 finite, δ_g ∈ [0, 1). Errors: InvalidArgument naming "epsilon" or "delta".
    static Result<OdpFilter> create(double epsilon, double delta);

    /// Admission test alone (rules R1 and R4), debiting nothing: succeeds iff reserve() would.
    /// Errors: as reserve().
    Result<void> admits(const OdpGuarantee &guarantee) const;

    /// Admission and reservation. Returns the request id (1, 2, …).
    /// Errors (nothing is debited): InvalidArgument for an invalid guarantee; Unsupported
    /// ("sparse vector #3 is still open; send STOP first") while another request is open;
    /// BudgetExceeded ("this mechanism needs ε = 0.6 (worst case) but 0.55 remains", or δ).
    Result<int> reserve(const OdpGuarantee &guarantee, const std::string &label);

    /// Settles the open request `id` in the released output's cell: debits E(cell) (rounded up)
    /// and closes it. Returns the ε debited. Errors: InvalidArgument when `id` is not the open
    /// request (settle without reserve, twice); InvalidArgument when `cell` is not one of the
    /// partition's cells — the request is then settled at its worst case (never a refund) and the
    /// error reports it.
    Result<double> settle(int id, int cell);

    /// Settles the open request `id` at its worst case E* (crash recovery, cancel, internal
    /// error). Errors: InvalidArgument when `id` is not the open request.
    Result<double> settleWorstCase(int id);

    /// Convenience for a one-shot mechanism: reserve, then settle in `cell`.
    Result<double> charge(const OdpGuarantee &guarantee, int cell, const std::string &label);

    double epsilonBudget() const { return m_epsilon.budget(); }
    double deltaBudget() const { return m_delta.budget(); }
    /// Σ of the settled costs ("spent a posteriori"); an open reservation is not included.
    double epsilonSpent() const { return m_epsilon.spent(); }
    double deltaSpent() const { return m_delta.spent(); }
    /// ε_g − settled − the open reservation, rounded down, ≥ 0.
    double epsilonRemaining() const;
    double deltaRemaining() const { return m_delta.remaining(); }
    /// The settled-ε and δ accounts (an open reservation is not in the ε account's spend).
    const filters::BudgetAccount &epsilonAccount() const { return m_epsilon; }
    const filters::BudgetAccount &deltaAccount() const { return m_delta; }
    /// The open request's id, if any.
    std::optional<int> openRequest() const;
    const std::vector<OdpFilterEntry> &history() const { return m_history; }

private:
    OdpFilter(double epsilon, double delta) : m_epsilon(epsilon), m_delta(delta) {}
    Result<double> close(std::optional<int> cell, double cost);

    filters::BudgetAccount m_epsilon;
    filters::BudgetAccount m_delta;
    std::vector<OdpFilterEntry> m_history;
    std::vector<OdpGuarantee> m_guarantees; ///< parallel to m_history: fixed at admission (R5)
};

/// A journal record of the filter (written before noise is drawn for `Reserve`, before the output
/// is published for `Settle`).
struct OdpJournalRecord
{
    enum class Kind { Reserve, Settle } kind = Kind::Reserve;
    int id = 0;
    std::string label;
    OdpGuarantee guarantee; ///< Reserve: the full partition
    int cell = 0;           ///< Settle: the realised cell
};

/// Rebuilds a filter from its journal after a crash: every reserve without a settle is charged
/// its worst case (the output may have been drawn; a crash never yields a refund).
/// Errors: InvalidArgument for an inconsistent journal (settle without reserve); the filter's
/// own errors.
Result<OdpFilter> replayJournal(double epsilon, double delta, const std::vector<OdpJournalRecord> &records);

} // namespace pbx::odp
