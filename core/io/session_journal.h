// SPDX-License-Identifier: MIT
// A session's journal: a header line (dataset, budget, filter, noise mode) and one line per
// request, each appended and fsync'd *before* its answer is shown or printed. So after a crash,
// kill -9 or power loss, every answer anyone saw is in the journal with its cost; a torn last
// line is a record whose write never completed, whose answer was therefore never shown, and it
// is dropped (journal.h).
#pragma once

#include "core/io/journal.h"
#include "core/io/session_header_json.h"

namespace pbx::io {

inline constexpr int kJournalVersion = 1;

/// Starts the journal of a session that has no events yet. Errors: Io (e.g. the file exists).
Result<JournalWriter> createSessionJournal(const std::string &path, const session::Session &session);

/// Appends one event (call right after Session::ask, before showing the answer). Errors: Io —
/// then the answer must not be shown.
Result<void> appendSessionEvent(JournalWriter &journal, const session::LedgerEvent &event,
                                const filters::PrivacyFilter &filter);

/// Appends the reservation of an output-DP request (Session::ReservationHook: after admission,
/// before any noise is drawn). Its event follows when it settles; a reservation whose event never
/// came (a crash) is read back as an event charged the worst case (docs/output-dp.md §2).
/// Errors: Io — then the request must not run.
Result<void> appendSessionReservation(JournalWriter &journal, const session::LedgerEvent &pending,
                                      const filters::PrivacyFilter &filter);

struct RecoveredJournal
{
    SessionHeader header;
    std::vector<session::LedgerEvent> events;
    JournalContents contents; ///< the torn-tail and tail-record notes
};

/// Reads and verifies a session journal (checksum chain, tail record, header, events in index
/// order) without locking or changing it (pbx-cli verify). Errors: Parse/Unsupported naming the
/// line; NotFound/Io.
Result<RecoveredJournal> readSessionJournal(const std::string &path);

/// A session journal opened to be continued: locked (JournalWriter::open), verified, unchanged on
/// disk until the first append.
struct OpenedSessionJournal
{
    JournalWriter writer;
    RecoveredJournal recovered;
};

/// Opens, locks and verifies a session journal to continue it. Errors: as readSessionJournal(),
/// and Io when another process holds the journal.
Result<OpenedSessionJournal> openSessionJournal(const std::string &path);

/// Interprets verified journal lines as a session (header, events). `name` prefixes messages.
/// Errors: Parse/Unsupported naming the line.
Result<RecoveredJournal> interpretSessionJournal(JournalContents contents, const std::string &name);

/// The same on a journal's bytes already in memory; `name` (e.g. the path) prefixes messages.
/// Errors: Parse/Unsupported naming the line.
Result<RecoveredJournal> readSessionJournalText(std::string_view text, const std::string &name);

/// True when the file starts like a journal line (JSON, a tab, a 64-hex-digit hash; a CR before
/// the newline counts too, so a journal converted to CRLF is reported as a damaged journal).
bool looksLikeJournal(std::string_view text);

} // namespace pbx::io
