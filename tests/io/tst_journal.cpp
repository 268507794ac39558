// SPDX-License-Identifier: MIT
// The hash-chained journal: round trip, a torn last line dropped and cut off on resume, edits and
// reordering detected, the chain continued across resumes, and session journals restored.
#include "core/io/session_journal.h"
#include "core/session/ledger/cost_audit.h"
#include "tests/synthetic_table.h"
#include "tests/testutils.h"

#include <QTemporaryDir>

using namespace pbx;
using io::json::Json;

namespace {
std::string readAll(const QString &path)
{
    return test::readTextFile(path.toStdString());
}
void writeAll(const QString &path, const std::string &text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(text.data(), static_cast<qint64>(text.size()));
}
} // namespace

class TestJournal : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sha256KnownAnswer();
    void roundTripAndResume();
    void tornTailIsDroppedAndCut();
    void editsAreDetected_data();
    void editsAreDetected();
    void completeBadLastLineIsDamage_data();
    void completeBadLastLineIsDamage();
    void tailRecordDetectsRemovedAndRewrittenEnd();
    void secondWriterIsRefused();
    void createNeverReplaces();
    void appendRefusesPastTheReadersLimit();
    void sessionJournal();

private:
    QTemporaryDir m_dir;
};

void TestJournal::sha256KnownAnswer()
{
    // FIPS 180-2 test vector.
    QCOMPARE(io::sha256Hex("abc"),
             std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
}

void TestJournal::roundTripAndResume()
{
    const QString path = m_dir.filePath(QStringLiteral("a.jsonl"));
    {
        auto w = io::JournalWriter::create(path.toStdString(), Json{{"n", 0}});
        QVERIFY(w.ok());
        QVERIFY(w->append(Json{{"n", 1}}).ok());
    }
    PBX_VERIFY_ERROR(io::JournalWriter::create(path.toStdString(), Json{{"n", 0}}), Io,
                     "a journal exists there already"); // never overwritten
    auto read = io::readJournal(path.toStdString());
    QVERIFY(read.ok());
    QCOMPARE(read->records.size(), std::size_t(2));
    QVERIFY(!read->tornTail);
    QVERIFY(read->tailNote.empty()); // the tail record was checked
    {
        auto w = io::JournalWriter::open(path.toStdString());
        QVERIFY(w.ok());
        QCOMPARE(w->contents.records.size(), std::size_t(2));
        QVERIFY(w->writer.append(Json{{"n", 2}}).ok());
    }
    auto again = io::readJournal(path.toStdString()).value();
    QCOMPARE(again.records.size(), std::size_t(3));
    QCOMPARE(again.records[2]["n"].get<int>(), 2);
}

// A crash mid-write leaves an incomplete last line: it is reported, dropped, and cut off before
// the next append, so the chain continues from the last acknowledged line.
void TestJournal::tornTailIsDroppedAndCut()
{
    const QString path = m_dir.filePath(QStringLiteral("torn.jsonl"));
    {
        auto w = io::JournalWriter::create(path.toStdString(), Json{{"n", 0}}).value();
        QVERIFY(w.append(Json{{"n", 1}}).ok());
        QVERIFY(w.append(Json{{"n", 2, "padding", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}}).ok());
    }
    const std::string full = readAll(path);
    // A crash during line 3's write happens before the tail record is updated for it; here it
    // is simply absent (read with a note), as for a journal copied without it.
    for (std::size_t cut : {full.size() - 1, full.size() - 20, full.size() - 70}) {
        QVERIFY(QFile::remove(path + QStringLiteral(".tail")));
        writeAll(path, full.substr(0, cut));
        auto read = io::readJournal(path.toStdString());
        QVERIFY(read.ok());
        QCOMPARE(read->records.size(), std::size_t(2));
        QVERIFY(read->tornTail);
        QVERIFY(QString::fromStdString(read->tornMessage).contains(QStringLiteral("journal line 3")));
        // Opening changes nothing on disk; the first append cuts the torn line off.
        auto opened = io::JournalWriter::open(path.toStdString());
        QVERIFY(opened.ok());
        QCOMPARE(readAll(path), full.substr(0, cut));
        QVERIFY(opened->writer.append(Json{{"n", 3}}).ok());
        auto after = io::readJournal(path.toStdString()).value();
        QVERIFY(!after.tornTail);
        QCOMPARE(after.records.size(), std::size_t(3));
        QCOMPARE(after.records[2]["n"].get<int>(), 3);
    }
}

void TestJournal::editsAreDetected_data()
{
    QTest::addColumn<QString>("edit");
    QTest::newRow("changed value") << QStringLiteral("value");
    QTest::newRow("removed line") << QStringLiteral("remove");
    QTest::newRow("swapped lines") << QStringLiteral("swap");
}

void TestJournal::editsAreDetected()
{
    QFETCH(QString, edit);
    const QString path = m_dir.filePath(QStringLiteral("edit-%1.jsonl").arg(edit));
    {
        auto w = io::JournalWriter::create(path.toStdString(), Json{{"n", 0}}).value();
        for (int i = 1; i <= 4; ++i)
            QVERIFY(w.append(Json{{"n", i}}).ok());
    }
    QStringList lines = QString::fromStdString(readAll(path)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    if (edit == QStringLiteral("value"))
        lines[2].replace(QStringLiteral("\"n\":2"), QStringLiteral("\"n\":9"));
    else if (edit == QStringLiteral("remove"))
        lines.removeAt(2);
    else
        lines.swapItemsAt(1, 2);
    writeAll(path, (lines.join(QLatin1Char('\n')) + QLatin1Char('\n')).toStdString());
    auto read = io::readJournal(path.toStdString());
    PBX_VERIFY_ERROR(read, Parse, "journal line");
    QVERIFY(QString::fromStdString(read.error().message).contains(QStringLiteral("edited or corrupted")));
}

void TestJournal::completeBadLastLineIsDamage_data()
{
    QTest::addColumn<bool>("withTail");
    QTest::newRow("with tail record") << true;
    QTest::newRow("without tail record") << false;
}

// A crash leaves only a last line without its newline. A complete last line
// that fails its checksum (a 1-ulp edit of an answer) is damage: refused by readJournal and open,
// never dropped and asked again.
void TestJournal::completeBadLastLineIsDamage()
{
    QFETCH(bool, withTail);
    const QString path = m_dir.filePath(QStringLiteral("ulp-%1.jsonl").arg(withTail));
    {
        auto w = io::JournalWriter::create(path.toStdString(), Json{{"n", 0}}).value();
        QVERIFY(w.append(Json{{"answer", 8770.25}}).ok());
    }
    if (!withTail)
        QVERIFY(QFile::remove(path + QStringLiteral(".tail")));
    std::string text = readAll(path);
    const auto at = text.find("8770.25");
    QVERIFY(at != std::string::npos);
    text.replace(at, 7, "8770.26");
    writeAll(path, text);
    auto read = io::readJournal(path.toStdString());
    PBX_VERIFY_ERROR(read, Parse, "journal line 2");
    QVERIFY2(QString::fromStdString(read.error().message).contains(QStringLiteral("edited or corrupted")),
             read.error().message.c_str());
    QVERIFY(QString::fromStdString(read.error().message).contains(QStringLiteral("journal line 2")));
    PBX_VERIFY_ERROR(io::JournalWriter::open(path.toStdString()), Parse, "journal line 2");
    QCOMPARE(readAll(path), text); // nothing was cut off
}

// Removing whole lines from the end, or re-chaining a rewritten last line, leaves a valid chain;
// the tail record beside the journal catches both. Without it, the read notes that the end
// could not be checked.
void TestJournal::tailRecordDetectsRemovedAndRewrittenEnd()
{
    const QString path = m_dir.filePath(QStringLiteral("tail.jsonl"));
    {
        auto w = io::JournalWriter::create(path.toStdString(), Json{{"n", 0}}).value();
        for (int i = 1; i <= 3; ++i)
            QVERIFY(w.append(Json{{"n", i}}).ok());
    }
    const std::string full = readAll(path);
    const std::string tail = readAll(path + QStringLiteral(".tail"));
    QVERIFY(tail.find("\"lines\":4") != std::string::npos);
    // The last line removed.
    const std::string shorter = full.substr(0, full.rfind('\n', full.size() - 2) + 1);
    writeAll(path, shorter);
    auto removed = io::readJournal(path.toStdString());
    PBX_VERIFY_ERROR(removed, Parse, "its tail record says 4 were written");
    QVERIFY2(QString::fromStdString(removed.error().message).contains(QStringLiteral("removed from its end")),
             removed.error().message.c_str());
    PBX_VERIFY_ERROR(io::JournalWriter::open(path.toStdString()), Parse,
                     "its tail record says 4 were written");
    // The last line rewritten and re-chained (its checksum recomputed, as anyone can).
    const auto lastStart = shorter.size();
    const std::string previousHash = shorter.substr(shorter.rfind('\t') + 1, 64);
    const std::string payload = R"({"n":9})";
    writeAll(path, shorter + payload + "\t" + io::sha256Hex(previousHash + payload) + "\n");
    QVERIFY(io::readJournalText(readAll(path)).ok()); // the chain alone cannot tell
    auto rewritten = io::readJournal(path.toStdString());
    PBX_VERIFY_ERROR(rewritten, Parse, "journal line 4");
    QVERIFY2(QString::fromStdString(rewritten.error().message)
                 .contains(QStringLiteral("does not match the tail record")),
             rewritten.error().message.c_str());
    Q_UNUSED(lastStart);
    // Without the tail record the shortened journal reads, with a note.
    writeAll(path, shorter);
    QVERIFY(QFile::remove(path + QStringLiteral(".tail")));
    auto unchecked = io::readJournal(path.toStdString());
    QVERIFY(unchecked.ok());
    QVERIFY(QString::fromStdString(unchecked->tailNote).contains(QStringLiteral("could not be detected")));
}

// The lock is exclusive across open file descriptions, so a second writer (here in the
// same process; tests/cli/tst_clilock.cpp races real processes) is refused while the first lives.
void TestJournal::secondWriterIsRefused()
{
    const QString path = m_dir.filePath(QStringLiteral("locked.jsonl"));
    {
        auto first = io::JournalWriter::create(path.toStdString(), Json{{"n", 0}});
        QVERIFY(first.ok());
        auto second = io::JournalWriter::open(path.toStdString());
        PBX_VERIFY_ERROR(second, Io, "the journal is locked");
        QVERIFY2(QString::fromStdString(second.error().message).contains(QStringLiteral("locked")),
                 second.error().message.c_str());
        QVERIFY(first->append(Json{{"n", 1}}).ok());
    }
    auto opened = io::JournalWriter::open(path.toStdString());
    QVERIFY(opened.ok()); // the lock ends with its writer
    PBX_VERIFY_ERROR(io::JournalWriter::open(path.toStdString()), Io, "the journal is locked");
}

// A dangling symbolic link or a folder at the path is named as such, never replaced.
// A journal grew past the 1 GiB that verify, resume and report read. The writer now
// refuses, before writing, a line that would take it past its limit (maxJournalBytes; a smaller
// one here), and the file stays as it was.
void TestJournal::appendRefusesPastTheReadersLimit()
{
    const QString path = m_dir.filePath(QStringLiteral("limit.jsonl"));
    std::size_t size = 0;
    {
        auto w = io::JournalWriter::create(path.toStdString(), Json{{"n", 0}}, 1000).value();
        QVERIFY(w.append(Json{{"n", 1}}).ok());
        size = readAll(path).size();
        PBX_VERIFY_ERROR(w.append(Json{{"padding", std::string(1000, 'x')}}), Io, "maxJournalBytes");
        QCOMPARE(readAll(path).size(), size);
        QVERIFY(w.append(Json{{"n", 2}}).ok()); // a small one still fits
        size = readAll(path).size();
    }
    auto opened = io::JournalWriter::open(path.toStdString(), size + 10);
    QVERIFY(opened.ok());
    PBX_VERIFY_ERROR(opened->writer.append(Json{{"n", 3}}), Io, "would take the file past");
    QCOMPARE(readAll(path).size(), size);
    QCOMPARE(io::readJournal(path.toStdString())->records.size(), std::size_t(3));
    QVERIFY(QString::fromStdString(io::journalTooLargeMessage(5, 7)).contains(QStringLiteral("past 1 GiB")));
}

void TestJournal::createNeverReplaces()
{
    const QString link = m_dir.filePath(QStringLiteral("dangling.jsonl"));
    QVERIFY(QFile::link(m_dir.filePath(QStringLiteral("missing-target")), link));
    auto created = io::JournalWriter::create(link.toStdString(), Json{{"n", 0}});
    PBX_VERIFY_ERROR(created, Io, "a symbolic link");
    QVERIFY2(QString::fromStdString(created.error().message).contains(QStringLiteral("symbolic link")),
             created.error().message.c_str());
    QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("missing-target"))));
    auto folder = io::JournalWriter::open(m_dir.path().toStdString());
    PBX_VERIFY_ERROR(folder, Io, "a folder, not a file");
    QVERIFY(QString::fromStdString(folder.error().message).contains(QStringLiteral("a folder")));
    auto fifoLike = io::readJournal("/dev/null");
    PBX_VERIFY_ERROR(fifoLike, Io, "not a regular file");
    QVERIFY(QString::fromStdString(fifoLike.error().message).contains(QStringLiteral("not a regular file")));
    // No temporary file is left behind by a refused creation.
    QCOMPARE(QDir(m_dir.path()).entryList({QStringLiteral("*.new-*")}, QDir::Files).size(), 0);
}

