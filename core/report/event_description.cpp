// SPDX-License-Identifier: MIT
#include "core/report/event_description.h"

#include "core/session/growing/growing_release.h"
#include "core/session/growing/growing_smalldb.h"
#include "core/util/number_format.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace pbx::report {

EventKind eventKind(const session::LedgerEvent &event)
{
    if (event.status == session::EventStatus::Refused)
        return EventKind::Refused;
    if (event.request.odp && event.odpRecord)
        return EventKind::OutputDp;
    if (event.request.growing && event.growingRecord) {
        if (event.growingRecord->pmwg)
            return EventKind::PmwgStream;
        return event.growingRecord->nsg ? EventKind::NsgStream : EventKind::RunStream;
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
    const auto &record = *event.growingRecord;
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
    if (event.request.growing->algorithm == session::GrowingAlgorithm::SmallDb)
        line.database = session::smallDbDatabaseText(epoch);
    return line;
}

} // namespace

RunLines streamRunLines(const session::LedgerEvent &event, std::size_t keepEachEnd)
{
    RunLines lines;
    if (!event.request.growing || !event.growingRecord || event.growingRecord->pmwg)
        return lines;
    const auto &record = *event.growingRecord;
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
