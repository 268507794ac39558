// SPDX-License-Identifier: MIT
#include "ui/sessiondocument.h"

#include "core/io/recordable_text.h"
#include "core/io/session_file.h"
#include "core/io/session_journal.h"
#include "core/io/transcript_csv.h"
#include "core/io/transcript_json.h"
#include "core/util/try.h"
#include "resources/dataset_catalog.h"
#include "ui/appsettings.h"
#include "ui/askjob.h"
#include "ui/util/numberformat.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>
#include <QtConcurrent/QtConcurrentRun>

#include <filesystem>

namespace pbx::ui {

namespace {

/// A database session's recorded metadata file (empty for the others: their metadata is a sidecar).
QString recordedMetadata(const io::SessionHeader &header)
{
    return header.source.empty() || !header.files ? QString() : toQString(header.files->metadataPath);
}

} // namespace

namespace {

Error ioError(const QString &message)
{
    return makeError(ErrorCode::Io, message.toStdString());
}

Result<void> writeFile(const QString &path, const std::string &bytes)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return ioError(QObject::tr("cannot write %1: %2").arg(path, file.errorString()));
    const auto size = static_cast<qint64>(bytes.size());
    if (file.write(bytes.data(), size) != size || !file.commit())
        return ioError(QObject::tr("cannot write %1: %2").arg(path, file.errorString()));
    return {};
}

} // namespace

/// The request running off the GUI thread (startAsk).
struct SessionDocument::AskJobRun
{
    std::shared_ptr<AskJobState> state;
    QFutureWatcher<void> *watcher = nullptr; ///< the document's child; deleted later, once finished
    AskDone done;
    std::size_t eventsBefore = 0;
    bool cancelled = false;
};

SessionDocument::SessionDocument(QObject *parent) : QObject(parent) {}

QString SessionDocument::defaultJournalFolder()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
        .filePath(QStringLiteral("journals"));
}

void SessionDocument::closeJournal()
{
    m_journal.reset();
}

QString SessionDocument::busyReason() const
{
    if (m_askJob)
        return tr("a request is running: wait for its answer or cancel it first");
    if (m_journalLent)
        return tr("the session is busy (a lesson step is running)");
    return {};
}

Result<void> SessionDocument::checkNotBusy() const
{
    const QString reason = busyReason();
    if (reason.isEmpty())
        return {};
    return makeError(ErrorCode::InvalidArgument, reason.toStdString());
}

Result<void> SessionDocument::startAsk(const session::QueryRequest &request, AskDone done)
{
    if (!m_session)
        return makeError(ErrorCode::InvalidArgument, "no session: open a dataset first");
    PBX_RETURN_IF_ERROR(checkNotBusy());
    if (m_session->source().kind() == data::SourceKind::InMemory) {
        auto event = ask(request);
        if (done)
            done(event, false);
        return {};
    }
    AskJobInput input{m_session->sharedSource(), m_session->settings(), m_session->events(), request};
    auto run = std::make_unique<AskJobRun>();
    run->state = std::make_shared<AskJobState>();
    // The journal goes with the job (a keeper is used by one thread at a time); it comes back in
    // finishAsk(), whatever happened.
    run->state->journal = std::move(m_journal);
    m_journal = JournalKeeper();
    run->done = std::move(done);
    run->eventsBefore = m_session->events().size();
    run->watcher = new QFutureWatcher<void>(this);
    QFutureWatcher<void> *watcher = run->watcher;
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
        if (m_askJob && m_askJob->watcher == watcher)
            finishAsk(true);
    });
    m_askJob = std::move(run);
    watcher->setFuture(startAskJob(std::move(input), m_askJob->state));
    Q_EMIT askingChanged(true);
    return {};
}

void SessionDocument::cancelAsk()
{
    if (!m_askJob || m_askJob->cancelled)
        return;
    m_askJob->cancelled = true;
    m_askJob->watcher->cancel(); // not started yet: nothing is asked
    m_session->source().setCancelRequested(true);
}

void SessionDocument::waitForAsk()
{
    if (!m_askJob)
        return;
    m_askJob->watcher->waitForFinished();
    finishAsk(true);
}

