// SPDX-License-Identifier: MIT
// Output differential privacy (ODP) as a value: a partition of a mechanism's output space into
// cells, the ε charged when the output falls in each cell, and one δ for the whole partition
// (Hartmann, Bindschaedler, Bentkamp & West, "Privacy accounting εconomics: improving differential
// privacy composition via a posteriori bounds", PoPETs 2023, arXiv 2205.03470, Definition 2;
// derivations in docs/output-dp.md).
#pragma once

#include "core/util/result.h"

#include <string>
#include <vector>

namespace pbx::odp {

/// One cell Y_id of the partition and its cost E(Y_id) in ε units (≥ 0, finite).
struct OdpCell
{
    int id = 0;
    std::string label;
    double epsilon = 0.0;
};

/// An (E, δ)-ODP guarantee: for all neighbours D ~ D' and all S,
///   P[M(D) ∈ S] ≤ Σ_i e^{E(Y_i)} P[M(D') ∈ S ∩ Y_i] + δ   (Hartmann et al. Definition 2).
/// The cells must be computable from the released output alone (docs/output-dp.md, rule R3).
struct OdpGuarantee
{
    std::vector<OdpCell> cells;
    double delta = 0.0; ///< one δ for all cells together, in [0, 1)

    /// E* = max over the cells of E(Y_i), the worst case (0 for an invalid, empty guarantee).
    double worstEpsilon() const;
    /// The cell with this id, or nullptr.
    const OdpCell *cell(int id) const;
    /// Errors (InvalidArgument, naming the field): no cells; an ε negative, NaN or infinite;
    /// δ outside [0, 1) or NaN; duplicated ids.
    Result<void> validate() const;
};

/// Lemma 3 (DP ⇒ ODP, Hartmann et al.): an (ε, δ)-DP mechanism is (E ≡ ε, δ)-ODP for every
/// partition; here with the single cell {0, "any output"}. Valid: ε ≥ 0 finite, δ ∈ [0, 1).
/// Errors: InvalidArgument naming "epsilon" or "delta".
Result<OdpGuarantee> trivialGuarantee(double epsilon, double delta);

/// Lemma 4 (ODP ⇒ DP, Hartmann et al.): an (E, δ)-ODP mechanism is (E*, δ)-DP. Returns
/// {E*, δ}. Errors: as validate().
struct DpGuarantee
{
    double epsilon = 0.0;
    double delta = 0.0;
};
Result<DpGuarantee> toDp(const OdpGuarantee &guarantee);

/// One cell's subset-DP guarantee (Hartmann et al. Definition 5): (ε, δ)-DP for events inside
/// the cell only.
struct SubsetDpCell
{
    int id = 0;
    std::string label;
    double epsilon = 0.0;
    double delta = 0.0;
};

/// Lemma 6 (subset DP ⇒ ODP, Hartmann et al.): cells that are each (ε_i, δ_i)-subset-DP make an
/// (E: Y_i ↦ ε_i, δ = Σ δ_i)-ODP mechanism. The sum is necessary (docs/output-dp.md gives a
/// two-cell mechanism needing exactly δ₁ + δ₂); it is accumulated rounded up, and a sum ≥ 1 is
/// reported as an error. Errors: InvalidArgument (empty list, bad ε
/// or δ_i, duplicated ids, Σ δ_i ≥ 1).
Result<OdpGuarantee> fromSubsetDp(const std::vector<SubsetDpCell> &cells);

} // namespace pbx::odp
