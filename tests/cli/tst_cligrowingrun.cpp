// SPDX-License-Identifier: MIT
// `pbx-cli run` with a growing-database stream on CPS1988: every BBScheduler epoch is
// charged to the session's filter and printed, the transcript and journal keep the epochs,
// `pbx-cli verify` recomputes them and catches an edited cost, a resumed journal does not spend
// again, a small budget stops the stream mid-way, and hostile lines stop the run before anything
// is spent (docs/growing-databases.md, "In a session").
#include "tests/testutils.h"

#include "clitestutils.h"

#include <QFile>
#include <QTemporaryDir>

#include <cmath>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>

using nlohmann::json;
using namespace pbx;

namespace {
using test::readJson;
using test::runCli;
using test::writeFile;

std::string growingLine(const std::string &gamma = "1")
{
    return "{\"id\":\"g1\",\"type\":\"growing\",\"algorithm\":\"bbscheduler\","
           "\"stream\":{\"start_size\":1000,\"end\":28155,\"order\":\"random\",\"seed\":7},"
           "\"budget\":{\"kind\":\"pure\",\"epsilon\":0.5},\"schedule\":{\"kind\":\"geometric\",\"gamma\":"
           + gamma
           + "},\"black_box\":{\"kind\":\"laplace-k\",\"queries\":[\"education >= 16\",\"experience < 10\"]}}\n";
}

std::string improverLine(const std::string &every = "100")
{
    return "{\"id\":\"i1\",\"type\":\"growing\",\"algorithm\":\"bbimprover\","
           "\"stream\":{\"start_size\":1000,\"order\":\"random\",\"seed\":7},"
           "\"budget\":{\"kind\":\"zcdp\",\"rho\":0.5},\"schedule\":{\"a\":0.1,\"every\":"
           + every
           + "},\"black_box\":{\"kind\":\"laplace-k\",\"queries\":[\"education >= 16\",\"experience < 10\"]}}\n";
}

constexpr const char *kCountLine = "{\"id\":\"n\",\"aggregate\":\"count\",\"target\":{\"kind\":\"absolute\","
                                   "\"error\":2000},\"mechanism\":\"laplace\"}\n";

} // namespace

class TestCliGrowingRun : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void runVerifyAndResume();
    void verifyCatchesEditedCosts();
    void smallBudgetStopsMidStream();
    void hostileLinesSpendNothing();
    void improverRunVerifyAndStop();
    void nsgRunVerifyAndStop();
    void pmwgRunVerifyAndStop();
    void ermgAndSmallDbRunVerifyAndStop();
    void continuousNoiseTranscriptsStillVerify();

private:
    QTemporaryDir m_dir;
    QString path(const char *name) const { return m_dir.filePath(QString::fromLatin1(name)); }
    QStringList run(const char *queries, const char *out, QStringList extra) const
    {
        return QStringList{QStringLiteral("run"),
                           QStringLiteral("--queries"),
                           path(queries),
                           QStringLiteral("--out"),
                           path(out),
                           QStringLiteral("--filter"),
                           QStringLiteral("basic"),
                           QStringLiteral("--neighbours"),
                           QStringLiteral("replace"),
                           QStringLiteral("--seed"),
                           QStringLiteral("3")}
               + extra;
    }
};

