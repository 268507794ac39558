// SPDX-License-Identifier: MIT
// The GUI's crash safety: every request is journalled before it is shown; a journal (with a torn
// last line) reopens to the same spend and continues; saving moves the journal beside the
// document; a transcript older than its journal reopens from the journal.
#include "core/io/session_journal.h"
#include "tests/testutils.h"
#include "ui/sessiondocument.h"

#include <QTemporaryDir>

using namespace pbx;

class TestJournalRecovery : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void journalsEveryRequestAndRecovers();

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
    QCOMPARE(io::readSessionJournal(crashed.toStdString())->events.size(), std::size_t(4)); // torn line cut, chain continued

    // Saving moves the journal beside the document; a request after the save lives only there.
    const QString saved = m_dir.filePath(QStringLiteral("session.json"));
    QVERIFY(doc.saveTranscript(saved).ok());
    QCOMPARE(doc.journalPath(), saved + QStringLiteral(".journal"));
    QVERIFY(!QFile::exists(journal));
    QVERIFY(doc.ask(count("ethnicity == \"afam\"", 40)).ok());
    ui::SessionDocument reopened;
    QVERIFY(reopened.openTranscript(saved).ok());
    QCOMPARE(reopened.session().events().size(), std::size_t(4)); // from the journal, not the older transcript
    QCOMPARE(reopened.session().filter().spent(), doc.session().filter().spent());
}

QTEST_MAIN(TestJournalRecovery)
#include "tst_journalrecovery.moc"
