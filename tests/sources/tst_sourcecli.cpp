// SPDX-License-Identifier: MIT
// pbx-cli run on a database table: the same queries with the same seed give the same
// answers and the same charges on CPS1988 in memory, in SQLite and in PostgreSQL (a real server,
// tests/sources/postgres_server.h); the transcript records the descriptor, and verify reopens it;
// the one-line errors of --dataset and --metadata; request kinds that need an in-memory table are
// refused before anything is answered; SQL injection through the CLI is refused or a value;
// report, verify and a resumed --journal take --metadata when the recorded metadata file moved, and
// refuse a changed one naming its SHA-256 mismatch.
#include "tests/cli/clitestutils.h"
#include "tests/sources/postgres_server.h"
#include "tests/sources/source_fixtures.h"
#include "tests/sources/sqlite_cps.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace pbx;

namespace {

const char *const kQueries
    = R"({"id":"n","aggregate":"count","where":"region == 'south' and education >= 12","target":{"kind":"absolute","error":40}})"
      "\n"
      R"({"id":"s","aggregate":"sum","column":"wage","where":"parttime != 'yes'","target":{"kind":"absolute","error":150000}})"
      "\n"
      R"({"id":"m","aggregate":"mean","column":"wage","target":{"kind":"relative","error":0.03}})"
      "\n"
      R"({"id":"h","aggregate":"histogram","column":"region","where":"experience >= 10","target":{"kind":"absolute","error":50}})"
      "\n"
      R"({"id":"d","aggregate":"derived","of":"h","derived":"sum","cells":[0,1],"target":{"kind":"absolute","error":200}})"
      "\n";

void writeFile(const QString &path, const QByteArray &text)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text);
}

QJsonObject readJson(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

} // namespace

class TestSourceCli : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void sameAnswersInMemorySqliteAndPostgres();
    void journalResumesOnTheDatabase();
    void movedOrChangedMetadataFile();
    void publicMetadataWithoutRows();
    void datasetAndMetadataErrors();
    void rowReadingKindsRefusedBeforeAnyAnswer();
    void injectionIsRefusedOrAValue();

private:
    QString path(const char *name) const { return m_dir.filePath(QString::fromLatin1(name)); }
    test::CliRun run(const QString &dataset, const QString &queries, const QString &out,
                     const QStringList &extra = {}) const;
    QString sqliteDescriptor() const
    {
        return QStringLiteral("sqlite:") + path("cps.db") + QStringLiteral("?table=cps");
    }
    QString postgresDescriptor() const
    {
        // In the canonical order (the transcript records the canonical text).
        return QStringLiteral("postgresql://pbx@/pbx?table=cps&host=")
               + QString::fromStdString(m_server->directory());
    }

    QTemporaryDir m_dir;
    std::unique_ptr<test::PostgresServer> m_server;
};

void TestSourceCli::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(test::writeCps(path("cps.db").toStdString(), test::cpsTable()));
    QFile::copy(QStringLiteral(PBX_SOURCE_DIR "/resources/datasets/cps1988.json"), path("cps.json"));
    writeFile(path("queries.jsonl"), kQueries);
    if (!test::PostgresServer::missing().empty())
        return; // the PostgreSQL case is skipped, with the reason, in its test
    m_server = std::make_unique<test::PostgresServer>();
    const std::string started = m_server->initialise();
    QVERIFY2(started.empty(), started.c_str());
    {
        test::PostgresAdmin admin(m_server->conninfo());
        QCOMPARE(admin.exec("CREATE DATABASE pbx"), std::string());
    }
    test::PostgresAdmin admin(m_server->conninfo("pbx"));
    QCOMPARE(admin.exec("CREATE TABLE cps (wage double precision, education integer, experience integer, "
                        "ethnicity text, smsa text, region text, parttime text)"),
             std::string());
    const data::Table cps = test::cpsTable();
    QCOMPARE(admin.copy("cps", test::cpsCopyText(cps)), std::string());
}

void TestSourceCli::cleanupTestCase()
{
    if (m_server)
        QVERIFY(m_server->stop());
}

