// SPDX-License-Identifier: MIT
#include "ui/journalkeeper.h"

#include "core/util/try.h"
#include "ui/sessiondocument.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>

namespace pbx::ui {

namespace {
const QString kStarting = QStringLiteral(".starting");
} // namespace

Result<void> JournalKeeper::write(const session::Session &session)
{
    const auto &events = session.events();
    if (!m_writer) {
        const QString folder = m_folder.isEmpty() ? SessionDocument::defaultJournalFolder() : m_folder;
        if (!QDir().mkpath(folder))
            return makeError(ErrorCode::Io,
                             QObject::tr("cannot create the journal folder %1").arg(folder).toStdString());
        const QString path = QDir(folder).filePath(
            QStringLiteral("session-%1-%2.journal")
                .arg(QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz")))
                .arg(QCoreApplication::applicationPid()));
        // The header is the session as it was before its first request (its settings and
        // dataset; nothing spent), as `pbx-cli run --journal` writes it.
        PBX_TRY(empty, session::Session::create(session.sharedSource(), session.settings()));
        const QString name = events.empty() ? path : path + kStarting;
        PBX_TRY(created, io::createSessionJournal(name.toStdString(), *empty));
        m_writer.emplace(std::move(created));
        m_path = name;
        m_written = 0;
    }
    for (; m_written < events.size(); ++m_written)
        if (auto logged = io::appendSessionEvent(*m_writer, events[m_written], session.filter());
            !logged.ok())
            return logged;
    if (m_path.endsWith(kStarting)) // complete now: under a journal's name
        return moveTo(m_path.chopped(kStarting.size()));
    return {};
}

void JournalKeeper::adopt(io::JournalWriter writer, const QString &path, std::size_t events)
{
    m_writer.emplace(std::move(writer));
    m_path = path;
    m_written = events;
}

Result<void> JournalKeeper::moveTo(const QString &path)
{
    if (!m_writer)
        return makeError(ErrorCode::InvalidArgument, "there is no journal to move");
    if (auto moved = m_writer->moveTo(path.toStdString()); !moved.ok())
        return moved;
    m_path = path;
    return {};
}

void JournalKeeper::reset(QString folder)
{
    m_writer.reset();
    m_path.clear();
    m_written = 0;
    m_folder = std::move(folder);
}

bool JournalKeeper::holds(std::size_t events) const
{
    return m_writer && m_written == events && !m_path.endsWith(kStarting);
}

Result<session::LedgerEvent> askJournaled(session::Session &session, JournalKeeper &journal,
                                          const session::QueryRequest &request)
{
    // Every event so far is in the journal before anything more is spent (a continued
    // transcript's, a line that failed before): if that cannot be written, nothing is asked.
    if (auto ready = journal.write(session); !ready.ok())
        return makeError(ready.error().code,
                         "the request was not asked (nothing spent): the session's journal could not be "
                         "written ("
                             + ready.error().message + ")");
    auto event = session.ask(request);
    // The journal line is durable before anyone sees the answer; if it cannot be written the
    // answer is withheld (the spending stands in memory and is written before the next request).
    auto logged = journal.write(session);
    if (!event.ok())
        return event;
    if (!logged.ok())
        return makeError(logged.error().code, "the answer is withheld: the journal could not be written ("
                                                  + logged.error().message + ")");
    return event;
}

} // namespace pbx::ui
