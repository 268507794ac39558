// SPDX-License-Identifier: MIT
// `pbx-cli simulate` estimates a lab's work and memory before it starts and refuses it
// above a named limit (a growing lab with 200,000 black-box queries reached 13.7 GB in 60 s;
// repetitions 100,000 with "every": 1 ran for minutes), checks --out before running (it was
// checked only after a 30-s run), and refuses the stability experiment under replace-one (issue
// 27: it printed add/remove-only constants without a word).
#include "tests/cli/clitestutils.h"
#include "tests/testutils.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>

using pbx::test::runCli;

namespace {

QString writeConfig(const QTemporaryDir &dir, const QString &name, const QByteArray &json)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(json) != json.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

/// `queries` laplace-k predicates (all the same) for a growing lab.
QByteArray predicates(int queries)
{
    QByteArray out = "[";
    for (int i = 0; i < queries; ++i)
        out += QByteArray(i ? "," : "") + "\"region == \\\"south\\\"\"";
    return out + "]";
}

} // namespace

class TestCliSimulateLimits : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void growingQueriesRefusedByMemory();
    void growingRepetitionsRefusedByWork();
    void strategiesWorkloadRefused();
    void relativeErrorRefused();
    void outCheckedBeforeRunning();
    void stabilityUnderReplaceRefused();
};

void TestCliSimulateLimits::growingQueriesRefusedByMemory()
{
    // 200,000 queries × 28,155 rows × 5 bytes ≈ 26.2 GiB > 1 GiB: refused at once, nothing written.
    QTemporaryDir dir;
    const QString config = writeConfig(
        dir, QStringLiteral("lab.json"),
        R"({"format":"pbx-growing-lab","version":1,"algorithm":"bbscheduler","stream":{"start_size":1000},)"
        R"("budget":{"kind":"pure","epsilon":1},"schedule":{"kind":"geometric","gamma":1},)"
        R"("black_box":{"kind":"laplace-k","queries":)"
            + predicates(200000) + "}}");
    const QString out = dir.filePath(QStringLiteral("out.json"));
    QElapsedTimer timer;
    timer.start();
    const auto run = runCli({QStringLiteral("simulate"), QStringLiteral("growing"),
                             QStringLiteral("--config"), config, QStringLiteral("--out"), out});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(
        run.err.contains(QStringLiteral("INVALID_CONFIG: black_box.queries: 200000 queries over 28155 rows")),
        qPrintable(run.err));
    QVERIFY2(run.err.contains(QStringLiteral(
                 "would need about 26851 MiB (5 bytes per query and row), more than the limit of 1024 MiB")),
             qPrintable(run.err));
    QVERIFY2(timer.elapsed() < 20000, qPrintable(QString::number(timer.elapsed())));
    QVERIFY(!QFile::exists(out));
}

void TestCliSimulateLimits::growingRepetitionsRefusedByWork()
{
    // BBImprover, every = 1, 100,000 repetitions of 2 queries: 1e5 × 2 × (28155 + 27155) ≈ 1.11e10
    // steps > 4e9.
    QTemporaryDir dir;
    const QString config = writeConfig(
        dir, QStringLiteral("lab.json"),
        R"({"format":"pbx-growing-lab","version":1,"algorithm":"bbimprover","stream":{"start_size":1000},)"
        R"("budget":{"kind":"zcdp","rho":0.5},"schedule":{"a":0.1,"every":1},"repetitions":100000,)"
        R"("black_box":{"kind":"laplace-k","queries":)"
            + predicates(2) + "}}");
    const QString out = dir.filePath(QStringLiteral("out.json"));
    const auto run = runCli({QStringLiteral("simulate"), QStringLiteral("growing"),
                             QStringLiteral("--config"), config, QStringLiteral("--out"), out});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(
        run.err.contains(QStringLiteral("INVALID_CONFIG: repetitions × black_box.queries: the lab would take "
                                        "about 1.11e+10 steps")),
        qPrintable(run.err));
    QVERIFY2(run.err.contains(QStringLiteral("more than the limit of 4e+09")), qPrintable(run.err));
    QVERIFY(!QFile::exists(out));
}

