// SPDX-License-Identifier: MIT
// `pbx-cli run` and `verify` against a hostile user: edited journals, closed
// descriptors, odd paths, signals, changed datasets and misleading messages. Each case failed
// before its fix; each checks the exit status, the one-line message and what is left on disk.
#include "core/io/session_journal.h"
#include "tests/testutils.h"

#include "clitestutils.h"

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <csignal>

using namespace pbx;

namespace {
using Run = test::CliRun;
using test::runCli;

void writeBytes(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(bytes);
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QByteArray countLine(int i, const char *where = "region == \\\"south\\\"")
{
    return QStringLiteral(
               "{\"id\":\"q%1\",\"aggregate\":\"count\",\"where\":\"%2\",\"target\":{\"kind\":\"absolute\",\"error\":60}}\n")
        .arg(i)
        .arg(QString::fromLatin1(where))
        .toUtf8();
}
} // namespace

class TestCliHostile : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void completeEditedLastLineStopsResumeAndVerify();
    void removedLastLineIsDetected();
    void outIsCheckedBeforeTheFirstAnswer();
    void closedStdoutDoesNotBecomeTheJournal();
    void invalidUtf8DatasetNameIsRefusedFirst();
    void outMayNotBeAnInput_data();
    void outMayNotBeAnInput();
    void temporaryFilesGoOnSignalsAndStaleOnesAfter();
    void csvJournalRecordsPathAndDigest();
    void verifyReadsTypedFields_data();
    void verifyReadsTypedFields();
    void longIdsAreRefusedAtParseTime();
    void messagesSayWhatIsWrong_data();
    void messagesSayWhatIsWrong();
    void resumeNamesTheSettingThatDiffers();
    void resumeChecksTheRequestText();

private:
    QString path(const QString &name) const { return m_dir.filePath(name); }
    QStringList run(const QString &queries, const QString &out, const QString &journal) const
    {
        return pbx::test::runCommandArguments(queries, out, journal,
                                              {QStringLiteral("--seed"), QStringLiteral("3")});
    }
    QTemporaryDir m_dir;
    QString m_queries;
};

void TestCliHostile::initTestCase()
{
    m_queries = path(QStringLiteral("queries.jsonl"));
    QByteArray lines;
    for (int i = 1; i <= 4; ++i)
        lines += countLine(i);
    writeBytes(m_queries, lines);
}

// Paid once, released twice — a 1-ulp edit of the last answer used to be dropped as a
// torn line and the request asked again with fresh noise.
void TestCliHostile::completeEditedLastLineStopsResumeAndVerify()
{
    const QString journal = path(QStringLiteral("ulp.journal"));
    QCOMPARE(runCli(run(m_queries, path(QStringLiteral("ulp.json")), journal)).exitCode, 0);
    QByteArray text = readFile(journal);
    const int lastLine = text.lastIndexOf('\n', text.size() - 2) + 1;
    const int answer = text.indexOf("\"answer\":", lastLine) + 9;
    QVERIFY(answer > 9);
    text[answer] = text[answer] == '9' ? '8' : static_cast<char>(text[answer] + 1);
    writeBytes(journal, text);
    const Run verify = runCli({QStringLiteral("verify"), journal});
    QCOMPARE(verify.exitCode, 1);
    QVERIFY2(verify.err.contains(QStringLiteral("edited or corrupted")), qPrintable(verify.err));
    const Run resumed = runCli(run(m_queries, path(QStringLiteral("ulp2.json")), journal));
    QCOMPARE(resumed.exitCode, 1);
    QVERIFY(!resumed.out.contains(QStringLiteral(": released")));
    QCOMPARE(readFile(journal), text); // not truncated
}

void TestCliHostile::removedLastLineIsDetected()
{
    const QString journal = path(QStringLiteral("short.journal"));
    QCOMPARE(runCli(run(m_queries, path(QStringLiteral("short.json")), journal)).exitCode, 0);
    const QByteArray text = readFile(journal);
    writeBytes(journal, text.left(text.lastIndexOf('\n', text.size() - 2) + 1));
    const Run verify = runCli({QStringLiteral("verify"), journal});
    QCOMPARE(verify.exitCode, 1);
    QVERIFY2(verify.err.contains(QStringLiteral("removed from its end")), qPrintable(verify.err));
    QCOMPARE(runCli(run(m_queries, path(QStringLiteral("short2.json")), journal)).exitCode, 1);
}