void TestCliGrowingRun::runVerifyAndResume()
{
    writeFile(path("q.jsonl"), growingLine() + kCountLine);
    const auto first = runCli(run("q.jsonl", "t.json", {QStringLiteral("--journal"), path("j.journal")}));
    QVERIFY2(first.exitCode == 0, qPrintable(first.err));
    QVERIFY2(first.out.contains(
                 QStringLiteral("g1: released bbscheduler, 5 of 5 epochs, ε = 0.484375 (series ≤ 0.5)")),
             qPrintable(first.out));
    QVERIFY(first.out.contains(QStringLiteral("  BBScheduler epoch 0 of 5: t = 1000, ε = 0.25; answers ")));
    QVERIFY(
        first.out.contains(QStringLiteral("  BBScheduler epoch 3 of 5: t = 8000, ε = 0.03125; answers ")));
    // The Laplace-k scale is k/(ε_i t_i) = 2/(0.25 · 1000) = 0.008 in every epoch (ε_i t_i constant).
    QVERIFY(first.out.contains(QStringLiteral("(scale 0.008, bound ")));
    const json t = readJson(path("t.json"));
    const json &g = t["events"][0];
    QCOMPARE(g["type"].get<std::string>(), std::string("growing"));
    QCOMPARE(g["growing_record"]["epochs"].size(), std::size_t{5});
    QCOMPARE(g["growing_record"]["epochs"][4]["start"].get<std::uint64_t>(), std::uint64_t{16000});
    QCOMPARE(g["growing_record"]["epochs"][4]["last"].get<std::uint64_t>(), std::uint64_t{28155});
    QCOMPARE(g["attempts"].size(), std::size_t{5});
    QVERIFY(std::abs(g["attempts"][1]["cost"].get<double>() - 0.125) < 1e-12);
    QVERIFY(std::abs(g["cost"]["epsilon"].get<double>() - 0.484375) < 1e-12);
    // Two queries per epoch, each a fraction near the truth (education ≥ 16 is ~ 0.2 of CPS1988).
    for (const auto &e : g["growing_record"]["epochs"])
        QCOMPARE(e["answers"].size(), std::size_t{2});

    for (const char *file : {"t.json", "j.journal"}) {
        const auto verified = runCli({QStringLiteral("verify"), path(file)});
        QVERIFY2(verified.exitCode == 0, qPrintable(verified.err + verified.out));
        QVERIFY(verified.out.startsWith(QStringLiteral("ok: ")));
    }
    // Resuming the same journal spends nothing again.
    const auto again = runCli(run("q.jsonl", "t2.json", {QStringLiteral("--journal"), path("j.journal")}));
    QVERIFY2(again.exitCode == 0, qPrintable(again.err));
    QVERIFY(again.out.contains(QStringLiteral("resuming: 2 answers already in the journal")));
    const json t2 = readJson(path("t2.json"));
    QCOMPARE(t2["events"][0]["growing_record"], g["growing_record"]);
}

void TestCliGrowingRun::verifyCatchesEditedCosts()
{
    writeFile(path("q2.jsonl"), growingLine());
    const auto first = runCli(run("q2.jsonl", "e.json", {}));
    QVERIFY2(first.exitCode == 0, qPrintable(first.err));
    const json original = readJson(path("e.json"));
    const struct
    {
        const char *pointer;
        double value;
        const char *message;
    } edits[] = {
        {"/events/0/attempts/2/cost", 0.01, "epoch 2: it charged ε = 0.01, but its schedule gives 0.0625"},
        {"/events/0/growing_record/epochs/1/epsilon", 0.5, "epoch 1: it records ε = 0.5"},
        {"/events/0/cost/epsilon", 0.1, "not the recorded cost 0.1"},
        {"/events/0/schedule/gamma", 0.5, "its plan"},
    };
    for (const auto &edit : edits) {
        json edited = original;
        edited[json::json_pointer(edit.pointer)] = edit.value;
        writeFile(path("edited.json"), edited.dump());
        const auto verified = runCli({QStringLiteral("verify"), path("edited.json")});
        QVERIFY2(verified.exitCode == 1, edit.pointer);
        QVERIFY2(verified.err.contains(QString::fromUtf8(edit.message)), qPrintable(verified.err));
    }
}

void TestCliGrowingRun::smallBudgetStopsMidStream()
{
    writeFile(path("q3.jsonl"), growingLine() + kCountLine);
    // ε = 0.42: epochs 0.25 + 0.125 fit, 0.0625 more does not; the count then takes what is left.
    const auto r = runCli(run("q3.jsonl", "s.json", {QStringLiteral("--epsilon"), QStringLiteral("0.42")}));
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains(QStringLiteral("g1: released bbscheduler, 2 of 5 epochs, ε = 0.375")),
             qPrintable(r.out));
    QVERIFY(r.out.contains(QStringLiteral("epoch 2 (t = 4000) refused")));
    QVERIFY(r.out.contains(QStringLiteral("the 2 epochs before it stay released and charged")));
    const json t = readJson(path("s.json"));
    QCOMPARE(t["events"][0]["growing_record"]["refused_epoch"].get<int>(), 2);
    QCOMPARE(t["events"][0]["growing_record"]["epochs"].size(), std::size_t{2});
    const auto verified = runCli({QStringLiteral("verify"), path("s.json")});
    QVERIFY2(verified.exitCode == 0, qPrintable(verified.err));
}

