// SPDX-License-Identifier: MIT
// The GUI's crash safety: every request is journalled before it is shown; a journal (with a torn
// last line) reopens to the same spend and continues; saving moves the journal beside the
// document; a transcript older than its journal reopens from the journal.
#include "core/io/session_journal.h"
#include "tests/testutils.h"
#include "ui/sessiondocument.h"

#include <QTemporaryDir>

#include <nlohmann/json.hpp>

using namespace pbx;

class TestJournalRecovery : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void journalsEveryRequestAndRecovers();
    void damagedJournalBesideIsRefused();
    void saveNeverReplacesAnotherJournal();
    void openingIsReadOnlyUntilContinued();
    void transcriptsGetVerifysAudit();
    void longIdsAreRefused();

private:
    QTemporaryDir m_dir;
};

namespace {
session::QueryRequest count(const char *where, double error)
{
    session::QueryRequest r;
    r.query.where = where;
    r.target = {session::TargetKind::Absolute, error, 0.95};
    return r;
}
} // namespace

void TestJournalRecovery::journalsEveryRequestAndRecovers()
{
    ui::SessionDocument doc;
    auto table = ui::SessionDocument::loadTable(QStringLiteral("cps1988"));
    QVERIFY(table.ok());
    session::SessionSettings settings;
    settings.seed = 8;
    QVERIFY(doc.start(table.value(), QStringLiteral("cps1988"), settings).ok());
    QVERIFY(doc.journalPath().isEmpty());
    for (const char *where : {"region == \"south\"", "education >= 16", "smsa == \"no\""})
        QVERIFY(doc.ask(count(where, 50)).ok());
    const QString journal = doc.journalPath();
    QVERIFY(journal.startsWith(ui::SessionDocument::defaultJournalFolder()));
    QCOMPARE(io::readSessionJournal(journal.toStdString())->events.size(), std::size_t(3));

    // A crash mid-write: copy the journal and add half a line.
    const QString crashed = m_dir.filePath(QStringLiteral("crashed.journal"));
    QVERIFY(QFile::copy(journal, crashed));
    {
        QFile f(crashed);
        QVERIFY(f.open(QIODevice::Append));
        f.write("{\"type\":\"event\",\"event\":{\"index\":3,");
    }
    ui::SessionDocument recovered;
    QVERIFY(recovered.openTranscript(crashed).ok()); // File ▸ Open session accepts journals
    QCOMPARE(recovered.session().events().size(), std::size_t(3));
    QCOMPARE(recovered.session().filter().spent(), doc.session().filter().spent());
    QVERIFY(recovered.openNote().contains(QStringLiteral("never acknowledged")));
    QVERIFY(recovered.ask(count("region == \"west\"", 60)).ok());
    QCOMPARE(io::readSessionJournal(crashed.toStdString())->events.size(),
             std::size_t(4)); // torn line cut, chain continued

    // Saving moves the journal beside the document; a request after the save lives only there.
    const QString saved = m_dir.filePath(QStringLiteral("session.json"));
    QVERIFY(doc.saveTranscript(saved).ok());
    QCOMPARE(doc.journalPath(), saved + QStringLiteral(".journal"));
    QVERIFY(!QFile::exists(journal));
    QVERIFY(doc.ask(count("ethnicity == \"afam\"", 40)).ok());
    const double spent = doc.session().filter().spent();
    {
        // While a document holds the journal, nobody else may continue it.
        ui::SessionDocument second;
        const auto refused = second.openTranscript(saved);
        QVERIFY(!refused.ok());
        QVERIFY2(QString::fromStdString(refused.error().message).contains(QStringLiteral("locked")),
                 refused.error().message.c_str());
        QVERIFY(!second.hasSession());
    }
    QVERIFY(doc.restart(settings).ok()); // closes the session's journal (and its lock)
    ui::SessionDocument reopened;
    QVERIFY(reopened.openTranscript(saved).ok());
    QCOMPARE(reopened.session().events().size(),
             std::size_t(4)); // from the journal, not the older transcript
    QCOMPARE(reopened.session().filter().spent(), spent);
}

// A journal beside the transcript that fails verification stops the opening (the
// transcript alone would show less spent than the journal records); opening changes
// nothing on disk until the session continues.
void TestJournalRecovery::damagedJournalBesideIsRefused()
{
    const QString saved = m_dir.filePath(QStringLiteral("damaged.json"));
    {
        ui::SessionDocument doc;
        session::SessionSettings settings;
        settings.seed = 9;
        QVERIFY(doc.start(ui::SessionDocument::loadTable(QStringLiteral("cps1988")).value(),
                          QStringLiteral("cps1988"), settings)
                    .ok());
        QVERIFY(doc.ask(count("region == \"south\"", 50)).ok());
        QVERIFY(doc.saveTranscript(saved).ok());
        QVERIFY(doc.ask(count("region == \"west\"", 50)).ok());
    }
    const QString journal = saved + QStringLiteral(".journal");
    QFile f(journal);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QByteArray bytes = f.readAll();
    f.close();
    const int answer = bytes.lastIndexOf("\"answer\":") + 9;
    bytes[answer] = bytes[answer] == '9' ? '8' : static_cast<char>(bytes[answer] + 1);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(bytes);
    f.close();
    ui::SessionDocument reopened;
    const auto opened = reopened.openTranscript(saved);
    QVERIFY(!opened.ok());
    QVERIFY2(QString::fromStdString(opened.error().message).contains(QStringLiteral("edited or corrupted")),
             opened.error().message.c_str());
    QVERIFY(!reopened.hasSession());
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), bytes); // untouched
}

