// SPDX-License-Identifier: MIT
// The GUI's open document: a dataset, the session over it and where it was last saved. Every
// path that changes the session (New session, Open dataset, Open session, Ask) goes through
// here, so menu actions, command-line options and tests share one code path. Failed operations
// leave the current session untouched.
//
// Crash safety: every request is appended to the session's journal (core/io/session_journal.h)
// and fsync'd before the answer is shown. A new session's journal lives in the application's
// data folder ("journals/"); saving the session as FILE.json moves it next to it as
// FILE.json.journal. Opening a journal, or a transcript whose journal holds more requests (a
// crash after the last save), replays the journal and continues it.
//
// The journal always holds the whole session: continuing a transcript that has no journal starts
// one with the session's header and every restored event (written under a temporary name and
// renamed when complete), so `pbx-cli verify`, `pbx-cli run --journal` and the GUI all read it.
// Before a request is asked, every event of the session must be in the journal (a line that
// failed earlier is written first); if that fails the request is refused with nothing spent. A
// line that cannot be written after the request leaves the file as it was (JournalWriter) and the
// answer withheld; the next request writes it first.
//
// Off the GUI thread: startAsk() asks a session whose data live in a database on a worker
// (ui/askjob.h), with cancel; while it runs the document is busy: everything that would ask or
// change the session is refused ("a request is running: …"), and close() and the destructor wait
// for it (the record is kept: the journal line is written by the job before it ends).
#pragma once

#include "core/io/session_journal.h"
#include "core/session/session.h"
#include "ui/journalkeeper.h"

#include <optional>

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>

class QWidget;

namespace pbx::ui {

class SessionDocument final : public QObject
{
    Q_OBJECT
public:
    explicit SessionDocument(QObject *parent = nullptr);
    ~SessionDocument() override;

    /// Loads an embedded dataset by name ("cps1988") or a CSV file by path.
    static Result<std::shared_ptr<const data::Table>> loadTable(const QString &nameOrPath);
    /// Opens a dataset wherever it lives (resources::openDataset): as loadTable(), or a database
    /// descriptor with its metadata file (docs/data-sources.md).
    static Result<std::shared_ptr<const data::Source>> loadSource(const QString &dataset,
                                                                  const QString &metadataPath);

    /// Starts a fresh session on `table`. `source` is what loadTable() was given. Its journal goes
    /// into `journalFolder` (empty: defaultJournalFolder(); lessons give their own).
    Result<void> start(std::shared_ptr<const data::Table> table, const QString &source,
                       const session::SessionSettings &settings, const QString &journalFolder = {});
    /// The same on a data source wherever it lives; `source` is what loadSource() was given.
    Result<void> start(std::shared_ptr<const data::Source> dataSource, const QString &source,
                       const session::SessionSettings &settings, const QString &journalFolder = {});
    /// Starts a fresh session on the current dataset with new settings.
    Result<void> restart(const session::SessionSettings &settings);
    /// Loads a dataset and starts a fresh session on it with the current settings.
    Result<void> openDataset(const QString &nameOrPath, const QString &metadataPath = {});

    /// Asks the session on the calling thread (the window uses startAsk(), which asks a database
    /// off the GUI thread); on success the event is in the ledger and eventAppended() was emitted.
    /// Errors: invalid request (nothing recorded), or no session; a journal that cannot be
    /// written (the request not asked, or its event recorded but withheld: eventAppended() comes
    /// once its line is written, before the next request's).
    Result<session::LedgerEvent> ask(const session::QueryRequest &request);

