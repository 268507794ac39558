// SPDX-License-Identifier: MIT
// The noise of one level of a doubling plan or noise reduction: given the level's privacy cost,
// each channel's share of it, its noise scale, its exact cost and its error-bar half-width.
#pragma once

#include "core/mechanisms/expost_boundaries.h"
#include "core/session/release/query_shape.h"

#include <vector>

namespace pbx::session {

/// Not mechanisms::NoiseKind: a level's noise may also be Brownian motion stopped at an ex-post boundary.
enum class NoiseFamily {
    Laplace,        ///< cost ε (pure or pure ex-post); scale b = Δ/ε
    Gaussian,       ///< cost ρ; time T = σ² = Δ²/(2ρ)
    BrownianExPost, ///< cost E(T) of a boundary fixed in advance (docs/accuracy-first.md §3.3)
};

struct ChannelLevel
{
    double scale = 0.0;     ///< Laplace b, or Gaussian/Brownian σ
    double time = 0.0;      ///< σ² (Gaussian families)
    double epsilon = 0.0;   ///< Laplace level ε_k (Laplace family)
    double cost = 0.0;      ///< this channel's cost at this level, rounded up
    double halfWidth = 0.0; ///< at the level's per-channel confidence
};

class LevelNoise
{
public:
    /// `boundaries`: one per channel, for BrownianExPost only (fixed before the first release).
    LevelNoise(NoiseFamily family, const QueryShape &shape,
               std::vector<mechanisms::BrownianBoundary> boundaries = {});

    NoiseFamily family() const { return m_family; }
    CostGrowth growth() const
    {
        return m_family == NoiseFamily::Gaussian ? CostGrowth::Quadratic : CostGrowth::Linear;
    }

    /// The channels at a level costing at most `cost` in total, with half-widths at confidence
    /// 1 − beta for all channels together (each channel gets beta/n). Errors: InvalidArgument
    /// for a cost ≤ 0; BudgetExceeded when a boundary admits no time at that cost.
    Result<std::vector<ChannelLevel>> level(double cost, double beta) const;

    /// Σ channel costs, rounded up.
    static double totalCost(const std::vector<ChannelLevel> &level);
    /// Σ weight·half-width (see QueryShape::widthNumerator).
    double widthNumerator(const std::vector<ChannelLevel> &level) const;

private:
    NoiseFamily m_family;
    const QueryShape &m_shape;
    std::vector<double> m_shares;
    std::vector<mechanisms::BrownianBoundary> m_boundaries;
};

} // namespace pbx::session
