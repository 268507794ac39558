// SPDX-License-Identifier: MIT
#include "core/io/transcript_csv.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string_view>

namespace pbx::io {

std::string csvField(const std::string &field)
{
    // OWASP "CSV Injection": a cell starting with = + - @ TAB or CR is read as a formula by
    // spreadsheets (=HYPERLINK(…) sends data away); a leading ' makes it text.
    const bool formula
        = !field.empty() && std::string_view("=+-@\t\r").find(field[0]) != std::string_view::npos;
    const std::string text = formula ? "'" + field : field;
    if (text.find_first_of(",\"\r\n") == std::string::npos)
        return text;
    std::string out = "\"";
    for (char c : text) {
        if (c == '"')
            out += '"';
        out += c;
    }
    return out + "\"";
}

std::string csvNumber(double value)
{
    if (!std::isfinite(value))
        return {};
    // The shortest text that reads back as the same double: 0.95, not 0.94999999999999996.
    char buffer[32];
    const auto written = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, written.ptr);
}

std::string writeTranscriptCsv(const session::Session &s)
{
    const std::string unit(s.filter().unitName());
    std::ostringstream out;
    out << "request,id,status,aggregate,column,where,lower,upper,target_kind,target_error,confidence,"
           "mechanism,answer,error_bound,target_met,cost_"
        << unit << ",spent_" << unit << ",epsilon_spent,attempts,reason\r\n";
    for (const auto &e : s.events()) {
        const auto &q = e.request.query;
        const bool released = e.status == session::EventStatus::Released;
        const bool hasColumn = q.aggregate != data::Aggregate::Count;
        out << e.index + 1 << ',' << csvField(e.request.id) << ',' << session::eventStatusName(e.status)
            << ',' << data::aggregateName(q.aggregate) << ','
            << csvField(hasColumn ? q.column : std::string()) << ',' << csvField(q.where) << ','
            << (q.bounds ? csvNumber(q.bounds->lower) : std::string()) << ','
            << (q.bounds ? csvNumber(q.bounds->upper) : std::string()) << ','
            << session::targetKindName(e.request.target.kind) << ',' << csvNumber(e.request.target.error)
            << ',' << csvNumber(e.request.target.confidence) << ',' << csvField(e.mechanismName()) << ','
            << (released ? csvNumber(e.answer) : std::string()) << ','
            << (released ? csvNumber(e.errorBound) : std::string()) << ','
            << (released ? (e.targetMet ? "true" : "false") : "") << ',' << csvNumber(e.cost) << ','
            << csvNumber(e.spentAfter) << ',' << csvNumber(e.epsilonSpentAfter) << ',' << e.attempts.size()
            << ',' << csvField(e.reason) << "\r\n";
    }
    return out.str();
}

} // namespace pbx::io
