// SPDX-License-Identifier: MIT
// The command line: nothing shown without a record, no record the readers refuse, no
// output over an input. Each case was reproduced on the built pbx-cli before its fix: labels that
// are not UTF-8 aborted the run after its answers were printed, a file-size limit lost the only
// transcript of a growing stream, --out replaced the dataset's metadata sidecar or the journal's
// tail record, a journal's tail symlink truncated its target, ε = 1e-320 was accepted.
#include "tests/testutils.h"

#include "clitestutils.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <csignal>
#include <fstream>
#include <sstream>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

using nlohmann::json;
using namespace pbx;

namespace {
using test::CliRun;
using test::readJson;
using test::runCli;

void writeBytes(const QByteArray &path, const std::string &bytes)
{
    std::ofstream(path.toStdString(), std::ios::binary) << bytes;
}

QByteArray readBytes(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// Runs `sh -c script pbx-cli args…` ($0 is pbx-cli): for paths that QString cannot hold.
CliRun runShell(const QString &script, const QStringList &args)
{
    QProcess p;
    p.start(QStringLiteral("/bin/sh"),
            QStringList{QStringLiteral("-c"), script, QStringLiteral(PBX_CLI)} + args);
    p.waitForFinished(120000);
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

/// A BBScheduler stream over CPS1988 (5 epochs, its transcript event ~ 5.6 KB).
std::string growingLine(int id)
{
    return "{\"id\":\"g" + std::to_string(id)
           + "\",\"type\":\"growing\",\"algorithm\":\"bbscheduler\","
             "\"stream\":{\"start_size\":1000,\"end\":28155,\"order\":\"random\",\"seed\":7},"
             "\"budget\":{\"kind\":\"pure\",\"epsilon\":0.05},\"schedule\":{\"kind\":\"geometric\",\"gamma\":1},"
             "\"black_box\":{\"kind\":\"laplace-k\",\"queries\":[\"education >= 16\",\"experience < 10\"]}}\n";
}

QStringList leftovers(const QString &folder, const QString &pattern)
{
    return QDir(folder).entryList({pattern}, QDir::Files | QDir::System | QDir::Hidden);
}
} // namespace

class TestCliRecords : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void nonUtf8LabelIsRefusedBeforeAnythingIsSpent();
    void nonUtf8WorkingFolderIsRefusedBeforeAnythingIsSpent();
    void hugeLabelIsRefusedBeforeAnythingIsSpent();
    void fileSizeLimitKeepsEveryShownAnswer();
    void outMayNotNameTheMetadataSidecar();
    void outMayNotNameTheJournalTail();
    void reportOutMayNotNameItsInput();
    void journalTailSymlinkIsNotFollowed();
    void absurdPrivacyParametersAreRefused();
    void controlCharactersKeepTheReportWellFormed();

private:
    QString path(const QString &name) const { return m_dir.filePath(name); }
    QTemporaryDir m_dir;
};

// Critical 4: the sparse vector released the label; the journal append (or, without a journal,
// the transcript's dump) threw type_error.316 after the answer was charged.
void TestCliRecords::nonUtf8LabelIsRefusedBeforeAnythingIsSpent()
{
    const QString folder = path(QStringLiteral("latin1"));
    QVERIFY(QDir().mkpath(folder));
    writeBytes(QFile::encodeName(folder + QStringLiteral("/people.csv")),
               "region,wage\nsouth,100\ncaf\xe9,200\nnorth,300\ncaf\xe9,250\n");
    const QString queries = folder + QStringLiteral("/q.jsonl");
    writeBytes(QFile::encodeName(queries),
               R"({"id":"s","mechanism":"svt","column":"region","threshold":0,"c":3,"epsilon":0.5})"
               "\n");
    for (const bool journalled : {true, false}) {
        QStringList args{QStringLiteral("run"),
                         QStringLiteral("--queries"),
                         queries,
                         QStringLiteral("--out"),
                         folder + QStringLiteral("/out.json"),
                         QStringLiteral("--dataset"),
                         folder + QStringLiteral("/people.csv"),
                         QStringLiteral("--filter"),
                         QStringLiteral("odp"),
                         QStringLiteral("--seed"),
                         QStringLiteral("1")};
        if (journalled)
            args << QStringLiteral("--journal") << folder + QStringLiteral("/j.journal");
        const CliRun r = runCli(args);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(
            r.err.contains(QStringLiteral("--dataset: column 'region': a category label is not valid UTF-8")),
            qPrintable(r.err));
        QVERIFY2(!r.err.contains(QStringLiteral("caf")), qPrintable(r.err)); // never the label itself
        QVERIFY(!r.out.contains(QStringLiteral("s: ")));
        QCOMPARE(leftovers(folder, QStringLiteral("j.journal*")), QStringList());
        QCOMPARE(leftovers(folder, QStringLiteral("out.json*")), QStringList());
    }
}

// Critical 4: a relative dataset path in a folder whose name is not UTF-8 is recorded as an
// absolute path that JSON cannot hold: exit 134 after the answers, only out.json.tmp-PID left.
void TestCliRecords::nonUtf8WorkingFolderIsRefusedBeforeAnythingIsSpent()
{
    const QByteArray folder = QFile::encodeName(m_dir.path()) + QByteArray("/dir-\xff");
    QVERIFY(::mkdir(folder.constData(), 0755) == 0);
    writeBytes(folder + QByteArray("/people.csv"), "region,wage\nsouth,100\nnorth,200\nsouth,300\n");
    writeBytes(folder + QByteArray("/q.jsonl"),
               R"({"id":"c","aggregate":"count","target":{"kind":"absolute","error":60}})"
               "\n");
    const CliRun r = runShell(
        QStringLiteral(
            "cd \"$(printf '%s/dir-\\377' \"$1\")\" && exec \"$0\" run --queries q.jsonl --out out.json "
            "--dataset people.csv --journal j.journal"),
        {m_dir.path()});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("absolute path"))
                 && r.err.contains(QStringLiteral("not valid UTF-8")),
             qPrintable(r.err));
    QVERIFY(!r.out.contains(QStringLiteral("c: ")));
    for (const char *name : {"/out.json", "/j.journal"})
        QVERIFY(::access((folder + name).constData(), F_OK) != 0);
}

