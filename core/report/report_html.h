// SPDX-License-Identifier: MIT
// The session report as one self-contained HTML document (UTF-8, no external resources), well
// formed as XML so that its SVG charts can be read back by an XML parser.
#pragma once

#include "core/report/session_report.h"

#include <string>
#include <vector>

namespace pbx::report {

/// The text printed on every page of a report of a seeded session.
inline constexpr const char *kSeededMark
    = "Seeded, reproducible noise — for teaching and tests, not for real releases";

/// One chart of the report: its name (the image reference in ChartMode::ImageReferences), the
/// SVG text and its nominal size in px.
struct ReportChart
{
    std::string name; ///< "budget-path" or "comparison"
    std::string svg;
    double width = 0.0;
    double height = 0.0;
};

/// The report's charts, in document order (the comparison only when it was made).
std::vector<ReportChart> reportCharts(const SessionReport &report);

struct HtmlOptions
{
    enum class ChartMode {
        InlineSvg,       ///< <svg> elements in the page (the HTML file)
        ImageReferences, ///< <img src="pbx-chart:NAME"> for a renderer that supplies the images (PDF)
    };
    ChartMode charts = ChartMode::InlineSvg;
    /// Print the seeded mark in the body too (the PDF paints it in every page's header instead).
    bool seededBanner = true;
    /// ImageReferences: the widest an image may be, in px (larger charts are scaled down).
    double maxChartWidth = 1e9;
};

/// The whole report: title and source, a summary of the guarantee, the dataset and its
/// provenance, the budget and filter, every request with its answer, error bar, mechanism, cost
/// and reason (strategy requests with every released value), the budget path chart, the
/// composition comparison (or why there is none), and how the numbers were made for the filter
/// and each mechanism used. A seeded session carries kSeededMark at the top and the bottom.
std::string reportHtml(const SessionReport &report, const HtmlOptions &options = {});

} // namespace pbx::report
