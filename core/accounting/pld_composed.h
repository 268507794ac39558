// SPDX-License-Identifier: MIT
// δ(ε) and ε(δ) of the composition of two discretised PLDs without forming the composition: the
// hockey-stick divergence of a convolution is a correlation of one factor's masses with the other
// factor's δ at the grid points. The comparison's ε(k) curve uses it for its last and largest
// convolution (each prefix's merged Gaussian), one dot product per grid point it looks at instead
// of an FFT of the whole grid.
#pragma once

#include "core/accounting/pld_pmf.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace pbx::accounting {

/// The pessimistic PLD P = X ⊛ Y of two pessimistic PMFs on the same grid, queried without
/// forming it. With F_X(s) = Σ_{i > s} x_i (1 − e^{(s − i)d}) (X's δ at grid point s, finite
/// part; indices absolute) the composition's finite part at grid point t is
/// F_P(t) = Σ_j y_j F_X(t − j) (the loss of a composition is the sum of the losses and the hockey
/// stick is linear in the measure; Dwork & Roth 2014 §3.5), and p_∞ = 1 − (1 − p_∞^X)(1 − p_∞^Y)
/// as composePmf's. F_X is tabulated once, in long double by the downward recurrence of
/// pmfDeltasForEpsilons (sums of non-negative terms, relative error ≤ 8·rows·2⁻⁶⁴), over the grid
/// points the correlation reaches for t ≥ 0; each F_P(t) is then one dot product in double,
/// summed in blocks and pairwise (relative error ≤ γ_{2⌈log₂ blocks⌉ + 21}, Higham 2002 §3.1,
/// §4.2), and each value is rounded up by the sum of these bounds (≲ 1e-13 relative).
/// Between consecutive grid points δ_P(ε) is affine in e^ε (no mass lies strictly between them),
/// so δ at any ε ≥ 0 and the ε at a δ are read off the two neighbouring grid values: a convex
/// combination of upper bounds, itself an upper bound (docs/composition-strategies.md).
/// The same PLD as composePmf(X, Y)'s, without its FFT round-off charge and tail truncation
/// (both only ever raise δ): each answer is an upper bound, and where composePmf would use the
/// FFT (composesByFft), whose charge to p_∞ is at least 1e-13, not above composePmf's.
/// Negative masses (FFT round-off in X or Y) are read as 0, as pmfDeltaForEpsilon skips them.
class ComposedPmfQuery
{
public:
    /// nullopt when the query does not apply: an input optimistic or without finite bins, the
    /// grids differing, or the composition's finite losses not spanning both sides of ε = 0
    /// (lowest above one grid step, or highest below it; then composePmf and the plain queries
    /// answer). Reads `y`'s masses in place: `y` must outlive the query. Time and memory
    /// O(nx + ny).
    static std::optional<ComposedPmfQuery> make(const PldPmf &x, const PldPmf &y);

    ComposedPmfQuery(ComposedPmfQuery &&) = default;
    ComposedPmfQuery &operator=(ComposedPmfQuery &&) = default;
    ComposedPmfQuery(const ComposedPmfQuery &) = delete;
    ComposedPmfQuery &operator=(const ComposedPmfQuery &) = delete;

    /// δ at ε ≥ 0 (an upper bound, in [0, 1]); nullopt for ε < 0 or not finite. Two dot products.
    std::optional<double> deltaForEpsilon(double epsilon) const;
    /// The smallest ε ≥ 0 whose δ is at most `delta` (an upper bound; +∞ when p_∞ > δ), by
    /// bisection over the grid (≈ log₂(nx + ny) dot products); nullopt when the rounding of p_∞
    /// alone leaves δ uncertified (p_∞ within 1e-13 relative of δ): then compose and ask the PMF.
    std::optional<double> epsilonForDelta(double delta) const;

    /// The grid points F_P was evaluated at so far (tests).
    std::int64_t evaluations() const { return m_evaluations; }

private:
    ComposedPmfQuery() = default;
    /// The upper bound on δ_P at grid point t (absolute index), 0 ≤ t ≤ m_tMax.
    double deltaAt(std::int64_t t) const;

    double m_interval = 0.0;
    std::int64_t m_yLower = 0;   ///< Y's lowerIndex
    std::int64_t m_fTop = 0;     ///< F_X(s) = 0 for s ≥ m_fTop (X's highest index)
    std::int64_t m_tMax = 0;     ///< F_P(t) = 0 for t ≥ m_tMax
    const double *m_y = nullptr; ///< Y's finite masses (Y's own, or m_yClipped)
    std::size_t m_ny = 0;
    std::vector<double> m_yClipped; ///< Y's masses with negatives as 0, when it has any
    std::vector<double> m_f;        ///< F_X(m_fTop − r) at r = 0 … m_tMax (downwards)
    double m_infinity = 0.0;        ///< p_∞ of P, as composePmf computes it
    double m_relError = 0.0;        ///< relative bound applied to every F_P(t) + p_∞
    mutable std::int64_t m_evaluations = 0;
};

} // namespace pbx::accounting