// High: a 70 KB label made a transcript that verify and the GUI refuse (strings over 64 KiB).
void TestCliRecords::hugeLabelIsRefusedBeforeAnythingIsSpent()
{
    const QString folder = path(QStringLiteral("huge"));
    QVERIFY(QDir().mkpath(folder));
    writeBytes(QFile::encodeName(folder + QStringLiteral("/people.csv")),
               "region,wage\nsouth,100\n" + std::string(70000, 'x') + ",200\nnorth,300\n");
    const QString queries = folder + QStringLiteral("/q.jsonl");
    writeBytes(QFile::encodeName(queries),
               R"({"id":"s","mechanism":"svt","column":"region","threshold":0,"c":3,"epsilon":0.5})"
               "\n");
    const CliRun r
        = runCli({QStringLiteral("run"), QStringLiteral("--queries"), queries, QStringLiteral("--out"),
                  folder + QStringLiteral("/out.json"), QStringLiteral("--dataset"),
                  folder + QStringLiteral("/people.csv"), QStringLiteral("--filter"), QStringLiteral("odp"),
                  QStringLiteral("--journal"), folder + QStringLiteral("/j.journal")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("column 'region': a category label is longer than 65536 bytes")),
             qPrintable(r.err));
    QCOMPARE(leftovers(folder, QStringLiteral("j.journal*")), QStringList());
    QCOMPARE(leftovers(folder, QStringLiteral("out.json*")), QStringList());
}

