// SPDX-License-Identifier: MIT
// A discretised privacy-loss distribution (PLD): probabilities on the grid {i·d} plus a mass at
// +∞; composition by FFT with tail truncation, and the δ(ε) / ε(δ) queries.
#pragma once

#include "core/accounting/strategy.h"
#include "core/util/result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pbx::accounting {

/// Probability mass function of a discretised privacy loss (Doroshenko et al. 2022, "Connect the
/// dots", arXiv 2207.04380; Koskela et al. 2020; dp_accounting `pld_pmf`): probs[j] is the mass
/// at loss (lowerIndex + j)·interval; infinityMass is the mass at +∞. A pessimistic PMF's δ(ε)
/// upper-bounds the mechanism's, an optimistic one's lower-bounds it.
struct PldPmf
{
    double interval = 1e-4;
    std::int64_t lowerIndex = 0;
    std::vector<double> probs;
    double infinityMass = 0.0;
    bool pessimistic = true;
    /// Optimistic PMFs only: a bound on how much the computed δ(ε) may exceed the δ(ε) of the
    /// exact (round-off free) optimistic PMF, from FFT round-off (see composePmf). The queries
    /// subtract it, so the reported lower bound stays a lower bound. Pessimistic PMFs charge
    /// their round-off bound to infinityMass instead and keep this 0.
    double deltaSlack = 0.0;
    /// Pessimistic PMFs only: a bound on the ℓ1 distance (finite bins and p_∞) between this PMF
    /// and the exact composition of the single-event PMFs it was built from: FFT round-off,
    /// truncated or aliased tails, rounding of the lattice route (docs/pld-numerics.md §4). The
    /// upper bounds do not need it (every such change only raises δ); the lower bound of
    /// pld_bracket.h subtracts it.
    double errorL1 = 0.0;

    double lossAt(std::size_t j) const
    {
        return static_cast<double>(lowerIndex + static_cast<std::int64_t>(j)) * interval;
    }
};

/// The largest number of grid bins a PMF, a composition window or an FFT buffer may hold
/// (2^22: 32 MiB per vector). Beyond it the accounting refuses with ErrorCode::ResourceLimit
/// instead of allocating. Measured at the limit (2 shared cores): ≲ 4 s and ≲ 0.3 GB.
inline constexpr double kMaxPldBins = 4194304.0;

/// Peak memory (bytes) of accounting with PMFs of `bins` grid bins: the pessimistic and
/// optimistic PMFs of the running total and of the component, the FFT buffer, its half spectrum
/// and the result: about eight vectors of doubles.
inline double pldPeakBytes(double bins)
{
    return 8.0 * 8.0 * bins;
}

/// ResourceLimit error text for a PLD needing `bytes` at `interval` (pldPeakBytes of the bins):
/// "PLD would need 2.4 GB at interval 1e-4 (limit 0.34 GB); use a coarser --interval or the rdp
/// strategy". One line, no event prefix (callers add "events[i] (kind): ").
/// `maxBins` is the limit in force (PldOptions::maxBins), quoted as memory.
std::string pldResourceMessage(double bytes, double interval, double maxBins = kMaxPldBins);

/// Removes a prefix and a suffix of total mass ≤ τ/2 each (dp_accounting `_truncate_tails`).
/// Pessimistic: the prefix mass is moved up to the first kept loss and the suffix mass goes to
/// +∞ (δ can only grow). Optimistic: the suffix mass is moved down to the last kept loss and
/// the prefix mass is dropped (δ can only shrink).
void truncateTails(PldPmf &pmf, double tailMass);

/// The PLD of the composition of two independent mechanisms: linear convolution of the finite
/// parts, p_∞ = 1 − (1 − p_∞)(1 − p_∞') (Koskela et al. 2020; DGKKM22 §2), then truncateTails.
/// Both inputs must share interval and pessimism. Sparse inputs (few non-zero bins) are convolved
/// directly with a relative error bound γ_m (Higham 2002, eq. 3.5) applied outwards (pessimistic
/// masses scaled up, optimistic ones down); dense ones by FFT, whose round-off is bounded in the
/// ℓ2 norm (Higham 2002, Thm 24.2, see docs/pld-numerics.md) and charged to δ: added to p_∞ in a
/// pessimistic PMF, to deltaSlack in an optimistic one. Errors: InvalidArgument (grids differ),
/// ResourceLimit (the result would exceed `maxBins`, at most kMaxPldBins).
Result<PldPmf> composePmf(const PldPmf &a, const PldPmf &b, double tailMass = 1e-15,
                          double maxBins = kMaxPldBins);