test::CliRun TestSourceCli::run(const QString &dataset, const QString &queries, const QString &out,
                                const QStringList &extra) const
{
    QStringList args{QStringLiteral("run"),
                     QStringLiteral("--queries"),
                     queries,
                     QStringLiteral("--out"),
                     out,
                     QStringLiteral("--seed"),
                     QStringLiteral("1988"),
                     QStringLiteral("--epsilon"),
                     QStringLiteral("20"),
                     QStringLiteral("--delta"),
                     QStringLiteral("1e-5")};
    if (!dataset.isEmpty())
        args << QStringLiteral("--dataset") << dataset;
    if (dataset.startsWith(QStringLiteral("sqlite:")) || dataset.startsWith(QStringLiteral("postgresql:")))
        args << QStringLiteral("--metadata") << path("cps.json");
    return test::runCli(args + extra);
}

// Same seed, same answers, same charges, printed and recorded: the transcripts' events are equal
// field for field; each database transcript records its descriptor and location (no password),
// and pbx-cli verify reopens the database from it.
void TestSourceCli::sameAnswersInMemorySqliteAndPostgres()
{
    const auto memory = run({}, path("queries.jsonl"), path("memory.json"));
    QVERIFY2(memory.exitCode == 0, qPrintable(memory.err));
    QVERIFY(memory.out.contains(QStringLiteral("n: released ")));
    QVERIFY(memory.out.contains(QStringLiteral("d: released ")));
    const QJsonObject memoryDoc = readJson(path("memory.json"));
    QCOMPARE(memoryDoc[QStringLiteral("events")].toArray().size(), 5);

    QList<std::pair<QString, QString>> databases{{sqliteDescriptor(), path("sqlite.json")}};
    if (m_server)
        databases.append({postgresDescriptor(), path("postgres.json")});
    for (const auto &[descriptor, out] : databases) {
        const auto answered = run(descriptor, path("queries.jsonl"), out);
        QVERIFY2(answered.exitCode == 0, qPrintable(answered.err));
        QCOMPARE(answered.out, memory.out);
        const QJsonObject doc = readJson(out);
        QCOMPARE(doc[QStringLiteral("events")], memoryDoc[QStringLiteral("events")]);
        const QJsonObject dataset = doc[QStringLiteral("dataset")].toObject();
        QCOMPARE(dataset[QStringLiteral("source")].toString(), descriptor);
        QVERIFY(dataset[QStringLiteral("location")].toString().contains(QStringLiteral("table cps")));
        QCOMPARE(dataset[QStringLiteral("rows")].toInt(), 28155);
        QCOMPARE(dataset[QStringLiteral("metadata_path")].toString(), path("cps.json"));
        QVERIFY(!dataset.contains(QStringLiteral("path")));
        const auto verified = test::runCli({QStringLiteral("verify"), out});
        QVERIFY2(verified.exitCode == 0, qPrintable(verified.err));
        QVERIFY(verified.out.startsWith(QStringLiteral("ok: transcript with 5 requests (5 released)")));
        // The report reopens it too, and states the declared row count and where the data live.
        const QString html = out + QStringLiteral(".html");
        const auto reported = test::runCli({QStringLiteral("report"), out, QStringLiteral("--out"), html});
        QVERIFY2(reported.exitCode == 0, qPrintable(reported.err));
        QFile report(html);
        QVERIFY(report.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(report.readAll());
        QVERIFY(text.contains(QStringLiteral("28,155")) || text.contains(QStringLiteral("28155")));
        QVERIFY(text.contains(QStringLiteral("table cps")));
    }
    if (!m_server)
        QSKIP(test::PostgresServer::missing().c_str());
}

// A journal started on the SQLite table: the run stopped after three requests is resumed with
// the whole file and no --dataset or --metadata (the journal's descriptor and metadata file are
// reopened, their digest checked); the resumed transcript's events are the in-memory run's.
void TestSourceCli::journalResumesOnTheDatabase()
{
    const QByteArray all(kQueries);
    QByteArray firstThree;
    for (int i = 0, at = 0; i < 3; ++i) {
        const int end = all.indexOf('\n', at) + 1;
        firstThree += all.mid(at, end - at);
        at = end;
    }
    writeFile(path("first3.jsonl"), firstThree);
    // The same two runs on the SQLite table and in memory (the planned cap of the first run
    // depends on its three requests, so the reference is resumed too).
    for (const QString &dataset : {sqliteDescriptor(), QString()}) {
        const QString name = dataset.isEmpty() ? QStringLiteral("memory") : QStringLiteral("sqlite");
        const QString journal = path("resumed.journal").replace(QStringLiteral("resumed"), name);
        const auto started
            = run(dataset, path("first3.jsonl"), m_dir.filePath(name + QStringLiteral("-3.json")),
                  {QStringLiteral("--journal"), journal});
        QVERIFY2(started.exitCode == 0, qPrintable(started.err));
        const auto resumed
            = test::runCli({QStringLiteral("run"), QStringLiteral("--queries"), path("queries.jsonl"),
                            QStringLiteral("--out"), m_dir.filePath(name + QStringLiteral("-5.json")),
                            QStringLiteral("--journal"), journal});
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.err));
    }
    const QJsonValue events = readJson(path("sqlite-5.json"))[QStringLiteral("events")];
    QCOMPARE(events.toArray().size(), 5);
    QCOMPARE(events, readJson(path("memory-5.json"))[QStringLiteral("events")]);
    const QString journal = path("sqlite.journal");
    // Another table is refused: the journal was started on this one.
    const auto other = run(QStringLiteral("sqlite:") + path("cps.db") + QStringLiteral("?table=other"),
                           path("queries.jsonl"), path("other.json"), {QStringLiteral("--journal"), journal});
    QCOMPARE(other.exitCode, 1);
    QVERIFY2(other.err.contains(QStringLiteral("--journal: the journal was started on dataset '")),
             qPrintable(other.err));
}

