// SPDX-License-Identifier: MIT
#include "core/mechanisms/noise_reduction_grid.h"

#include "core/math/directed_rounding.h"
#include "core/util/parameter_checks.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pbx::mechanisms {

namespace {
constexpr int kMaxPoints = 10'000'000;
/// A point within this relative distance above the floor counts as the floor, so the last step
/// is never a sliver whose time rounds onto the floor's.
constexpr double kFloorSnap = 1e-9;
constexpr double kMaxRatio = 1.0 - 0x1.0p-20;

} // namespace

Result<GeometricNoiseGrid> GeometricNoiseGrid::create(double startScale, double ratio, double floorScale)
{
    if (!isPositiveFinite(startScale) || !isPositiveFinite(floorScale))
        return makeError(ErrorCode::InvalidArgument,
                         "the grid's start and floor noise scales must be finite numbers > 0");
    if (floorScale > startScale)
        return makeError(ErrorCode::InvalidArgument,
                         "the grid's floor noise scale must not exceed its start scale");
    if (!(ratio > 0.0 && ratio <= kMaxRatio))
        return makeError(ErrorCode::InvalidArgument,
                         "the grid ratio must lie in (0, 1 − 2^−20]: consecutive points must differ");

    // K − 1 = the first k with start·ratio^k ≤ floor·(1 + 10⁻⁹). Estimate it from logarithms,
    // then settle it with the same formula scaleAt() uses, so the two can never disagree.
    GeometricNoiseGrid grid(startScale, ratio, floorScale, 1);
    const double snapped = floorScale * (1.0 + kFloorSnap);
    const double estimate = std::log(floorScale / startScale) / std::log(ratio);
    if (!(estimate < kMaxPoints))
        return makeError(ErrorCode::InvalidArgument, "the grid would have more than 10^7 points");
    int last = std::max(0, static_cast<int>(std::ceil(estimate)));
    while (last > 0 && grid.unclampedScale(last - 1) <= snapped)
        --last;
    while (grid.unclampedScale(last) > snapped)
        ++last;
    if (last + 1 > kMaxPoints)
        return makeError(ErrorCode::InvalidArgument, "the grid would have more than 10^7 points");
    grid.m_count = last + 1;
    return grid;
}

double GeometricNoiseGrid::scaleForTime(double time)
{
    if (!isPositiveFinite(time))
        return std::nan("");
    double s = std::sqrt(time);
    while (s * s < time)
        s = std::nextafter(s, std::numeric_limits<double>::infinity());
    return s;
}

double GeometricNoiseGrid::unclampedScale(int k) const
{
    return k == 0 ? m_start : m_start * std::pow(m_ratio, k);
}

double GeometricNoiseGrid::scaleAt(int k) const
{
    if (k >= m_count - 1)
        return m_floor;
    return std::max(m_floor, unclampedScale(std::max(k, 0)));
}

double GeometricNoiseGrid::timeAt(int k) const
{
    const double s = scaleAt(k);
    return s * s;
}

double GeometricNoiseGrid::epsilonAt(int k, double sensitivity) const
{
    if (!isPositiveFinite(sensitivity))
        return std::nan("");
    return math::nudgeUp(sensitivity / scaleAt(k), 1);
}

std::optional<double> GeometricNoiseGrid::peekNextScale() const
{
    if (atFloor())
        return std::nullopt;
    return scaleAt(m_index + 1);
}

bool GeometricNoiseGrid::advance()
{
    if (atFloor())
        return false;
    ++m_index;
    return true;
}

Result<void> GeometricNoiseGrid::seek(int k)
{
    if (k < 0 || k >= m_count)
        return makeError(ErrorCode::InvalidArgument, "the grid index lies outside the grid");
    m_index = k;
    return {};
}

} // namespace pbx::mechanisms
