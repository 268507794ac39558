// SPDX-License-Identifier: MIT
// The session report's two charts as SVG text (svg_writer.h): the budget path and the
// composition comparison. Fixed size; the HTML embeds them inline, the PDF renders them.
#pragma once

#include "core/report/session_report.h"

#include <string>

namespace pbx::report {

inline constexpr double kChartWidth = 720.0;
inline constexpr double kChartHeight = 300.0;

/// Cumulative ε-equivalent spend (at the session δ) after each request 1..n, the budget ε as a
/// dashed line, refused requests as red dots on the path, and with the unified filter the
/// ex-post side's spend as a second line. An empty ledger draws the axes and says so.
std::string budgetPathSvg(const SessionReport &report);

/// ε at the comparison's δ under each composition strategy as horizontal bars, with the budget ε
/// as a dashed line; a strategy that does not apply is labelled so. Precondition:
/// report.comparison.comparison is set. Its height is comparisonChartHeight(strategies).
std::string comparisonSvg(const SessionReport &report);

/// The comparison chart's height in px for `strategies` rows: 90 + 30 per row.
double comparisonChartHeight(std::size_t strategies);

} // namespace pbx::report
