// SPDX-License-Identifier: MIT
#include "ui/sessiondocument.h"

#include "core/io/session_file.h"
#include "core/io/session_journal.h"
#include "core/io/transcript_csv.h"
#include "core/io/transcript_json.h"
#include "resources/dataset_catalog.h"
#include "ui/util/numberformat.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>

#include <filesystem>

namespace pbx::ui {

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

SessionDocument::SessionDocument(QObject *parent) : QObject(parent) {}

QString SessionDocument::defaultJournalFolder()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
        .filePath(QStringLiteral("journals"));
}

void SessionDocument::closeJournal()
{
    m_journal.reset();
    m_journalPath.clear();
}

Result<void> SessionDocument::journal(const session::LedgerEvent &event)
{
    if (!m_journal) {
        const QString folder = defaultJournalFolder();
        if (!QDir().mkpath(folder))
            return ioError(tr("cannot create the journal folder %1").arg(folder));
        const QString path = QDir(folder).filePath(
            QStringLiteral("session-%1-%2.journal")
                .arg(QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz")))
                .arg(QCoreApplication::applicationPid()));
        // The header is the session as it was before this first request.
        auto empty = session::Session::create(m_session->sharedTable(), m_session->settings());
        if (!empty.ok())
            return empty.error();
        auto created = io::createSessionJournal(path.toStdString(), **empty);
        if (!created.ok())
            return created.error();
        m_journal.emplace(std::move(created).value());
        m_journalPath = path;
    }
    return io::appendSessionEvent(*m_journal, event, m_session->filter());
}

Result<void> SessionDocument::openJournal(const QString &path)
{
    auto opened = io::openSessionJournal(path.toStdString());
    if (!opened.ok())
        return makeError(opened.error().code, opened.error().message);
    return adoptJournal(path, std::move(opened).value());
}

Result<void> SessionDocument::adoptJournal(const QString &path, io::OpenedSessionJournal opened)
{
    const auto &recovered = opened.recovered;
    auto table = loadTable(toQString(io::datasetToLoad(recovered.header)));
    if (!table.ok())
        return table.error();
    auto restored = io::auditSessionFile(io::sessionFileOf(recovered), std::move(table).value());
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
    m_journal.emplace(std::move(opened.writer));
    m_journalPath = QFileInfo(path).absoluteFilePath();
    setFilePath({});
    setModified(true); // recovered spending not yet saved as a transcript
    Q_EMIT sessionReset();
    return {};
}

SessionDocument::~SessionDocument() = default;

Result<std::shared_ptr<const data::Table>> SessionDocument::loadTable(const QString &nameOrPath)
{
    const std::string name = nameOrPath.toStdString();
    auto table = resources::loadDataset(name);
    if (!table.ok())
        return table.error();
    return std::make_shared<const data::Table>(std::move(table).value());
}

session::SessionSettings SessionDocument::settings() const
{
    return m_session ? m_session->settings() : session::SessionSettings{};
}

Result<void> SessionDocument::start(std::shared_ptr<const data::Table> table, const QString &source,
                                    const session::SessionSettings &settings)
{
    auto created = session::Session::create(std::move(table), settings);
    if (!created.ok())
        return created.error();
    m_session = std::move(created).value();
    m_source = source;
    closeJournal(); // a fresh session gets its own journal at its first request
    m_openNote.clear();
    setFilePath({});
    setModified(false);
    Q_EMIT sessionReset();
    return {};
}

Result<void> SessionDocument::restart(const session::SessionSettings &settings)
{
    if (!m_session)
        return makeError(ErrorCode::InvalidArgument, "no dataset is open");
    return start(m_session->sharedTable(), m_source, settings);
}

Result<void> SessionDocument::openDataset(const QString &nameOrPath)
{
    auto table = loadTable(nameOrPath);
    if (!table.ok())
        return table.error();
    return start(std::move(table).value(), nameOrPath, settings());
}

Result<session::LedgerEvent> SessionDocument::ask(const session::QueryRequest &request)
{
    if (!m_session)
        return makeError(ErrorCode::InvalidArgument, "no session: open a dataset first");
    auto event = m_session->ask(request);
    if (!event.ok())
        return event;
    setModified(true);
    // The journal line is durable before anyone sees the answer; if it cannot be written the
    // answer is withheld (the spending stands in memory, never silently lost).
    if (auto logged = journal(*event); !logged.ok())
        return makeError(logged.error().code, "the answer is withheld: the journal could not be written ("
                                                  + logged.error().message + ")");
    Q_EMIT eventAppended(static_cast<int>(event->index));
    return event;
}

Result<void> SessionDocument::openTranscript(const QString &path)
{
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
    auto document = io::readSessionFile(path.toStdString());
    if (!document.ok())
        return document.error();

    // The transcript names its dataset: an embedded name or the CSV file's recorded path. A CSV
    // that is not there (moved with the transcript) is looked for next to the transcript; its
    // digest must still match the one recorded.
    const QString datasetName = toQString(io::datasetToLoad(document->header));
    auto table = loadTable(datasetName);
    QString source = datasetName;
    if (!table.ok()) {
        const QDir dir = QFileInfo(path).absoluteDir();
        const QString stem = toQString(document->header.datasetName);
        for (const QString &candidate : {QFileInfo(datasetName).fileName(), stem + QStringLiteral(".csv"),
                                         stem + QStringLiteral(".csv.gz"), stem}) {
            const QString full = dir.filePath(candidate);
            if (candidate.isEmpty() || !QFileInfo(full).isFile())
                continue;
            auto alternative = loadTable(full);
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

    auto restored = io::auditSessionFile(*document, std::move(table).value());
    if (!restored.ok())
        return makeError(restored.error().code,
                         QFileInfo(path).fileName().toStdString() + ": " + restored.error().message);
    m_session = std::move(restored).value();
    m_source = source;
    closeJournal(); // no journal beside it: the next request starts one
    m_openNote.clear();
    setFilePath(QFileInfo(path).absoluteFilePath());
    setModified(false);
    Q_EMIT sessionReset();
    return {};
}

Result<void> SessionDocument::saveTranscript(const QString &path)
{
    if (!m_session)
        return makeError(ErrorCode::InvalidArgument, "no session to save");
    // The journal moves next to its document (rename keeps the open descriptor and lock valid).
    // Another session's journal already there would be taken for this one's when the file is
    // next opened: refuse before writing anything.
    const QString beside = QFileInfo(path).absoluteFilePath() + QStringLiteral(".journal");
    std::error_code ec;
    if (m_journalPath != beside
        && std::filesystem::symlink_status(beside.toStdString(), ec).type()
               != std::filesystem::file_type::not_found)
        return ioError(
            tr("%1 already exists (the journal of another session): save under another name, or move "
               "that file away first")
                .arg(beside));
    auto written = writeFile(path, io::writeTranscriptJson(*m_session));
    if (!written.ok())
        return written;
    if (m_journal && m_journalPath != beside) {
        // Never over another session's journal (moveTo refuses to replace): the journal then
        // stays where it is, still recording every request.
        if (m_journal->moveTo(beside.toStdString()).ok())
            m_journalPath = beside;
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