void TestCliGrowingRun::hostileLinesSpendNothing()
{
    const struct
    {
        std::string line;
        QStringList extra;
        const char *message;
    } bad[] = {
        {growingLine("0"), {}, "INVALID_GAMMA: schedule.gamma"},
        {growingLine("1e-9"),
         {},
         "INVALID_CONFIG: schedule.gamma: the stream would have more than 10000 epochs"},
        {growingLine("\"optimal\""), {}, "INVALID_GAMMA: schedule.gamma"},
        {growingLine("1"),
         {QStringLiteral("--neighbours"), QStringLiteral("add-remove")},
         "GROWING_NEIGHBOURS_UNSUPPORTED"},
    };
    int n = 0;
    for (const auto &b : bad) {
        writeFile(path("bad.jsonl"), std::string(kCountLine) + b.line);
        const QString out = m_dir.filePath(QStringLiteral("bad%1.json").arg(n++));
        auto args = QStringList{QStringLiteral("run"),
                                QStringLiteral("--queries"),
                                path("bad.jsonl"),
                                QStringLiteral("--out"),
                                out,
                                QStringLiteral("--filter"),
                                QStringLiteral("basic"),
                                QStringLiteral("--seed"),
                                QStringLiteral("3")};
        if (b.extra.isEmpty())
            args << QStringLiteral("--neighbours") << QStringLiteral("replace");
        const auto r = runCli(args + b.extra);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QString::fromUtf8(b.message)), qPrintable(r.err));
        QVERIFY(r.err.contains(QStringLiteral("line 2")));
        QVERIFY(!QFile::exists(out)); // nothing answered, nothing written
    }
}

void TestCliGrowingRun::improverRunVerifyAndStop()
{
    // BBImprover on CPS1988 under the zCDP filter: 272 runs (t = 1000, 1100, …, 28100), each its own
    // ρ_t charge, together ρ = 0.13959 of the series' 0.5.
    writeFile(path("i.jsonl"), improverLine() + kCountLine);
    auto args = [&](const char *out, const char *epsilon) {
        return QStringList{QStringLiteral("run"),
                           QStringLiteral("--queries"),
                           path("i.jsonl"),
                           QStringLiteral("--out"),
                           path(out),
                           QStringLiteral("--filter"),
                           QStringLiteral("zcdp"),
                           QStringLiteral("--epsilon"),
                           QString::fromLatin1(epsilon),
                           QStringLiteral("--neighbours"),
                           QStringLiteral("replace"),
                           QStringLiteral("--seed"),
                           QStringLiteral("3"),
                           QStringLiteral("--journal"),
                           path(out) + QStringLiteral(".journal")};
    };
    const auto r = runCli(args("i.json", "10"));
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains(
                 QStringLiteral("i1: released bbimprover, 272 of 272 runs, ρ = 0.13959 (series ≤ 0.5)")),
             qPrintable(r.out));
    QVERIFY(r.out.contains(QStringLiteral("  BBImprover run 0 of 272: t = 1000, ρ = 0.00450639; answers ")));
    const json t = readJson(path("i.json"));
    const json &g = t["events"][0];
    QCOMPARE(g["algorithm"].get<std::string>(), std::string("bbimprover"));
    QCOMPARE(g["schedule"]["every"].get<int>(), 100);
    QCOMPARE(g["growing_record"]["epochs"].size(), std::size_t{272});
    QCOMPARE(g["growing_record"]["epochs"][271]["last"].get<std::uint64_t>(), std::uint64_t{28155});
    QVERIFY(std::abs(g["cost"]["rho"].get<double>() - 0.13959) < 1e-5);
    for (const char *file : {"i.json", "i.json.journal"}) {
        const auto verified = runCli({QStringLiteral("verify"), path(file)});
        QVERIFY2(verified.exitCode == 0, qPrintable(verified.err + verified.out));
    }
    // An edited run cost is caught.
    json edited = t;
    edited["events"][0]["attempts"][5]["cost"] = 1e-6;
    writeFile(path("i-edited.json"), edited.dump());
    const auto caught = runCli({QStringLiteral("verify"), path("i-edited.json")});
    QCOMPARE(caught.exitCode, 1);
    QVERIFY2(caught.err.contains(QStringLiteral("run 5: it charged ρ = 1e-06, but its schedule gives")),
             qPrintable(caught.err));
    // ε = 1 (ρ ≈ 0.0186): the stream stops mid-way and keeps what it released; verify accepts it.
    const auto small = runCli(args("i-small.json", "1"));
    QVERIFY2(small.exitCode == 0, qPrintable(small.err));
    QVERIFY2(small.out.contains(QStringLiteral(") refused: ")), qPrintable(small.out));
    const json ts = readJson(path("i-small.json"));
    const auto released = ts["events"][0]["growing_record"]["epochs"].size();
    QVERIFY(released > 0 && released < 272);
    QCOMPARE(ts["events"][0]["growing_record"]["refused_epoch"].get<std::size_t>(), released);
    QVERIFY(runCli({QStringLiteral("verify"), path("i-small.json")}).exitCode == 0);
    // A run every row would be 27,156 runs: the line is refused before anything is spent.
    writeFile(path("i.jsonl"), std::string(kCountLine) + improverLine("1"));
    const auto bad = runCli(args("i-bad.json", "10"));
    QCOMPARE(bad.exitCode, 1);
    QVERIFY2(bad.err.contains(QStringLiteral("line 2: INVALID_CONFIG: schedule.every")), qPrintable(bad.err));
    QVERIFY(!QFile::exists(path("i-bad.json")));
}

