// SPDX-License-Identifier: MIT
// How the comparison view (and its charts) print an ε or δ bound: rounded UP to the shown digits, so that the
// table, the explanation and every chart caption print one and the same number for one quantity,
// and none of them prints less privacy loss than was computed.
#pragma once

#include <QString>

namespace pbx::ui {

/// `value` (an upper bound on ε or δ) with `significant` significant digits, rounded upwards
/// (4.617496 → "4.618"; formatNumber would print "4.617"), in formatNumber's notation (thousands
/// separators, scientific below 1e-4, "∞"). A value within 1e-12 relative of the digits below it
/// prints as those digits: that excess is the strategies' own upward nudge of a few ulps
/// (basic's Σε = 10.000000000000002 prints "10", not "10.01"). NaN prints "NaN".
QString formatBound(double value, int significant = 4);

/// `value` (what remains of a budget, a lower bound) with `significant` significant digits,
/// rounded downwards: the mirror image of formatBound (0.34317 → "0.3431").
QString formatLowerBound(double value, int significant = 4);

} // namespace pbx::ui