// A folder that does not exist is found before anything is answered or journalled.
void TestCliHostile::outIsCheckedBeforeTheFirstAnswer()
{
    const QString journal = path(QStringLiteral("noout.journal"));
    const Run r = runCli(run(m_queries, path(QStringLiteral("missing-folder/out.json")), journal));
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("--out")), qPrintable(r.err));
    QVERIFY(!r.out.contains(QStringLiteral("q1")));
    QVERIFY(!QFile::exists(journal)); // nothing was spent
}

// With stdout closed, open() used to hand the journal descriptor 1 and the answers went
// into it.
void TestCliHostile::closedStdoutDoesNotBecomeTheJournal()
{
    const QString journal = path(QStringLiteral("closed.journal"));
    QProcess p;
    p.start(
        QStringLiteral("/bin/sh"),
        QStringList{QStringLiteral("-c"), QStringLiteral("exec \"$0\" \"$@\" >&-"), QStringLiteral(PBX_CLI)}
            + run(m_queries, path(QStringLiteral("closed.json")), journal));
    QVERIFY(p.waitForFinished(120000));
    QCOMPARE(p.exitCode(), 0);
    auto recovered = io::readSessionJournal(journal.toStdString());
    QVERIFY2(recovered.ok(), recovered.ok() ? "" : recovered.error().message.c_str());
    QCOMPARE(recovered->events.size(), std::size_t(4));
    QCOMPARE(runCli({QStringLiteral("verify"), journal}).exitCode, 0);
}

// The name could not be written into the journal header; it aborted after an answer
// and left a 0-byte journal that blocked every later run.
void TestCliHostile::invalidUtf8DatasetNameIsRefusedFirst()
{
    const QByteArray folder = QFile::encodeName(m_dir.path());
    const QByteArray csv = folder + "/bad-\xff\xfe.csv";
    {
        FILE *raw = std::fopen(csv.constData(), "wb");
        QVERIFY(raw);
        std::fputs("region\nsouth\nnorth\nsouth\n", raw);
        std::fclose(raw);
    }
    const QString journal = path(QStringLiteral("utf8.journal"));
    QProcess p;
    p.start(
        QStringLiteral("/bin/sh"),
        {QStringLiteral("-c"),
         QStringLiteral(
             "exec \"$0\" run --queries \"$1\" --out \"$2\" --journal \"$3\" --dataset \"$(printf '%s/bad-\\377\\376.csv' \"$4\")\""),
         QStringLiteral(PBX_CLI), m_queries, path(QStringLiteral("utf8.json")), journal, m_dir.path()});
    QVERIFY(p.waitForFinished(60000));
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QCOMPARE(p.exitCode(), 1);
    QVERIFY2(err.contains(QStringLiteral("not valid UTF-8")), qPrintable(err));
    QVERIFY(!QString::fromUtf8(p.readAllStandardOutput()).contains(QStringLiteral("q1")));
    QVERIFY(!QFile::exists(journal));
}

void TestCliHostile::outMayNotBeAnInput_data()
{
    QTest::addColumn<QString>("same");
    QTest::newRow("--out = --journal") << QStringLiteral("journal");
    QTest::newRow("--out = --queries") << QStringLiteral("queries");
}
void TestCliHostile::outMayNotBeAnInput()
{
    QFETCH(QString, same);
    const QString journal = path(QStringLiteral("same.journal"));
    QCOMPARE(runCli(run(m_queries, path(QStringLiteral("same.json")), journal)).exitCode, 0);
    const QByteArray journalBytes = readFile(journal), queryBytes = readFile(m_queries);
    const QString out = same == QStringLiteral("journal") ? journal : m_queries;
    const Run r = runCli(run(m_queries, out, journal));
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("--out names the same file as --") + same), qPrintable(r.err));
    QCOMPARE(readFile(journal), journalBytes);
    QCOMPARE(readFile(m_queries), queryBytes);
}

