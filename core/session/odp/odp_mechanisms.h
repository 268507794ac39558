// SPDX-License-Identifier: MIT
// The output-DP request types besides the sparse vector, as session requests: for each, its
// partition (fixed from the parameters before any noise is drawn), the checks run before anything
// is spent, the run that fills the record and returns the realised cell, and the audit that
// recomputes that cell from the released output (Hartmann, Bindschaedler, Bentkamp & West,
// PoPETs 2023: Lemma 10 for ptr-iqr, Lemma 11 for early-stop, Theorem 17 for recover;
// docs/output-dp.md §4–§6 and §8).
#pragma once

#include "core/data/rows.h"
#include "core/data/sensitivity.h"
#include "core/data/table.h"
#include "core/mechanisms/random_bits.h"
#include "core/privacy/odp_guarantee.h"
#include "core/session/odp/odp_request.h"
#include "core/util/try.h"

#include <string>
#include <vector>

namespace pbx::session {

/// A numeric column clipped to its declared bounds: the values, lo, hi and the row count n.
struct BoundedColumn
{
    std::vector<double> values; ///< empty from boundedColumnShape
    double lo = 0.0;
    double hi = 0.0;
    std::size_t rows = 0; ///< n, public (the table's row count)
};
/// lo, hi and n from metadata alone (no row is read; values empty): what checks and audits use.
/// Errors: NotFound ("column: unknown column 'x'"); InvalidArgument when the column is not numeric
/// or has no valid declared bounds. `field` names the request field ("column").
Result<BoundedColumn> boundedColumnShape(const data::Table &table, const std::string &name,
                                         const std::string &field);
/// boundedColumnShape with the values, each clipped to [lo, hi]; a missing value counts as lo (a
/// public rule: refusing would tell that some row is missing, and n stays the public row count).
/// Errors: as boundedColumnShape.
Result<BoundedColumn> boundedColumn(const data::Rows &rows, const std::string &name,
                                    const std::string &field);

/// Unsupported unless the relation is replace-one: these mechanisms need n public (PTR's quartile
/// ranks, the mean's sensitivity (hi − lo)/n, the test error's 1/m). `mechanism` names the request.
Result<void> requireReplaceOne(data::Neighbouring neighbours, const std::string &mechanism);

// --- ptr-iqr (odp_ptr_request.cpp) ---

/// The three cells: 1 = M₁ released (ε + ε_R), 2 = M₂ released (2ε + ε_R), 3 = both ⊥ (2ε)
/// (Lemma 6 over S's three outcomes), each plus the median's ε in that case (ε_med, plus
/// E*_S − E_S(case) when spend_savings is set), rounded up; δ = 2δ_f with δ_f recomputed from the
/// test threshold and rounded up. Errors (InvalidArgument naming the field): epsilon not finite
/// > 0; delta_f ∉ (0, ½); width < 0 or not finite; median_epsilon < 0, not finite, or in (0, 2⁻²⁰).
Result<odp::OdpGuarantee> ptrIqrRequestGuarantee(const PtrIqrRequestSpec &spec);
/// The median's ε in case `outcome` (1–3). Precondition: a valid spec.
double ptrIqrMedianEpsilon(const PtrIqrRequestSpec &spec, int outcome);
/// Errors: as ptrIqrRequestGuarantee and boundedColumn; n < 4.
Result<void> checkPtrIqrRequest(const PtrIqrRequestSpec &spec, const data::Table &table);
/// Runs S, then the median on the grid of 1001 equally spaced points over [lo, hi]; fills
/// record.ptrIqr and returns the cell (the case). Errors: as checkPtrIqrRequest; the source's.
Result<int> runPtrIqrRequest(const PtrIqrRequestSpec &spec, const data::Rows &table,
                             mechanisms::RandomBits &bits, OdpRecord &record);
/// Checks a settled record against its parameters (cell = the recorded case, an IQR iff case 1 or 2,
/// w, t, δ_f, offsets, a bin-mode IQR on its bin's midpoint, the median's ε and grid point). Errors:
/// a message saying what differs (the caller prefixes the event).
Result<void> auditPtrIqrOutput(const PtrIqrRequestSpec &spec, const OdpRecord &record,
                               const data::Table &table);

// --- early-stop (odp_early_stop_request.cpp) ---

/// Lemma 11: cell j (0-based) = stopped at k_{j+1}, E_j = C(k_{j+1}, δ'_j) rounded up; δ = Σ δ'_j.
/// Errors (InvalidArgument naming the field): step_epsilon not finite > 0; stops empty, not
/// increasing, k₁ < 1 or k_m > 10⁴; composition unknown; delta outside (0, 1) for kov and exact
/// (basic composition of pure steps needs none); tolerance not finite > 0.
Result<odp::OdpGuarantee> earlyStopRequestGuarantee(const EarlyStopRequestSpec &spec);
/// Errors: as earlyStopRequestGuarantee and boundedColumn; an empty column.
Result<void> checkEarlyStopRequest(const EarlyStopRequestSpec &spec, const data::Table &table);
/// True when the stopping rule halts after the iterates y_1..y_k (k ≥ 1): 2√2·b/√k ≤ tol·|ȳ_k|.
bool earlyStopHalts(const std::vector<double> &iterates, std::size_t k, double noiseScale, double tolerance);
/// Runs the iterations, halting at the first stopping point where earlyStopHalts; fills
/// record.earlyStop and returns the cell. Errors: as checkEarlyStopRequest; the source's.
Result<int> runEarlyStopRequest(const EarlyStopRequestSpec &spec, const data::Rows &table,
                                mechanisms::RandomBits &bits, OdpRecord &record);
/// Replays the stopping rule on the recorded iterates: the run continued at every earlier
/// stopping point and halted at the recorded one (or ran to k_m); the estimate is their mean and
/// the scale is Δ/ε₀. Errors: a message saying what differs.
Result<void> auditEarlyStopOutput(const EarlyStopRequestSpec &spec, const OdpRecord &record,
                                  const data::Table &table);

// --- recover (odp_recover_request.cpp) ---

/// Cells 0 = ⊥ and 1 = released with the costs of Theorem 17 for the split of `table`.
/// Errors: as checkRecoverRequest.
Result<odp::OdpGuarantee> recoverRequestGuarantee(const RecoverRequestSpec &spec, const data::Table &table);
/// Errors (InvalidArgument or NotFound naming the field): label_column unknown or not numeric;
/// label_threshold not finite; features empty, unknown, repeated, the label, numeric without
/// declared bounds, or categorical with categories inferred from the data (θ's length would
/// depend on the rows); lambda, epsilon_model, epsilon_test not finite > 0; tau ∉ [0, 1]; an empty
/// train or test part ("empty split": fewer than 5 rows).
Result<void> checkRecoverRequest(const RecoverRequestSpec &spec, const data::Table &table);
/// Algorithm 5; fills record.recovery and returns the cell. Errors: as checkRecoverRequest.
Result<int> runRecoverRequest(const RecoverRequestSpec &spec, const data::Rows &table,
                              mechanisms::RandomBits &bits, OdpRecord &record);
/// Checks a settled record: θ̃ present iff released, of the features' dimension; the split sizes and
/// the test noise s recomputed. Errors: a message saying what differs.
Result<void> auditRecoverOutput(const RecoverRequestSpec &spec, const OdpRecord &record,
                                const data::Table &table);

} // namespace pbx::session