// A session run on the SQLite table with its metadata at one place, which then moves: report and
// verify refuse the recorded place (naming it and --metadata), take the new one with --metadata
// (its SHA-256 is the recorded one), and so does a resumed --journal; a metadata file whose text
// changed is refused by all three, naming the SHA-256 mismatch and the recorded digest.
void TestSourceCli::movedOrChangedMetadataFile()
{
    QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("before")));
    QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("after")));
    QByteArray firstThree;
    for (int i = 0, at = 0; i < 3; ++i) {
        const int end = QByteArray(kQueries).indexOf('\n', at) + 1;
        firstThree += QByteArray(kQueries).mid(at, end - at);
        at = end;
    }
    writeFile(path("moved3.jsonl"), firstThree);
    const QString before = path("before/cps.json");
    const QString after = path("after/cps.json");
    QVERIFY(QFile::copy(path("cps.json"), before));
    const QString transcript = path("moved.json");
    const QString journal = path("moved.journal");
    const QStringList runArgs{QStringLiteral("run"),
                              QStringLiteral("--queries"),
                              path("moved3.jsonl"),
                              QStringLiteral("--out"),
                              transcript,
                              QStringLiteral("--seed"),
                              QStringLiteral("1988"),
                              QStringLiteral("--epsilon"),
                              QStringLiteral("20"),
                              QStringLiteral("--delta"),
                              QStringLiteral("1e-5"),
                              QStringLiteral("--dataset"),
                              sqliteDescriptor(),
                              QStringLiteral("--journal"),
                              journal};
    const auto started = test::runCli(runArgs + QStringList{QStringLiteral("--metadata"), before});
    QVERIFY2(started.exitCode == 0, qPrintable(started.err));
    const QString digest = readJson(transcript)[QStringLiteral("dataset")]
                               .toObject()[QStringLiteral("metadata_sha256")]
                               .toString();
    QCOMPARE(digest.size(), 64);
    QVERIFY(QFile::rename(before, after));

    const QString html = path("moved.html");
    const auto lost = test::runCli({QStringLiteral("report"), transcript, QStringLiteral("--out"), html});
    QCOMPARE(lost.exitCode, 1);
    QVERIFY2(lost.err.contains(before) && lost.err.contains(QStringLiteral("--metadata")),
             qPrintable(lost.err));
    QCOMPARE(lost.err.count(QLatin1Char('\n')), 1);
    QVERIFY(!QFile::exists(html));
    const auto reported = test::runCli({QStringLiteral("report"), transcript, QStringLiteral("--out"), html,
                                        QStringLiteral("--metadata"), after});
    QVERIFY2(reported.exitCode == 0, qPrintable(reported.err));
    QCOMPARE(
        reported.out,
        QStringLiteral("wrote %1: 3 requests (seeded session: marked not for real releases)\n").arg(html));
    const auto verified
        = test::runCli({QStringLiteral("verify"), transcript, QStringLiteral("--metadata"), after});
    QVERIFY2(verified.exitCode == 0, qPrintable(verified.err));
    // --out is never the metadata file it reads (the same text under a name a report may have).
    const QString asHtml = path("after/cps-metadata.html");
    QVERIFY(QFile::copy(after, asHtml));
    const auto overwrite = test::runCli({QStringLiteral("report"), transcript, QStringLiteral("--out"),
                                         asHtml, QStringLiteral("--metadata"), asHtml});
    QCOMPARE(overwrite.exitCode, 1);
    QVERIFY2(overwrite.err.contains(QStringLiteral("--out"))
                 && overwrite.err.contains(QStringLiteral("--metadata")),
             qPrintable(overwrite.err));
    QFile kept(asHtml);
    QVERIFY(kept.open(QIODevice::ReadOnly));
    QCOMPARE(kept.size(), QFileInfo(after).size());

    // The same bounds and categories, one description changed: another file for the digest.
    QFile original(after);
    QVERIFY(original.open(QIODevice::ReadOnly));
    QByteArray text = original.readAll();
    QVERIFY(text.contains("Number of years of education."));
    text.replace("Number of years of education.", "Years of education.");
    const QString changed = path("after/changed.json");
    writeFile(changed, text);
    const QString mismatch = QStringLiteral("the metadata file %1 is not the one the session was run on (its "
                                            "SHA-256 differs from the recorded %2…")
                                 .arg(changed, digest.left(12));
    for (const QString &command : {QStringLiteral("report"), QStringLiteral("verify")}) {
        QStringList args{command, transcript, QStringLiteral("--metadata"), changed};
        if (command == QStringLiteral("report"))
            args << QStringLiteral("--out") << html + QStringLiteral(".2.html");
        const auto refused = test::runCli(args);
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains(mismatch), qPrintable(refused.err));
        QCOMPARE(refused.err.count(QLatin1Char('\n')), 1);
    }
    QVERIFY(!QFile::exists(html + QStringLiteral(".2.html")));

    // A resumed journal: the moved file with --metadata; the changed one refused.
    const QStringList resume{QStringLiteral("run"),
                             QStringLiteral("--queries"),
                             path("queries.jsonl"),
                             QStringLiteral("--out"),
                             path("moved-5.json"),
                             QStringLiteral("--journal"),
                             journal};
    const auto refusedResume = test::runCli(resume + QStringList{QStringLiteral("--metadata"), changed});
    QCOMPARE(refusedResume.exitCode, 1);
    QVERIFY2(refusedResume.err.contains(mismatch), qPrintable(refusedResume.err));
    const auto resumed = test::runCli(resume + QStringList{QStringLiteral("--metadata"), after});
    QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.err));
    QCOMPARE(readJson(path("moved-5.json"))[QStringLiteral("events")].toArray().size(), 5);
}

