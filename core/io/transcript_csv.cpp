// SPDX-License-Identifier: MIT
#include "core/io/transcript_csv.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace pbx::io {

namespace {

/// RFC 4180: quote a field containing a comma, quote, CR or LF, doubling inner quotes.
std::string quoted(const std::string &field)
{
    if (field.find_first_of(",\"\r\n") == std::string::npos)
        return field;
    std::string out = "\"";
    for (char c : field) {
        if (c == '"')
            out += '"';
        out += c;
    }
    return out + "\"";
}

std::string number(double value)
{
    if (!std::isfinite(value))
        return {};
    // The shortest text that reads back as the same double: 0.95, not 0.94999999999999996.
    char buffer[32];
    const auto written = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, written.ptr);
}

} // namespace

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
        out << e.index + 1 << ',' << quoted(e.request.id) << ',' << session::eventStatusName(e.status) << ','
            << data::aggregateName(q.aggregate) << ',' << quoted(hasColumn ? q.column : std::string()) << ','
            << quoted(q.where) << ',' << (q.bounds ? number(q.bounds->lower) : std::string()) << ','
            << (q.bounds ? number(q.bounds->upper) : std::string()) << ','
            << session::targetKindName(e.request.target.kind) << ',' << number(e.request.target.error) << ','
            << number(e.request.target.confidence) << ',' << quoted(e.mechanism) << ','
            << (released ? number(e.answer) : std::string()) << ','
            << (released ? number(e.errorBound) : std::string()) << ','
            << (released ? (e.targetMet ? "true" : "false") : "") << ',' << number(e.cost) << ','
            << number(e.spentAfter) << ',' << number(e.epsilonSpentAfter) << ',' << e.attempts.size() << ','
            << quoted(e.reason) << "\r\n";
    }
    return out.str();
}

} // namespace pbx::io