void SessionDocument::finishAsk(bool report)
{
    if (!m_askJob)
        return;
    std::unique_ptr<AskJobRun> run = std::move(m_askJob); // not busy from here on
    run->watcher->waitForFinished();
    run->watcher->disconnect(this);
    run->watcher->deleteLater();
    AskJobState &state = *run->state;
    m_journal = std::move(state.journal);
    // The continued session's contents move into the document's Session object, so the views'
    // pointers to it (and to its table, the source's schema) stay valid.
    if (state.session)
        *m_session = std::move(*state.session);
    m_session->source().setCancelRequested(false);
    m_rowCountFailure.clear(); // the request counted the rows itself, or the next preview counts again
    const std::size_t after = m_session->events().size();
    if (after > run->eventsBefore)
        setModified(true);
    if (!report)
        return;
    if (m_journal.holds(after))
        for (; m_shown < after; ++m_shown)
            Q_EMIT eventAppended(static_cast<int>(m_shown));
    const Result<session::LedgerEvent> event
        = state.event
              ? std::move(*state.event)
              : Result<session::LedgerEvent>(makeError(
                  ErrorCode::Cancelled, "the request was cancelled before it was asked; nothing was spent"));
    if (run->done)
        run->done(event, run->cancelled);
    Q_EMIT askingChanged(false);
}

SessionDocument::RowCount SessionDocument::publicRowCountState()
{
    if (!m_session)
        return RowCount::Known;
    const data::Source &source = m_session->source();
    // Only a public database table without declared "rows" counts (data::Source::publicRowCount);
    // the others answer at once without asking the database.
    if (source.kind() == data::SourceKind::InMemory || !source.isPublic() || source.knownPublicRowCount())
        return RowCount::Known;
    if (m_rowCount)
        return RowCount::Counting;
    if (!m_rowCountFailure.isEmpty())
        return RowCount::Failed;
    m_countedSource = m_session->sharedSource();
    m_rowCount = new QFutureWatcher<Result<std::optional<std::size_t>>>(this);
    auto *watcher = m_rowCount;
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
        if (m_rowCount != watcher)
            return;
        m_rowCount = nullptr;
        watcher->deleteLater();
        const auto counted = watcher->result();
        const bool current = m_session && m_countedSource == m_session->sharedSource();
        m_countedSource.reset();
        if (!current)
            return;
        // A count stopped by a request's Cancel is not a failure of the count: counted again later.
        m_rowCountFailure = counted.ok() || counted.error().code == ErrorCode::Cancelled
                                ? QString()
                                : toQString(counted.error().message);
        Q_EMIT publicRowCountSettled();
    });
    watcher->setFuture(QtConcurrent::run([source = m_countedSource] { return source->publicRowCount(); }));
    return RowCount::Counting;
}

void SessionDocument::stopRowCount(bool cancel)
{
    m_rowCountFailure.clear();
    if (!m_rowCount)
        return;
    auto *watcher = m_rowCount;
    m_rowCount = nullptr;
    if (cancel && !m_askJob) // the flag is withdrawn below; a running request withdraws its own
        m_countedSource->setCancelRequested(true);
    watcher->waitForFinished();
    if (cancel && !m_askJob)
        m_countedSource->setCancelRequested(false);
    watcher->disconnect(this);
    watcher->deleteLater();
    m_countedSource.reset();
}

Result<void> SessionDocument::flushJournal()
{
    PBX_RETURN_IF_ERROR(checkNotBusy());
    if (isOnDisk())
        return {};
    return m_journal.write(*m_session);
}

bool SessionDocument::isOnDisk() const
{
    if (!m_session || m_session->events().empty())
        return true;
    if (m_journal.isOpen())
        return m_journal.holds(m_session->events().size());
    return !m_modified && !m_filePath.isEmpty();
}

Result<void> SessionDocument::reopen(const QString &filePath, const QString &journalPath)
{
    PBX_RETURN_IF_ERROR(checkNotBusy());
    const bool besideFile = !filePath.isEmpty()
                            && QFileInfo(journalPath).absoluteFilePath()
                                   == QFileInfo(filePath + QStringLiteral(".journal")).absoluteFilePath();
    if (!journalPath.isEmpty() && !besideFile) {
        // The journal holds every event, the transcript only those saved.
        if (auto opened = openJournal(journalPath); !opened.ok())
            return opened;
        setFilePath(filePath.isEmpty() ? QString() : QFileInfo(filePath).absoluteFilePath());
        return {};
    }
    if (!filePath.isEmpty())
        return openTranscript(filePath);
    return makeError(ErrorCode::NotFound, "there is no session on disk to reopen");
}

JournalKeeper SessionDocument::lendJournal()
{
    m_journalLent = true;
    JournalKeeper lent = std::move(m_journal);
    m_journal = JournalKeeper();
    return lent;
}