/// Whether composePmf(a, b) convolves by FFT (and charges its round-off to δ): both have finite
/// bins and the products of their non-zero bins number more than 4·10⁷; otherwise it convolves
/// directly.
bool composesByFft(const PldPmf &a, const PldPmf &b);

/// k-fold self-composition. p_∞ = 1 − (1 − p_∞)^k; k ≥ 1.
/// Sparse PMFs (randomized response, pure and (ε, δ) events: few non-zero bins on a lattice of
/// stride g) are composed exactly on the compressed lattice by binary powering with direct
/// convolution: relative round-off ≤ γ per product, applied outwards, and tails below 1e-40 per
/// step truncated (pessimistic: to +∞ / up; optimistic: dropped / down). No FFT noise reaches
/// the near-empty bins, so δ stays accurate down to δ ≈ 1e-30.
/// Dense PMFs: ifft(fft(p)^k) on a window from a Chernoff bound (dp_accounting
/// `common.self_convolve`): the mass outside the window (≤ τ) is charged to +∞ in a pessimistic
/// PMF and dropped in an optimistic one, and the FFT round-off bound is charged as in composePmf.
/// Errors: ResourceLimit when the window would exceed `maxBins` (at most kMaxPldBins; checked
/// before allocating).
Result<PldPmf> selfComposePmf(const PldPmf &pmf, std::int64_t k, double tailMass = 1e-15,
                              double maxBins = kMaxPldBins);

/// Whether selfComposePmf(pmf, k) takes the exact sparse route (at most 64 non-zero bins, and
/// the k-fold lattice after truncation at most 16,384 points wide); k ≥ 2.
bool sparseSelfComposition(const PldPmf &pmf, std::int64_t k);

/// δ(ε) = p_∞ + Σ_{ℓ_i > ε} p_i (1 − e^{ε − ℓ_i}) (hockey-stick divergence of the PMF), summed in
/// long double; a pessimistic PMF's result is nudged up, an optimistic one's is lowered by
/// deltaSlack. Any real ε. Result in [0, 1].
double pmfDeltaForEpsilon(const PldPmf &pmf, double epsilon);

/// pmfDeltaForEpsilon of a pessimistic PMF at many ε at once (the comparison's δ(ε) profile), in
/// one downward sweep instead of one per ε: with V_j = Σ_{i ≥ j} p_i e^{ℓ_j − ℓ_i} and
/// D_j = Σ_{i ≥ j} p_i (1 − e^{ℓ_j − ℓ_i}), δ(ε) = p_∞ + D_m + V_m·(1 − e^{ε − ℓ_m}) for m the first
/// bin above ε, and V_j = p_j + e^{−d} V_{j+1}, D_j = D_{j+1} + (1 − e^{−d}) V_{j+1}: sums of
/// non-negative terms (no cancellation), in long double. Their round-off (≤ bins·2⁻⁶³ ≈ 5e-13
/// relative at kMaxPldBins) lies inside the 1e-12 relative nudge up that pmfDeltaForEpsilon
/// applies, so each value is an upper bound like it and agrees with it to ~1e-12 relative.
/// Any real ε, in any order; results in [0, 1], in the order of `epsilons`.
std::vector<double> pmfDeltasForEpsilons(const PldPmf &pmf, const std::vector<double> &epsilons);

/// The smallest ε ≥ 0 with pmfDeltaForEpsilon(ε) ≤ δ (exact on each linear piece in e^ε, as
/// dp_accounting `get_epsilon_for_delta`); +∞ when p_∞ > δ. Pessimistic: nudged up. Optimistic:
/// solved at δ + deltaSlack (a lower bound on the exact optimistic PMF's ε).
double pmfEpsilonForDelta(const PldPmf &pmf, double delta);

} // namespace pbx::accounting
