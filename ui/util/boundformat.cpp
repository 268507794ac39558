// SPDX-License-Identifier: MIT
#include "ui/util/boundformat.h"

#include "ui/util/numberformat.h"

#include <cmath>

namespace pbx::ui {

QString formatBound(double value, int significant)
{
    if (!std::isfinite(value) || value <= 0.0)
        return formatNumber(value, significant);
    // The decimal with `significant` digits at or below the value, then one unit of the last digit
    // up when the value lies above it (by more than the strategies' few-ulp nudges).
    const int exponent = static_cast<int>(std::floor(std::log10(value)));
    const double unit = std::pow(10.0, exponent - (significant - 1));
    const double down = std::floor(value / unit) * unit;
    const double shown = value - down > 1e-12 * value ? down + unit : down;
    return formatNumber(shown, significant);
}

} // namespace pbx::ui
