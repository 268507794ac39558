// SPDX-License-Identifier: MIT
// The session transcript: a versioned JSON document {"format":"pbx-transcript","version":1,…}
// holding the settings, the spend and every ledger event. Written strictly, read tolerantly;
// unknown future versions are refused.
#pragma once

#include "core/io/session_header_json.h"
#include "core/session/session.h"

#include <string>

namespace pbx::io {

inline constexpr int kTranscriptVersion = 1;

/// Serialises a session (settings, dataset name, spend, events) as pretty-printed JSON. Never
/// throws: text that is not UTF-8 (which pbx-cli run and the GUI refuse when a dataset is opened,
/// io/recordable_text.h) would be written as U+FFFD instead of aborting with the record unwritten.
std::string writeTranscriptJson(const session::Session &session);

/// An upper bound on the bytes `event` adds to writeTranscriptJson's document (its lines at
/// their indentation and the separator), so a writer can reserve space for it before the answer
/// is shown. Never throws.
std::size_t transcriptEventBytes(const session::LedgerEvent &event, const filters::PrivacyFilter &filter);

/// What a transcript holds, before a dataset is attached.
struct TranscriptDocument
{
    std::string datasetName; ///< embedded name or the CSV file's stem (as header.datasetName)
    session::SessionSettings settings;
    std::vector<session::LedgerEvent> events;
    SessionHeader header;  ///< everything the header records (dataset files, row count)
    std::string spentUnit; ///< filter.unit as written ("epsilon" or "rho")
    double spent = 0.0;    ///< spent[spentUnit]: the stated native spend
};

/// Parses a transcript; every field through the typed readers of json_fields.h. Errors: Parse
/// (malformed JSON, wrong format, missing/invalid fields — including filter.unit and the spend
/// in that unit — naming the field and event index), Unsupported (a newer version).
Result<TranscriptDocument> readTranscriptJson(std::string_view text);

} // namespace pbx::io
