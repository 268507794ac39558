// SPDX-License-Identifier: MIT
#include "core/io/session_file.h"

#include "core/io/text_file.h"
#include "core/session/ledger/cost_audit.h"
#include "core/util/number_format.h"
#include "core/util/try.h"

#include <cstdio>

namespace pbx::io {

namespace {
std::string format(double x)
{
    return formatSignificant(x, 17);
}
} // namespace

SessionFile sessionFileOf(const RecoveredJournal &journal)
{
    SessionFile out;
    out.kind = SessionFile::Kind::Journal;
    out.header = journal.header;
    out.events = journal.events;
    for (const auto &note : {journal.contents.tornMessage, journal.contents.tailNote})
        if (!note.empty())
            out.notes.push_back(note);
    return out;
}

Result<SessionFile> readSessionFile(const std::string &path)
{
    PBX_TRY(text, readTextFile(path, maxJournalBytes));
    if (text.find_first_not_of(" \t\r\n") == std::string::npos)
        return makeError(ErrorCode::Parse, path + ": the file is empty (neither a transcript nor a journal)");
    if (looksLikeJournal(text)) {
        PBX_TRY(journal, readSessionJournal(path));
        return sessionFileOf(journal);
    }
    auto transcript = readTranscriptJson(text);
    if (!transcript)
        return makeError(transcript.error().code, path + ": " + transcript.error().message);
    SessionFile out;
    out.header = std::move(transcript->header);
    out.events = std::move(transcript->events);
    out.statedSpent = std::pair{transcript->spentUnit, transcript->spent};
    return out;
}

Result<std::unique_ptr<session::Session>> auditSessionFile(const SessionFile &file,
                                                           std::shared_ptr<const data::Table> table)
{
    if (!table)
        return makeError(ErrorCode::InvalidArgument, "no dataset to audit the session against");
    return auditSessionFile(file, std::make_shared<const data::TableSource>(std::move(table)));
}

Result<std::unique_ptr<session::Session>> auditSessionFile(const SessionFile &file,
                                                           std::shared_ptr<const data::Source> source)
{
    if (!source)
        return makeError(ErrorCode::InvalidArgument, "no dataset to audit the session against");
    PBX_RETURN_IF_ERROR(checkDataset(file.header, *source));
    PBX_TRY(replayed, session::auditLedger(std::move(source), file.header.settings, file.events));
    if (file.statedSpent) {
        const auto &filter = (replayed)->filter();
        const auto &[unit, spent] = *file.statedSpent;
        if (unit != filter.unitName())
            return makeError(ErrorCode::Parse,
                             "filter.unit: '" + unit + "' is not the unit of the "
                                 + std::string(filters::filterKindName(file.header.settings.filter))
                                 + " filter ('" + std::string(filter.unitName()) + "')");
        if (spent != filter.spent())
            return makeError(ErrorCode::Parse, "the transcript states " + std::string(filter.unitSymbol())
                                                   + " spent = " + format(spent)
                                                   + " but its events add up to " + format(filter.spent()));
    }
    return std::move(replayed);
}

} // namespace pbx::io