void TestCliGrowingRun::nsgRunVerifyAndStop()
{
    // NSG on CPS1988 (pure ε = 1, p = ½, T = 0.3, time cap c₀ = 10, 40 checkpoints; seed 3): each
    // round charged (7/3)f(s) when it opens; the first (7/3)f(1000) = 0.0322581.
    const std::string nsgLine
        = "{\"id\":\"s1\",\"type\":\"growing\",\"algorithm\":\"nsg\",\"stream\":{\"start_size\":1000,\"seed\":7},"
          "\"budget\":{\"kind\":\"pure\",\"epsilon\":1},\"nsg\":{\"p\":0.5,\"T\":0.3,\"cap\":{\"kind\":\"time\","
          "\"c0\":10},\"queries\":[\"region == \\\"south\\\"\",\"ethnicity == \\\"afam\\\"\"],\"checkpoints\":40}}\n";
    writeFile(path("n.jsonl"), nsgLine);
    auto args = [&](const char *out, const char *epsilon) {
        return QStringList{QStringLiteral("run"),
                           QStringLiteral("--queries"),
                           path("n.jsonl"),
                           QStringLiteral("--out"),
                           path(out),
                           QStringLiteral("--filter"),
                           QStringLiteral("basic"),
                           QStringLiteral("--epsilon"),
                           QString::fromLatin1(epsilon),
                           QStringLiteral("--neighbours"),
                           QStringLiteral("replace"),
                           QStringLiteral("--seed"),
                           QStringLiteral("3")};
    };
    const auto r = runCli(args("n.json", "10"));
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(
        r.out.contains(QStringLiteral("s1: released nsg, 17 rounds, 16 ⊤ answers at 40 of 40 checkpoints, "
                                      "ε = 0.227637 (worst case 1, σ_n = 0.0723333)")),
        qPrintable(r.out));
    QVERIFY(
        r.out.contains(QStringLiteral("  NSG round 0: opened at t = 1000, ⊤ at t = 1000, ε = 0.0322581")));
    // The ⊤ answer is (count + Z)/t with Z exact discrete Laplace: 587/1000.
    QVERIFY(r.out.contains(QStringLiteral("query 0 answered 0.587 (scale 0.217)")));
    const json t = readJson(path("n.json"));
    const json &g = t["events"][0];
    QCOMPARE(g["growing_record"]["nsg"]["rounds"].size(), std::size_t{17});
    QCOMPARE(g["growing_record"]["nsg"]["hard"].size(), std::size_t{16});
    QCOMPARE(g["attempts"].size(), std::size_t{17});
    const auto verified = runCli({QStringLiteral("verify"), path("n.json")});
    QVERIFY2(verified.exitCode == 0, qPrintable(verified.err + verified.out));
    json edited = t;
    edited["events"][0]["attempts"][3]["cost"] = 0.001;
    writeFile(path("n-edited.json"), edited.dump());
    const auto caught = runCli({QStringLiteral("verify"), path("n-edited.json")});
    QCOMPARE(caught.exitCode, 1);
    QVERIFY2(caught.err.contains(QStringLiteral("round 3: it charged ε = 0.001, but opening at t = ")),
             qPrintable(caught.err));
    // ε = 0.05: the second round (ε = 0.0322581, opened at t = 1000 after the first ⊤ there) does not
    // fit what is left; the first stays released.
    const auto small = runCli(args("n-small.json", "0.05"));
    QVERIFY2(small.exitCode == 0, qPrintable(small.err));
    QVERIFY2(small.out.contains(QStringLiteral("1 round, 1 ⊤ answer at 1 of 40 checkpoints, ε = 0.0322581")),
             qPrintable(small.out));
    QVERIFY(small.out.contains(QStringLiteral("round 1 (t = 1000) refused")));
    QVERIFY(runCli({QStringLiteral("verify"), path("n-small.json")}).exitCode == 0);
}