// Critical 5: 4 KiB were reserved per request; a growing stream's record is larger, so under a
// file-size limit the answers were printed and then "write failed (File too large)", no
// transcript. Now each answer's record is reserved before it is shown.
void TestCliRecords::fileSizeLimitKeepsEveryShownAnswer()
{
    const QString folder = path(QStringLiteral("limit"));
    QVERIFY(QDir().mkpath(folder));
    std::string lines;
    for (int i = 1; i <= 12; ++i)
        lines += growingLine(i);
    writeBytes(QFile::encodeName(folder + QStringLiteral("/q.jsonl")), lines);
    QProcess p;
    p.setWorkingDirectory(folder);
    p.setChildProcessModifier([] {
        // Above the 64 KiB the old code reserved for 12 requests, below the 68 KB they take.
        const rlimit limit{66 * 1024, 66 * 1024};
        ::setrlimit(RLIMIT_FSIZE, &limit);
        ::signal(SIGXFSZ, SIG_IGN);
    });
    p.start(QStringLiteral(PBX_CLI),
            {QStringLiteral("run"), QStringLiteral("--queries"), QStringLiteral("q.jsonl"),
             QStringLiteral("--out"), QStringLiteral("out.json"), QStringLiteral("--filter"),
             QStringLiteral("basic"), QStringLiteral("--neighbours"), QStringLiteral("replace"),
             QStringLiteral("--seed"), QStringLiteral("3")});
    QVERIFY(p.waitForFinished(120000));
    const QString out = QString::fromUtf8(p.readAllStandardOutput());
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QCOMPARE(p.exitCode(), 1);
    QVERIFY2(err.contains(QStringLiteral("was not shown; the transcript holds the answers before it")),
             qPrintable(err));
    const json transcript = readJson(folder + QStringLiteral("/out.json"));
    const std::size_t kept = transcript["events"].size();
    QVERIFY2(kept >= 2 && kept < 12, qPrintable(QString::number(kept)));
    // Every answer printed is in the transcript, and nothing else.
    for (int i = 1; i <= 12; ++i) {
        const bool printed = out.contains(QStringLiteral("g%1: released").arg(i));
        QCOMPARE(printed, static_cast<std::size_t>(i) <= kept);
    }
    const CliRun verified = runCli({QStringLiteral("verify"), folder + QStringLiteral("/out.json")});
    QVERIFY2(verified.exitCode == 0, qPrintable(verified.err));
    QCOMPARE(leftovers(folder, QStringLiteral("out.json.tmp-*")), QStringList());
}