// Saving never renames this session's journal over another one.
void TestJournalRecovery::saveNeverReplacesAnotherJournal()
{
    const QString target = m_dir.filePath(QStringLiteral("taken.json"));
    QFile other(target + QStringLiteral(".journal"));
    QVERIFY(other.open(QIODevice::WriteOnly));
    other.write("someone else's journal\n");
    other.close();
    ui::SessionDocument doc;
    QVERIFY(doc.start(ui::SessionDocument::loadTable(QStringLiteral("cps1988")).value(),
                      QStringLiteral("cps1988"), {})
                .ok());
    QVERIFY(doc.ask(count("region == \"south\"", 50)).ok());
    const auto refused = doc.saveTranscript(target);
    QVERIFY(!refused.ok());
    QVERIFY(QString::fromStdString(refused.error().message).contains(QStringLiteral("already exists")));
    QVERIFY(!QFile::exists(target));
    QVERIFY(other.open(QIODevice::ReadOnly));
    QCOMPARE(other.readAll(), QByteArray("someone else's journal\n"));
}

// Opening a journal (as --screenshot does) leaves it byte for byte as it was; the torn
// line is cut only when the user continues.
void TestJournalRecovery::openingIsReadOnlyUntilContinued()
{
    const QString path = m_dir.filePath(QStringLiteral("readonly.journal"));
    {
        ui::SessionDocument doc;
        QVERIFY(doc.start(ui::SessionDocument::loadTable(QStringLiteral("cps1988")).value(),
                          QStringLiteral("cps1988"), {})
                    .ok());
        QVERIFY(doc.ask(count("region == \"south\"", 50)).ok());
        QVERIFY(QFile::copy(doc.journalPath(), path));
        QVERIFY(QFile::copy(doc.journalPath() + QStringLiteral(".tail"), path + QStringLiteral(".tail")));
    }
    QFile f(path);
    QVERIFY(f.open(QIODevice::Append));
    f.write("{\"type\":\"event\",");
    f.close();
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray before = f.readAll();
    f.close();
    ui::SessionDocument doc;
    QVERIFY(doc.openTranscript(path).ok());
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), before);
    f.close();
    QVERIFY(doc.ask(count("region == \"west\"", 60)).ok());
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(!f.readAll().contains("{\"type\":\"event\",\n"));
    QCOMPARE(io::readSessionJournal(path.toStdString())->events.size(), std::size_t(2));
}

// The GUI runs verify's audit. A transcript whose cost was halved consistently (cost,
// attempt, spend) still replays, so Session::restore accepted it; the audit recomputes the cost
// from the noise scale and refuses.
void TestJournalRecovery::transcriptsGetVerifysAudit()
{
    const QString path = m_dir.filePath(QStringLiteral("cheap.json"));
    {
        ui::SessionDocument doc;
        session::SessionSettings settings;
        settings.seed = 4;
        QVERIFY(doc.start(ui::SessionDocument::loadTable(QStringLiteral("cps1988")).value(),
                          QStringLiteral("cps1988"), settings)
                    .ok());
        QVERIFY(doc.ask(count("region == \"south\"", 50)).ok());
        QVERIFY(doc.saveTranscript(path).ok());
    }
    QVERIFY(QFile::remove(path + QStringLiteral(".journal")));
    QFile::remove(path + QStringLiteral(".journal.tail"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    auto doc = nlohmann::ordered_json::parse(f.readAll().toStdString());
    f.close();
    auto &event = doc["events"][0];
    const double half = event["cost"]["rho"].get<double>() / 2;
    event["cost"]["rho"] = half;
    event["attempts"][0]["cost"] = half;
    event["attempts"][0]["releases"][0]["cost"] = half;
    doc["spent"]["rho"] = half;
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(QByteArray::fromStdString(doc.dump(2)));
    f.close();
    ui::SessionDocument reopened;
    const auto opened = reopened.openTranscript(path);
    QVERIFY(!opened.ok());
    QVERIFY(!reopened.hasSession());
    QVERIFY2(QString::fromStdString(opened.error().message).contains(QStringLiteral("events[0]"))
                 || QString::fromStdString(opened.error().message).contains(QStringLiteral("event 0")),
             opened.error().message.c_str());
}

// Ids longer than the limit are refused by the session itself (the query builder's
// path), not only by the file readers.
void TestJournalRecovery::longIdsAreRefused()
{
    ui::SessionDocument doc;
    QVERIFY(doc.start(ui::SessionDocument::loadTable(QStringLiteral("cps1988")).value(),
                      QStringLiteral("cps1988"), {})
                .ok());
    auto r = count("region == \"south\"", 50);
    r.id = std::string(100000, 'x');
    const auto refused = doc.ask(r);
    QVERIFY(!refused.ok());
    QVERIFY(
        QString::fromStdString(refused.error().message).contains(QStringLiteral("longer than 256 bytes")));
    QCOMPARE(doc.eventCount(), 0);
}

QTEST_MAIN(TestJournalRecovery)
#include "tst_journalrecovery.moc"