void SessionDocument::adoptSession(std::unique_ptr<session::Session> session, JournalKeeper journal)
{
    m_journalLent = false;
    if (session)
        m_session = std::move(session);
    m_journal = std::move(journal);
    if (!m_session->events().empty())
        setModified(true);
    m_shown = m_session ? m_session->events().size() : 0;
    Q_EMIT sessionReset();
}

void SessionDocument::close()
{
    // A running request is stopped first; what it spent is in its journal already.
    cancelAsk();
    waitForAsk();
    m_session.reset();
    closeJournal();
    m_source.clear();
    m_openNote.clear();
    ++m_serial;
    m_rowCountFailure.clear();
    setFilePath({});
    setModified(false);
    m_shown = m_session ? m_session->events().size() : 0;
    Q_EMIT sessionReset();
}

Result<void> SessionDocument::openJournal(const QString &path)
{
    PBX_RETURN_IF_ERROR(checkNotBusy());
    auto opened = io::openSessionJournal(path.toStdString());
    if (!opened.ok())
        return makeError(opened.error().code, opened.error().message);
    return adoptJournal(path, std::move(opened).value());
}

Result<void> SessionDocument::adoptJournal(const QString &path, io::OpenedSessionJournal opened)
{
    const auto &recovered = opened.recovered;
    PBX_TRY(table, loadRecordedSource(recovered.header));
    auto restored = io::auditSessionFile(io::sessionFileOf(recovered), std::move(table));
    if (!restored.ok())
        return makeError(restored.error().code,
                         QFileInfo(path).fileName().toStdString() + ": " + restored.error().message);
    m_session = std::move(restored).value();
    m_source = toQString(io::datasetToLoad(recovered.header));
    QStringList notes;
    for (const auto &note : {recovered.contents.tornMessage, recovered.contents.tailNote})
        if (!note.empty())
            notes << toQString(note);
    m_openNote = notes.join(QStringLiteral("; "));
    // Locked from now on; the file itself changes only when the session continues (a torn last
    // line is cut off at the next request).
    m_journal.reset();
    m_journal.adopt(std::move(opened.writer), QFileInfo(path).absoluteFilePath(), m_session->events().size());
    ++m_serial;
    m_rowCountFailure.clear();
    setFilePath({});
    setModified(true); // recovered spending not yet saved as a transcript
    m_shown = m_session ? m_session->events().size() : 0;
    Q_EMIT sessionReset();
    return {};
}

SessionDocument::~SessionDocument()
{
    // The record is kept: the job writes its journal line before it ends; the views are going
    // away, so nothing is reported.
    if (m_askJob) {
        cancelAsk();
        finishAsk(false);
    }
    stopRowCount(true);
}

Result<std::shared_ptr<const data::Table>> SessionDocument::loadTable(const QString &nameOrPath)
{
    const std::string name = nameOrPath.toStdString();
    PBX_TRY(table, resources::loadDataset(name));
    // Text the journal cannot hold (a label that is not UTF-8, a 5 MB label) is refused when the
    // dataset is opened, as pbx-cli run does, never found when an answer is to be recorded.
    PBX_RETURN_IF_ERROR(io::checkRecordableText(table));
    return std::make_shared<const data::Table>(std::move(table));
}

Result<std::shared_ptr<const data::Source>> SessionDocument::loadSource(const QString &dataset,
                                                                        const QString &metadataPath)
{
    PBX_TRY(source, resources::openDataset(dataset.toStdString(), metadataPath.toStdString()));
    PBX_RETURN_IF_ERROR(io::checkRecordableText((source)->schema()));
    return source;
}

Result<std::shared_ptr<const data::Source>>
SessionDocument::loadRecordedSource(const io::SessionHeader &header) const
{
    QString metadata = recordedMetadata(header);
    std::error_code ec;
    if (!metadata.isEmpty()
        && std::filesystem::symlink_status(metadata.toStdString(), ec).type()
               == std::filesystem::file_type::not_found) {
        // Moved since the session was recorded: ask where it is now (as pbx-cli's --metadata FILE);
        // io::checkDataset then compares the chosen file's SHA-256 with the recorded one.
        const QString chosen = m_metadataChooser ? m_metadataChooser(metadata) : QString();
        if (chosen.isEmpty())
            return makeError(
                ErrorCode::NotFound,
                tr("the metadata file %1 recorded in the session is missing (moved or deleted)%2")
                    .arg(metadata, m_metadataChooser ? tr("; no other file was chosen") : QString())
                    .toStdString());
        metadata = chosen;
    }
    return loadSource(toQString(io::datasetToLoad(header)), metadata);
}

