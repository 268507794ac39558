// SPDX-License-Identifier: MIT
#include "core/report/report_html.h"

#include "core/accounting/strategy_titles.h"
#include "core/report/event_description.h"
#include "core/report/mechanism_notes.h"
#include "core/report/report_charts.h"
#include "core/report/svg_writer.h"
#include "core/session/ledger/odometer_path.h"
#include "core/util/number_format.h"
#include "core/util/plural.h"

#include <algorithm>
#include <cmath>

namespace pbx::report {

namespace {

std::string esc(std::string_view text)
{
    return xmlEscape(text);
}

std::string cell(std::string_view text, bool header = false)
{
    return header ? "<th>" + esc(text) + "</th>" : "<td>" + esc(text) + "</td>";
}

std::string row(const std::vector<std::string> &cells, bool header = false)
{
    std::string out = "<tr>";
    for (const auto &c : cells)
        out += cell(c, header);
    return out + "</tr>\n";
}

std::string keyValue(std::string_view key, std::string_view value)
{
    return "<tr><th align=\"left\">" + esc(key) + "</th><td>" + esc(value) + "</td></tr>\n";
}

constexpr const char *kTable = "<table border=\"1\" cellspacing=\"0\" cellpadding=\"4\" width=\"100%\">\n";

std::string seededBanner()
{
    return std::string(
               "<p class=\"seeded\" style=\"background-color:#fff0c0; color:#8a3b00; font-weight:bold; "
               "padding:6px; border:1px solid #c08000;\">⚠ ")
           + esc(kSeededMark) + "</p>\n";
}

std::string filterTitle(filters::FilterKind kind)
{
    return filterNote(kind).title + " (" + std::string(filters::filterKindName(kind)) + ")";
}

/// An odometer session's statement: its reading after the last request is the guarantee.
std::string odometerSentence(const SessionReport &r)
{
    const auto &s = r.settings;
    const auto preplanned = session::preplannedEpsilonPath(r.events, s.delta);
    return "Only δ was fixed in advance: the session ran under a privacy odometer, which answered every request "
           "and bounds the privacy loss at every request at once. Stopped where it stopped, the whole session is "
           "(ε, δ) = ("
           + formatUpper(r.epsilonSpent) + ", " + formatNumber(s.delta) + ")-differentially private under "
           + std::string(data::neighbouringName(s.neighbours))
           + " neighbours, whatever was asked and in whatever order. A ledger planned in advance would have "
             "cost ε ≈ "
           + formatUpper(preplanned.empty() ? 0.0 : preplanned.back())
           + " for the same releases: the difference is the price of not committing to a budget.";
}

std::string guaranteeSentence(const SessionReport &r)
{
    const auto &s = r.settings;
    if (s.filter == filters::FilterKind::Odometer)
        return odometerSentence(r);
    std::string filter = filterNote(s.filter).title; // "Basic composition filter" → "basic …"
    if (!filter.empty() && filter[0] >= 'A' && filter[0] <= 'Z' && filter.rfind("Output", 0) != 0)
        filter[0] = static_cast<char>(filter[0] - 'A' + 'a');
    return "Whatever was asked, and in whatever order, the whole session is (ε, δ) = ("
           + formatNumber(s.epsilon) + ", " + formatNumber(s.delta) + ")-differentially private under "
           + std::string(data::neighbouringName(s.neighbours)) + " neighbours: the " + filter
           + " refused every request that would have exceeded it.";
}

std::string costText(const session::LedgerEvent &e)
{
    if (e.status == session::EventStatus::Refused)
        return "0 (nothing released)";
    std::string text = std::string(filters::chargeUnitSymbol(e.costKind)) + " = " + formatUpper(e.cost);
    if (e.costDelta > 0.0)
        text += ", δ = " + formatUpper(e.costDelta);
    return text;
}

std::string answerText(const session::LedgerEvent &e)
{
    if (e.status == session::EventStatus::Refused)
        return "refused";
    if (const std::string picks = selectionText(e); !picks.empty())
        return (e.strategyRecord()->labels.size() == 1
                    ? "mode: "
                    : "top " + std::to_string(e.strategyRecord()->labels.size()) + ": ")
               + picks;
    if (e.strategyRecord())
        return std::to_string(e.strategyRecord()->values.size())
               + (e.strategyRecord()->values.size() == 1 ? " value (listed below)"
                                                         : " values (listed below)");
    if (e.odpRecord() && e.request.odp() && e.request.odp()->mechanism == session::OdpMechanism::Svt)
        return std::to_string(e.odpRecord()->answers.size()) + " above/below answers (cell "
               + (e.odpRecord()->cell ? std::to_string(*e.odpRecord()->cell) : std::string("worst case"))
               + ")";
    std::string text = formatNumber(e.answer, 8);
    if (std::isfinite(e.errorBound) && e.errorBound > 0.0)
        text += " ± " + formatNumber(e.errorBound);
    else if (std::isinf(e.errorBound))
        text += " (no error bound)";
    return text;
}

std::string reasonText(const session::LedgerEvent &e)
{
    std::string text = e.reason;
    if (!e.accounting.empty()) {
        // Exact fractions as decimals; the exact values in the footnote under the table.
        const ReadableText accounting = readableFractions(e.accounting);
        text += (text.empty() ? "" : " — ") + accounting.text + (accounting.exact.empty() ? "" : " †");
    }
    if (e.status == session::EventStatus::Released && !e.attempts.empty() && e.attempts.size() > 1)
        text += (text.empty() ? "" : " — ") + std::to_string(e.attempts.size()) + " attempts";
    if (e.odpRecord())
        text += (text.empty() ? "" : " — ") + std::string("reserved ε = ")
                + formatNumber(e.odpRecord()->reservedEpsilon)
                + ", settled ε = " + formatNumber(e.odpRecord()->settledEpsilon);
    return text;
}

std::string chartHtml(const ReportChart &chart, const HtmlOptions &options)
{
    if (options.charts == HtmlOptions::ChartMode::InlineSvg)
        return "<div class=\"chart\">" + chart.svg + "</div>\n";
    const double scale = std::min(1.0, options.maxChartWidth / chart.width);
    return "<p><img src=\"pbx-chart:" + chart.name + "\" width=\"" + svgNumber(chart.width * scale)
           + "\" height=\"" + svgNumber(chart.height * scale) + "\" alt=\"" + esc(chart.name) + "\"/></p>\n";
}

/// Categories listed in the dataset table; a longer list ends "… and N more".
constexpr std::size_t kMaxListedCategories = 60;

/// A column's domain as its public metadata declares it: numeric bounds, or the categories; a
/// domain read from the data is said to be so and not listed (its labels would disclose values).
std::string domainText(const ReportColumn &c)
{
    if (c.domainFromData)
        return c.type == "categorical"
                   ? std::string(
                       "not listed: the categories were read from the data, not declared in metadata")
                   : std::string("type read from the data, not declared in metadata; no declared bounds");
    if (c.declaredBounds)
        return "[" + formatNumber(c.declaredBounds->lower) + ", " + formatNumber(c.declaredBounds->upper)
               + "]";
    if (c.categories.empty())
        return "–";
    std::string text = std::to_string(c.categories.size()) + " categories: ";
    for (std::size_t i = 0; i < c.categories.size() && i < kMaxListedCategories; ++i)
        text += (i > 0 ? ", " : "") + c.categories[i];
    if (c.categories.size() > kMaxListedCategories)
        text += " … and " + std::to_string(c.categories.size() - kMaxListedCategories) + " more";
    return text;
}

std::string datasetSection(const SessionReport &r)
{
    std::string out = "<h2>Dataset</h2>\n" + std::string(kTable);
    out += keyValue("Name", r.datasetName);
    out += keyValue("Rows", std::to_string(r.rows));
    out += keyValue("Provenance", r.provenance.empty() ? "not recorded" : r.provenance);
    if (r.files) {
        if (!r.files->path.empty()) { // a database source has no file (its place is in the provenance)
            out += keyValue("File", r.files->path);
            out += keyValue("SHA-256", r.files->sha256);
        }
        if (!r.files->metadataPath.empty()) {
            out += keyValue("Metadata file", r.files->metadataPath);
            out += keyValue("Metadata SHA-256", r.files->metadataSha256);
        }
    } else {
        out += keyValue("File", "embedded in pbx (no file)");
    }
    out += "</table>\n<h3>Columns (public metadata)</h3>\n" + std::string(kTable);
    out += row({"column", "type", "declared bounds or categories", "description"}, true);
    for (const auto &c : r.columns)
        out += row({c.name, c.type, domainText(c), c.description});
    return out + "</table>\n";
}

std::string budgetSection(const SessionReport &r)
{
    const auto &s = r.settings;
    std::string out = "<h2>Budget and filter</h2>\n" + std::string(kTable);
    out += keyValue("Budget", s.filter == filters::FilterKind::Odometer
                                  ? "no ε budget (an odometer), δ = " + formatNumber(s.delta)
                                  : "ε = " + formatNumber(s.epsilon) + ", δ = " + formatNumber(s.delta));
    out += keyValue("Neighbouring relation", std::string(data::neighbouringName(s.neighbours)));
    out += keyValue("Filter", filterTitle(s.filter));
    if (s.filter == filters::FilterKind::Unified)
        out += keyValue("Unified split",
                        "ex-post side: " + formatNumber(s.split.expostEpsilonShare * 100.0, 4) + " % of ε, "
                            + formatNumber(s.split.expostDeltaShare * 100.0, 4)
                            + " % of δ; the zCDP side the rest");
    out += keyValue("Noise", s.seed ? "seeded (seed " + std::to_string(*s.seed)
                                          + "): reproducible, for teaching and tests, not for real releases"
                                    : std::string("operating-system randomness"));
    out += "</table>\n<h3>Spent and remaining</h3>\n" + std::string(kTable);
    out += row(
        {"system", "unit", "budget", "spent", "remaining", "ε budget", "δ budget", "ε-equivalent spent"},
        true);
    const auto orNone = [](double budget, std::string text) { // an odometer has no budget
        return std::isfinite(budget) ? text : std::string("none");
    };
    for (const auto &sys : r.systems)
        out += row({sys.name, sys.unitSymbol, orNone(sys.budget, formatNumber(sys.budget)),
                    formatUpper(sys.spent),
                    orNone(sys.budget, formatLower(std::max(0.0, sys.budget - sys.spent))),
                    orNone(sys.epsilonBudget, formatNumber(sys.epsilonBudget)), formatNumber(sys.deltaBudget),
                    formatUpper(sys.epsilonSpent)});
    if (s.filter == filters::FilterKind::Odometer)
        return out + "</table>\n<p>The odometer's reading is the guarantee: (ε, δ) = ("
               + esc(formatUpper(r.epsilonSpent)) + ", " + esc(formatNumber(s.delta))
               + ") after the last request (see the summary).</p>\n";
    out += "</table>\n<p>What is spent corresponds to (ε, δ) ≈ (" + esc(formatUpper(r.epsilonSpent)) + ", "
           + esc(formatUpper(r.deltaSpent))
           + "): a gauge of the spend, not the guarantee; the guarantee is the budget, enforced by the filter.</p>\n";
    return out;
}

std::string requestsSection(const SessionReport &r)
{
    std::size_t released = 0;
    for (const auto &e : r.events)
        released += e.status == session::EventStatus::Released;
    std::string out
        = "<h2>Requests</h2>\n<p>" + countNoun(r.events.size(), "request", "requests") + ", "
          + std::to_string(released) + " released, " + std::to_string(r.events.size() - released)
          + " refused. Error bars hold at each request's confidence; costs are in the unit the filter "
            "charged, rounded up.</p>\n"
          + kTable;
    // Nine narrow columns, and under each request a full-width row for its reason and accounting
    // (long text), so that the table fits a portrait page.
    out += "<tr><th width=\"4%\" class=\"n\">#</th><th width=\"8%\">id</th><th width=\"17%\">request</th>"
           "<th width=\"10%\">target</th><th width=\"9%\">status</th><th width=\"13%\">mechanism</th>"
           "<th width=\"15%\">answer ± error bar</th><th width=\"12%\">cost</th><th width=\"12%\">spent after ("
           + esc(r.nativeUnit) + ")</th></tr>\n";
    std::vector<std::string> footnotes;
    for (const auto &e : r.events) {
        // The request number never wraps ("1" over "4" for 14 in a narrow PDF column).
        out += "<tr><td class=\"n\">" + esc(std::to_string(e.index + 1)) + "</td>" + cell(e.request.id)
               + cell(describeRequest(e.request)) + cell(describeTarget(e.request.target))
               + cell(std::string(session::eventStatusName(e.status)))
               + cell(e.mechanism == session::EventMechanism::None ? std::string("–") : e.mechanismName())
               + cell(answerText(e)) + cell(costText(e)) + cell(formatUpper(e.spentAfter)) + "</tr>\n";
        if (const std::string reason = reasonText(e); !reason.empty()) {
            const std::vector<std::string> exact = exactParameters(e);
            std::string joined;
            for (const auto &x : exact)
                joined += (joined.empty() ? "" : "; ") + x;
            if (!exact.empty())
                footnotes.push_back("#" + std::to_string(e.index + 1) + ": " + joined);
            // The exact values also as the row's title (a browser shows it on hover).
            out += "<tr><td></td><td colspan=\"8\" class=\"reason\""
                   + (joined.empty() ? std::string() : " title=\"" + esc(joined) + "\"") + "><i>"
                   + esc(reason) + "</i></td></tr>\n";
        }
        if (e.strategyRecord() && !e.strategyRecord()->values.empty()) {
            const auto &rec = *e.strategyRecord();
            const bool mode
                = e.request.strategy() && e.request.strategy()->kind == session::StrategyRequestKind::Mode;
            std::string values = "<table border=\"0\" cellspacing=\"0\" cellpadding=\"2\">"
                                 + row({mode ? "pick" : "value", mode ? "category" : "released",
                                        mode ? "count gap ≤ (rows)" : "± error bar"},
                                       true);
            for (std::size_t i = 0; i < rec.values.size(); ++i) {
                const std::string label = i < rec.labels.size() ? rec.labels[i] : std::to_string(i + 1);
                values += row(
                    {mode ? std::to_string(i + 1) : label, mode ? label : formatNumber(rec.values[i], 8),
                     i < rec.halfWidths.size() ? formatNumber(rec.halfWidths[i]) : std::string("–")});
            }
            values += "</table>";
            out += "<tr><td></td><td colspan=\"8\">" + values
                   + (rec.note.empty() ? std::string() : "<p>" + esc(rec.note) + "</p>") + "</td></tr>\n";
        }
    }
    out += "</table>\n";
    if (!footnotes.empty()) {
        std::string text;
        for (const auto &f : footnotes)
            text += (text.empty() ? "" : "; ") + f;
        out += "<p class=\"footnote\">† Exact noise parameters (shown rounded above): " + esc(text)
               + ".</p>\n";
    }
    return out;
}

/// How a strategy used the per-step (ε, δ) view, after its method: "; 20 Gaussian/zCDP steps at
/// δ = 2.5e-8 each (Σδ = 5e-7)".
std::string perStepText(const accounting::StrategyResult &s)
{
    if (!s.perStep)
        return {};
    const auto &p = *s.perStep;
    return "; " + std::to_string(p.convertedSteps)
           + (p.convertedSteps == 1 ? " Gaussian/zCDP step at δ = " : " Gaussian/zCDP steps at δ = ")
           + formatDisplay(p.stepDelta, Rounding::Up, 3) + (p.convertedSteps == 1 ? "" : " each")
           + " (Σδ = " + formatDisplay(p.stepsDelta, Rounding::Up, 3) + ")";
}

std::string comparisonSection(const SessionReport &r, const std::vector<ReportChart> &charts,
                              const HtmlOptions &options)
{
    std::string out = "<h2>Composition comparison</h2>\n";
    const auto &rc = r.comparison;
    if (!rc.comparison)
        return out + "<p class=\"unavailable\">" + esc(rc.unavailable) + "</p>\n";
    const auto &c = *rc.comparison;
    out += "<p>The session's releases as " + std::to_string(rc.privacyEvents)
           + " privacy events, accounted by every composition strategy: ε at δ = "
           + esc(formatNumber(rc.delta))
           + (c.partitions > 1 ? ", " + std::to_string(c.partitions) + " partitions composed in parallel"
                               : "")
           + ".</p>\n";
    for (const auto &chart : charts)
        if (chart.name == "comparison")
            out += chartHtml(chart, options);
    if (rc.perStepDelta > 0.0)
        out += "<p>Basic, advanced and optimal composition compose (ε, δ) guarantees only: as in the "
               "comparison view, each of the "
               + std::to_string(rc.convertedSteps) + " Gaussian or zCDP steps is stated as (ε, δ) at δ = "
               + esc(formatDisplay(rc.perStepDelta, Rounding::Up, 3))
               + " (δ/(2k); Balle &amp; Wang 2018, Thm 8; Canonne, Kamath &amp; Steinke 2020, Prop. 12), "
                 "and those steps' δ counts towards the total.</p>\n";
    out += kTable
           + row({"strategy", "ε at δ = " + formatNumber(rc.delta), "method or why it does not apply"}, true);
    for (const auto &s : c.strategies)
        out += row(
            {std::string(accounting::strategyTitle(s.name)), comparisonEpsilonText(s),
             s.answer ? s.answer->method + perStepText(s) : (s.error ? s.error->message : std::string())});
    return out + "</table>\n";
}

std::string noteHtml(const MethodNote &note)
{
    std::string out = "<h3>" + esc(note.title) + "</h3>\n<p>" + esc(note.text) + "</p>\n";
    if (!note.sources.empty())
        out += "<p class=\"sources\"><i>Sources: " + esc(note.sources) + "</i></p>\n";
    return out;
}

} // namespace

std::vector<ReportChart> reportCharts(const SessionReport &report)
{
    std::vector<ReportChart> charts;
    charts.push_back({"budget-path", budgetPathSvg(report), kChartWidth, kChartHeight});
    if (report.comparison.comparison) {
        const double height = comparisonChartHeight(report.comparison.comparison->strategies.size());
        charts.push_back({"comparison", comparisonSvg(report), kChartWidth, height});
    }
    return charts;
}

std::string reportHtml(const SessionReport &r, const HtmlOptions &options)
{
    const auto charts = reportCharts(r);
    const bool banner = r.seeded() && options.seededBanner;
    std::string out
        = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>Session report: "
          + esc(r.datasetName) + "</title>\n"
          + "<style>\nbody { font-family: 'DejaVu Sans', Helvetica, Arial, sans-serif; }\n"
          + (options.charts == HtmlOptions::ChartMode::InlineSvg
                 ? "body { font-size: 10pt; max-width: 75em; margin: 1em auto; }\n"
                 : "")
          + "table { border-collapse: collapse; margin-bottom: 0.8em; }\nth, td { border: 1px solid "
            "#999; padding: 3px 5px; vertical-align: top; text-align: left; }\n"
            "th { background-color: #eeeeee; }\n.n { white-space: nowrap; }\n.reason { color: #444444; }\n.chart svg { max-width: 100%; height: auto; }\n"
            "@media print { .seeded { position: fixed; top: 0; left: 0; right: 0; } }\n</style>\n"
            "</head>\n<body>\n";
    if (banner)
        out += seededBanner();
    out += "<h1>Privacy Budget Explorer — session report</h1>\n" + std::string(kTable);
    if (!r.source.path.empty())
        out += keyValue("Session file", r.source.path);
    if (!r.source.generator.empty())
        out += keyValue("Made by", r.source.generator);
    if (!r.source.created.empty())
        out += keyValue("Made on", r.source.created);
    out += "</table>\n<h2>Summary</h2>\n<p>" + esc(guaranteeSentence(r)) + "</p>\n";
    for (const auto &note : r.source.fileNotes)
        out += "<p>Note: " + esc(note) + "</p>\n";
    out += datasetSection(r) + budgetSection(r) + requestsSection(r);
    out += "<h2>Budget path</h2>\n";
    out += chartHtml(charts.front(), options);
    out += comparisonSection(r, charts, options);
    out += "<h2>How these numbers were made</h2>\n";
    out += noteHtml(filterNote(r.settings.filter));
    for (const auto &m : r.mechanisms)
        out += noteHtml(mechanismNote(m));
    out += noteHtml(comparisonNote());
    if (banner)
        out += seededBanner();
    return out + "</body>\n</html>\n";
}

} // namespace pbx::report
