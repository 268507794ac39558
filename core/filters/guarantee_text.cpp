// SPDX-License-Identifier: MIT
#include "core/filters/guarantee_text.h"

#include "core/filters/odometer_filter.h"
#include "core/util/number_format.h"

#include <cmath>

namespace pbx::filters {

namespace {
/// A privacy loss shown to the user: 6 significant digits, rounded up (never under-reported).
std::string lossUp(double x)
{
    return std::isfinite(x) && x != 0.0 ? formatDirected(x, 6, Rounding::Up) : formatSignificant(x);
}
} // namespace

std::string guaranteeText(const PrivacyFilter &f)
{
    if (const auto *odometer = dynamic_cast<const OdometerFilter *>(&f))
        return "the session so far is (" + lossUp(f.epsilonSpent()) + ", " + formatSignificant(f.deltaSpent())
               + ")-DP by the privacy odometer (it holds wherever the session stops); a ledger planned in "
                 "advance would have cost ε ≈ "
               + lossUp(odometer->preplannedEpsilon());
    return "the session is (" + formatSignificant(f.epsilonBudget()) + ", "
           + formatSignificant(f.deltaBudget())
           + ")-DP by the filter; what is spent so far corresponds to (ε, δ) ≈ ("
           + formatSignificant(f.epsilonSpent()) + ", " + formatSignificant(f.deltaSpent())
           + ") (a gauge, not a guarantee)";
}

} // namespace pbx::filters
