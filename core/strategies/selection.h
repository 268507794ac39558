// SPDX-License-Identifier: MIT
// Private selection: the most frequent category of a column (its mode) or its top k, by the
// exponential mechanism or report-noisy-max with exponential noise, sampled exactly. Derivations:
// docs/selection.md.
#pragma once

#include "core/data/sensitivity.h"
#include "core/mechanisms/random_bits.h"
#include "core/util/result.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace pbx::strategies {

/// How a selection picks among candidates with counts c_j (utility c_j, sensitivity 1).
enum class SelectionMechanism {
    /// The exponential mechanism (McSherry & Talwar 2007), P(j) ∝ exp(η·c_j): ε-DP and
    /// ε-bounded-range (Durfee & Rogers 2019), so a zCDP filter charges ρ = ε²/8 (Cesar & Rogers
    /// 2021). Equal in distribution to Gumbel-max, argmax_j(η·c_j + G_j).
    Exponential,
    /// Report-noisy-max with exponential noise, argmax_j(c_j + Z_j), Z_j ~ Exponential(scale 1/η),
    /// sampled as permute-and-flip (McKenna & Sheldon 2020; the two are equal in distribution:
    /// Ding et al. 2021): ε-DP, not bounded-range, so a zCDP filter charges ε²/2.
    ReportNoisyMax,
};

/// "exponential" or "report-noisy-max".
std::string_view selectionMechanismName(SelectionMechanism mechanism);
std::optional<SelectionMechanism> parseSelectionMechanism(std::string_view text);

/// Largest number of candidates a selection takes (the histogram's cell limit).
inline constexpr std::size_t kMaxSelectionCandidates = 65'536;
/// Largest number of picks (k of a top-k).
inline constexpr std::size_t kMaxSelectionPicks = 64;

/// The exponent weight η of one ε-DP pick: ε under add/remove (a neighbour moves one count, all
/// utilities move the same way: the monotone case) and ε/2 under replace-one (two counts move in
/// opposite directions) — for both mechanisms (docs/selection.md §2). Valid: ε > 0.
double selectionEta(double epsilon, data::Neighbouring neighbours);

/// With probability ≥ 1 − β, every one of `picks` picks (peeling: each from the candidates not
/// yet picked) has a count within this many rows of the largest count left, so the i-th pick's
/// count is ≥ the i-th largest count minus the bound. Union bound over the picks (β/k each) and
/// the losing candidates: exponential mechanism ln(m·k/β)/η (McSherry & Talwar 2007, Thm 6);
/// report-noisy-max with exponential noise ln(max(m − 1, 1)·k/β)/η (a candidate short by t wins
/// only if its noise exceeds t). Units: rows. Valid: η > 0, 0 < β < 1, m ≥ 2, k ≥ 1.
double selectionGapBound(SelectionMechanism mechanism, double eta, double beta, std::size_t candidates,
                         std::size_t picks);

/// The ε per pick whose selectionGapBound is `gap` rows (η solved, then ε = η or 2η by the
/// relation), rounded up by 1e-9 relative. Valid: gap > 0, 0 < β < 1, m ≥ 2, k ≥ 1.
double selectionEpsilonFor(SelectionMechanism mechanism, double gap, double beta, std::size_t candidates,
                           std::size_t picks, data::Neighbouring neighbours);

/// The exact rational weight the samplers use: η rounded DOWN to a multiple of 2^−32 (a smaller
/// η spends less than the ε charged; the error bar is stated at this η). Errors:
/// InvalidArgument when η < 2^−32 (too small for the exact sampler) or η > 2^20.
Result<std::uint64_t> selectionEtaNumerator(double eta);
/// η of a numerator of selectionEtaNumerator: num·2^−32.
double selectionEtaOf(std::uint64_t numerator);
/// The smallest ε ≥ `epsilon` whose η (selectionEta) is a multiple of 2^−32, so the sampler runs at
/// exactly that η and the count-gap bound solved for the target holds at the η used. Valid: ε > 0.
double selectionEpsilonOnGrid(double epsilon, data::Neighbouring neighbours);

/// Draws `picks` distinct candidates, in pick order, exactly: the exponential mechanism by
/// rejection from the uniform proposal with acceptance exp(−η(c_max − c_j)) (Bernoulli(exp(−γ))
/// of Canonne, Kamath & Steinke 2020; expected ≤ m proposals per pick), report-noisy-max as
/// permute-and-flip (one pass over a uniformly random order). η = numerator·2^−32. Errors:
/// InvalidArgument for no candidates, picks ∉ [1, m] or a negative count; the noise source's error
/// when it fails.
Result<std::vector<std::size_t>> sampleSelection(SelectionMechanism mechanism,
                                                 const std::vector<std::int64_t> &counts,
                                                 std::uint64_t etaNumerator, std::size_t picks,
                                                 mechanisms::RandomBits &bits);

/// The exact probability of each candidate being the (first) pick, for teaching and tests:
/// exponential mechanism softmax(η·c) in log space; report-noisy-max with exponential noise
/// P(j) = ∫_0^{u_j} Π_{i≠j}(1 − u·e^{η(c_i − c_j)}) du (u = e^{−ηZ_j}; u_j = min over i with
/// c_i > c_j of e^{−η(c_i − c_j)}, else 1) by composite Gauss–Legendre quadrature (relative error
/// < 1e-9 in the checked cases). Errors: InvalidArgument for no candidates, η ≤ 0, or more than
/// 2,000 candidates for report-noisy-max (quadratic work).
Result<std::vector<double>> selectionProbabilities(SelectionMechanism mechanism,
                                                   const std::vector<std::int64_t> &counts, double eta);

} // namespace pbx::strategies
