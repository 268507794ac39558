// SPDX-License-Identifier: MIT
#include "core/report/event_description.h"

#include "core/report/session_report.h"
#include "core/session/growing/growing_release.h"
#include "core/session/growing/growing_smalldb.h"
#include "core/session/strategies/strategy_release.h"
#include "core/util/number_format.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <string_view>
#include <variant>

namespace pbx::report {

namespace {

/// How the ledger and the card show a number: formatDisplay to the nearest, grouped.
std::string shown(double x, int significant)
{
    return formatDisplay(x, Rounding::Nearest, significant, true);
}

/// True when `text` is empty or only white space as Qt counts it (QChar::isSpace: ASCII white
/// space, U+0085, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000), so that
/// the ledger leaves out the same predicates it did when it trimmed them as QStrings.
bool isBlank(std::string_view text)
{
    static constexpr std::array<std::string_view, 19> wide{
        "\xC2\x85",     "\xC2\xA0",     "\xE1\x9A\x80", "\xE2\x80\x80", "\xE2\x80\x81",
        "\xE2\x80\x82", "\xE2\x80\x83", "\xE2\x80\x84", "\xE2\x80\x85", "\xE2\x80\x86",
        "\xE2\x80\x87", "\xE2\x80\x88", "\xE2\x80\x89", "\xE2\x80\x8A", "\xE2\x80\xA8",
        "\xE2\x80\xA9", "\xE2\x80\xAF", "\xE2\x81\x9F", "\xE3\x80\x80"};
    std::size_t i = 0;
    while (i < text.size()) {
        if (std::string_view(" \t\n\v\f\r").find(text[i]) != std::string_view::npos) {
            ++i;
            continue;
        }
        const auto match = [&](std::string_view w) { return text.substr(i, w.size()) == w; };
        const auto *it = std::find_if(wide.begin(), wide.end(), match);
        if (it == wide.end())
            return false;
        i += it->size();
    }
    return true;
}

/// The confidence as a percentage: four significant digits, more when they would round 99.999 %
/// up to "100 %".
std::string confidenceText(double confidence)
{
    for (int significant = 4; significant <= 9; ++significant) {
        const std::string text = formatDisplay(confidence * 100.0, Rounding::Nearest, significant, false);
        if (confidence >= 1.0 || std::strtod(text.c_str(), nullptr) < 100.0)
            return text + " %";
    }
    return "> 99.9999999 %";
}

} // namespace

std::string describeQuery(const data::QuerySpec &query)
{
    std::string text(data::aggregateName(query.aggregate));
    if (query.aggregate != data::Aggregate::Count)
        text += "(" + query.column + ")";
    if (!isBlank(query.where))
        text += " where " + query.where;
    return text;
}

std::string describeOdpRequest(const session::OdpRequestSpec &spec)
{
    switch (spec.mechanism) {
    case session::OdpMechanism::PtrIqr: {
        const auto &p = spec.ptrIqr;
        return "PTR interquartile range(" + p.column + "), ε = " + shown(p.epsilon, 4)
               + " per test, median ε = " + shown(p.medianEpsilon, 4);
    }
    case session::OdpMechanism::EarlyStop: {
        const auto &e = spec.earlyStop;
        return "early-stopped mean(" + e.column + "), ε₀ = " + shown(e.stepEpsilon, 4) + " per step, at most "
               + std::to_string(e.stops.empty() ? 0 : e.stops.back()) + " steps (" + e.composition + ")";
    }
    case session::OdpMechanism::Recover: {
        const auto &r = spec.recover;
        return "logistic regression(" + r.labelColumn + " > " + shown(r.labelThreshold, 6)
               + ") with budget recovery, ε = " + shown(r.epsilonModel, 4) + " + " + shown(r.epsilonTest, 4);
    }
    case session::OdpMechanism::Svt:
        break;
    }
    const auto &s = spec.svt;
    return "sparse vector(" + s.column + ") ≥ " + std::to_string(s.threshold)
           + ", c = " + std::to_string(s.cutoff) + ", ε = " + shown(s.epsilon, 4);
}

std::string requestLine(const session::QueryRequest &request)
{
    switch (request.family()) {
    case session::RequestFamily::Strategy:
        return session::describeStrategyRequest(request);
    case session::RequestFamily::Odp:
        return describeOdpRequest(*request.odp());
    case session::RequestFamily::Growing:
        return session::describeGrowingRequest(request);
    case session::RequestFamily::Release:
        break;
    }
    return describeQuery(request.query);
}

std::string describeRequest(const session::QueryRequest &request)
{
    if (const auto *odp = request.odp())
        return "output-DP " + std::string(session::odpMechanismName(odp->mechanism));
    const auto *strategy = request.strategy();
    const auto &q = request.query;
    std::string text = strategy ? std::string(session::strategyRequestKindName(strategy->kind))
                                : std::string(data::aggregateName(q.aggregate));
    if (!q.column.empty())
        text += "(" + q.column + ")";
    if (q.bounds)
        text += " clipped to [" + formatNumber(q.bounds->lower) + ", " + formatNumber(q.bounds->upper) + "]";
    if (strategy && strategy->kind == session::StrategyRequestKind::Derived)
        text += " of " + strategy->of;
    text += q.where.empty() ? std::string(" over every row") : " where " + q.where;
    return text;
}

bool hasAccuracyTarget(const session::QueryRequest &request)
{
    const auto family = request.family();
    return family != session::RequestFamily::Odp && family != session::RequestFamily::Growing;
}

std::string targetLine(const session::AccuracyTarget &target)
{
    const std::string confidence = confidenceText(target.confidence);
    if (target.kind == session::TargetKind::Relative)
        return "±" + shown(target.error * 100.0, 3) + " % @ " + confidence;
    return "±" + shown(target.error, 4) + " @ " + confidence;
}

double odpReturnedEpsilon(const session::LedgerEvent &event)
{
    const auto *record = event.odpRecord();
    if (!record || !record->cell)
        return 0.0;
    return record->reservedEpsilon - record->settledEpsilon;
}

namespace {

/// The realised cell in words, by mechanism: "PTR case 2 of 3", "stopped after 40 steps",
/// "model released", "realised cell j = 2 of c = 3". Precondition: record.cell.
std::string odpCellText(const session::OdpRequestSpec &spec, const session::OdpRecord &r)
{
    switch (spec.mechanism) {
    case session::OdpMechanism::PtrIqr:
        return "PTR case " + std::to_string(*r.cell) + " of 3";
    case session::OdpMechanism::EarlyStop:
        if (!r.earlyStop)
            return "stopping point " + std::to_string(*r.cell);
        return "stopped after " + shown(static_cast<double>(r.earlyStop->iterates.size()), 17)
               + (r.earlyStop->iterates.size() == 1 ? " step" : " steps");
    case session::OdpMechanism::Recover:
        return *r.cell == 0 ? "model withheld (test failed)" : "model released";
    case session::OdpMechanism::Svt:
        break;
    }
    return "realised cell j = " + std::to_string(*r.cell) + " of c = " + std::to_string(spec.svt.cutoff);
}

} // namespace

std::string odpOutcomeText(const session::LedgerEvent &event)
{
    const auto *record = event.odpRecord();
    const auto *spec = event.request.odp();
    if (!record || !spec || event.status != session::EventStatus::Released)
        return {};
    // Losses rounded up, the refund down, as the gauge and the lessons write them (issue 29 §3:
    // the card's "settled ε = 0.05682" sat beside the gauge's spent 0.05683 for the same loss).
    const auto loss = [](double x) { return formatDisplay(x, Rounding::Up, 4, true); };
    const std::string reserved = "reserved ε = " + loss(record->reservedEpsilon);
    if (!record->cell)
        return reserved + " · settled at the worst case ε = " + loss(record->settledEpsilon)
               + " (nothing returned)";
    return reserved + " · " + odpCellText(*spec, *record) + " · settled ε = " + loss(record->settledEpsilon)
           + " · returned " + formatDisplay(odpReturnedEpsilon(event), Rounding::Down, 4, true);
}

std::string odpHeadline(const session::LedgerEvent &event)
{
    const auto *record = event.odpRecord();
    const auto *spec = event.request.odp();
    if (!record || !spec)
        return {};
    const auto &r = *record;
    if (!r.cell)
        return "settled at the worst case";
    if (spec->mechanism == session::OdpMechanism::PtrIqr && r.ptrIqr) {
        if (!r.ptrIqr->iqr)
            return "PTR: both tests failed (⊥)";
        std::string text = "IQR ≈ " + shown(*r.ptrIqr->iqr, 4);
        if (r.ptrIqr->median)
            text += ", median " + shown(*r.ptrIqr->median, 6);
        return text;
    }
    if (spec->mechanism == session::OdpMechanism::EarlyStop && r.earlyStop)
        return "mean ≈ " + shown(r.earlyStop->estimate, 6) + " after "
               + std::to_string(r.earlyStop->iterates.size()) + " steps";
    if (spec->mechanism == session::OdpMechanism::Recover && r.recovery)
        return (r.recovery->released ? "model released (noisy test error "
                                     : "model withheld: noisy test error ")
               + shown(r.recovery->noisyError, 4) + (r.recovery->released ? ")" : "");
    return "j = " + std::to_string(*r.cell) + " of c = " + std::to_string(spec->svt.cutoff) + " flagged";
}

std::string selectionText(const session::LedgerEvent &event)
{
    const auto *spec = event.request.strategy();
    const auto *record = event.strategyRecord();
    if (event.status != session::EventStatus::Released || !spec || !record
        || spec->kind != session::StrategyRequestKind::Mode || record->labels.empty())
        return {};
    if (record->labels.size() == 1)
        return record->labels.front();
    std::string text;
    for (std::size_t i = 0; i < record->labels.size(); ++i)
        text += (i ? ", " : "") + std::to_string(i + 1) + ". " + record->labels[i];
    return text;
}

EventKind eventKind(const session::LedgerEvent &event)
{
    if (event.status == session::EventStatus::Refused)
        return EventKind::Refused;
    if (event.request.odp() && event.odpRecord())
        return EventKind::OutputDp;
    if (event.request.growing() && event.growingRecord()) {
        if (event.growingRecord()->pmwg)
            return EventKind::PmwgStream;
        return event.growingRecord()->nsg ? EventKind::NsgStream : EventKind::RunStream;
    }
    return EventKind::Release;
}

std::vector<std::string> eventNotes(const session::LedgerEvent &event)
{
    std::vector<std::string> notes;
    if (!event.reason.empty())
        notes.push_back(event.reason);
    if (!event.accounting.empty())
        notes.push_back("Accounting: " + readableFractions(event.accounting).text);
    return notes;
}

namespace {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

/// The end of the run of decimal digits starting at `from` (== from when there is none).
std::size_t digitsEnd(std::string_view text, std::size_t from)
{
    while (from < text.size() && isDigit(text[from]))
        ++from;
    return from;
}

} // namespace

ReadableText readableFractions(std::string_view text)
{
    ReadableText out;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t eq = text.find(" = ", at);
        if (eq == std::string_view::npos) {
            out.text += text.substr(at);
            break;
        }
        const std::size_t numerator = eq + 3;
        const std::size_t slash = digitsEnd(text, numerator);
        const bool hasNumerator = slash > numerator && slash < text.size() && text[slash] == '/';
        const std::size_t end = hasNumerator ? digitsEnd(text, slash + 1) : slash;
        // A fraction of two integers, not a ratio of decimals ("2/3.5") or a date.
        const bool fraction = hasNumerator && end > slash + 1
                              && (end == text.size() || (text[end] != '.' && text[end] != '/'));
        if (!fraction) {
            out.text += text.substr(at, numerator - at);
            at = numerator;
            continue;
        }
        std::size_t nameStart = eq;
        while (nameStart > at && text[nameStart - 1] != ' ' && text[nameStart - 1] != '('
               && text[nameStart - 1] != ',')
            --nameStart;
        const std::string num(text.substr(numerator, slash - numerator));
        const std::string den(text.substr(slash + 1, end - slash - 1));
        const double value = std::strtod(num.c_str(), nullptr) / std::strtod(den.c_str(), nullptr);
        const std::string decimal = formatDisplay(value, Rounding::Nearest);
        std::string plain = decimal;
        plain.erase(std::remove(plain.begin(), plain.end(), ','), plain.end());
        const bool exact = std::strtod(plain.c_str(), nullptr) == value && std::isfinite(value);
        out.text += std::string(text.substr(at, eq - at)) + (exact ? " = " : " ≈ ") + decimal;
        if (!exact)
            out.exact.push_back(std::string(text.substr(nameStart, end - nameStart)));
        at = end;
    }
    return out;
}

