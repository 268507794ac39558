// SPDX-License-Identifier: MIT
// The decreasing geometric noise grid shared by Brownian and Laplace noise reduction
// (docs/accuracy-first.md §5.3, §6.3): noise scale s_k = s_start·r^k, clamped at a floor.
#pragma once

#include "core/util/result.h"

#include <optional>

namespace pbx::mechanisms {

/// A decreasing geometric grid of noise scales, generated lazily: point k is computed only when
/// asked, from (start, ratio, floor) alone, so a session can store just the index.
///
/// Scale units are the noise's own: the standard deviation √T for Brownian noise reduction
/// (time T = σ², a variance in squared query units) and the Laplace scale b for Laplace noise
/// reduction (ε = Δ1/b). Points: s_k = start·ratio^k for k = 0 … K−2 and s_{K−1} = floor, where
/// K−1 is the first k with start·ratio^k ≤ floor·(1 + 10⁻⁹) (a point within 10⁻⁹ of the floor
/// counts as the floor, so the last step is never a negligible sliver). Because the grid
/// (and so K) is fixed by its three parameters before the first release, it qualifies for the
/// union-bound boundary over K times and for β/K acceptance (docs/accuracy-first.md §3.3, §5.2).
///
/// The grid also carries a cursor (the current index) for callers that walk it step by step:
/// the next point is produced only when advance() is called ("lazy grid", §3.1: the next T may
/// be chosen adaptively as long as it is chosen before sampling).
class GeometricNoiseGrid
{
public:
    /// Valid: startScale ≥ floorScale > 0, both finite; 0 < ratio ≤ 1 − 2⁻²⁰ (so consecutive
    /// points, and their squares, are distinct doubles). The grid has at most
    /// 10⁷ points (ratio 0.97 from 10⁴ to 10⁻⁴ is 605 points). Errors: InvalidArgument otherwise.
    static Result<GeometricNoiseGrid> create(double startScale, double ratio, double floorScale);

    /// The smallest double s whose square, as timeAt() computes it, is ≥ time: the floor scale
    /// to use for a floor *time*, e.g. brownianTimeForRho(Δ, cap), so that the floor time is never
    /// below it (rounding up keeps the ρ charge within the cap). Valid: time > 0 finite (NaN
    /// otherwise).
    static double scaleForTime(double time);

    double startScale() const { return m_start; }
    double ratio() const { return m_ratio; }
    double floorScale() const { return m_floor; }

    /// K, the number of points (≥ 1). Point K−1 is the floor.
    int pointCount() const { return m_count; }

    /// s_k = start·ratio^k, computed from k directly with std::pow (no accumulated rounding); the
    /// floor exactly for k ≥ K−1. Strictly decreasing over 0 … K−1. Valid: k ≥ 0 (k < 0 → s_0).
    double scaleAt(int k) const;
    /// T_k = s_k² (Brownian time, a variance), rounded to nearest. The times are what the
    /// Brownian mechanism and its ρ charges use, so any rounding is applied consistently.
    double timeAt(int k) const;
    /// ε_k = Δ1/s_k (Laplace noise reduction), rounded up (a privacy cost).
    /// Valid: sensitivity > 0 finite (NaN otherwise).
    double epsilonAt(int k, double sensitivity) const;

    /// Cursor: the current index (0 after create()) and its scale and time.
    int index() const { return m_index; }
    double scale() const { return scaleAt(m_index); }
    double time() const { return timeAt(m_index); }
    bool atFloor() const { return m_index >= m_count - 1; }
    /// The next point's scale without moving; nullopt at the floor.
    std::optional<double> peekNextScale() const;
    /// Moves the cursor one point down; false (and no move) at the floor.
    bool advance();
    /// Moves the cursor to k (to restore a saved session). Errors: InvalidArgument unless
    /// 0 ≤ k < pointCount().
    Result<void> seek(int k);

private:
    GeometricNoiseGrid(double start, double ratio, double floor, int count)
        : m_start(start), m_ratio(ratio), m_floor(floor), m_count(count)
    {}
    double unclampedScale(int k) const;

    double m_start;
    double m_ratio;
    double m_floor;
    int m_count;
    int m_index = 0;
};

} // namespace pbx::mechanisms
