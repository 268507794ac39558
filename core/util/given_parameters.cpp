// SPDX-License-Identifier: MIT
#include "core/util/given_parameters.h"

#include <cmath>
#include <string>

namespace pbx {

namespace {
constexpr std::string_view kWhy = "; smaller values lose the precision the accounting needs";
} // namespace

Result<void> checkGivenEpsilon(double epsilon, std::string_view field)
{
    if (std::isfinite(epsilon) && epsilon >= kMinGivenEpsilon)
        return {};
    return makeError(ErrorCode::InvalidArgument,
                     std::string(field) + " must be a finite number of at least 1e-06 (kMinGivenEpsilon)"
                         + std::string(kWhy));
}

Result<void> checkGivenDelta(double delta, std::string_view field)
{
    if (delta == 0.0 || delta >= kMinGivenDelta || std::isnan(delta))
        return {};
    return makeError(ErrorCode::InvalidArgument, std::string(field)
                                                     + " must be 0 or at least 1e-100 (kMinGivenDelta)"
                                                     + std::string(kWhy));
}

} // namespace pbx