    /// How startAsk() ended: the event or the error, as ask() returns them; `cancelled`: the user
    /// asked to cancel (cancelAsk) before it ended. Nothing was spent when the session's event
    /// count did not grow; a request charged before the cancel reached it stays charged.
    using AskDone = std::function<void(const Result<session::LedgerEvent> &event, bool cancelled)>;
    /// Asks `request` as ask() does. When the session's source is a database (its statements may
    /// run up to the statement timeout) the request runs off the GUI thread (ui/askjob.h):
    /// askingChanged(true) now; when it ends, the document takes the continued session back (the
    /// Session object stays: views' pointers remain valid), eventAppended() comes as for ask(),
    /// then `done` (on the GUI thread), then askingChanged(false). An in-memory table is asked at
    /// once: `done` runs before startAsk returns. Errors (nothing asked, `done` not called): no
    /// session, or the document is busy (a request or a lesson step is running).
    Result<void> startAsk(const session::QueryRequest &request, AskDone done);
    /// Whether a request runs off the GUI thread now (startAsk).
    bool isAsking() const { return m_askJob != nullptr; }
    /// Stops the running request: not started yet, nothing is asked; its database statement is
    /// cancelled (data::Source::setCancelRequested), which refuses it with nothing spent; already
    /// charged, it stays charged and recorded. Returns at once; `done` reports how it ended.
    void cancelAsk();
    /// Blocks until the running request (if any) has ended and been taken back (`done` called).
    void waitForAsk();
    /// Where the public row count a release plans with stands (data::Source::publicRowCount).
    enum class RowCount {
        Known,    ///< declared, counted, or not needed (nothing to count: a private table plans with none)
        Counting, ///< a public database table without declared "rows": its COUNT(*) runs off the GUI thread
        Failed,   ///< that count failed (rowCountFailure()); counted again after the next request
    };
    /// Never asks the database on the GUI thread: when the count is needed and unknown, starts it
    /// off the GUI thread (once) and returns Counting; publicRowCountSettled() comes when it ends.
    RowCount publicRowCountState();
    /// The failed count's one line ("rows: cannot count the rows of table …"); empty otherwise.
    QString rowCountFailure() const { return m_rowCountFailure; }
    /// Forgets a failed count: the next publicRowCountState() counts again.
    void forgetRowCountFailure() { m_rowCountFailure.clear(); }

    /// Why the session cannot be asked or changed now (a request or a lesson step is running);
    /// empty when it can.
    QString busyReason() const;

    /// Asked where a database session's metadata file is now, when the one its header records
    /// (`missingPath`) is gone: returns the chosen file, or an empty string when the user cancels.
    using MetadataChooser = std::function<QString(const QString &missingPath)>;
    /// Opening a database session (openTranscript(), reopen()) whose recorded metadata file has
    /// moved calls `chooser` once; the chosen file must be the recorded one (same SHA-256,
    /// io::checkDataset), else the opening is refused in one line. Without a chooser (the default:
    /// tests, and code that must not show dialogs) the opening is refused, naming the missing file.
    /// The app installs askForMovedMetadata.
    void setMetadataChooser(MetadataChooser chooser) { m_metadataChooser = std::move(chooser); }
    /// The file dialog the app uses as the chooser: its title says in one line which file is
    /// missing; it starts in that file's folder (or the start folder when the folder is gone).
    static QString askForMovedMetadata(QWidget *parent, const QString &missingPath);

    /// Reads a transcript, loads its dataset (by name, else next to the transcript) and rebuilds
    /// the session with Session::restore. On error nothing changes.
    Result<void> openTranscript(const QString &path);
    /// Reopens a session exactly as it is on disk: the journal `journalPath` when given (it holds
    /// every event; `filePath` is then remembered as the document's file, modified), else the
    /// transcript `filePath` (with its journal beside it, as openTranscript()). Errors: as
    /// openTranscript(); nothing changes then.
    Result<void> reopen(const QString &filePath, const QString &journalPath);
    /// Forgets the session (no session afterwards); what is on disk stays.
    void close();
    /// Writes every event not yet in the journal (creating it if the session has events and no
    /// journal, unless the unmodified transcript holds them all). Errors: Io — then some events
    /// exist only in memory.
    Result<void> flushJournal();
    /// Whether every event of the session is on disk (its journal, or its unmodified transcript).
    bool isOnDisk() const;
    /// Hands the session's journal to a job that continues the session off the GUI thread (a
    /// lesson step's requests, ui/lessons/lessonjob.h); until adoptSession() the document asks
    /// nothing (ask() refuses). Precondition: hasSession().
    JournalKeeper lendJournal();
    /// Ends a lendJournal(): `session` (the document's session continued by the job, on the same
    /// dataset and settings; null: the document's stays) and its journal become the document's;
    /// views rebuild.
    void adoptSession(std::unique_ptr<session::Session> session, JournalKeeper journal);
    /// Increases with every new, opened or closed session (tells one session from the next).
    quint64 sessionSerial() const { return m_serial; }
    /// Writes the transcript JSON to `path`; it becomes the document's file and the document is
    /// no longer modified.
    Result<void> saveTranscript(const QString &path);
    /// Writes the ledger as CSV (does not change the file or the modified flag).
    Result<void> exportCsv(const QString &path) const;

