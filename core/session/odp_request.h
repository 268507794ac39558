// SPDX-License-Identifier: MIT
// Output-DP mechanisms as session requests (`"mechanism": "svt"` in run files) and what their
// ledger events record: the reservation, the realised cell and the settled cost (Hartmann,
// Bindschaedler, Bentkamp & West, PoPETs 2023, Algorithm 1; docs/output-dp.md §2 and §8).
#pragma once

#include "core/odp/odp_guarantee.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pbx::session {

/// A sparse-vector request: the counts of `column` (one per category, or per whole number of a
/// numeric column's declared bounds) are scanned in order by AboveThreshold with cut-off c; the
/// j flagged counts are then released with discrete Laplace noise of scale jΔ/(ε − E(j)) (Lyu,
/// Su & Li 2017, Algorithm 1 and §4.1; its ODP cost E(j) = ε₁ + jε₂/c is Hartmann et al. Lemma 8).
/// The parameters are those of `pbx-cli odp svt`.
struct SvtRequestSpec
{
    std::string column = "education";
    std::int64_t threshold = 0; ///< T, a whole number (the counts are integers)
    int cutoff = 1;             ///< c ∈ [1, 10⁶]
    double epsilon = 0.0;       ///< ε of the whole request (SVT and releases), > 0
    double svtShare = 0.5;      ///< ε_SVT = ε·svtShare (Lyu et al.'s split), in (0, 1)
    double sensitivity = 1.0;   ///< Δ of each count: a whole number ≥ 1 (one row moves a count by 1)
    /// Explicit ε₁, ε₂ (both or neither); then ε must exceed ε₁ + ε₂.
    std::optional<double> epsilon1;
    std::optional<double> epsilon2;
};

/// Which ODP mechanism a request runs (only the sparse vector for now).
struct OdpRequestSpec
{
    std::string mechanism = "svt"; ///< "svt"
    SvtRequestSpec svt;
};

/// One flagged entry and its noisy count.
struct OdpReleasedEntry
{
    std::size_t index = 0; ///< position in the column's counts
    std::string label;     ///< the category, or the whole number
    std::int64_t value = 0;
};

/// What an ODP event records: the full partition fixed at admission (rule R5), the reservation
/// (E*, δ), the released output, the cell computed from it (rule R3) and the settled ε.
struct OdpRecord
{
    int reservation = 0;          ///< the filter's request id (1, 2, …)
    odp::OdpGuarantee guarantee;  ///< cells (id = j) with their costs, and δ
    double reservedEpsilon = 0.0; ///< E* = worst case held at admission
    /// The realised cell; unset when the mechanism was settled at its worst case (a crash between
    /// reservation and settlement: the output may have been drawn, so nothing is refunded).
    std::optional<int> cell;
    double settledEpsilon = 0.0; ///< E(cell), or E* when settled at the worst case
    double epsilon1 = 0.0;       ///< the SVT parameters used (after the split)
    double epsilon2 = 0.0;
    std::vector<bool> answers; ///< the released ⊤/⊥ answers, in query order
    std::vector<OdpReleasedEntry> releases;
    double releaseScale = 0.0; ///< discrete Laplace scale of the releases (0 when j = 0)
};

} // namespace pbx::session
