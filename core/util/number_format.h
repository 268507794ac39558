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

/// The display rule of lessons: four significant digits rounded in `rounding`'s direction, fixed
/// notation for 1e-4 ≤ |x| < 1e7 with the fourth digit kept even when it is 0 ("0.1000"), whole
/// numbers below 1e15 without decimals ("2", "8784"), otherwise "1.5e-05" style (trailing zeros of
/// the mantissa dropped); "n/a" for NaN, "∞"/"−∞" for infinities.
std::string formatDisplay(double x, Rounding rounding);

} // namespace pbx