void TestCliGrowingRun::pmwgRunVerifyAndStop()
{
    // PMWG on CPS1988 (the lab's defaults: n = 14000, small universe N = 160, pure ε = 1, p = ½,
    // c₀ = 40, T = 0.05, η = 0.3, 40 checkpoints × 25 conjunctions; seed 3): each sparse-vector round
    // charged (7/3)f(s) when it opens, the first (7/3)f(14000) = 0.00826446; the cap H(28155) = 67 binds.
    const std::string pmwgLine
        = "{\"id\":\"m1\",\"type\":\"growing\",\"algorithm\":\"pmwg\",\"stream\":{\"start_size\":14000,"
          "\"seed\":7},\"budget\":{\"kind\":\"pure\",\"epsilon\":1},\"pmwg\":{\"universe\":\"small\","
          "\"p\":0.5,\"c0\":40,\"T\":0.05,\"eta\":0.3,\"checkpoints\":40,\"per_checkpoint\":25}}\n";
    writeFile(path("m.jsonl"), pmwgLine);
    auto args = [&](const char *out, const char *epsilon) {
        return QStringList{QStringLiteral("run"),
                           QStringLiteral("--queries"),
                           path("m.jsonl"),
                           QStringLiteral("--out"),
                           path(out),
                           QStringLiteral("--filter"),
                           QStringLiteral("basic"),
                           QStringLiteral("--epsilon"),
                           QString::fromLatin1(epsilon),
                           QStringLiteral("--neighbours"),
                           QStringLiteral("replace"),
                           QStringLiteral("--seed"),
                           QStringLiteral("3")};
    };
    const auto r = runCli(args("m.json", "10"));
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(
        r.out.contains(QStringLiteral("m1: released pmwg, 67 rounds, 67 hard of 1000 answers at 40 of 40 "
                                      "checkpoints, ε = 0.513772 (worst case 1, σ_n = 0.0201667, N = 160)")),
        qPrintable(r.out));
    QVERIFY2(r.out.contains(QStringLiteral("  PMWG round 0: opened at t = 14000, ⊤ at t = 14000 (query 0), "
                                           "ε = 0.00826446; answered 0.179571 (scale 0.0605)")),
             qPrintable(r.out));
    const json t = readJson(path("m.json"));
    const json &g = t["events"][0];
    QCOMPARE(g["growing_record"]["pmwg"]["rounds"].size(), std::size_t{67});
    QCOMPARE(g["growing_record"]["pmwg"]["hard"].size(), std::size_t{67});
    QCOMPARE(g["growing_record"]["pmwg"]["checkpoints"].size(), std::size_t{40});
    QCOMPARE(g["attempts"].size(), std::size_t{67});
    const auto verified = runCli({QStringLiteral("verify"), path("m.json")});
    QVERIFY2(verified.exitCode == 0, qPrintable(verified.err + verified.out));
    json edited = t;
    edited["events"][0]["attempts"][3]["cost"] = 0.001;
    writeFile(path("m-edited.json"), edited.dump());
    const auto caught = runCli({QStringLiteral("verify"), path("m-edited.json")});
    QCOMPARE(caught.exitCode, 1);
    QVERIFY2(caught.err.contains(QStringLiteral("round 3: it charged ε = 0.001, but opening at t = ")),
             qPrintable(caught.err));
    // ε = 0.02: two rounds fit, the third is refused; the first two stay released.
    const auto small = runCli(args("m-small.json", "0.02"));
    QVERIFY2(small.exitCode == 0, qPrintable(small.err));
    QVERIFY2(small.out.contains(QStringLiteral("m1: released pmwg, 2 rounds, 2 hard of ")),
             qPrintable(small.out));
    QVERIFY2(small.out.contains(QStringLiteral("round 2 (t = 14000) refused")), qPrintable(small.out));
    QVERIFY(small.out.contains(QStringLiteral("the 2 rounds before it stay released and charged")));
    QVERIFY(runCli({QStringLiteral("verify"), path("m-small.json")}).exitCode == 0);
}

