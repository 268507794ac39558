// SPDX-License-Identifier: MIT
// Output-DP mechanisms as session requests (`"mechanism": "svt" | "ptr-iqr" | "early-stop" |
// "recover"` in run files) and what their ledger events record: the reservation, the realised
// cell, the released output and the settled cost (Hartmann, Bindschaedler, Bentkamp & West,
// PoPETs 2023, Algorithm 1; docs/output-dp.md §2 and §8).
#pragma once

#include "core/privacy/odp_guarantee.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
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

/// A propose-test-release request: the two-discretisation IQR mechanism S on a numeric column
/// with declared bounds (Hartmann et al. Definition 9 and Lemma 10; Dwork & Lei 2009), accounted
/// as one ODP mechanism with three cells (case 1: M₁ released, ε + ε_R; case 2: M₂ released,
/// 2ε + ε_R; case 3: both ⊥, 2ε; δ = 2δ_f by Lemma 6), followed by the median by the exponential
/// mechanism, with ε_med plus, when spend_savings is set, what the realised case saved against
/// the worst case (docs/output-dp.md §4). Needs the replace-one relation (n public). The
/// parameters are those of `pbx-cli odp iqr`.
struct PtrIqrRequestSpec
{
    std::string column = "wage";
    double epsilon = 0.0;             ///< ε per PTR function, > 0
    double failureProbability = 1e-7; ///< δ_f ∈ (0, ½) ("delta_f"); 2δ_f fits the default δ = 1e-6
    double width = 0.0;               ///< log-scale bin width w > 0; 0 = ln(1 + 1/ln n)
    bool binMode = false;             ///< "mode": "noisy" (ε_R = ε) or "bin" (ε_R = 0)
    bool randomOrder = true;          ///< "order": "random" (a public coin) or "fixed"
    double medianEpsilon = 0.0;       ///< ε_med ≥ 0 of the median ("median_epsilon")
    bool spendSavings = true;         ///< the median also gets E* − E_S(case) ("spend_savings")
};

/// An early-stopped iterative mechanism: an iterative noisy mean. Step i releases
/// y_i = mean(column clipped to [lo, hi]) + Lap(Δ/ε₀), Δ = (hi − lo)/n (replace-one, n public);
/// the estimate is the running average ȳ_k. At each stopping point k_j before the last it halts
/// iff 2·√2·(Δ/ε₀)/√k_j ≤ tolerance·|ȳ_{k_j}| (two standard deviations of the averaged noise
/// within `tolerance` of the estimate): a rule on the released iterates only. Cell j = stopped at
/// k_j costs E_j = C(k_j, δ'_j) by Lemma 11 (Hartmann et al.) under composition C ∈ {basic, kov,
/// exact}; δ = Σ δ'_j (docs/output-dp.md §5).
struct EarlyStopRequestSpec
{
    std::string column = "wage";
    double stepEpsilon = 0.0;        ///< ε₀ of each step, > 0 ("step_epsilon")
    std::vector<std::int64_t> stops; ///< k_1 < … < k_m, k_1 ≥ 1, k_m ≤ 10⁴
    std::string composition = "kov"; ///< "basic", "kov" or "exact"
    double delta = 0.0;              ///< δ of the whole plan; kov/exact need δ ∈ (0, 1)
    bool proportionalSplit = false;  ///< "delta_split": "equal" (δ/m) or "proportional" (∝ k_j)
    double tolerance = 0.05;         ///< relative half-width that stops the run, > 0
};

/// Budget recovery (Hartmann et al. Algorithm 5, Theorem 17): ℓ2-regularised logistic regression
/// trained by output perturbation on the rows with i mod 5 ≠ 4, tested privately on the rows with
/// i mod 5 = 4 and released only if the noisy test error is ≤ τ. Label y = +1 iff
/// label_column > label_threshold; features: each numeric column scaled to [0, 1] by its declared
/// bounds, each categorical column one-hot, with an intercept, the row divided by √(1 + #columns)
/// so that ‖x‖₂ ≤ 1. Cells 0 = ⊥ and 1 = released (docs/output-dp.md §6). Replace-one only.
struct RecoverRequestSpec
{
    std::string labelColumn = "wage";  ///< numeric ("label_column")
    double labelThreshold = 0.0;       ///< finite ("label_threshold")
    std::vector<std::string> features; ///< at least one column, not the label ("features")
    double lambda = 0.01;              ///< Λ > 0
    double epsilonModel = 2.0;         ///< ε_p > 0 ("epsilon_model")
    double epsilonTest = 0.5;          ///< ε_t > 0 ("epsilon_test")
    double tau = 0.49;                 ///< τ ∈ [0, 1]
};

/// The output-DP mechanisms a session runs (the request's "mechanism").
enum class OdpMechanism { Svt, PtrIqr, EarlyStop, Recover };
std::string_view odpMechanismName(OdpMechanism mechanism); ///< "svt", "ptr-iqr", "early-stop", "recover"
/// The mechanism odpMechanismName gives `name`; unset for any other text.
std::optional<OdpMechanism> odpMechanismFromName(std::string_view name);

/// Which ODP mechanism a request runs, and its parameters (only the named one is meaningful).
struct OdpRequestSpec
{
    OdpMechanism mechanism = OdpMechanism::Svt;
    SvtRequestSpec svt;
    PtrIqrRequestSpec ptrIqr;
    EarlyStopRequestSpec earlyStop;
    RecoverRequestSpec recover;
};

/// What a ptr-iqr request released. The test statistics γ are data-dependent and NOT recorded.
struct PtrIqrOutput
{
    double width = 0.0;              ///< w used
    double threshold = 0.0;          ///< t of the tests
    double failureProbability = 0.0; ///< δ_f recomputed from t, rounded up
    double offsets[2] = {0.0, 0.5};  ///< in the order run (the public coin)
    int outcome = 3;                 ///< the case: 1, 2 or 3 (the cell)
    std::optional<double> iqr;       ///< the IQR estimate (cases 1, 2)
    double medianEpsilon = 0.0;      ///< ε of the median in this case (0: not run)
    std::optional<double> median;    ///< the median, a point of the public grid
};

/// What an early-stop request released: every iterate (its length is the cell).
struct EarlyStopOutput
{
    std::vector<double> iterates; ///< y_1 … y_k
    double estimate = 0.0;        ///< ȳ_k
    double noiseScale = 0.0;      ///< Laplace scale Δ/ε₀ of each step
};

/// What a recover request released: the noisy test error in both cells, the model if released.
struct RecoveryOutput
{
    bool released = false;
    std::vector<double> theta; ///< θ̃ (empty in cell ⊥)
    double noisyError = 0.0;   ///< ẽ
    double testNoise = 0.0;    ///< s, the test's Laplace scale
    std::size_t trainRows = 0;
    std::size_t testRows = 0;
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
    double epsilon1 = 0.0;       ///< svt: the parameters used (after the split); 0 otherwise
    double epsilon2 = 0.0;
    std::vector<bool> answers; ///< the released ⊤/⊥ answers, in query order
    std::vector<OdpReleasedEntry> releases;
    double releaseScale = 0.0; ///< discrete Laplace scale of the releases (0 when j = 0)
    /// The other mechanisms' outputs (set for the request's mechanism once settled in a cell).
    std::optional<PtrIqrOutput> ptrIqr;
    std::optional<EarlyStopOutput> earlyStop;
    std::optional<RecoveryOutput> recovery;
};

} // namespace pbx::session