// Metadata without "rows" (issue 30 §1). Public: the run plans with the table's own COUNT(*) and
// prints and records what the declared-rows run does (same events, field for field), on SQLite and
// PostgreSQL; the transcript records no "rows" (none declared), and verify and report reopen it,
// counting the table again (the report states 28,155). Private: the first release line is refused
// before anything is answered (no transcript), as before.
void TestSourceCli::publicMetadataWithoutRows()
{
    QFile shipped(path("cps.json"));
    QVERIFY(shipped.open(QIODevice::ReadOnly));
    QByteArray text = shipped.readAll();
    QVERIFY(text.contains("\"rows\": 28155,") && text.contains("\"public\": true"));
    text.replace("\"rows\": 28155,", "");
    writeFile(path("cps-no-rows.json"), text);
    text.replace("\"public\": true", "\"public\": false");
    writeFile(path("cps-private-no-rows.json"), text);

    // run() with another metadata file than cps.json.
    const auto runWith = [&](const QString &descriptor, const QString &out, const char *metadata) {
        return test::runCli({QStringLiteral("run"), QStringLiteral("--queries"), path("queries.jsonl"),
                             QStringLiteral("--out"), out, QStringLiteral("--seed"), QStringLiteral("1988"),
                             QStringLiteral("--epsilon"), QStringLiteral("20"), QStringLiteral("--delta"),
                             QStringLiteral("1e-5"), QStringLiteral("--dataset"), descriptor,
                             QStringLiteral("--metadata"), path(metadata)});
    };
    const auto declared = run(sqliteDescriptor(), path("queries.jsonl"), path("declared-rows.json"));
    QVERIFY2(declared.exitCode == 0, qPrintable(declared.err));
    const QJsonObject declaredDoc = readJson(path("declared-rows.json"));
    QStringList descriptors{sqliteDescriptor()};
    if (m_server)
        descriptors << postgresDescriptor();
    for (const QString &descriptor : descriptors) {
        const QString out = path("counted-rows.json");
        QFile::remove(out);
        const auto counted = runWith(descriptor, out, "cps-no-rows.json");
        QVERIFY2(counted.exitCode == 0, qPrintable(counted.err));
        QCOMPARE(counted.out, declared.out);
        const QJsonObject doc = readJson(out);
        QCOMPARE(doc[QStringLiteral("events")], declaredDoc[QStringLiteral("events")]);
        QVERIFY(!doc[QStringLiteral("dataset")].toObject().contains(QStringLiteral("rows")));
        const auto verified = test::runCli({QStringLiteral("verify"), out});
        QVERIFY2(verified.exitCode == 0, qPrintable(verified.err));
        const QString html = out + QStringLiteral(".html");
        QFile::remove(html);
        const auto reported = test::runCli({QStringLiteral("report"), out, QStringLiteral("--out"), html});
        QVERIFY2(reported.exitCode == 0, qPrintable(reported.err));
        QFile report(html);
        QVERIFY(report.open(QIODevice::ReadOnly));
        const QString page = QString::fromUtf8(report.readAll());
        QVERIFY(page.contains(QStringLiteral("28,155")) || page.contains(QStringLiteral("28155")));
    }

    const auto refused
        = runWith(sqliteDescriptor(), path("private-no-rows.json"), "cps-private-no-rows.json");
    QVERIFY(refused.exitCode != 0);
    QVERIFY2(
        refused.err.contains(QStringLiteral("line 1: rows: the dataset's metadata declares no row count")),
        qPrintable(refused.err));
    QVERIFY(!QFile::exists(path("private-no-rows.json")));
    if (!m_server)
        QSKIP(test::PostgresServer::missing().c_str());
}