void TestCliGrowingRun::ermgAndSmallDbRunVerifyAndStop()
{
    // ERMG (ρ = 0.5, improver a = 0.1, a release every 1000 rows, λ = 0.01) and SmallDBG (ε = 1,
    // geometric γ = 1, m = 8) on CPS1988, seed 3: each release charged before its noise or draw.
    const std::string ermgLine
        = "{\"id\":\"e1\",\"type\":\"growing\",\"algorithm\":\"ermg\",\"stream\":{\"start_size\":1000,\"seed\":7},"
          "\"budget\":{\"kind\":\"zcdp\",\"rho\":0.5},\"schedule\":{\"kind\":\"improver\",\"a\":0.1,\"every\":1000},"
          "\"erm\":{\"lambda\":0.01,\"tol\":1e-10}}\n";
    const std::string smallDbLine
        = "{\"id\":\"d1\",\"type\":\"growing\",\"algorithm\":\"smalldb\",\"stream\":{\"start_size\":1000,\"seed\":7},"
          "\"budget\":{\"kind\":\"pure\",\"epsilon\":1},\"schedule\":{\"kind\":\"geometric\",\"gamma\":1},"
          "\"black_box\":{\"m\":8}}\n";
    writeFile(path("e.jsonl"), ermgLine);
    writeFile(path("d.jsonl"), smallDbLine);
    auto args = [&](const char *in, const char *out, const char *filter, const char *epsilon) {
        return QStringList{QStringLiteral("run"),
                           QStringLiteral("--queries"),
                           path(in),
                           QStringLiteral("--out"),
                           path(out),
                           QStringLiteral("--filter"),
                           QString::fromLatin1(filter),
                           QStringLiteral("--epsilon"),
                           QString::fromLatin1(epsilon),
                           QStringLiteral("--neighbours"),
                           QStringLiteral("replace"),
                           QStringLiteral("--seed"),
                           QStringLiteral("3")};
    };
    const auto e = runCli(args("e.jsonl", "e.json", "zcdp", "10"));
    QVERIFY2(e.exitCode == 0, qPrintable(e.err));
    QVERIFY2(
        e.out.contains(QStringLiteral("e1: released ermg, 28 of 28 releases, ρ = 0.122801 (series ≤ 0.5)")),
        qPrintable(e.out));
    QVERIFY2(
        e.out.contains(QStringLiteral("  ERMG release 0 of 28: t = 1000, ρ = 0.0233363, σ = 0.925762; θ = ")),
        qPrintable(e.out));
    // θ on a power-of-two grid plus discrete Gaussian noise: the exact discrete tail's bound (the
    // continuous Chernoff bound σ√(2 ln(2d/β)) was 3.53).
    QVERIFY2(
        e.out.contains(QStringLiteral("(each coordinate within 2.95948 of the fit w.p. ≥ 1 − 0.0125063)")),
        qPrintable(e.out));
    const json te = readJson(path("e.json"));
    QCOMPARE(te["events"][0]["growing_record"]["epochs"].size(), std::size_t{28});
    QCOMPARE(te["events"][0]["growing_record"]["epochs"][0]["answers"].size(), std::size_t{9});
    QVERIFY(runCli({QStringLiteral("verify"), path("e.json")}).exitCode == 0);
    json edited = te;
    edited["events"][0]["attempts"][5]["cost"] = 0.001;
    writeFile(path("e-edited.json"), edited.dump());
    auto caught = runCli({QStringLiteral("verify"), path("e-edited.json")});
    QCOMPARE(caught.exitCode, 1);
    QVERIFY2(caught.err.contains(
                 QStringLiteral("release 5: it charged ρ = 0.001, but its schedule gives 0.00588")),
             qPrintable(caught.err));
    // ε = 2 (ρ ≈ 0.0676): release 5 (ρ = 0.00588) no longer fits; the five before it stay released.
    const auto es = runCli(args("e.jsonl", "e-small.json", "zcdp", "2"));
    QVERIFY2(es.exitCode == 0, qPrintable(es.err));
    QVERIFY2(es.out.contains(
                 QStringLiteral("5 of 28 releases, ρ = 0.0646381 (series ≤ 0.5) — release 5 (t = 6000) "
                                "refused")),
             qPrintable(es.out));
    QVERIFY(es.out.contains(QStringLiteral("the 5 releases before it stay released and charged")));
    QVERIFY(runCli({QStringLiteral("verify"), path("e-small.json")}).exitCode == 0);

    const auto d = runCli(args("d.jsonl", "d.json", "basic", "10"));
    QVERIFY2(d.exitCode == 0, qPrintable(d.err));
    QVERIFY2(d.out.contains(QStringLiteral("d1: released smalldb, 5 of 5 epochs, ε = 0.96875 (series ≤ 1)")),
             qPrintable(d.out));
    QVERIFY(d.out.contains(
        QStringLiteral("  SmallDBG epoch 4 of 5: t = 16000, ε = 0.03125; m = 8 rows (region, smsa, "
                       "parttime): (")));
    const json td = readJson(path("d.json"));
    QCOMPARE(td["events"][0]["growing_record"]["epochs"][4]["cells"].size(), std::size_t{16});
    QVERIFY(runCli({QStringLiteral("verify"), path("d.json")}).exitCode == 0);
    edited = td;
    edited["events"][0]["attempts"][2]["cost"] = 0.1;
    writeFile(path("d-edited.json"), edited.dump());
    caught = runCli({QStringLiteral("verify"), path("d-edited.json")});
    QCOMPARE(caught.exitCode, 1);
    QVERIFY2(caught.err.contains(QStringLiteral("epoch 2: it charged ε = 0.1, but its schedule gives 0.125")),
             qPrintable(caught.err));
    edited = td;
    edited["events"][0]["growing_record"]["epochs"][1]["cells"][0] = 5;
    writeFile(path("d-edited2.json"), edited.dump());
    caught = runCli({QStringLiteral("verify"), path("d-edited2.json")});
    QCOMPARE(caught.exitCode, 1);
    QVERIFY2(caught.err.contains(QStringLiteral("epoch 1: its synthetic database is not 8 elements")),
             qPrintable(caught.err));
    // ε = 0.8: epoch 2 (ε = 0.125) does not fit after 0.5 + 0.25.
    const auto ds = runCli(args("d.jsonl", "d-small.json", "basic", "0.8"));
    QVERIFY2(ds.exitCode == 0, qPrintable(ds.err));
    QVERIFY2(
        ds.out.contains(QStringLiteral("2 of 5 epochs, ε = 0.75 (series ≤ 1) — epoch 2 (t = 4000) refused")),
        qPrintable(ds.out));
    QVERIFY(runCli({QStringLiteral("verify"), path("d-small.json")}).exitCode == 0);
    // m = 11: C(26, 11) = 7,726,160 candidates; refused before anything is answered or written.
    writeFile(
        path("d-big.jsonl"),
        "{\"type\":\"growing\",\"algorithm\":\"smalldb\",\"stream\":{\"start_size\":1000},\"budget\":"
        "{\"kind\":\"pure\",\"epsilon\":1},\"schedule\":{\"kind\":\"geometric\",\"gamma\":1},\"black_box\":{\"m\":11}}\n");
    const auto big = runCli(args("d-big.jsonl", "d-big.json", "basic", "10"));
    QCOMPARE(big.exitCode, 1);
    QVERIFY2(big.err.contains(QStringLiteral("SMALLDB_TOO_LARGE: black_box.m")), qPrintable(big.err));
    QVERIFY(!QFile::exists(path("d-big.json")));
}