void TestCliSimulateLimits::strategiesWorkloadRefused()
{
    // All ranges over [0, 9999] (10,000 cells: 50,005,000 ranges) × 2000 repetitions: 1e11 steps.
    QTemporaryDir dir;
    const QString config
        = writeConfig(dir, QStringLiteral("lab.json"),
                      R"({"format":"pbx-strategies-lab","version":1,"experiment":"ranges","column":"wage",)"
                      R"("bounds":[0,9999],"strategies":[{"kind":"identity"}],"workload":"all-ranges"})");
    const QString out = dir.filePath(QStringLiteral("out.json"));
    const auto run = runCli({QStringLiteral("simulate"), QStringLiteral("strategies"),
                             QStringLiteral("--config"), config, QStringLiteral("--out"), out});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(
        run.err.contains(QStringLiteral(
            "INVALID_CONFIG: repetitions × workload: the lab would take about 1e+11 steps (repetitions 2000 × 1 strategies × (2 × 10000 cells + 5e+07 workload answers))")),
        qPrintable(run.err));
    QVERIFY(!QFile::exists(out));
}

void TestCliSimulateLimits::relativeErrorRefused()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("out.json"));
    const auto run
        = runCli({QStringLiteral("simulate"), QStringLiteral("relative-error"), QStringLiteral("--out"), out,
                  QStringLiteral("--repetitions"), QStringLiteral("100000")});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(QStringLiteral("--repetitions × --queries: 100000 × 500 = 5e+07 queries")),
             qPrintable(run.err));
    QVERIFY(!QFile::exists(out));
}

void TestCliSimulateLimits::outCheckedBeforeRunning()
{
    QTemporaryDir dir;
    const QString config = writeConfig(
        dir, QStringLiteral("lab.json"),
        R"({"format":"pbx-growing-lab","version":1,"algorithm":"bbscheduler","stream":{"start_size":1000},)"
        R"("budget":{"kind":"pure","epsilon":1},"schedule":{"kind":"geometric","gamma":1},"repetitions":100000,)"
        R"("black_box":{"kind":"laplace-k","queries":)"
            + predicates(2) + "}}");
    // A missing folder fails at once (the run would take many seconds).
    QElapsedTimer timer;
    timer.start();
    auto run
        = runCli({QStringLiteral("simulate"), QStringLiteral("growing"), QStringLiteral("--config"), config,
                  QStringLiteral("--out"), dir.filePath(QStringLiteral("no/such/folder/out.json"))});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(QStringLiteral("--out: "))
                 && run.err.contains(QStringLiteral("no/such/folder")),
             qPrintable(run.err));
    QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
    // --out naming the config is refused before anything runs; the config is unchanged.
    const QByteArray before = [&] {
        QFile f(config);
        f.open(QIODevice::ReadOnly);
        return f.readAll();
    }();
    run = runCli({QStringLiteral("simulate"), QStringLiteral("growing"), QStringLiteral("--config"), config,
                  QStringLiteral("--out"), config});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(QStringLiteral("an input of the lab, which it would overwrite")),
             qPrintable(run.err));
    QFile f(config);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), before);
    // The relative-error lab: a CSV's sidecar is an input too.
    run = runCli({QStringLiteral("simulate"), QStringLiteral("relative-error"), QStringLiteral("--dataset"),
                  dir.filePath(QStringLiteral("survey.csv")), QStringLiteral("--out"),
                  dir.filePath(QStringLiteral("survey.json"))});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(QStringLiteral("survey.json, an input of the lab")), qPrintable(run.err));
}

void TestCliSimulateLimits::stabilityUnderReplaceRefused()
{
    QTemporaryDir dir;
    const QString config = writeConfig(
        dir, QStringLiteral("lab.json"),
        R"({"format":"pbx-strategies-lab","version":1,"experiment":"stability","neighbours":"replace"})");
    const QString out = dir.filePath(QStringLiteral("out.json"));
    auto run = runCli({QStringLiteral("simulate"), QStringLiteral("strategies"), QStringLiteral("--config"),
                       config, QStringLiteral("--out"), out});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(QStringLiteral("NEIGHBOURS_MISMATCH: neighbours:")), qPrintable(run.err));
    QVERIFY(!QFile::exists(out));
    // Under add/remove it runs.
    const QString addRemove = writeConfig(
        dir, QStringLiteral("lab2.json"),
        R"({"format":"pbx-strategies-lab","version":1,"experiment":"stability","neighbours":"add-remove"})");
    run = runCli({QStringLiteral("simulate"), QStringLiteral("strategies"), QStringLiteral("--config"),
                  addRemove, QStringLiteral("--out"), out});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(QFile::exists(out));
}

QTEST_GUILESS_MAIN(TestCliSimulateLimits)
#include "tst_clisimulatelimits.moc"
