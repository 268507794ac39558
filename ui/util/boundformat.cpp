// SPDX-License-Identifier: MIT
#include "ui/util/boundformat.h"

#include "core/util/number_format.h"
#include "ui/util/numberformat.h"

namespace pbx::ui {

QString formatBound(double value, int significant)
{
    return toQString(formatDisplay(value, Rounding::Up, significant));
}

QString formatLowerBound(double value, int significant)
{
    return toQString(formatDisplay(value, Rounding::Down, significant));
}

} // namespace pbx::ui