/// A transcript and journal recorded before the streams drew exact discrete noise (main at b52b432:
/// continuous Laplace/Gaussian answers, the continuous bounds and ERMG σ; tests/data/transcripts)
/// still verify and resume: no record is lost. An edited bound is still caught.
void TestCliGrowingRun::continuousNoiseTranscriptsStillVerify()
{
    const QString dir = QStringLiteral(PBX_SOURCE_DIR "/tests/data/transcripts/");
    for (const char *name : {"growing_continuous.json", "growing_continuous.journal",
                             "growing_continuous.journal.tail", "growing_continuous_queries.jsonl"})
        QVERIFY(QFile::copy(dir + QString::fromLatin1(name), path(name)));
    for (const char *file : {"growing_continuous.json", "growing_continuous.journal"}) {
        const auto verified = runCli({QStringLiteral("verify"), path(file)});
        QVERIFY2(verified.exitCode == 0, qPrintable(verified.err + verified.out));
        QVERIFY(verified.out.startsWith(QStringLiteral("ok: ")));
    }
    const json old = readJson(path("growing_continuous.json"));
    // The recorded continuous numbers: BBScheduler epoch 0's bound α_0 + s_0 = 0.008·ln(80) +
    // 999/1999, its answers not counts over t; ERMG release 0's σ_t = 0.757722.
    const json &epoch0 = old["events"][0]["growing_record"]["epochs"][0];
    QVERIFY(std::abs(epoch0["bound"].get<double>() - (0.008 * std::log(80.0) + 999.0 / 1999.0)) < 1e-12);
    const double answer = epoch0["answers"][0].get<double>();
    QVERIFY(std::round(answer * 1000.0) / 1000.0 != answer);
    QVERIFY(std::abs(old["events"][2]["growing_record"]["epochs"][0]["scale"].get<double>() - 0.757722)
            < 1e-6);
    // Resuming the old journal spends nothing again and keeps its streams.
    QStringList args = run("growing_continuous_queries.jsonl", "resumed.json",
                           {QStringLiteral("--journal"), path("growing_continuous.journal")});
    args[6] = QStringLiteral("zcdp");
    args << QStringLiteral("--epsilon") << QStringLiteral("10");
    const auto again = runCli(args);
    QVERIFY2(again.exitCode == 0, qPrintable(again.err + again.out));
    QVERIFY2(again.out.contains(QStringLiteral("resuming: 3 answers already in the journal")),
             qPrintable(again.out));
    const json resumed = readJson(path("resumed.json"));
    for (int i = 0; i < 3; ++i)
        QCOMPARE(resumed["events"][i]["growing_record"], old["events"][i]["growing_record"]);
    // Edited: a bound that is neither design's, an ERMG σ, a BBImprover answer's release.
    const auto caught = [&](const char *file, const std::function<void(json &)> &edit, const char *needle) {
        json t = old;
        edit(t);
        writeFile(path(file), t.dump(2));
        const auto verified = runCli({QStringLiteral("verify"), path(file)});
        QVERIFY2(verified.exitCode != 0, qPrintable(verified.out));
        QVERIFY2(verified.err.contains(QString::fromUtf8(needle)), qPrintable(verified.err));
    };
    caught(
        "b.json", [](json &t) { t["events"][0]["growing_record"]["epochs"][2]["bound"] = 0.5; },
        "epoch 2: its noise scale or bound is not the one");
    caught(
        "s.json", [](json &t) { t["events"][2]["growing_record"]["epochs"][1]["scale"] = 0.2; }, "release 1");
    caught(
        "a.json", [](json &t) { t["events"][1]["attempts"][3]["releases"][1]["value"] = 0.25; },
        "run 3: its released answers differ from its record");
}

QTEST_GUILESS_MAIN(TestCliGrowingRun)
#include "tst_cligrowingrun.moc"
