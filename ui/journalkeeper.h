// SPDX-License-Identifier: MIT
// The journal of a session shown in the GUI (core/io/session_journal.h), kept so that it always
// holds the whole session: a new journal starts with the session's header as it began (as
// `pbx-cli run --journal` writes it) and then every event already in the ledger (a continued
// transcript's, as a resumed journal holds them), under a temporary name until it holds them all.
// A line that could not be written is written before the next one, so the journal never has a
// gap that `pbx-cli verify`, `pbx-cli run --journal` or the GUI would refuse.
//
// Used by SessionDocument::ask and by the lessons' job (ui/lessons/lessonjob.h), off the GUI
// thread; one keeper is never used by two threads at once.
#pragma once

#include "core/io/session_journal.h"
#include "core/session/session.h"

#include <QString>

#include <optional>

namespace pbx::ui {

class JournalKeeper
{
public:
    /// `folder`: where a new journal is created (empty: SessionDocument::defaultJournalFolder()).
    explicit JournalKeeper(QString folder = {}) : m_folder(std::move(folder)) {}

    /// Makes the journal hold every event of `session`: creates it when there is none (the header
    /// of `session` before its first event, then its events) and appends the events not yet
    /// written, each fsync'd. Errors: Io/InvalidArgument from the writer (then the events not
    /// written are written by the next call).
    Result<void> write(const session::Session &session);

    /// Continues an opened journal that holds `events` events of the session.
    void adopt(io::JournalWriter writer, const QString &path, std::size_t events);
    /// Renames the journal (JournalWriter::moveTo). Errors: Io.
    Result<void> moveTo(const QString &path);
    /// Closes (unlocks) the journal; a new one will be created in `folder`.
    void reset(QString folder = {});

    bool isOpen() const { return m_writer.has_value(); }
    /// Empty until the journal exists.
    QString path() const { return m_path; }
    /// Whether the journal exists under its name and holds all `events` events.
    bool holds(std::size_t events) const;

private:
    QString m_folder;
    std::optional<io::JournalWriter> m_writer;
    QString m_path;
    std::size_t m_written = 0; ///< events of the session the journal holds
};

/// Asks `request` in `session` as the GUI does: every earlier event is in the journal first (else
/// nothing is asked: "the request was not asked (nothing spent)…"), and the new event is written
/// before it is returned (else it is withheld: "the answer is withheld…"; the spending stands
/// and is written first at the next request). Errors: those of Session::ask, and Io/InvalidArgument.
Result<session::LedgerEvent> askJournaled(session::Session &session, JournalKeeper &journal,
                                          const session::QueryRequest &request);

} // namespace pbx::ui
