// SPDX-License-Identifier: MIT
// The Haar wavelet strategy for range queries (Xiao, Wang & Gehrke 2010, "Differential privacy
// via wavelet transforms", ICDE, §4 (Privelet); journal version IEEE TKDE 23(8) 2011, Lemma 3 and
// Thm 2). Derivations: docs/strategies-inference.md, "Haar wavelets".
#pragma once

#include "core/strategies/range_workload.h"
#include "core/util/result.h"

#include <cstddef>
#include <vector>

namespace pbx::strategies {

/// The binary tree over K = 2^h padded leaves, h = max(1, ⌈log₂ k⌉).
struct HaarShape
{
    std::size_t k = 0;
    std::size_t height = 1;
    std::size_t padded = 2;

    /// Errors: INVALID_BOUNDS (k = 0 or > 2^16).
    static Result<HaarShape> create(std::size_t k);
    /// Generalised ℓ1 sensitivity of the weighted coefficients: h + 1 (add/remove), 2h (replace).
    std::size_t sensitivityL1(data::Neighbouring neighbours) const
    {
        return neighbours == data::Neighbouring::AddRemove ? height + 1 : 2 * height;
    }
};

/// Coefficients: [0] = mean of the K leaves; then the internal nodes level by level (root first),
/// c_N = (mean of N's left half − mean of its right half)/2. Size K.
std::vector<double> haarForward(const HaarShape &shape, const std::vector<double> &leaves);
/// Leaves from coefficients: x_l = c_0 + Σ_{N ∋ l} ±c_N (+ when l is in N's left half).
std::vector<double> haarInverse(const HaarShape &shape, const std::vector<double> &coefficients);
/// The weight W(c): K for c_0, the number of leaves under N for c_N. Noise on c is
/// Lap(Δ/(ε·W(c))) with Δ = sensitivityL1.
std::vector<double> haarWeights(const HaarShape &shape);

/// Exact variance of a range answered from noisy coefficients, per unit of (Δ/ε)² Laplace scale:
/// Σ_c 2α_c²/W(c)² with α_{c_0} = L and α_{c_N} = (range leaves in N's left half) − (in its right half).
/// Multiply by (Δ/ε)² for the variance; every range has Var ≤ (h+1)²(h+2)/ε² (add/remove,
/// docs/strategies-inference.md). Only the ≤ 2 nodes per level cut by the range contribute: O(h).
double haarRangeVarianceUnit(const HaarShape &shape, Range range);

} // namespace pbx::strategies
