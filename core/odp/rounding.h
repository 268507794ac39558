// SPDX-License-Identifier: MIT
// The directed products and quotients of core/math/directed_rounding.h under their former odp::
// names, for code not yet moved to math:: (there is one set of these functions: math's).
#pragma once

#include "core/math/directed_rounding.h"

namespace pbx::odp {

using math::divideRoundDown;
using math::divideRoundUp;
using math::multiplyRoundUp;

} // namespace pbx::odp
