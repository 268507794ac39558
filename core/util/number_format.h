// SPDX-License-Identifier: MIT
// The one place numbers become text in core/ and app/ (ui/util/numberformat.h builds on it): a
// fixed number of significant digits, the shortest text that reads back to the same double, and
// directed rounding for privacy losses, which are shown rounded up so that no printed digit
// under-reports them (and bounds that must not be overstated rounded down).
#pragma once

#include <string>

namespace pbx {

/// Which way a shown value may differ from the true one.
enum class Rounding {
    Nearest, ///< the nearest decimal
    Up,      ///< the smallest decimal ≥ x (privacy losses: ε, δ, ρ, costs)
    Down,    ///< the largest decimal ≤ x (what remains of a budget, lower bounds)
};

/// printf's "%.<significant>g": `significant` in [1, 17] significant digits, trailing zeros
/// dropped, exponent form outside [1e-4, 10^significant); "nan", "inf", "-inf" as printf prints
/// them. The format of messages and CLI output ("%.6g" is significant = 6).
std::string formatSignificant(double x, int significant = 6);

/// The shortest decimal that reads back (strtod) to exactly `x` (std::to_chars): for values a
/// user may copy back into an input, e.g. a column's bound in an error message.
std::string formatShortest(double x);

/// `x` rounded in `rounding`'s direction at `significant` significant digits, then printed as
/// formatSignificant does; Up/Down re-read the text and move one unit of the last digit when
/// printing moved it the wrong way, so strtod(result) ≥ x (Up) or ≤ x (Down) always holds.
/// NaN and ±∞ print as formatSignificant does.
std::string formatDirected(double x, int significant, Rounding rounding);

/// How every view, lesson answer and report table shows a number: `significant` significant
/// digits (1 … 17), rounded in `rounding`'s direction; plain notation for 1e-4 ≤ |x| < 1e9 with
/// thousands separators when `grouped` ("28,155", "0.03386"), whole numbers never cut to fewer
/// digits than they have ("28,152" at four digits), scientific otherwise ("1e-6", "2.5e10");
/// trailing zeros dropped; "0", "NaN", "∞", "−∞".
/// Up shows the smallest such decimal ≥ x, except that a value within 1e-12 relative above a
/// decimal shows as that decimal: the accountants pad their results up by a few ulps to cover
/// floating-point error (a basic composition of 20 × 0.125 is 2.5000000000000004), and showing
/// "2.501" for it would be noise, not privacy loss. Down is the mirror image.
std::string formatDisplay(double x, Rounding rounding, int significant = 4, bool grouped = true);

} // namespace pbx