std::vector<std::string> exactParameters(const session::LedgerEvent &event)
{
    return readableFractions(event.accounting).exact;
}

namespace {

RunLine runLine(const session::LedgerEvent &event, std::size_t i)
{
    RunLine line;
    line.label = session::growingEpochLabel(event, i);
    const auto &record = *event.growingRecord();
    if (record.nsg) {
        if (i < record.nsg->hard.size()) {
            line.values = {record.nsg->hard[i].answer};
            line.query = record.nsg->hard[i].query;
            line.scale = record.nsg->hard[i].scale;
        }
        return line;
    }
    const auto &epoch = record.epochs[i];
    line.values = epoch.answers;
    line.bound = epoch.bound;
    line.scale = epoch.scale;
    line.beta = epoch.beta;
    if (event.request.growing()->algorithm == session::GrowingAlgorithm::SmallDb)
        line.database = session::smallDbDatabaseText(epoch);
    return line;
}

} // namespace

RunLines streamRunLines(const session::LedgerEvent &event, std::size_t keepEachEnd)
{
    RunLines lines;
    if (!event.request.growing() || !event.growingRecord() || event.growingRecord()->pmwg)
        return lines;
    const auto &record = *event.growingRecord();
    const std::size_t count = record.nsg ? record.nsg->rounds.size() : record.epochs.size();
    const bool elide = keepEachEnd > 0 && count > 2 * keepEachEnd;
    for (std::size_t i = 0; i < count; ++i) {
        if (elide && i == keepEachEnd) {
            lines.elided = count - 2 * keepEachEnd;
            i = count - keepEachEnd - 1;
            continue;
        }
        (elide && i >= keepEachEnd ? lines.last : lines.first).push_back(runLine(event, i));
    }
    return lines;
}

} // namespace pbx::report
