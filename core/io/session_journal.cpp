// SPDX-License-Identifier: MIT
#include "core/io/session_journal.h"

#include "core/io/event_json.h"

namespace pbx::io {

using json::Json;

namespace {
constexpr const char *kFormat = "pbx-journal";
}

Result<JournalWriter> createSessionJournal(const std::string &path, const session::Session &session)
{
    if (!session.events().empty())
        return makeError(ErrorCode::InvalidArgument, "a journal must start with the session (it has events already)");
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

Result<RecoveredJournal> readSessionJournal(const std::string &path)
{
    auto contents = readJournal(path);
    if (!contents)
        return contents.error();
    RecoveredJournal out;
    if (contents->records.empty())
        return makeError(ErrorCode::Parse, path + ": the journal has no intact header line");
    const Json &header = contents->records.front();
    if (!header.is_object() || header.value("type", std::string()) != "header"
        || header.value("format", std::string()) != kFormat)
        return makeError(ErrorCode::Parse, path + ": line 1 is not a pbx journal header");
    if (header.value("version", 0) > kJournalVersion)
        return makeError(ErrorCode::Unsupported, path + ": journal version " + std::to_string(header.value("version", 0))
                                                     + " is newer than this pbx understands");
    auto parsedHeader = readSessionHeader(header);
    if (!parsedHeader)
        return makeError(parsedHeader.error().code, path + ": line 1: " + parsedHeader.error().message);
    out.header = std::move(parsedHeader.value());
    for (std::size_t i = 1; i < contents->records.size(); ++i) {
        const Json &record = contents->records[i];
        const std::string where = path + ": line " + std::to_string(i + 1);
        if (!record.is_object() || record.value("type", std::string()) != "event" || !record.contains("event"))
            return makeError(ErrorCode::Parse, where + ": expected an event record");
        auto event = eventFromJson(record["event"], i - 1);
        if (!event)
            return makeError(event.error().code, where + ": " + event.error().message);
        if (event->index != i - 1)
            return makeError(ErrorCode::Parse, where + ": event index " + std::to_string(event->index) + " out of order");
        out.events.push_back(std::move(event.value()));
    }
    out.contents = std::move(contents.value());
    return out;
}

bool looksLikeJournal(std::string_view text)
{
    const std::size_t end = text.find('\n');
    const std::string_view first = text.substr(0, end);
    const std::size_t tab = first.rfind('\t');
    return tab != std::string_view::npos && first.size() - tab - 1 == 64 && !first.empty() && first.front() == '{';
}

} // namespace pbx::io