// Critical 6: `run --dataset survey.csv --out survey.json` replaced the metadata sidecar.
void TestCliRecords::outMayNotNameTheMetadataSidecar()
{
    const QString folder = path(QStringLiteral("sidecar"));
    QVERIFY(QDir().mkpath(folder));
    const QString csv = folder + QStringLiteral("/survey.csv");
    writeBytes(QFile::encodeName(csv), "region,wage\nsouth,100\nnorth,200\nsouth,300\n");
    const QByteArray metadata
        = R"({"format":"pbx-dataset-metadata","version":1,"name":"survey","columns":[{"name":"wage","type":"numeric","bounds":[0,1000]}]})";
    writeBytes(QFile::encodeName(folder + QStringLiteral("/survey.json")), metadata.toStdString());
    const QString queries = folder + QStringLiteral("/q.jsonl");
    writeBytes(QFile::encodeName(queries),
               R"({"id":"c","aggregate":"count","target":{"kind":"absolute","error":60}})"
               "\n");
    QVERIFY(QFile::link(folder + QStringLiteral("/survey.json"), folder + QStringLiteral("/link.json")));
    QVERIFY(::link(QFile::encodeName(folder + QStringLiteral("/survey.json")).constData(),
                   QFile::encodeName(folder + QStringLiteral("/hard.json")).constData())
            == 0);
    for (const QString &out : {QStringLiteral("survey.json"), QStringLiteral("link.json"),
                               QStringLiteral("hard.json"), QStringLiteral("survey.csv.json")}) {
        const CliRun r
            = runCli({QStringLiteral("run"), QStringLiteral("--queries"), queries, QStringLiteral("--out"),
                      folder + QStringLiteral("/") + out, QStringLiteral("--dataset"), csv,
                      QStringLiteral("--journal"), folder + QStringLiteral("/j.journal")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("--out names the same file as the dataset's metadata file")),
                 qPrintable(out + QStringLiteral(": ") + r.err));
        QVERIFY(!r.out.contains(QStringLiteral("c: ")));
        QCOMPARE(readBytes(folder + QStringLiteral("/survey.json")), metadata);
        QVERIFY(!QFile::exists(folder + QStringLiteral("/j.journal")));
        QVERIFY(!QFile::exists(folder + QStringLiteral("/survey.csv.json")));
    }
    // A journal may not take the sidecar's place either.
    const CliRun r
        = runCli({QStringLiteral("run"), QStringLiteral("--queries"), queries, QStringLiteral("--out"),
                  folder + QStringLiteral("/t.json"), QStringLiteral("--dataset"), csv,
                  QStringLiteral("--journal"), folder + QStringLiteral("/survey.csv.json")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("--journal names the same file as the dataset's metadata file")),
             qPrintable(r.err));
    // Elsewhere it works, and the dataset still loads.
    const CliRun ok
        = runCli({QStringLiteral("run"), QStringLiteral("--queries"), queries, QStringLiteral("--out"),
                  folder + QStringLiteral("/t.json"), QStringLiteral("--dataset"), csv});
    QVERIFY2(ok.exitCode == 0, qPrintable(ok.err));
    QCOMPARE(runCli({QStringLiteral("verify"), folder + QStringLiteral("/t.json")}).exitCode, 0);
}

// Low: `--out J.tail` replaced the journal's tail record at the end of the run.
void TestCliRecords::outMayNotNameTheJournalTail()
{
    const QString folder = path(QStringLiteral("tail"));
    QVERIFY(QDir().mkpath(folder));
    const QString queries = folder + QStringLiteral("/q.jsonl");
    writeBytes(QFile::encodeName(queries),
               R"({"id":"c","aggregate":"count","target":{"kind":"absolute","error":60}})"
               "\n");
    const QString journal = folder + QStringLiteral("/j.journal");
    const CliRun r = runCli(test::runCommandArguments(queries, journal + QStringLiteral(".tail"), journal));
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("--out names the same file as the journal's tail record")),
             qPrintable(r.err));
    QVERIFY(!QFile::exists(journal));
    // Resuming an existing journal: the same.
    QCOMPARE(runCli(test::runCommandArguments(queries, folder + QStringLiteral("/t.json"), journal)).exitCode,
             0);
    const QByteArray tail = readBytes(journal + QStringLiteral(".tail"));
    const CliRun again
        = runCli(test::runCommandArguments(queries, journal + QStringLiteral(".tail"), journal));
    QCOMPARE(again.exitCode, 1);
    QCOMPARE(readBytes(journal + QStringLiteral(".tail")), tail);
    QCOMPARE(runCli({QStringLiteral("verify"), journal}).exitCode, 0);
}

