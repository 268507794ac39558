// SPDX-License-Identifier: MIT
// The hash-chained journal: round trip, a torn last line dropped and cut off on resume, edits and
// reordering detected, the chain continued across resumes, and session journals restored.
#include "core/io/session_journal.h"
#include "core/session/cost_audit.h"
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
    void sessionJournal();

private:
    QTemporaryDir m_dir;
};

void TestJournal::sha256KnownAnswer()
{
    // FIPS 180-2 test vector.
    QCOMPARE(io::sha256Hex("abc"), std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
}

void TestJournal::roundTripAndResume()
{
    const QString path = m_dir.filePath(QStringLiteral("a.jsonl"));
    {
        auto w = io::JournalWriter::create(path.toStdString(), Json{{"n", 0}});
        QVERIFY(w.ok());
        QVERIFY(w->append(Json{{"n", 1}}).ok());
    }
    QVERIFY(!io::JournalWriter::create(path.toStdString(), Json{{"n", 0}}).ok()); // never overwritten
    auto read = io::readJournal(path.toStdString());
    QVERIFY(read.ok());
    QCOMPARE(read->records.size(), std::size_t(2));
    QVERIFY(!read->tornTail);
    {
        auto w = io::JournalWriter::resume(path.toStdString(), *read);
        QVERIFY(w.ok());
        QVERIFY(w->append(Json{{"n", 2}}).ok());
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
    for (std::size_t cut : {full.size() - 1, full.size() - 20, full.size() - 70}) {
        writeAll(path, full.substr(0, cut));
        auto read = io::readJournal(path.toStdString());
        QVERIFY(read.ok());
        QCOMPARE(read->records.size(), std::size_t(2));
        QVERIFY(read->tornTail);
        QVERIFY(QString::fromStdString(read->tornMessage).contains(QStringLiteral("journal line 3")));
        auto w = io::JournalWriter::resume(path.toStdString(), *read).value();
        QVERIFY(w.append(Json{{"n", 3}}).ok());
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
    QVERIFY(!read.ok());
    QVERIFY(QString::fromStdString(read.error().message).contains(QStringLiteral("edited or corrupted")));
}

void TestJournal::sessionJournal()
{
    const QString path = m_dir.filePath(QStringLiteral("session.jsonl"));
    session::SessionSettings settings;
    settings.filter = filters::FilterKind::Unified;
    settings.seed = 3;
    auto s = std::move(session::Session::create(test::syntheticTable(), settings).value());
    auto journal = io::createSessionJournal(path.toStdString(), *s).value();
    for (auto mechanism : {session::MechanismKind::LaplaceNr, session::MechanismKind::Brownian}) {
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
    auto replayed = session::auditLedger(test::syntheticTable(), recovered->header.settings, recovered->events);
    QVERIFY2(replayed.ok(), replayed.ok() ? "" : replayed.error().message.c_str());
    QCOMPARE((*replayed)->filter().epsilonSpent(), s->filter().epsilonSpent());
    QCOMPARE((*replayed)->filter().deltaSpent(), s->filter().deltaSpent());
}

QTEST_APPLESS_MAIN(TestJournal)
#include "tst_journal.moc"