QString SessionDocument::askForMovedMetadata(QWidget *parent, const QString &missingPath)
{
    const QFileInfo missing(missingPath);
    const QString folder
        = missing.absoluteDir().exists() ? missing.absolutePath() : AppSettings::startFolder();
    return QFileDialog::getOpenFileName(
        parent, tr("The session's metadata file %1 is missing: where is it now?").arg(missingPath), folder,
        tr("Dataset metadata (*.json);;All files (*)"));
}

session::SessionSettings SessionDocument::settings() const
{
    return m_session ? m_session->settings() : session::SessionSettings{};
}

Result<void> SessionDocument::start(std::shared_ptr<const data::Table> table, const QString &source,
                                    const session::SessionSettings &settings, const QString &journalFolder)
{
    PBX_RETURN_IF_ERROR(checkNotBusy());
    if (!table)
        return makeError(ErrorCode::InvalidArgument, "a session needs a dataset");
    return start(std::make_shared<const data::TableSource>(std::move(table)), source, settings,
                 journalFolder);
}

Result<void> SessionDocument::start(std::shared_ptr<const data::Source> dataSource, const QString &source,
                                    const session::SessionSettings &settings, const QString &journalFolder)
{
    PBX_RETURN_IF_ERROR(checkNotBusy());
    PBX_TRY(created, session::Session::create(std::move(dataSource), settings));
    m_session = std::move(created);
    m_source = source;
    m_journal.reset(journalFolder); // a fresh session gets its own journal at its first request
    ++m_serial;
    m_rowCountFailure.clear();
    m_openNote.clear();
    setFilePath({});
    setModified(false);
    m_shown = m_session ? m_session->events().size() : 0;
    Q_EMIT sessionReset();
    return {};
}

Result<void> SessionDocument::restart(const session::SessionSettings &settings)
{
    if (!m_session)
        return makeError(ErrorCode::InvalidArgument, "no dataset is open");
    return start(m_session->sharedSource(), m_source, settings);
}

Result<void> SessionDocument::openDataset(const QString &nameOrPath, const QString &metadataPath)
{
    PBX_RETURN_IF_ERROR(checkNotBusy());
    PBX_TRY(source, loadSource(nameOrPath, metadataPath));
    return start(std::move(source), nameOrPath, settings());
}

Result<session::LedgerEvent> SessionDocument::ask(const session::QueryRequest &request)
{
    if (!m_session)
        return makeError(ErrorCode::InvalidArgument, "no session: open a dataset first");
    PBX_RETURN_IF_ERROR(checkNotBusy());
    const std::size_t before = m_session->events().size();
    auto event = askJournaled(*m_session, m_journal, request);
    const std::size_t after = m_session->events().size();
    if (after > before)
        setModified(true);
    // Views hear of an event once the journal holds it: one withheld earlier is shown when its
    // line has been written (before this request was asked), then this one.
    if (m_journal.holds(after))
        for (; m_shown < after; ++m_shown)
            Q_EMIT eventAppended(static_cast<int>(m_shown));
    return event;
}

