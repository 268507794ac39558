// SPDX-License-Identifier: MIT
// A saved session, transcript or journal, read and audited the same way wherever it is opened:
// `pbx-cli verify`, `pbx-cli run --journal` and the GUI's File ▸ Open session all call these, so
// nothing one accepts is refused by another.
#pragma once

#include "core/io/session_journal.h"
#include "core/io/transcript_json.h"

#include <memory>

namespace pbx::io {

struct SessionFile
{
    enum class Kind { Transcript, Journal };
    Kind kind = Kind::Transcript;
    SessionHeader header;
    std::vector<session::LedgerEvent> events;
    /// Transcripts: the unit and native spend they state (checked against the replay).
    std::optional<std::pair<std::string, double>> statedSpent;
    /// Journals: a dropped torn line, an end that could not be checked (one sentence each).
    std::vector<std::string> notes;
};

/// Reads a transcript or a journal (told apart by the first line) without changing it.
/// Errors: NotFound/Io naming the path and what is there; Parse "the file is empty"; those of
/// readSessionJournal() and readTranscriptJson(), prefixed by the path.
Result<SessionFile> readSessionFile(const std::string &path);

/// The same for a journal opened to continue it (its header, events and notes).
SessionFile sessionFileOf(const RecoveredJournal &journal);

/// The audit `pbx-cli verify` performs: the dataset is the one recorded (checkDataset), every
/// cost recomputed and the ledger replayed into a fresh filter (session::auditLedger), and a
/// transcript's stated unit and spend equal the replay's. Returns the replayed session.
/// Errors: the first inconsistency, in one line.
Result<std::unique_ptr<session::Session>> auditSessionFile(const SessionFile &file,
                                                           std::shared_ptr<const data::Table> table);
/// The same over any source (a database source reopened from the recorded descriptor).
Result<std::unique_ptr<session::Session>> auditSessionFile(const SessionFile &file,
                                                           std::shared_ptr<const data::Source> source);

} // namespace pbx::io