// The transcript's temporary file exists from before the first answer; SIGTERM or
// SIGINT removes it; one left by a SIGKILL is removed by the next successful write.
void TestCliHostile::temporaryFilesGoOnSignalsAndStaleOnesAfter()
{
    QByteArray many;
    for (int i = 1; i <= 400; ++i)
        many += countLine(i);
    const QString queries = path(QStringLiteral("many.jsonl"));
    writeBytes(queries, many);
    const QString folder = path(QStringLiteral("signals"));
    QVERIFY(QDir().mkpath(folder));
    const QString out = folder + QStringLiteral("/out.json");
    int stopped = 0;
    for (int signal : {SIGTERM, SIGINT, SIGTERM, SIGINT}) {
        const QString journal = folder + QStringLiteral("/j%1.journal").arg(stopped);
        QProcess p;
        p.start(QStringLiteral(PBX_CLI),
                {QStringLiteral("run"), QStringLiteral("--queries"), queries, QStringLiteral("--out"), out,
                 QStringLiteral("--journal"), journal, QStringLiteral("--epsilon"), QStringLiteral("1000")});
        QVERIFY(p.waitForStarted());
        // Wait for the first answer: the temporary file exists by then.
        while (!p.readAllStandardOutput().contains("q1") && p.state() == QProcess::Running)
            p.waitForReadyRead(50);
        if (p.state() != QProcess::Running)
            continue; // finished first: nothing to interrupt
        QVERIFY(!QDir(folder).entryList({QStringLiteral("out.json.tmp-*")}, QDir::Files).isEmpty());
        ::kill(static_cast<pid_t>(p.processId()), signal);
        QVERIFY(p.waitForFinished(30000));
        ++stopped;
        QCOMPARE(QDir(folder).entryList({QStringLiteral("out.json.tmp-*")}, QDir::Files), QStringList());
        QCOMPARE(QDir(folder).entryList({QStringLiteral("*.new-*")}, QDir::Files), QStringList());
    }
    QVERIFY2(stopped >= 2, "the runs finished before a signal could reach them");
    // A stale file of a process that no longer exists (pid 2^22 + 1 is above Linux's default
    // pid_max of 2^22): removed by the next successful write.
    writeBytes(out + QStringLiteral(".tmp-4194305"), "stale");
    QCOMPARE(
        runCli({QStringLiteral("run"), QStringLiteral("--queries"), m_queries, QStringLiteral("--out"), out})
            .exitCode,
        0);
    QCOMPARE(QDir(folder).entryList({QStringLiteral("out.json.tmp-*")}, QDir::Files), QStringList());
}

// The header recorded only the stem; a file of that name in the current folder was
// loaded silently, even with other rows.
void TestCliHostile::csvJournalRecordsPathAndDigest()
{
    const QString folder = path(QStringLiteral("csv"));
    QVERIFY(QDir().mkpath(folder + QStringLiteral("/elsewhere")));
    const QString csv = folder + QStringLiteral("/people.csv");
    writeBytes(csv, "region,age\nsouth,30\nnorth,40\nsouth,50\nnorth,60\n");
    writeBytes(folder + QStringLiteral("/elsewhere/people"), "region,age\nsouth,1\n");
    const QString journal = path(QStringLiteral("csv.journal"));
    QStringList args = run(path(QStringLiteral("queries.jsonl")), path(QStringLiteral("csv.json")), journal);
    QByteArray two = countLine(1) + countLine(2);
    const QString queries = path(QStringLiteral("two.jsonl"));
    writeBytes(queries, two);
    args[2] = queries;
    QCOMPARE(runCli(args + QStringList{QStringLiteral("--dataset"), csv}).exitCode, 0);
    const auto header = nlohmann::json::parse(readFile(journal).split('\t').first().toStdString());
    QCOMPARE(QString::fromStdString(header["dataset"]["path"].get<std::string>()),
             QFileInfo(csv).absoluteFilePath());
    QCOMPARE(header["dataset"]["sha256"].get<std::string>().size(), std::size_t(64));
    // Resumed from another folder (with a decoy named like the stem): the recorded file is used.
    writeBytes(queries, two + countLine(3));
    const Run resumed = runCli(args, folder + QStringLiteral("/elsewhere"));
    QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.err));
    QVERIFY(resumed.out.contains(QStringLiteral("q3: released")));
    QCOMPARE(runCli({QStringLiteral("verify"), journal}).exitCode, 0);
    // The data changed (same row count): resume and verify refuse.
    writeBytes(csv, "region,age\nnorth,30\nnorth,40\nsouth,50\nnorth,60\n");
    writeBytes(queries, two + countLine(3) + countLine(4));
    const Run changed = runCli(args);
    QCOMPARE(changed.exitCode, 1);
    QVERIFY2(changed.err.contains(QStringLiteral("SHA-256 differs")), qPrintable(changed.err));
    const Run verify = runCli({QStringLiteral("verify"), journal});
    QCOMPARE(verify.exitCode, 1);
    QVERIFY2(verify.err.contains(QStringLiteral("SHA-256 differs")), qPrintable(verify.err));
}

