// SPDX-License-Identifier: MIT
#include "core/data/sensitivity.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace pbx::data {

std::string_view neighboursName(Neighbours n)
{
    return n == Neighbours::AddRemove ? "add-remove" : "replace";
}

Result<Neighbours> parseNeighbours(std::string_view text)
{
    if (text == "add-remove")
        return Neighbours::AddRemove;
    if (text == "replace")
        return Neighbours::Replace;
    return makeError(ErrorCode::InvalidArgument, "unknown neighbouring relation '" + std::string(text)
                                                     + "' (expected add-remove or replace)");
}

Sensitivity countSensitivity(Neighbours)
{
    return {1.0, 1.0};
}

Sensitivity sumSensitivity(Bounds bounds, Neighbours neighbours)
{
    const double magnitude = std::max(std::fabs(bounds.lower), std::fabs(bounds.upper));
    const double delta = neighbours == Neighbours::AddRemove
                             ? magnitude
                             : std::max(bounds.upper - bounds.lower, magnitude);
    return {delta, delta};
}

Sensitivity centredSumSensitivity(Bounds bounds, Neighbours neighbours)
{
    const double width = bounds.upper - bounds.lower;
    const double delta = neighbours == Neighbours::AddRemove ? width / 2.0 : width;
    return {delta, delta};
}

} // namespace pbx::data
