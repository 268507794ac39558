// SPDX-License-Identifier: MIT
#include "core/io/session_journal.h"

#include "core/io/event_json.h"
#include "core/io/text_file.h"
#include "core/util/try.h"

namespace pbx::io {

using json::Json;

namespace {
constexpr const char *kFormat = "pbx-journal";
}

Result<JournalWriter> createSessionJournal(const std::string &path, const session::Session &session)
{
    if (!session.events().empty())
        return makeError(ErrorCode::InvalidArgument,
                         "a journal must start with the session (it has events already)");
    Json header = Json::object();
    header["type"] = "header";
    header["format"] = kFormat;
    header["version"] = kJournalVersion;
    writeSessionHeader(session, header);
    return JournalWriter::create(path, header);
}

Result<void> appendSessionEvent(JournalWriter &journal, const session::LedgerEvent &event,
                                const filters::PrivacyFilter &filter)
{
    Json record = Json::object();
    record["type"] = "event";
    record["event"] = eventToJson(event, filter);
    return journal.append(record);
}

Result<void> appendSessionReservation(JournalWriter &journal, const session::LedgerEvent &pending,
                                      const filters::PrivacyFilter &filter)
{
    Json record = Json::object();
    record["type"] = "reserve";
    record["event"] = eventToJson(pending, filter);
    return journal.append(record);
}

namespace {
/// The event of a reservation that never settled: charged its worst case E*, with no cell (its
/// output may have been drawn, so a crash never yields a refund; Hartmann et al. 2023, Theorem 7
/// needs every mechanism that ran to be paid).
session::LedgerEvent unsettled(session::LedgerEvent pending)
{
    pending.status = session::EventStatus::Released;
    pending.odpRecord()->cell.reset();
    pending.odpRecord()->settledEpsilon = pending.odpRecord()->reservedEpsilon;
    pending.odpRecord()->answers.clear();
    pending.odpRecord()->releases.clear();
    pending.odpRecord()->releaseScale = 0.0;
    pending.odpRecord()->ptrIqr.reset();
    pending.odpRecord()->earlyStop.reset();
    pending.odpRecord()->recovery.reset();
    pending.cost = pending.odpRecord()->reservedEpsilon;
    pending.answer = 0.0;
    pending.errorBound = 0.0;
    pending.targetMet = false;
    pending.reason = "interrupted after its reservation (a crash): charged its worst case; its output "
                     "was never shown";
    return pending;
}
} // namespace

Result<RecoveredJournal> readSessionJournal(const std::string &path)
{
    auto contents = readJournal(path);
    if (!contents)
        return makeError(contents.error().code, contents.error().message.rfind(path, 0) == 0
                                                    ? contents.error().message
                                                    : path + ": " + contents.error().message);
    return interpretSessionJournal(std::move(contents.value()), path);
}

Result<OpenedSessionJournal> openSessionJournal(const std::string &path)
{
    PBX_TRY(opened, JournalWriter::open(path));
    PBX_TRY(recovered, interpretSessionJournal(std::move(opened.contents), path));
    return OpenedSessionJournal{std::move(opened.writer), std::move(recovered)};
}

Result<RecoveredJournal> readSessionJournalText(std::string_view text, const std::string &path)
{
    auto contents = readJournalText(text);
    if (!contents)
        return makeError(contents.error().code, path + ": " + contents.error().message);
    return interpretSessionJournal(std::move(contents.value()), path);
}

Result<RecoveredJournal> interpretSessionJournal(JournalContents contents, const std::string &path)
{
    RecoveredJournal out;
    if (contents.records.empty())
        return makeError(
            ErrorCode::Parse,
            path
                + (contents.tornTail
                       ? ": its header line is incomplete: the journal was never started (a "
                         "crash while creating it), so nothing was spent; delete it to start afresh"
                       : ": the journal is empty: nothing was ever recorded in it, so nothing "
                         "was spent; delete it to start afresh"));
    const Json &header = contents.records.front();
    // Fields are read with the json:: helpers: nlohmann's value(key, fallback) throws when the key
    // holds another type, and converting a huge "version" number to int is undefined (both found
    // by fuzzing).
    const auto isString = [](const Json &record, const char *key, const char *expected) {
        const auto found = json::optionalString(record, key, "");
        return found && *found == expected;
    };
    if (!header.is_object() || !isString(header, "type", "header") || !isString(header, "format", kFormat))
        return makeError(ErrorCode::Parse, path + ": line 1 is not a pbx journal header");
    if (const auto version = header.find("version"); version != header.end() && !version->is_null()) {
        if (!version->is_number_unsigned())
            return makeError(ErrorCode::Parse, path + ": line 1: version: expected an integer ≥ 0");
        if (version->get<std::uint64_t>() > static_cast<std::uint64_t>(kJournalVersion))
            return makeError(ErrorCode::Unsupported, path + ": journal version "
                                                         + std::to_string(version->get<std::uint64_t>())
                                                         + " is newer than this pbx understands");
    }
    auto parsedHeader = readSessionHeader(header);
    if (!parsedHeader)
        return makeError(parsedHeader.error().code, path + ": line 1: " + parsedHeader.error().message);
    out.header = std::move(parsedHeader.value());
    std::optional<session::LedgerEvent> reserved; // an output-DP reservation awaiting its event
    for (std::size_t i = 1; i < contents.records.size(); ++i) {
        const Json &record = contents.records[i];
        const std::string where = path + ": line " + std::to_string(i + 1);
        const bool isReserve = record.is_object() && isString(record, "type", "reserve");
        if (!record.is_object() || (!isString(record, "type", "event") && !isReserve)
            || !record.contains("event"))
            return makeError(ErrorCode::Parse, where + ": expected an event record");
        auto event = eventFromJson(record["event"], out.events.size());
        if (!event)
            return makeError(event.error().code, where + ": " + event.error().message);
        if (reserved && event->index != reserved->index) // its event never came: worst case
            out.events.push_back(unsettled(std::move(*reserved)));
        reserved.reset();
        if (event->index != out.events.size())
            return makeError(ErrorCode::Parse,
                             where + ": event index " + std::to_string(event->index) + " out of order");
        if (isReserve) {
            if (!event->request.odp() || !event->odpRecord())
                return makeError(ErrorCode::Parse, where + ": a reservation without an output-DP request");
            reserved = std::move(event.value());
            continue;
        }
        out.events.push_back(std::move(event.value()));
    }
    if (reserved)
        out.events.push_back(unsettled(std::move(*reserved)));
    out.contents = std::move(contents);
    out.contents.records.clear(); // interpreted above; not kept twice
    return out;
}

bool looksLikeJournal(std::string_view text)
{
    const std::size_t end = text.find('\n');
    std::string_view first = text.substr(0, end);
    if (!first.empty()
        && first.back() == '\r') // a journal converted to CRLF is still a journal (refused as such)
        first.remove_suffix(1);
    const std::size_t tab = first.rfind('\t');
    return tab != std::string_view::npos && first.size() - tab - 1 == 64 && !first.empty()
           && first.front() == '{';
}

} // namespace pbx::io