void TestCliHostile::verifyReadsTypedFields_data()
{
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("message");
    QTest::newRow("unit a number") << QStringLiteral("unit") << QStringLiteral("5")
                                   << QStringLiteral("filter.unit: expected a string");
    QTest::newRow("unit bogus") << QStringLiteral("unit") << QStringLiteral("\"bogus\"")
                                << QStringLiteral("spent.bogus: missing");
    QTest::newRow("unit of another filter") << QStringLiteral("unit") << QStringLiteral("\"epsilon\"")
                                            << QStringLiteral("is not the unit of the zcdp filter");
    QTest::newRow("spent a string") << QStringLiteral("spent") << QStringLiteral("\"0.1\"")
                                    << QStringLiteral("spent.rho: expected a number");
}

// Verify aborted on a non-string unit; a bogus unit or a string spend skipped the check.
void TestCliHostile::verifyReadsTypedFields()
{
    QFETCH(QString, field);
    QFETCH(QString, value);
    QFETCH(QString, message);
    const QString out = path(QStringLiteral("typed.json"));
    if (!QFile::exists(out))
        QCOMPARE(runCli({QStringLiteral("run"), QStringLiteral("--queries"), m_queries,
                         QStringLiteral("--out"), out, QStringLiteral("--seed"), QStringLiteral("1")})
                     .exitCode,
                 0);
    auto doc = nlohmann::ordered_json::parse(readFile(out).toStdString());
    QCOMPARE(doc["filter"]["unit"].get<std::string>(), std::string("rho"));
    if (field == QStringLiteral("unit")) {
        doc["filter"]["unit"] = nlohmann::ordered_json::parse(value.toStdString());
        if (value == QStringLiteral("\"epsilon\""))
            doc["spent"]["epsilon"] = doc["spent"]["rho"];
    } else {
        doc["spent"]["rho"] = nlohmann::ordered_json::parse(value.toStdString());
    }
    const QString edited = path(QStringLiteral("typed-edited.json"));
    writeBytes(edited, QByteArray::fromStdString(doc.dump(2)));
    const Run r = runCli({QStringLiteral("verify"), edited});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
    QCOMPARE(r.err.trimmed().count(QLatin1Char('\n')), 0);
}
void TestCliHostile::longIdsAreRefusedAtParseTime()
{
    const QString queries = path(QStringLiteral("longid.jsonl"));
    writeBytes(queries,
               QByteArray("{\"id\":\"") + QByteArray(100000, 'x')
                   + "\",\"aggregate\":\"count\",\"target\":{\"kind\":\"absolute\",\"error\":60}}\n");
    const Run r = runCli({QStringLiteral("run"), QStringLiteral("--queries"), queries,
                          QStringLiteral("--out"), path(QStringLiteral("longid.json"))});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("line 1.id: longer than 256 bytes")), qPrintable(r.err));
}

void TestCliHostile::messagesSayWhatIsWrong_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("message");
    QTest::newRow("journal is a folder")
        << QStringLiteral("folder") << QStringLiteral("a folder, not a file");
    QTest::newRow("journal is a device") << QStringLiteral("device") << QStringLiteral("not a regular file");
    QTest::newRow("dangling symbolic link")
        << QStringLiteral("dangling") << QStringLiteral("symbolic link to a file that does not exist");
    QTest::newRow("empty journal") << QStringLiteral("empty") << QStringLiteral("the journal is empty");
    QTest::newRow("CRLF journal") << QStringLiteral("crlf") << QStringLiteral("carriage return");
}

