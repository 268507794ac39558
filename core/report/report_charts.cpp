// SPDX-License-Identifier: MIT
#include "core/report/report_charts.h"

#include "core/accounting/strategy_titles.h"
#include "core/report/svg_writer.h"
#include "core/session/ledger/odometer_path.h"

#include <algorithm>
#include <cmath>

namespace pbx::report {

namespace {

constexpr const char *kInk = "#222222";
constexpr const char *kGrid = "#dddddd";
constexpr const char *kSpend = "#1f77b4";
constexpr const char *kExpost = "#ff7f0e";
constexpr const char *kBudget = "#d62728";
constexpr const char *kBar = "#4c78a8";

/// A "nice" tick step (1, 2 or 5 × 10^k) giving about `count` intervals over [0, top].
double tickStep(double top, int count)
{
    if (!(top > 0.0) || !std::isfinite(top))
        return 1.0;
    const double raw = top / count;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (raw <= m * magnitude)
            return m * magnitude;
    return 10.0 * magnitude;
}

struct Plot
{
    double left = 70, right = kChartWidth - 20, top = 40, bottom = kChartHeight - 50;
    double xMin = 0, xMax = 1, yMax = 1;
    double x(double v) const { return left + (v - xMin) / (xMax - xMin) * (right - left); }
    double y(double v) const { return bottom - v / yMax * (bottom - top); }
};

} // namespace

std::string budgetPathSvg(const SessionReport &report)
{
    SvgWriter svg(kChartWidth, kChartHeight, "Budget path: cumulative privacy loss after each request");
    const double budget = report.settings.epsilon;
    const bool unified = report.settings.filter == filters::FilterKind::Unified;
    // An odometer session has no budget: its path is the odometer's ε_n, beside what a ledger
    // planned in advance would have cost for the same releases.
    const bool odometer = report.settings.filter == filters::FilterKind::Odometer;
    const auto preplanned = odometer ? session::preplannedEpsilonPath(report.events, report.settings.delta)
                                     : std::vector<double>();
    double top = odometer ? 0.0 : budget;
    for (const auto &e : report.events)
        top = std::max({top, e.epsilonSpentAfter, e.expostSpentAfter});
    if (!(top > 0.0))
        top = 1.0;
    const std::size_t n = report.events.size();
    Plot p;
    p.xMin = 0;
    p.xMax = std::max<double>(1.0, static_cast<double>(n));
    const double step = tickStep(top * 1.05, 5);
    p.yMax = std::ceil(top * 1.05 / step) * step;

    for (double v = 0; v <= p.yMax + step / 2; v += step) {
        svg.line(p.left, p.y(v), p.right, p.y(v), kGrid);
        svg.text(p.left - 6, p.y(v) + 4, formatNumber(v, 3), "end", 11, kInk);
    }
    const double xStep = std::max(1.0, tickStep(p.xMax, 10));
    for (double v = 0; v <= p.xMax + xStep / 2; v += xStep)
        svg.text(p.x(v), p.bottom + 16, formatNumber(v, 4), "middle", 11, kInk);
    svg.line(p.left, p.bottom, p.right, p.bottom, kInk);
    svg.line(p.left, p.top, p.left, p.bottom, kInk);
    svg.text(kChartWidth / 2, 22,
             "Privacy loss spent after each request (ε-equivalent at δ = "
                 + formatNumber(report.settings.delta) + ")",
             "middle", 13, kInk, true);
    svg.text((p.left + p.right) / 2, kChartHeight - 14, "request number", "middle", 11, kInk);
    svg.text(16, (p.top + p.bottom) / 2, "ε", "middle", 13, kInk);

    if (!odometer) {
        svg.line(p.left, p.y(budget), p.right, p.y(budget), kBudget, 1.5, "6 4");
        svg.text(p.right, p.y(budget) - 5, "budget ε = " + formatNumber(budget), "end", 11, kBudget);
    }

    if (n == 0) {
        svg.text((p.left + p.right) / 2, (p.top + p.bottom) / 2, "No requests yet", "middle", 14, kInk);
        return svg.finish();
    }
    std::string path = svgNumber(p.x(0)) + "," + svgNumber(p.y(0));
    std::string expost = path;
    for (std::size_t i = 0; i < n; ++i) {
        const auto &e = report.events[i];
        path += " " + svgNumber(p.x(static_cast<double>(i + 1))) + "," + svgNumber(p.y(e.epsilonSpentAfter));
        expost += " " + svgNumber(p.x(static_cast<double>(i + 1))) + "," + svgNumber(p.y(e.expostSpentAfter));
    }
    svg.polyline(path, kSpend, 2.0);
    if (unified)
        svg.polyline(expost, kExpost, 1.5);
    if (preplanned.size() == n) {
        std::string line = svgNumber(p.x(0)) + "," + svgNumber(p.y(0));
        for (std::size_t i = 0; i < n; ++i)
            line += " " + svgNumber(p.x(static_cast<double>(i + 1))) + "," + svgNumber(p.y(preplanned[i]));
        svg.polyline(line, kExpost, 1.5);
    }
    for (std::size_t i = 0; i < n; ++i) {
        const auto &e = report.events[i];
        const bool refused = e.status == session::EventStatus::Refused;
        svg.circle(p.x(static_cast<double>(i + 1)), p.y(e.epsilonSpentAfter), refused ? 4.5 : 3.0,
                   refused ? kBudget : kSpend);
    }
    // Legend.
    double lx = p.left + 10;
    const double ly = p.top + 8;
    svg.line(lx, ly, lx + 20, ly, kSpend, 2.0);
    svg.text(lx + 24, ly + 4,
             odometer  ? "odometer ε (holds at every request)"
             : unified ? "total spent (ε-equivalent)"
                       : "spent (ε-equivalent)",
             "start", 11, kInk);
    lx += odometer ? 230 : 190;
    if (odometer) {
        svg.line(lx, ly, lx + 20, ly, kExpost, 1.5);
        svg.text(lx + 24, ly + 4, "a ledger planned in advance", "start", 11, kInk);
        lx += 190;
    }
    if (unified) {
        svg.line(lx, ly, lx + 20, ly, kExpost, 1.5);
        svg.text(lx + 24, ly + 4, "ex-post side (ε)", "start", 11, kInk);
        lx += 130;
    }
    svg.circle(lx + 6, ly, 4.5, kBudget);
    svg.text(lx + 16, ly + 4, "refused request", "start", 11, kInk);
    return svg.finish();
}

double comparisonChartHeight(std::size_t strategies)
{
    return 90.0 + 30.0 * static_cast<double>(strategies);
}

std::string comparisonSvg(const SessionReport &report)
{
    const auto &c = *report.comparison.comparison;
    const double rowHeight = 30.0;
    const double height = comparisonChartHeight(c.strategies.size());
    SvgWriter svg(kChartWidth, height, "Composition comparison: ε at δ under each strategy");
    const double budget = report.settings.epsilon; // +∞ for an odometer session: no line
    double top = std::isfinite(budget) ? budget : 0.0;
    for (const auto &s : c.strategies)
        if (s.answer && std::isfinite(s.answer->epsilon))
            top = std::max(top, s.answer->epsilon);
    Plot p;
    p.left = 180; // room for "Privacy-loss distribution"
    p.right = kChartWidth - 150;
    p.top = 50;
    p.bottom = height - 40;
    p.xMin = 0;
    if (!(top > 0.0))
        top = 1.0;
    const double step = tickStep(top * 1.05, 5);
    p.xMax = std::ceil(top * 1.05 / step) * step;
    svg.text(kChartWidth / 2, 22,
             "ε at δ = " + formatNumber(report.comparison.delta) + " of this session's releases, by strategy",
             "middle", 13, kInk, true);
    for (double v = 0; v <= p.xMax + step / 2; v += step) {
        svg.line(p.x(v), p.top, p.x(v), p.bottom, kGrid);
        svg.text(p.x(v), p.bottom + 16, formatNumber(v, 3), "middle", 11, kInk);
    }
    svg.line(p.left, p.bottom, p.right, p.bottom, kInk);
    svg.line(p.left, p.top, p.left, p.bottom, kInk);
    for (std::size_t i = 0; i < c.strategies.size(); ++i) {
        const auto &s = c.strategies[i];
        const double yTop = p.top + 5 + rowHeight * static_cast<double>(i);
        svg.text(p.left - 8, yTop + 15, std::string(accounting::strategyTitle(s.name)), "end", 12, kInk);
        if (!s.answer) {
            svg.text(p.left + 6, yTop + 15, "does not apply to this ledger", "start", 11, "#777777");
            continue;
        }
        const double eps = s.answer->epsilon;
        const double length = std::isfinite(eps) ? std::min(eps, p.xMax) : p.xMax;
        svg.rect(p.left, yTop, p.x(length) - p.left, rowHeight - 10, kBar);
        svg.text(p.x(length) + 6, yTop + 15, std::isfinite(eps) ? comparisonEpsilonText(s) : "no finite ε",
                 "start", 11, kInk);
    }
    if (std::isfinite(budget)) {
        svg.line(p.x(budget), p.top - 4, p.x(budget), p.bottom, kBudget, 1.5, "6 4");
        svg.text(p.x(budget) + 4, p.top - 6, "budget ε = " + formatNumber(budget), "start", 11, kBudget);
    }
    svg.text((p.left + p.right) / 2, height - 10, "ε (upper bound)", "middle", 11, kInk);
    return svg.finish();
}

} // namespace pbx::report
