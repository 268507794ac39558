// SPDX-License-Identifier: MIT
#include "core/session/release/query_shape.h"

#include "core/math/directed_rounding.h"
#include "core/mechanisms/stopping_rules.h"

#include <algorithm>
#include <cmath>

namespace pbx::session {

double sumChannelSensitivity(std::string_view quantity, data::Bounds bounds, data::Neighbouring neighbours,
                             double publicRowCount)
{
    const double nominal = quantity == "sum" ? data::sumSensitivity(bounds, neighbours).l1
                                             : data::centredSumSensitivity(bounds, neighbours).l1;
    return data::computedSumSensitivity(nominal, bounds, static_cast<std::size_t>(publicRowCount));
}

QueryShape QueryShape::of(data::Aggregate aggregate, data::Bounds bounds, const data::QueryStatistics &exact,
                          data::Neighbouring neighbours, double publicRowCount)
{
    QueryShape s;
    s.m_bounds = bounds;
    s.m_publicRowCount = publicRowCount;
    const double magnitude = std::max(std::fabs(bounds.lower), std::fabs(bounds.upper));
    switch (aggregate) {
    case data::Aggregate::Count:
        s.m_channels.push_back({"count", exact.count, data::countSensitivity(neighbours).l1, 1.0});
        s.m_largestAnswer = publicRowCount;
        break;
    case data::Aggregate::Sum:
        s.m_channels.push_back(
            {"sum", exact.clippedSum, sumChannelSensitivity("sum", bounds, neighbours, publicRowCount), 1.0});
        s.m_largestAnswer = publicRowCount * magnitude;
        break;
    case data::Aggregate::Mean:
        s.m_mean = true;
        s.m_channels.push_back({"centred-sum", exact.centredSum,
                                sumChannelSensitivity("centred-sum", bounds, neighbours, publicRowCount),
                                1.0});
        s.m_channels.push_back({"count", exact.count, data::countSensitivity(neighbours).l1,
                                (bounds.upper - bounds.lower) / 2.0});
        s.m_largestAnswer = magnitude;
        break;
    }
    return s;
}

std::vector<double> QueryShape::costShares(CostGrowth growth) const
{
    const double power = growth == CostGrowth::Linear ? 0.5 : 2.0 / 3.0;
    std::vector<double> shares;
    double total = 0.0;
    for (const auto &c : m_channels) {
        shares.push_back(std::pow(c.sensitivity * c.weight, power));
        total += shares.back();
    }
    for (double &s : shares)
        s /= total;
    return shares;
}

double QueryShape::widthNumerator(const std::vector<double> &halfWidths) const
{
    double n = 0.0;
    for (std::size_t i = 0; i < m_channels.size(); ++i)
        n += m_channels[i].weight * halfWidths[i];
    return math::nudgeUp(n, 2);
}

void QueryShape::estimate(Attempt &a, const std::vector<double> &halfWidths) const
{
    if (!m_mean) {
        a.estimate = a.releases.front().value;
        a.halfWidth = halfWidths.front();
        return;
    }
    const double mid = (m_bounds.lower + m_bounds.upper) / 2.0;
    const double noisySum = a.releases[0].value;
    const double noisyCount = a.releases[1].value;
    const double estimate
        = std::clamp(mid + noisySum / std::max(noisyCount, 1.0), m_bounds.lower, m_bounds.upper);
    // Always valid once the true mean lies in [L, U]: the distance to the farther bound.
    a.estimate = estimate;
    a.halfWidth = std::max(estimate - m_bounds.lower, m_bounds.upper - estimate);
    if (noisyCount > halfWidths[1])
        a.halfWidth = std::min(a.halfWidth, math::nudgeUp(widthNumerator(halfWidths) / noisyCount));
}

bool QueryShape::couldCertify(double numerator, const AccuracyTarget &target) const
{
    const double slack = target.kind == TargetKind::Relative ? (1.0 + target.error) / target.error : 1.0;
    if (!m_mean)
        return target.kind == TargetKind::Relative ? numerator * slack <= m_largestAnswer
                                                   : numerator <= target.error;
    // A mean's bar is numerator / Ĉ with Ĉ at most about the row count.
    return target.kind == TargetKind::Relative ? numerator * slack <= m_largestAnswer * m_publicRowCount
                                               : numerator <= target.error * m_publicRowCount;
}

bool QueryShape::hopeless(const Attempt &a, double leastNoisyNumerator, const AccuracyTarget &target) const
{
    if (m_mean || target.kind != TargetKind::Relative)
        return false;
    return std::fabs(a.estimate) + a.halfWidth < leastNoisyNumerator * (1.0 + target.error) / target.error;
}

bool QueryShape::certifies(const Attempt &a, const AccuracyTarget &target)
{
    if (target.kind == TargetKind::Absolute)
        return mechanisms::acceptsAbsoluteError(a.halfWidth, target.error);
    // Directed rounding: |y| − w rounded down and α·(|y| − w) rounded down, so a rounding error
    // can only refuse a borderline answer, never certify one the exact test would refuse.
    return mechanisms::acceptsRelativeError(a.estimate, a.halfWidth, target.error);
}

} // namespace pbx::session