Result<void> SessionDocument::openTranscript(const QString &path)
{
    PBX_RETURN_IF_ERROR(checkNotBusy());
    QFile probe(path);
    if (probe.open(QIODevice::ReadOnly) && io::looksLikeJournal(probe.read(4096).toStdString()))
        return openJournal(path);
    // A crash after the last save leaves more requests in the journal than in the transcript. A
    // journal beside the transcript that fails verification (or is in use) stops the opening:
    // preferring the transcript would hide spending the journal records.
    const QString journalBeside = path + QStringLiteral(".journal");
    std::error_code ec;
    if (std::filesystem::symlink_status(journalBeside.toStdString(), ec).type()
        != std::filesystem::file_type::not_found) {
        auto opened = io::openSessionJournal(journalBeside.toStdString());
        if (!opened.ok())
            return makeError(opened.error().code,
                             tr("the session was not opened: its journal %1 cannot be used (%2)")
                                 .arg(QFileInfo(journalBeside).fileName(), toQString(opened.error().message))
                                 .toStdString());
        auto saved = io::readTranscriptJson(probe.seek(0) ? probe.readAll().toStdString() : std::string());
        if (!saved.ok() || opened->recovered.events.size() >= saved->events.size()) {
            const bool newer = !saved.ok() || opened->recovered.events.size() > saved->events.size();
            auto adopted = adoptJournal(journalBeside, std::move(opened).value());
            if (adopted.ok()) {
                setFilePath(QFileInfo(path).absoluteFilePath());
                setModified(newer); // modified only if the journal holds requests the transcript does not
            }
            return adopted;
        }
    }
    // The same reading and audit as `pbx-cli verify`: whatever one refuses, the other does too.
    PBX_TRY(document, io::readSessionFile(path.toStdString()));

    // The transcript names its dataset: an embedded name or the CSV file's recorded path. A CSV
    // that is not there (moved with the transcript) is looked for next to the transcript; its
    // digest must still match the one recorded.
    const QString datasetName = toQString(io::datasetToLoad(document.header));
    auto table = loadRecordedSource(document.header);
    QString source = datasetName;
    if (!table.ok()) {
        const QDir dir = QFileInfo(path).absoluteDir();
        const QString stem = toQString(document.header.datasetName);
        for (const QString &candidate : {QFileInfo(datasetName).fileName(), stem + QStringLiteral(".csv"),
                                         stem + QStringLiteral(".csv.gz"), stem}) {
            const QString full = dir.filePath(candidate);
            if (candidate.isEmpty() || !QFileInfo(full).isFile())
                continue;
            auto alternative = loadSource(full, {});
            if (alternative.ok()) {
                table = std::move(alternative);
                source = full;
                break;
            }
        }
    }
    if (!table.ok())
        return makeError(table.error().code, tr("the session's dataset '%1' could not be loaded: %2")
                                                 .arg(datasetName, toQString(table.error().message))
                                                 .toStdString());

    auto restored = io::auditSessionFile(document, std::move(table).value());
    if (!restored.ok())
        return makeError(restored.error().code,
                         QFileInfo(path).fileName().toStdString() + ": " + restored.error().message);
    m_session = std::move(restored).value();
    m_source = source;
    closeJournal(); // no journal beside it: the next request starts one with every event
    ++m_serial;
    m_rowCountFailure.clear();
    m_openNote.clear();
    setFilePath(QFileInfo(path).absoluteFilePath());
    setModified(false);
    m_shown = m_session ? m_session->events().size() : 0;
    Q_EMIT sessionReset();
    return {};
}

Result<void> SessionDocument::saveTranscript(const QString &path)
{
    if (!m_session)
        return makeError(ErrorCode::InvalidArgument, "no session to save");
    PBX_RETURN_IF_ERROR(checkNotBusy()); // the journal is with the running request
    // The journal moves next to its document (rename keeps the open descriptor and lock valid).
    // Another session's journal already there would be taken for this one's when the file is
    // next opened: refuse before writing anything.
    const QString beside = QFileInfo(path).absoluteFilePath() + QStringLiteral(".journal");
    std::error_code ec;
    if (m_journal.path() != beside
        && std::filesystem::symlink_status(beside.toStdString(), ec).type()
               != std::filesystem::file_type::not_found)
        return ioError(
            tr("%1 already exists (the journal of another session): save under another name, or move "
               "that file away first")
                .arg(beside));
    if (m_journal.isOpen()) // the journal moved beside the transcript holds all it can (best effort)
        (void)m_journal.write(*m_session);
    auto written = writeFile(path, io::writeTranscriptJson(*m_session));
    if (!written.ok())
        return written;
    if (m_journal.holds(m_session->events().size()) && m_journal.path() != beside) {
        // Never over another session's journal (moveTo refuses to replace): the journal then
        // stays where it is, still recording every request. One that lacks a line (it could not
        // be written) stays where it is too: beside the transcript it would be taken for the
        // session's and be shorter than the transcript.
        (void)m_journal.moveTo(beside);
    }
    setFilePath(QFileInfo(path).absoluteFilePath());
    setModified(false);
    return {};
}

Result<void> SessionDocument::exportCsv(const QString &path) const
{
    if (!m_session)
        return makeError(ErrorCode::InvalidArgument, "no session to export");
    return writeFile(path, io::writeTranscriptCsv(*m_session));
}

void SessionDocument::setModified(bool modified)
{
    if (m_modified == modified)
        return;
    m_modified = modified;
    Q_EMIT modifiedChanged(modified);
}

void SessionDocument::setFilePath(const QString &path)
{
    if (m_filePath == path)
        return;
    m_filePath = path;
    Q_EMIT filePathChanged(path);
}

} // namespace pbx::ui