void TestSourceCli::datasetAndMetadataErrors()
{
    const auto check = [&](const QStringList &args, const QString &expected) {
        const auto failed
            = test::runCli(QStringList{QStringLiteral("run"), QStringLiteral("--queries"),
                                       path("queries.jsonl"), QStringLiteral("--out"), path("error.json")}
                           + args);
        QVERIFY2(failed.exitCode != 0, qPrintable(failed.out));
        QVERIFY2(failed.err.contains(expected), qPrintable(failed.err));
        QCOMPARE(failed.err.count(QLatin1Char('\n')), 1);
        QVERIFY(!QFile::exists(path("error.json")));
    };
    check({QStringLiteral("--dataset"), sqliteDescriptor()},
          QStringLiteral("--metadata: required for a database source"));
    check({QStringLiteral("--metadata"), path("cps.json")},
          QStringLiteral("--metadata: only for a database source"));
    check(
        {QStringLiteral("--dataset"), sqliteDescriptor(), QStringLiteral("--metadata"), path("missing.json")},
        QStringLiteral("--metadata: "));
    check({QStringLiteral("--dataset"), QStringLiteral("sqlite:") + path("cps.db"),
           QStringLiteral("--metadata"), path("cps.json")},
          QStringLiteral("--dataset: sqlite descriptor: table"));
    check({QStringLiteral("--dataset"), QStringLiteral("postgresql://pbx:secret@/pbx?table=cps"),
           QStringLiteral("--metadata"), path("cps.json")},
          QStringLiteral("password: not allowed in the descriptor"));
    check({QStringLiteral("--dataset"),
           QStringLiteral("sqlite:") + path("none.db") + QStringLiteral("?table=cps"),
           QStringLiteral("--metadata"), path("cps.json")},
          QStringLiteral("--dataset: sqlite: cannot open"));
    // The commands that read rows in memory (the relative-error lab, the output-DP commands) say
    // that a database table's rows are not, instead of "not a readable file".
    for (const QStringList &args :
         {QStringList{QStringLiteral("simulate"), QStringLiteral("relative-error"), QStringLiteral("--out"),
                      path("lab.json"), QStringLiteral("--dataset"), sqliteDescriptor()},
          QStringList{QStringLiteral("odp"), QStringLiteral("svt"), QStringLiteral("--threshold"),
                      QStringLiteral("100"), QStringLiteral("--c"), QStringLiteral("1"),
                      QStringLiteral("--epsilon"), QStringLiteral("1"), QStringLiteral("--dataset"),
                      sqliteDescriptor()}}) {
        const auto refused = test::runCli(args);
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(
            refused.err.contains(QStringLiteral("'%1' is a database table, whose rows stay in the database; "
                                                "this reads the rows in memory")
                                     .arg(sqliteDescriptor())),
            qPrintable(refused.err));
        QCOMPARE(refused.err.count(QLatin1Char('\n')), 1);
    }
    QVERIFY(!QFile::exists(path("lab.json")));
}

