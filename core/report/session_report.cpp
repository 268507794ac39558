// SPDX-License-Identifier: MIT
#include "core/report/session_report.h"

#include "core/accounting/per_step_dp.h"
#include "core/session/growing/growing_release.h"
#include "core/session/ledger/session_ledger.h"
#include "core/util/number_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace pbx::report {

namespace {

/// δ for the comparison when the budget has none (pure ε sessions): strategies that only
/// apply at δ > 0 then still show what the releases would cost at a small δ.
constexpr double kFallbackDelta = 1e-6;

ReportComparison compare(const session::Session &session)
{
    ReportComparison out;
    const double delta = session.settings().delta;
    out.delta = delta > 0.0 && delta < 1.0 ? delta : kFallbackDelta;
    auto ledger = accounting::ledgerFromSession(session);
    if (!ledger) {
        out.unavailable = "This session's ledger cannot be compared across composition strategies: "
                          + ledger.error().message + ".";
        return out;
    }
    out.privacyEvents = ledger->events.size();
    if (ledger->events.empty()) {
        out.unavailable = "Nothing was released, so there is nothing to compare.";
        return out;
    }
    accounting::ComparisonQuery query;
    query.epsilonAtDelta = true;
    query.delta = out.delta;
    query.curves = false;
    // As the comparison view does by default: basic, advanced and optimal composition take the
    // Gaussian and zCDP steps as (ε, δ) at δ/(2k) each (per_step_dp.h), instead of "does not apply".
    out.convertedSteps = accounting::convertibleSteps(*ledger);
    out.perStepDelta = accounting::autoPerStepDelta(out.delta, out.convertedSteps);
    query.perStepDelta = out.perStepDelta;
    auto comparison = accounting::compareStrategies(*ledger, query);
    if (!comparison) {
        out.unavailable = "The composition comparison failed: " + comparison.error().message + ".";
        return out;
    }
    out.comparison = std::move(comparison).value();
    return out;
}

} // namespace

std::string comparisonEpsilonText(const accounting::StrategyResult &strategy)
{
    return strategy.answer ? pbx::formatDisplay(strategy.answer->epsilon, Rounding::Up) : "does not apply";
}

std::string formatNumber(double x, int digits)
{
    if (std::isnan(x))
        return "–";
    if (std::isinf(x))
        return x > 0 ? "∞" : "−∞";
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, x);
    return buffer;
}

std::string formatUpper(double x, int digits)
{
    return std::isfinite(x) && x != 0.0 ? pbx::formatDirected(x, digits, Rounding::Up)
                                        : formatNumber(x, digits);
}

std::string formatLower(double x, int digits)
{
    return std::isfinite(x) && x != 0.0 ? pbx::formatDirected(x, digits, Rounding::Down)
                                        : formatNumber(x, digits);
}

std::string describeTarget(const session::AccuracyTarget &target)
{
    const std::string confidence = formatNumber(target.confidence * 100.0, 4) + " %";
    if (target.kind == session::TargetKind::Relative)
        return "±" + formatNumber(target.error * 100.0, 4) + " % (relative) at " + confidence;
    return "±" + formatNumber(target.error) + " at " + confidence;
}

SessionReport collectReport(const session::Session &session, ReportSource source)
{
    SessionReport r;
    r.source = std::move(source);
    const data::Table &table = session.table();
    r.datasetName = table.name();
    // A database source's declared count, or a public table's COUNT(*) once run (its schema has no rows).
    r.rows = session.publicRowCount();
    r.provenance = table.provenance();
    r.files = table.files();
    for (std::size_t c = 0; c < table.columnCount(); ++c) {
        const data::ColumnInfo &info = table.columnInfo(c);
        // Public metadata only: categories read from the data (ColumnInfo::domainFromData) would
        // disclose values, so they are not listed.
        ReportColumn column;
        column.name = info.name;
        column.type = info.type == data::ColumnType::Numeric ? "numeric" : "categorical";
        column.declaredBounds = info.declaredBounds;
        column.description = info.description;
        column.domainFromData = info.domainFromData;
        if (info.type == data::ColumnType::Categorical && !info.domainFromData)
            column.categories = info.categories;
        r.columns.push_back(std::move(column));
    }
    r.settings = session.settings();
    const filters::PrivacyFilter &filter = session.filter();
    r.systems = filter.systems();
    r.epsilonSpent = filter.epsilonSpent();
    r.deltaSpent = filter.deltaSpent();
    r.nativeUnit = std::string(filter.unitSymbol());
    r.events = session.events();
    for (const auto &e : r.events) {
        // A BBScheduler, BBImprover or ERMG stream recorded before the exact noise gets the
        // continuous design's note (mechanismNote "<name>:continuous").
        std::string name = e.mechanismName();
        if (e.request.growing()
            && session::recordedNoiseDesign(e, table) == session::GrowingNoiseDesign::Continuous)
            name += ":continuous";
        if (!name.empty() && std::find(r.mechanisms.begin(), r.mechanisms.end(), name) == r.mechanisms.end())
            r.mechanisms.push_back(name);
    }
    r.comparison = compare(session);
    return r;
}

} // namespace pbx::report