// Resume (run --journal) on each; verify on the empty and CRLF files.
void TestCliHostile::messagesSayWhatIsWrong()
{
    QFETCH(QString, kind);
    QFETCH(QString, message);
    QString journal = path(QStringLiteral("msg-%1.journal").arg(kind));
    if (kind == QStringLiteral("folder"))
        QVERIFY(QDir().mkpath(journal));
    else if (kind == QStringLiteral("device"))
        journal = QStringLiteral("/dev/full");
    else if (kind == QStringLiteral("dangling"))
        QVERIFY(QFile::link(path(QStringLiteral("nowhere")), journal));
    else if (kind == QStringLiteral("empty"))
        writeBytes(journal, {});
    else {
        QCOMPARE(runCli(run(m_queries, path(QStringLiteral("crlf.json")), journal)).exitCode, 0);
        writeBytes(journal, readFile(journal).replace("\n", "\r\n"));
    }
    const Run r = runCli(run(m_queries, path(QStringLiteral("msg.json")), journal));
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
    QVERIFY(!r.err.contains(QStringLiteral("no such file")));
    QVERIFY(!r.err.contains(QStringLiteral("exists there already")));
    if (kind == QStringLiteral("crlf") || kind == QStringLiteral("empty")) {
        const Run verify = runCli({QStringLiteral("verify"), journal});
        QCOMPARE(verify.exitCode, 1);
        QVERIFY2(verify.err.contains(kind == QStringLiteral("crlf") ? message
                                                                    : QStringLiteral("the file is empty")),
                 qPrintable(verify.err));
        QVERIFY(!verify.err.contains(QStringLiteral("not valid JSON")));
    }
    // Random bytes are "not valid JSON", not "nested too deep".
    const QString noise = path(QStringLiteral("noise.json"));
    QByteArray bytes(4096, '[');
    bytes[0] = 'x';
    writeBytes(noise, bytes);
    const Run random = runCli({QStringLiteral("verify"), noise});
    QVERIFY2(random.err.contains(QStringLiteral("not valid JSON")), qPrintable(random.err));
    QVERIFY(!random.err.contains(QStringLiteral("nested")));
}

// A different --seed used to say "drop --epsilon".
void TestCliHostile::resumeNamesTheSettingThatDiffers()
{
    const QString journal = path(QStringLiteral("settings.journal"));
    QCOMPARE(runCli(run(m_queries, path(QStringLiteral("settings.json")), journal)).exitCode, 0);
    QStringList args = run(m_queries, path(QStringLiteral("settings2.json")), journal);
    args[8] = QStringLiteral("4"); // --seed 4 instead of 3
    const Run r = runCli(args + QStringList{QStringLiteral("--epsilon"), QStringLiteral("1")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("--seed is 4 but the journal was started with 3")),
             qPrintable(r.err));
    QVERIFY(!r.err.contains(QStringLiteral("--epsilon")));
    // A subset of the original options (no --seed at all) resumes with the journal's settings.
    const Run subset
        = runCli({QStringLiteral("run"), QStringLiteral("--queries"), m_queries, QStringLiteral("--out"),
                  path(QStringLiteral("settings3.json")), QStringLiteral("--journal"), journal});
    QVERIFY2(subset.exitCode == 0, qPrintable(subset.err));
}

// The same ids with another request text is another run.
void TestCliHostile::resumeChecksTheRequestText()
{
    const QString journal = path(QStringLiteral("text.journal"));
    const QString queries = path(QStringLiteral("text.jsonl"));
    writeBytes(queries, countLine(1) + countLine(2));
    QCOMPARE(runCli(run(queries, path(QStringLiteral("text.json")), journal)).exitCode, 0);
    writeBytes(queries, countLine(1) + countLine(2, "region == \\\"west\\\"") + countLine(3));
    const Run r = runCli(run(queries, path(QStringLiteral("text2.json")), journal));
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(
        r.err.contains(QStringLiteral("request 2 ('q2') differs from the one the journal answered (where)")),
        qPrintable(r.err));
}

QTEST_GUILESS_MAIN(TestCliHostile)
#include "tst_clihostile.moc"