// Low: `report x.html --out x.html` replaced its input; a link to the dataset's sidecar too.
void TestCliRecords::reportOutMayNotNameItsInput()
{
    const QString folder = path(QStringLiteral("report"));
    QVERIFY(QDir().mkpath(folder));
    const QString queries = folder + QStringLiteral("/q.jsonl");
    writeBytes(QFile::encodeName(queries),
               R"({"id":"c","aggregate":"count","target":{"kind":"absolute","error":60}})"
               "\n");
    const QString transcript = folder + QStringLiteral("/x.html");
    const QString journal = folder + QStringLiteral("/j.journal");
    QCOMPARE(runCli(test::runCommandArguments(queries, transcript, journal)).exitCode, 0);
    const QByteArray before = readBytes(transcript);
    const CliRun r = runCli({QStringLiteral("report"), transcript, QStringLiteral("--out"), transcript});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("--out names the same file as the session file")),
             qPrintable(r.err));
    QCOMPARE(readBytes(transcript), before);
    // The journal's tail record through a symbolic link named .html.
    QVERIFY(QFile::link(journal + QStringLiteral(".tail"), folder + QStringLiteral("/tail.html")));
    const QByteArray tail = readBytes(journal + QStringLiteral(".tail"));
    const CliRun viaLink = runCli(
        {QStringLiteral("report"), journal, QStringLiteral("--out"), folder + QStringLiteral("/tail.html")});
    QCOMPARE(viaLink.exitCode, 1);
    QVERIFY2(viaLink.err.contains(QStringLiteral("the session file's tail record")), qPrintable(viaLink.err));
    QCOMPARE(readBytes(journal + QStringLiteral(".tail")), tail);
    // The dataset's sidecar through a link.
    const QString csv = folder + QStringLiteral("/survey.csv");
    writeBytes(QFile::encodeName(csv), "region,wage\nsouth,100\nnorth,200\nsouth,300\n");
    const QByteArray metadata
        = R"({"format":"pbx-dataset-metadata","version":1,"name":"survey","columns":[{"name":"wage","type":"numeric","bounds":[0,1000]}]})";
    writeBytes(QFile::encodeName(folder + QStringLiteral("/survey.json")), metadata.toStdString());
    const QString surveyOut = folder + QStringLiteral("/survey-t.json");
    const CliRun run = runCli({QStringLiteral("run"), QStringLiteral("--queries"), queries,
                               QStringLiteral("--out"), surveyOut, QStringLiteral("--dataset"), csv});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY(QFile::link(folder + QStringLiteral("/survey.json"), folder + QStringLiteral("/meta.html")));
    const CliRun sidecar = runCli({QStringLiteral("report"), surveyOut, QStringLiteral("--out"),
                                   folder + QStringLiteral("/meta.html")});
    QCOMPARE(sidecar.exitCode, 1);
    QVERIFY2(sidecar.err.contains(QStringLiteral("the dataset's metadata file")), qPrintable(sidecar.err));
    QCOMPARE(readBytes(folder + QStringLiteral("/survey.json")), metadata);
}

// Low: a pre-existing J.tail symbolic link was followed and its target truncated.
void TestCliRecords::journalTailSymlinkIsNotFollowed()
{
    const QString folder = path(QStringLiteral("symlink"));
    QVERIFY(QDir().mkpath(folder));
    const QString queries = folder + QStringLiteral("/q.jsonl");
    writeBytes(QFile::encodeName(queries),
               R"({"id":"c","aggregate":"count","target":{"kind":"absolute","error":60}})"
               "\n");
    const QString victim = folder + QStringLiteral("/precious.txt");
    writeBytes(QFile::encodeName(victim), "precious bytes\n");
    const QString journal = folder + QStringLiteral("/j.journal");
    QVERIFY(QFile::link(victim, journal + QStringLiteral(".tail")));
    const CliRun r = runCli(test::runCommandArguments(queries, folder + QStringLiteral("/t.json"), journal));
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("symbolic link")), qPrintable(r.err));
    QVERIFY(!r.out.contains(QStringLiteral("c: ")));
    QCOMPARE(readBytes(victim), QByteArray("precious bytes\n"));
    QVERIFY(!QFile::exists(journal));
    // A leftover file that is not a tail record is not replaced either.
    QVERIFY(QFile::remove(journal + QStringLiteral(".tail")));
    writeBytes(QFile::encodeName(journal + QStringLiteral(".tail")), "notes\n");
    const CliRun other
        = runCli(test::runCommandArguments(queries, folder + QStringLiteral("/t.json"), journal));
    QCOMPARE(other.exitCode, 1);
    QCOMPARE(readBytes(journal + QStringLiteral(".tail")), QByteArray("notes\n"));
}

