// SPDX-License-Identifier: MIT
// Privacy-loss distributions with finitely many atoms at real losses (not on a grid): the exact
// PLDs of randomized response, pure ε-DP and (ε, δ)-DP steps and of their compositions, at any
// discretisation interval.
#pragma once

#include "core/accounting/pld_pmf.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace pbx::accounting {

/// A PLD with finitely many atoms at arbitrary real losses plus a mass at +∞. A pessimistic one
/// has every loss ≥ and every mass ≥ its exact value (so δ(ε) and ε(δ) are upper bounds, δ being
/// non-decreasing in every loss and mass; docs/pld-numerics.md §1), an optimistic one ≤.
struct AtomPld
{
    std::vector<double> loss; ///< strictly increasing, nats
    std::vector<double> mass; ///< > 0, same length
    double infinityMass = 0.0;
    bool pessimistic = true;
    /// ℓ1 distance bound (masses and p_∞) to the exact PLD: rounding of the masses, truncated tails.
    double errorL1 = 0.0;
    /// Bound on how far any loss was moved from its exact value (up if pessimistic, down if not):
    /// rounding of the sums and merged neighbours. Nats, ≥ 0.
    double lossShift = 0.0;
};

/// Most atoms a composed AtomPld may hold (2^14) and most pairwise products one composition may
/// form (2^20: 16 MiB of pairs); beyond either the PLD accountant rounds the group's atoms, and
/// those of every later group, to its grid once each. Two groups of incommensurate ε₀ and about a
/// hundred steps each stay exact, as do fourteen two-atom steps of distinct ε₀; more fall back
/// after one failed attempt (each group then costs one interval, not one per step).
inline constexpr std::size_t kMaxExactAtoms = 16384;
inline constexpr double kMaxAtomProducts = 1048576.0;

/// The k-fold composition of the (ε, δ)-DP worst-case pair (Kairouz, Oh & Viswanath 2015,
/// Thm 3.3; Murtagh & Vadhan 2016): loss (k − 2i)·ε with mass C(k, i)·p^{k−i}·q^i·(1 − δ)^k,
/// p = 1/(1 + e^{−ε}), q = 1 − p, and +∞ with mass 1 − (1 − δ)^k. Randomized response and pure
/// ε-DP are δ = 0. Computed on the lattice {j·ε} by binary powering with direct convolution
/// (selfComposePmf's sparse route: relative round-off bounded and applied outwards, tails below
/// 1e-40 per product truncated outwards). ε ≥ 0 finite, δ ∈ [0, 1), k ≥ 1. nullopt when the
/// lattice would be wider than the sparse route allows (k ≳ 1.3·10⁶).
std::optional<AtomPld> approxDpAtoms(double epsilon, double delta, std::int64_t k, bool pessimistic);

/// The composition of two independent PLDs of the same kind: every pair of atoms, losses summed
/// (rounded up if pessimistic, down if not), atoms within 1e-12 relative of one another merged
/// into the largest (pessimistic) or smallest (optimistic) of them, masses widened by their
/// round-off bound, tails below 1e-40 truncated outwards. nullopt when the pairs would exceed
/// kMaxAtomProducts or the result kMaxExactAtoms.
std::optional<AtomPld> composeAtoms(const AtomPld &a, const AtomPld &b);

/// δ(ε) = p_∞ + Σ_{ℓ_i > ε} m_i (1 − e^{ε − ℓ_i}), in long double, nudged outwards (up if
/// pessimistic). Any real ε; result in [0, 1].
double atomDeltaForEpsilon(const AtomPld &pld, double epsilon);

/// The smallest ε ≥ 0 with atomDeltaForEpsilon(ε) ≤ δ, solved exactly on each piece
/// (δ = U − e^ε·W between consecutive atoms); +∞ when p_∞ > δ; nudged outwards.
double atomEpsilonForDelta(const AtomPld &pld, double delta);

/// The PLD on the grid {i·d}: each loss rounded up (pessimistic) or down to the grid, errorL1
/// kept. *shift receives the largest move of a loss (≤ d) plus lossShift. Callers check
/// atomGridBins against their limit before calling.
PldPmf atomsToGrid(const AtomPld &pld, double interval, double *shift);

/// Bins atomsToGrid(pld, interval) spans, as a double (no overflow): (ℓ_max − ℓ_min)/d + 2.
double atomGridBins(const AtomPld &pld, double interval);

} // namespace pbx::accounting