    bool hasSession() const { return m_session != nullptr; }
    /// Where this session's journal is (empty until the first request).
    QString journalPath() const { return m_journal.path(); }
    /// A note from the last open (e.g. a torn journal line dropped); empty when none.
    QString openNote() const { return m_openNote; }
    /// The folder for new sessions' journals (tests may redirect it).
    static QString defaultJournalFolder();
    /// Precondition: hasSession().
    const session::Session &session() const { return *m_session; }
    const data::Table *table() const { return m_session ? &m_session->table() : nullptr; }
    /// The session's source (nullptr: no session).
    const data::Source *dataSource() const { return m_session ? &m_session->source() : nullptr; }
    /// The session's table when its rows are in memory, for the labs that simulate on public
    /// rows; nullptr for a database source (its rows are not in memory) or without a session.
    std::shared_ptr<const data::Table> inMemoryTable() const
    {
        return m_session && m_session->source().kind() == data::SourceKind::InMemory
                   ? m_session->sharedTable()
                   : nullptr;
    }
    QString datasetSource() const { return m_source; }
    /// Settings of the current session (defaults when there is none).
    session::SessionSettings settings() const;
    bool hasEvents() const { return m_session && !m_session->events().empty(); }
    int eventCount() const { return m_session ? static_cast<int>(m_session->events().size()) : 0; }

    /// The transcript file this session was opened from or saved to; empty if none.
    QString filePath() const { return m_filePath; }
    /// True when the ledger has events not yet saved.
    bool isModified() const { return m_modified; }

Q_SIGNALS:
    /// The whole session changed (new dataset, new settings, opened transcript): views rebuild.
    void sessionReset();
    /// A request was recorded (released or refused) at ledger position `index`.
    void eventAppended(int index);
    void modifiedChanged(bool modified);
    void filePathChanged(const QString &path);
    /// A request started (true) or ended (false) off the GUI thread (startAsk).
    void askingChanged(bool asking);
    /// The public row count started by publicRowCountState() was counted or failed.
    void publicRowCountSettled();

private:
    struct AskJobRun;
    /// Takes the finished job's session and journal back (waiting for it) and, when `report`,
    /// reports it (see startAsk).
    void finishAsk(bool report);
    /// Waits for a running public row count (cancelled when `cancel`), dropping its result.
    void stopRowCount(bool cancel);
    /// Refuses while busy (busyReason()), as InvalidArgument.
    Result<void> checkNotBusy() const;
    void setModified(bool modified);
    void setFilePath(const QString &path);

    /// Opens a journal as the document (after a crash, or chosen in File ▸ Open session): locks
    /// it, verifies it and audits its ledger; nothing on disk changes until the next request.
    Result<void> openJournal(const QString &path);
    Result<void> adoptJournal(const QString &path, io::OpenedSessionJournal opened);
    /// The dataset `header` records, with a database session's recorded metadata file or, when it
    /// is gone, the one m_metadataChooser gives. Errors: as loadSource(); NotFound naming the
    /// missing metadata file when no other was chosen.
    Result<std::shared_ptr<const data::Source>> loadRecordedSource(const io::SessionHeader &header) const;
    void closeJournal();

    std::unique_ptr<session::Session> m_session;
    JournalKeeper m_journal;
    quint64 m_serial = 0;
    bool m_journalLent = false;
    std::size_t m_shown = 0; ///< events the views were told of (eventAppended, sessionReset)
    QString m_openNote;
    QString m_source;
    QString m_filePath;
    bool m_modified = false;
    MetadataChooser m_metadataChooser;
    std::unique_ptr<AskJobRun> m_askJob; ///< the request running off the GUI thread, if any
    /// The public row count running off the GUI thread (publicRowCountState), if any.
    QFutureWatcher<Result<std::optional<std::size_t>>> *m_rowCount = nullptr;
    std::shared_ptr<const data::Source> m_countedSource; ///< the source m_rowCount counts
    QString m_rowCountFailure;
};

} // namespace pbx::ui
