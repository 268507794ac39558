// SPDX-License-Identifier: MIT
#include "core/data/sensitivity.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace pbx::data {

std::string_view neighbouringName(Neighbouring n)
{
    return n == Neighbouring::AddRemove ? "add-remove" : "replace";
}

Result<Neighbouring> parseNeighbouring(std::string_view text)
{
    if (text == "add-remove")
        return Neighbouring::AddRemove;
    if (text == "replace")
        return Neighbouring::Replace;
    return makeError(ErrorCode::InvalidArgument, "unknown neighbouring relation '" + std::string(text)
                                                     + "' (expected add-remove or replace)");
}

Sensitivity countSensitivity(Neighbouring)
{
    return {1.0, 1.0};
}

Sensitivity sumSensitivity(Bounds bounds, Neighbouring neighbours)
{
    const double magnitude = std::max(std::fabs(bounds.lower), std::fabs(bounds.upper));
    const double delta = neighbours == Neighbouring::AddRemove
                             ? magnitude
                             : std::max(bounds.upper - bounds.lower, magnitude);
    return {delta, delta};
}

double computedSumSensitivity(double nominal, Bounds bounds, std::size_t publicRowCount)
{
    const double u = std::ldexp(1.0, -53);
    const double terms = static_cast<double>(publicRowCount) + 1.0;
    const double k = terms + 1.0;
    const double gamma = k * u / (1.0 - k * u);
    const double magnitude = std::max(std::fabs(bounds.lower), std::fabs(bounds.upper));
    const double pad = 2.0 * gamma * terms * magnitude * (1.0 + 8.0 * u); // the products rounded up
    return std::nextafter(nominal + pad * (1.0 + 4.0 * u), std::numeric_limits<double>::infinity());
}

Sensitivity centredSumSensitivity(Bounds bounds, Neighbouring neighbours)
{
    const double width = bounds.upper - bounds.lower;
    const double delta = neighbours == Neighbouring::AddRemove ? width / 2.0 : width;
    return {delta, delta};
}

} // namespace pbx::data