// Checked line by line before anything is answered: the run stops with nothing spent and no
// transcript, naming the line, the kind and why it needs an in-memory table.
void TestSourceCli::rowReadingKindsRefusedBeforeAnyAnswer()
{
    writeFile(
        path("quantile.jsonl"),
        QByteArray(kQueries)
            + R"({"id":"q","aggregate":"quantile","column":"wage","q":0.5,"target":{"kind":"absolute","error":400}})"
              "\n");
    const auto refused = run(sqliteDescriptor(), path("quantile.jsonl"), path("quantile.json"));
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(
        refused.err.contains(QStringLiteral("quantile.jsonl: line 6: a quantile needs an in-memory table (")),
        qPrintable(refused.err));
    QVERIFY(refused.out.isEmpty());
    QVERIFY(!QFile::exists(path("quantile.json")));
}

// Hostile text in predicates, column names and the descriptor's table name reaches SQL only as a
// bound value or a quoted identifier, or is refused: the same results as in memory, and the table
// is intact afterwards.
void TestSourceCli::injectionIsRefusedOrAValue()
{
    // A string literal: a value (no row holds it; not a declared category: refused by the
    // predicate checks exactly as in memory).
    writeFile(
        path("literal.jsonl"),
        R"({"aggregate":"count","where":"smsa == \"yes'; DROP TABLE cps; --\" or region == 'south'","target":{"kind":"absolute","error":40}})"
        "\n");
    const auto inMemory = run({}, path("literal.jsonl"), path("literal-memory.json"));
    const auto onSqlite = run(sqliteDescriptor(), path("literal.jsonl"), path("literal-sqlite.json"));
    QCOMPARE(onSqlite.exitCode, inMemory.exitCode);
    QCOMPARE(onSqlite.out, inMemory.out);
    QCOMPARE(onSqlite.err, inMemory.err);
    // A column name and a predicate with SQL in them: refused before anything is answered.
    writeFile(
        path("column.jsonl"),
        R"({"aggregate":"sum","column":"wage\"; DROP TABLE cps; --","target":{"kind":"absolute","error":40}})"
        "\n");
    auto refused = run(sqliteDescriptor(), path("column.jsonl"), path("column.json"));
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.err.contains(QStringLiteral("column.jsonl: line 1")), qPrintable(refused.err));
    writeFile(path("where.jsonl"),
              R"({"aggregate":"count","where":"1=1; DROP TABLE cps","target":{"kind":"absolute","error":40}})"
              "\n");
    refused = run(sqliteDescriptor(), path("where.jsonl"), path("where.json"));
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.err.contains(QStringLiteral("where.jsonl: line 1")), qPrintable(refused.err));
    // A table name with SQL in it: no such table.
    refused = run(QStringLiteral("sqlite:") + path("cps.db")
                      + QStringLiteral("?table=cps%3B%20DROP%20TABLE%20cps"),
                  path("queries.jsonl"), path("table.json"));
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.err.contains(QStringLiteral("no table or view 'cps; DROP TABLE cps'")),
             qPrintable(refused.err));
    // The table is intact: the same answers as before.
    const auto again = run(sqliteDescriptor(), path("queries.jsonl"), path("again.json"));
    const auto memory = run({}, path("queries.jsonl"), path("again-memory.json"));
    QVERIFY2(again.exitCode == 0, qPrintable(again.err));
    QCOMPARE(again.out, memory.out);
}

QTEST_GUILESS_MAIN(TestSourceCli)
#include "tst_sourcecli.moc"
