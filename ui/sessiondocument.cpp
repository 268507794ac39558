// SPDX-License-Identifier: MIT
#include "ui/sessiondocument.h"

#include "core/io/transcript_csv.h"
#include "core/io/transcript_json.h"
#include "resources/dataset_catalog.h"
#include "ui/util/numberformat.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

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

Result<void> SessionDocument::start(std::shared_ptr<const data::Table> table,
                                    const QString &source,
                                    const session::SessionSettings &settings)
{
    auto created = session::Session::create(std::move(table), settings);
    if (!created.ok())
        return created.error();
    m_session = std::move(created).value();
    m_source = source;
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
    Q_EMIT eventAppended(static_cast<int>(event->index));
    return event;
}

Result<void> SessionDocument::openTranscript(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return ioError(tr("cannot read %1: %2").arg(path, file.errorString()));
    const QByteArray bytes = file.readAll();
    auto document = io::readTranscriptJson(std::string_view(bytes.constData(),
                                                            static_cast<std::size_t>(bytes.size())));
    if (!document.ok())
        return makeError(document.error().code,
                         QFileInfo(path).fileName().toStdString() + ": " + document.error().message);

    // The transcript names its dataset: an embedded name, or a CSV the loader can find. A CSV
    // recorded by name only is looked for next to the transcript.
    const QString datasetName = toQString(document->datasetName);
    auto table = loadTable(datasetName);
    QString source = datasetName;
    if (!table.ok() && !QFileInfo(datasetName).isAbsolute()) {
        const QDir dir = QFileInfo(path).absoluteDir();
        for (const QString &candidate :
             {datasetName, datasetName + QStringLiteral(".csv"), datasetName + QStringLiteral(".csv.gz")}) {
            const QString full = dir.filePath(candidate);
            if (!QFileInfo(full).isFile())
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
        return makeError(table.error().code,
                         tr("the session's dataset '%1' could not be loaded: %2")
                             .arg(datasetName, toQString(table.error().message))
                             .toStdString());

    auto restored = session::Session::restore(std::move(table).value(), document->settings,
                                              std::move(document->events));
    if (!restored.ok())
        return restored.error();
    m_session = std::move(restored).value();
    m_source = source;
    setFilePath(QFileInfo(path).absoluteFilePath());
    setModified(false);
    Q_EMIT sessionReset();
    return {};
}

Result<void> SessionDocument::saveTranscript(const QString &path)
{
    if (!m_session)
        return makeError(ErrorCode::InvalidArgument, "no session to save");
    auto written = writeFile(path, io::writeTranscriptJson(*m_session));
    if (!written.ok())
        return written;
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
