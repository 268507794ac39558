// SPDX-License-Identifier: MIT
// A discretised privacy-loss distribution (PLD): probabilities on the grid {i·d} plus a mass at
// +∞; composition by FFT with tail truncation, and the δ(ε) / ε(δ) queries.
#pragma once

#include "core/accounting/strategy.h"
#include "core/util/result.h"

#include <cstdint>
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

    double lossAt(std::size_t j) const { return static_cast<double>(lowerIndex + static_cast<std::int64_t>(j)) * interval; }
};

/// Removes a prefix and a suffix of total mass ≤ τ/2 each (dp_accounting `_truncate_tails`).
/// Pessimistic: the prefix mass is moved up to the first kept loss and the suffix mass goes to
/// +∞ (δ can only grow). Optimistic: the suffix mass is moved down to the last kept loss and
/// the prefix mass is dropped (δ can only shrink).
void truncateTails(PldPmf &pmf, double tailMass);

/// The PLD of the composition of two independent mechanisms: linear convolution of the finite
/// parts, p_∞ = 1 − (1 − p_∞)(1 − p_∞') (Koskela et al. 2020; DGKKM22 §2), then truncateTails.
/// Both inputs must share interval and pessimism. Errors: InvalidArgument otherwise.
Result<PldPmf> composePmf(const PldPmf &a, const PldPmf &b, double tailMass = 1e-15);

/// k-fold self-composition by ifft(fft(p)^k) on a window from a Chernoff bound (dp_accounting
/// `common.self_convolve`): the mass outside the window (≤ τ) is charged to +∞ in a pessimistic
/// PMF and dropped in an optimistic one; p_∞ = 1 − (1 − p_∞)^k. k ≥ 1.
PldPmf selfComposePmf(const PldPmf &pmf, std::int64_t k, double tailMass = 1e-15);

/// δ(ε) = p_∞ + Σ_{ℓ_i > ε} p_i (1 − e^{ε − ℓ_i}) (hockey-stick divergence of the PMF), summed in
/// long double; a pessimistic PMF's result is nudged up. Any real ε. Result in [0, 1].
double pmfDeltaForEpsilon(const PldPmf &pmf, double epsilon);

/// The smallest ε ≥ 0 with pmfDeltaForEpsilon(ε) ≤ δ (exact on each linear piece in e^ε, as
/// dp_accounting `get_epsilon_for_delta`); +∞ when p_∞ > δ. Pessimistic: nudged up.
double pmfEpsilonForDelta(const PldPmf &pmf, double delta);

} // namespace pbx::accounting