void TestJournal::sessionJournal()
{
    const QString path = m_dir.filePath(QStringLiteral("session.jsonl"));
    session::SessionSettings settings;
    settings.filter = filters::FilterKind::Unified;
    settings.seed = 3;
    auto s = std::move(session::Session::create(test::syntheticTable(), settings).value());
    auto journal = io::createSessionJournal(path.toStdString(), *s).value();
    for (auto mechanism : {session::ReleaseMethod::LaplaceNr, session::ReleaseMethod::Brownian}) {
        session::QueryRequest r;
        r.query.where = "region == \"south\"";
        r.target = {session::TargetKind::Relative, 0.1, 0.95};
        r.mechanism = mechanism;
        auto e = s->ask(r).value();
        QVERIFY(io::appendSessionEvent(journal, e, s->filter()).ok());
    }
    auto recovered = io::readSessionJournal(path.toStdString());
    QVERIFY(recovered.ok());
    QCOMPARE(recovered->header.datasetName, std::string("synthetic"));
    QCOMPARE(recovered->header.settings.filter, filters::FilterKind::Unified);
    QCOMPARE(recovered->events.size(), std::size_t(2));
    auto replayed
        = session::auditLedger(test::syntheticTable(), recovered->header.settings, recovered->events);
    QVERIFY2(replayed.ok(), replayed.ok() ? "" : replayed.error().message.c_str());
    QCOMPARE((*replayed)->filter().epsilonSpent(), s->filter().epsilonSpent());
    QCOMPARE((*replayed)->filter().deltaSpent(), s->filter().deltaSpent());
}

QTEST_APPLESS_MAIN(TestJournal)
#include "tst_journal.moc"