// Low: ε = 1e-320 was accepted (≈ 600 nulls written); an early-stop request with step_epsilon
// 1e-300 was charged exactly 0.
void TestCliRecords::absurdPrivacyParametersAreRefused()
{
    const QString folder = path(QStringLiteral("absurd"));
    QVERIFY(QDir().mkpath(folder));
    const QString queries = folder + QStringLiteral("/q.jsonl");
    writeBytes(QFile::encodeName(queries),
               R"({"id":"c","aggregate":"count","target":{"kind":"absolute","error":60}})"
               "\n");
    const CliRun tiny = runCli(test::runCommandArguments(
        queries, folder + QStringLiteral("/t.json"), folder + QStringLiteral("/j.journal"),
        {QStringLiteral("--epsilon"), QStringLiteral("1e-320")}));
    QCOMPARE(tiny.exitCode, 1);
    QVERIFY2(
        tiny.err.contains(QStringLiteral("ε must be a finite number of at least 1e-06 (kMinGivenEpsilon)")),
        qPrintable(tiny.err));
    const CliRun tinyDelta = runCli(test::runCommandArguments(
        queries, folder + QStringLiteral("/t.json"), folder + QStringLiteral("/j.journal"),
        {QStringLiteral("--delta"), QStringLiteral("1e-320")}));
    QCOMPARE(tinyDelta.exitCode, 1);
    QVERIFY2(tinyDelta.err.contains(QStringLiteral("δ must be 0 or at least 1e-100 (kMinGivenDelta)")),
             qPrintable(tinyDelta.err));
    writeBytes(
        QFile::encodeName(queries),
        R"({"id":"m","mechanism":"early-stop","column":"wage","step_epsilon":1e-300,"stops":[5,10],"composition":"kov","delta":1e-6})"
        "\n");
    const CliRun step = runCli(test::runCommandArguments(
        queries, folder + QStringLiteral("/t.json"), folder + QStringLiteral("/j.journal"),
        {QStringLiteral("--filter"), QStringLiteral("odp"), QStringLiteral("--neighbours"),
         QStringLiteral("replace")}));
    QCOMPARE(step.exitCode, 1);
    QVERIFY2(step.err.contains(QStringLiteral("step_epsilon: must be a finite number of at least 1e-06")),
             qPrintable(step.err));
    QVERIFY(!QFile::exists(folder + QStringLiteral("/j.journal")));
    QVERIFY(!QFile::exists(folder + QStringLiteral("/t.json")));
}

// Low: control characters in ids (\u0001 in JSON) made the HTML report ill-formed XML/HTML.
void TestCliRecords::controlCharactersKeepTheReportWellFormed()
{
    const QString folder = path(QStringLiteral("control"));
    QVERIFY(QDir().mkpath(folder));
    const QString queries = folder + QStringLiteral("/q.jsonl");
    writeBytes(
        QFile::encodeName(queries),
        R"({"id":"a\u0001b\u001bc\u0085d","aggregate":"count","target":{"kind":"absolute","error":60}})"
        "\n");
    QCOMPARE(runCli(test::runCommandArguments(queries, folder + QStringLiteral("/t.json"),
                                              folder + QStringLiteral("/j.journal")))
                 .exitCode,
             0);
    const CliRun r = runCli({QStringLiteral("report"), folder + QStringLiteral("/t.json"),
                             QStringLiteral("--out"), folder + QStringLiteral("/r.html")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QByteArray html = readBytes(folder + QStringLiteral("/r.html"));
    for (const char c : html)
        QVERIFY2(static_cast<unsigned char>(c) >= 0x20 || c == '\t' || c == '\n' || c == '\r',
                 qPrintable(QStringLiteral("control character %1").arg(static_cast<int>(c))));
    QVERIFY(!html.contains("\xc2\x85"));                                       // C1 control NEL
    QVERIFY(html.contains(QStringLiteral("a\u2401b\u241bc\ufffdd").toUtf8())); // ␁, ␛, U+FFFD
}

QTEST_GUILESS_MAIN(TestCliRecords)
#include "tst_clirecords.moc"
