// SPDX-License-Identifier: MIT
// iReduct (Xiao, Bender, Hay & Gehrke, "iReduct: Differential Privacy with Reduced Relative
// Errors", SIGMOD 2011) as the batch baseline of the relative-error lab: a batch of counts fixed
// in advance starts with large Laplace noise; round after round the noise of the counts whose
// relative error is not yet certified is reduced by Laplace noise reduction (the "correlated
// noise" resampling), while the batch's generalised sensitivity stays within ε; it stops when all
// counts are good or no count's noise can be reduced any more. Rogers et al. ("A New Privacy
// Framework for Accuracy-First", 2023, §1) name its two failure modes: a batch chosen too small
// leaves budget unused, one chosen too large leaves counts uncertified. pbx's reconstruction of
// the details the sources leave open (step, selection rule, sanity floor) is in
// docs/accuracy-first.md, "iReduct".
#pragma once

#include "core/mechanisms/noise_source.h"
#include "core/util/result.h"

#include <cstddef>
#include <vector>

namespace pbx::simulation {

/// How a person can touch the counts of the batch: the generalised sensitivity GS(Λ) =
/// max over neighbours of Σ_i |q_i(D) − q_i(D')| / λ_i (Xiao et al. 2011, §3) for counts.
enum class IReductOverlap {
    Overlapping,         ///< a person may be in every count: GS = Σ_i 1/λ_i
    PartitionAddRemove,  ///< disjoint counts (a histogram), add/remove: GS = max_i 1/λ_i
    PartitionReplaceOne, ///< disjoint counts, replace-one: the two largest 1/λ_i added
};

/// The largest step γ accepted: each count's scale can shrink at most ln(ε·λ_max)/ln(1/γ) times,
/// so γ close to 1 makes the number of rounds explode (0.99: about 100 rounds per factor e).
inline constexpr double kIReductLargestStep = 0.99;

struct IReductSettings
{
    double epsilon = 1.0; ///< the batch's total budget (pure ε, nats); > 0 finite
    double alpha = 0.1;   ///< target relative error r; > 0
    double beta = 0.05;   ///< miss probability of each accuracy check, in (0, 1)
    /// λ_max, the first round's Laplace scale for every count (query units); 0: 10·m/ε, so that
    /// the first round spends a tenth of ε whatever the batch size m.
    double startScale = 0.0;
    double step = 0.9;  ///< γ in (0, kIReductLargestStep]: a reduced count's scale is multiplied by γ
    double floor = 1.0; ///< sanity floor s > 0 of the relative-error estimate's denominator
    IReductOverlap overlap = IReductOverlap::Overlapping;
    /// Errors: InvalidArgument naming the field.
    Result<void> validate() const;
};

enum class IReductStop {
    AllGood,         ///< every count certified: budget may be left over (the batch was too small)
    BudgetExhausted, ///< some count uncertified and no scale can shrink within ε (too large)
};

struct IReductRun
{
    std::vector<double> released; ///< y_i = q_i + η_i after the last round (query units)
    std::vector<double> scales;   ///< λ_i after the last round, as drawn (rounded up)
    std::vector<double> epsilons; ///< each count's ex-post loss 1/λ_i at its last level (nats)
    std::vector<bool> good;       ///< certified within α from released values alone
    IReductStop stop = IReductStop::AllGood;
    double epsilonSpent = 0.0; ///< GS(Λ_final), rounded up; ≤ settings.epsilon
    int rounds = 0;
};

/// Whether a released count y at Laplace scale λ is certified within relative error α at miss
/// probability β, from y alone (docs/accuracy-first.md, the noisy-only test): with the half-width
/// w = λ·ln(1/β), y − w > 0 and w ≤ α·(y − w).
bool isCertifiedCount(double released, double scale, double alpha, double beta);

/// Runs iReduct on the batch `counts` (true values, sensitivity 1 each). Round 1 draws every count
/// at λ_max; each later round takes the uncertified counts not yet stuck, worst estimated relative
/// error w_i / max(y_i − w_i, s) first, and multiplies each one's λ by γ if GS stays ≤ ε, else marks
/// it stuck; the reduced counts' noise moves by the forward Laplace noise-reduction step (Koufogiannis
/// et al.; mechanisms::LaplaceNoiseReduction). Privacy: each count's released sequence costs its last
/// level 1/λ_i (pointwise ex-post loss), the levels move only while GS ≤ ε and only on released values,
/// so the run is ε-DP and its realised loss is GS(Λ_final). Valid: counts non-empty and finite,
/// settings valid, GS(λ_max) ≤ ε. Errors: InvalidArgument naming the field (for λ_max too small, the
/// smallest λ_max that fits); Io when the noise source fails.
Result<IReductRun> runIReduct(const std::vector<double> &counts, const IReductSettings &settings,
                              mechanisms::NoiseSource &noise);

} // namespace pbx::simulation
