// SPDX-License-Identifier: MIT
// `pbx-cli run --filter odp` on CPS1988 with sparse-vector requests, `pbx-cli verify` of its
// transcript, the refusal under other filters, and a run killed between an ODP reservation and
// its settlement resumed with the worst case charged (Hartmann et al. 2023, Lemma 8 and Theorem 7;
// docs/output-dp.md §2).
#include "tests/testutils.h"

#include "clitestutils.h"

#include <QTemporaryDir>

#include <fstream>
#include <nlohmann/json.hpp>

using nlohmann::json;
using namespace pbx;

namespace {
using test::runCli;
using test::writeFile;

/// Requests: a count, SVT over education counts (flags 10, 11, 12 ≥ 1000 … halts at c = 3), SVT
/// over region with an unreachable threshold (j = 0), and a mean.
constexpr const char *kRunFile
    = R"({"id":"n","aggregate":"count","target":{"kind":"absolute","error":50}})"
      "\n"
      R"({"id":"s1","mechanism":"svt","column":"education","threshold":1000,"c":3,"epsilon":0.5})"
      "\n"
      R"({"id":"s2","mechanism":"svt","column":"region","threshold":100000,"c":2,"epsilon":0.4})"
      "\n"
      R"({"id":"m","aggregate":"mean","column":"wage","target":{"kind":"relative","error":0.05}})"
      "\n";

/// ptr-iqr on wage (IQR 474.84 on CPS1988; case 1 or 2 almost surely at ε = 0.5), an early-stopped
/// mean of wage, and budget recovery predicting wage > 600 from six columns; replace-one.
constexpr const char *kOtherRunFile
    = R"({"id":"p","mechanism":"ptr-iqr","column":"wage","epsilon":0.5,"median_epsilon":0.2,"spend_savings":false})"
      "\n"
      R"({"id":"e","mechanism":"early-stop","column":"wage","step_epsilon":0.01,"stops":[5,10,20,40,80],)"
      R"("delta":1e-7,"tolerance":0.02})"
      "\n"
      R"({"id":"r","mechanism":"recover","label_threshold":600,)"
      R"("features":["education","experience","ethnicity","smsa","region","parttime"]})"
      "\n";

QStringList args(std::initializer_list<QString> words)
{
    return QStringList(words);
}
} // namespace

class TestCliOdpRun : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void runAndVerify();
    void refusedUnderOtherFilters();
    void resumeAfterKillChargesWorstCase();
    void otherMechanismsRunVerifyAndResume();

private:
    QTemporaryDir m_dir;
    QString path(const char *name) const { return m_dir.filePath(QString::fromLatin1(name)); }
};

void TestCliOdpRun::runAndVerify()
{
    writeFile(path("q.jsonl"), kRunFile);
    const auto run = runCli(
        args({QStringLiteral("run"), QStringLiteral("--queries"), path("q.jsonl"), QStringLiteral("--out"),
              path("t.json"), QStringLiteral("--filter"), QStringLiteral("odp"), QStringLiteral("--epsilon"),
              QStringLiteral("2"), QStringLiteral("--seed"), QStringLiteral("5")}));
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(run.out.contains(
                 QStringLiteral("s1: released svt, j = 3 of c = 3 (reserved ε = 0.5, settled ε = 0.5")),
             qPrintable(run.out));
    QVERIFY2(
        run.out.contains(QStringLiteral("s2: released svt, j = 0 of c = 2 (reserved ε = 0.4, settled ε = ")),
        qPrintable(run.out));
    QVERIFY(run.out.contains(QStringLiteral("spent ODP: ε = ")));

    const json t = json::parse(test::readTextFile(path("t.json").toStdString()));
    const json &events = t["events"];
    QCOMPARE(events.size(), std::size_t{4});
    const json &s1 = events[1]["odp_record"];
    QCOMPARE(s1["cell"].get<int>(), 3);
    QCOMPARE(s1["cells"].size(), std::size_t{4});
    QCOMPARE(s1["releases"].size(), std::size_t{3});
    QCOMPARE(events[1]["cost"]["expost"].get<double>(), s1["cells"][3]["epsilon"].get<double>());
    PBX_FUZZY_COMPARE(s1["reserved_epsilon"].get<double>(), 0.5, 1e-14);
    // j = 0: only ε₁ = 0.2/(1 + 4^{2/3}) of the 0.4 reserved is paid (Lemma 8).
    const json &s2 = events[2]["odp_record"];
    QCOMPARE(s2["cell"].get<int>(), 0);
    QCOMPARE(s2["releases"].size(), std::size_t{0});
    PBX_FUZZY_COMPARE(events[2]["cost"]["expost"].get<double>(), 0.2 / (1.0 + std::cbrt(16.0)), 1e-12);
    QCOMPARE(events[2]["cost"]["expost"].get<double>(), s2["epsilon1"].get<double>());

    const auto verified = runCli(args({QStringLiteral("verify"), path("t.json")}));
    QVERIFY2(verified.exitCode == 0, qPrintable(verified.err + verified.out));
    QVERIFY(verified.out.contains(QStringLiteral("every cost recomputed")));

    // An edited settlement is caught: the cell is recomputed from the released answers.
    json edited = t;
    edited["events"][2]["odp_record"]["cell"] = 1;
    writeFile(path("edited.json"), edited.dump(2));
    const auto caught = runCli(args({QStringLiteral("verify"), path("edited.json")}));
    QCOMPARE(caught.exitCode, 1);
    QVERIFY2(caught.err.contains(QStringLiteral("settled in cell 1 but its answers hold 0")),
             qPrintable(caught.err));
}

void TestCliOdpRun::refusedUnderOtherFilters()
{
    writeFile(path("q2.jsonl"), kRunFile);
    for (const char *filter : {"basic", "expost", "zcdp"}) {
        const auto run = runCli(args({QStringLiteral("run"), QStringLiteral("--queries"), path("q2.jsonl"),
                                      QStringLiteral("--out"), path("refused.json"),
                                      QStringLiteral("--filter"), QString::fromLatin1(filter)}));
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(QStringLiteral("line 2: mechanism: 'svt' is an output-DP mechanism")),
                 qPrintable(run.err));
        QVERIFY(run.err.contains(QStringLiteral("use --filter odp")));
        QVERIFY(!QFile::exists(path("refused.json"))); // nothing answered, nothing written
    }
}

void TestCliOdpRun::resumeAfterKillChargesWorstCase()
{
    writeFile(path("q3.jsonl"), kRunFile);
    const auto full = runCli(
        args({QStringLiteral("run"), QStringLiteral("--queries"), path("q3.jsonl"), QStringLiteral("--out"),
              path("full.json"), QStringLiteral("--filter"), QStringLiteral("odp"),
              QStringLiteral("--epsilon"), QStringLiteral("2"), QStringLiteral("--seed"), QStringLiteral("5"),
              QStringLiteral("--journal"), path("full.journal")}));
    QVERIFY2(full.exitCode == 0, qPrintable(full.err));
    // The journal: header, n, reserve s1, event s1, reserve s2, event s2, event m.
    const std::string journal = test::readTextFile(path("full.journal").toStdString());
    std::vector<std::string> lines;
    for (std::size_t at = 0, next; (next = journal.find('\n', at)) != std::string::npos; at = next + 1)
        lines.push_back(journal.substr(at, next + 1 - at));
    QCOMPARE(lines.size(), std::size_t{7});
    QVERIFY(lines[2].find(R"("type":"reserve")") != std::string::npos);
    QVERIFY(lines[3].find(R"("type":"event")") != std::string::npos);
    // Killed after s1's reservation was made durable, before its settlement: the journal's first
    // three lines (a hash-chained prefix; without a tail record, read with a note).
    writeFile(path("killed.journal"), lines[0] + lines[1] + lines[2]);
    const auto resumed = runCli(
        args({QStringLiteral("run"), QStringLiteral("--queries"), path("q3.jsonl"), QStringLiteral("--out"),
              path("resumed.json"), QStringLiteral("--journal"), path("killed.journal")}));
    QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.err));
    QVERIFY2(resumed.out.contains(QStringLiteral("resuming: 2 answers already in the journal")),
             qPrintable(resumed.out));
    const json t = json::parse(test::readTextFile(path("resumed.json").toStdString()));
    const json &events = t["events"];
    QCOMPARE(events.size(), std::size_t{4});
    QCOMPARE(events[1]["id"].get<std::string>(), std::string("s1"));
    QVERIFY(events[1]["odp_record"]["cell"].is_null());
    // The worst case: the whole 0.5, whatever the lost output was.
    QCOMPARE(events[1]["cost"]["expost"].get<double>(),
             events[1]["odp_record"]["reserved_epsilon"].get<double>());
    PBX_FUZZY_COMPARE(events[1]["cost"]["expost"].get<double>(), 0.5, 1e-14);
    QVERIFY(events[1]["reason"].get<std::string>().find("charged its worst case") != std::string::npos);
    QCOMPARE(events[2]["id"].get<std::string>(), std::string("s2"));
    QVERIFY(!events[2]["odp_record"]["cell"].is_null());
    const auto verified = runCli(args({QStringLiteral("verify"), path("resumed.json")}));
    QVERIFY2(verified.exitCode == 0, qPrintable(verified.err + verified.out));
    const auto journalVerified = runCli(args({QStringLiteral("verify"), path("killed.journal")}));
    QVERIFY2(journalVerified.exitCode == 0, qPrintable(journalVerified.err + journalVerified.out));
}

void TestCliOdpRun::otherMechanismsRunVerifyAndResume()
{
    writeFile(path("o.jsonl"), kOtherRunFile);
    auto runTo = [&](const QString &out, std::initializer_list<QString> extra) {
        QStringList a{QStringLiteral("run"),
                      QStringLiteral("--queries"),
                      path("o.jsonl"),
                      QStringLiteral("--out"),
                      out,
                      QStringLiteral("--filter"),
                      QStringLiteral("odp"),
                      QStringLiteral("--epsilon"),
                      QStringLiteral("10"),
                      QStringLiteral("--delta"),
                      QStringLiteral("1e-5"),
                      QStringLiteral("--neighbours"),
                      QStringLiteral("replace"),
                      QStringLiteral("--seed"),
                      QStringLiteral("7")};
        for (const auto &word : extra)
            a << word;
        return runCli(a);
    };
    const auto run = runTo(path("o.json"), {QStringLiteral("--journal"), path("o.journal")});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(run.out.contains(QStringLiteral("p: released ptr-iqr, cell case ")), qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("e: released early-stop, cell stopped at ")),
             qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("r: released recover, cell ")), qPrintable(run.out));

    const json t = json::parse(test::readTextFile(path("o.json").toStdString()));
    const json &events = t["events"];
    QCOMPARE(events.size(), std::size_t{3});
    // ptr-iqr: cells 1.2 / 1.7 / 1.2 (ε = 0.5 noisy, plus ε_med = 0.2), δ = 2e-7.
    const json &p = events[0]["odp_record"];
    QCOMPARE(p["cells"].size(), std::size_t{3});
    PBX_FUZZY_COMPARE(p["reserved_epsilon"].get<double>(), 1.7, 1e-14);
    PBX_FUZZY_COMPARE(p["delta"].get<double>(), 2e-7, 1e-12);
    const int outcome = p["ptr_iqr"]["case"].get<int>();
    QCOMPARE(p["cell"].get<int>(), outcome);
    PBX_FUZZY_COMPARE(events[0]["cost"]["expost"].get<double>(), outcome == 2 ? 1.7 : 1.2, 1e-14);
    PBX_FUZZY_COMPARE(p["ptr_iqr"]["width"].get<double>(), 0.093130, 1e-5); // ln(1 + 1/ln 28155)
    QVERIFY(!p["ptr_iqr"].contains("gamma")); // the data-dependent test statistics are not published
    // early-stop: KOV composition of ε₀ = 0.01 Laplace steps, δ = 1e-7 split five ways.
    const json &e = events[1]["odp_record"];
    QCOMPARE(e["cells"].size(), std::size_t{5});
    const int stop = e["cell"].get<int>();
    const int stops[] = {5, 10, 20, 40, 80};
    QCOMPARE(e["early_stop"]["iterates"].size(), static_cast<std::size_t>(stops[stop]));
    QCOMPARE(events[1]["cost"]["expost"].get<double>(), e["cells"][stop]["epsilon"].get<double>());
    QVERIFY(e["reserved_epsilon"].get<double>() < 0.8); // KOV beats 80 × 0.01 at this δ
    // Δ = 5000/28155, b = Δ/0.01 ≈ 17.76; the mean of wage clipped to [0, 5000] is 603.7.
    PBX_FUZZY_COMPARE(e["early_stop"]["noise_scale"].get<double>(), 5000.0 / 28155.0 / 0.01, 1e-12);
    QVERIFY(std::abs(e["early_stop"]["estimate"].get<double>() - 603.7) < 40.0);
    // recover: 22,524 train and 5,631 test rows; ⊥ or a model of 9 coefficients (the intercept,
    // education, experience, and the one-hot levels afam, smsa yes, 3 regions, parttime yes).
    const json &r = events[2]["odp_record"];
    QCOMPARE(r["recovery"]["train_rows"].get<std::size_t>(), std::size_t{22524});
    QCOMPARE(r["recovery"]["test_rows"].get<std::size_t>(), std::size_t{5631});
    QCOMPARE(r["cell"].get<int>(), r["recovery"]["released"].get<bool>() ? 1 : 0);
    QCOMPARE(r["recovery"]["theta"].size(),
             r["recovery"]["released"].get<bool>() ? std::size_t{9} : std::size_t{0});
    QCOMPARE(r["delta"].get<double>(), 0.0);

    // verify recomputes every cell and cost.
    const auto verified = runCli(args({QStringLiteral("verify"), path("o.json")}));
    QVERIFY2(verified.exitCode == 0, qPrintable(verified.err + verified.out));
    QVERIFY(verified.out.contains(QStringLiteral("every cost recomputed")));
    json edited = t;
    edited["events"][1]["odp_record"]["cell"] = stop == 0 ? 1 : 0;
    writeFile(path("o-edited.json"), edited.dump(2));
    const auto caught = runCli(args({QStringLiteral("verify"), path("o-edited.json")}));
    QCOMPARE(caught.exitCode, 1);
    QVERIFY2(caught.err.contains(QStringLiteral("iterates")), qPrintable(caught.err));
    edited = t;
    edited["events"][0]["cost"]["expost"] = 0.5;
    edited["events"][0]["odp_record"]["settled_epsilon"] = 0.5;
    writeFile(path("o-edited2.json"), edited.dump(2));
    const auto caught2 = runCli(args({QStringLiteral("verify"), path("o-edited2.json")}));
    QCOMPARE(caught2.exitCode, 1);

    // Seeded runs on CPS1988 are reproducible.
    const auto again = runTo(path("o2.json"), {});
    QVERIFY2(again.exitCode == 0, qPrintable(again.err));
    QCOMPARE(again.out, run.out);
    const json t2 = json::parse(test::readTextFile(path("o2.json").toStdString()));
    for (std::size_t k = 0; k < 3; ++k)
        QCOMPARE(t2["events"][k]["odp_record"], events[k]["odp_record"]);

    // Refused under add/remove and under other filters, before anything is answered.
    const auto addRemove = runCli(
        args({QStringLiteral("run"), QStringLiteral("--queries"), path("o.jsonl"), QStringLiteral("--out"),
              path("o-refused.json"), QStringLiteral("--filter"), QStringLiteral("odp")}));
    QCOMPARE(addRemove.exitCode, 1);
    QVERIFY2(
        addRemove.err.contains(QStringLiteral("line 1: mechanism: 'ptr-iqr' needs the replace-one relation")),
        qPrintable(addRemove.err));
    const auto zcdp
        = runCli(args({QStringLiteral("run"), QStringLiteral("--queries"), path("o.jsonl"),
                       QStringLiteral("--out"), path("o-refused.json"), QStringLiteral("--filter"),
                       QStringLiteral("zcdp"), QStringLiteral("--neighbours"), QStringLiteral("replace")}));
    QCOMPARE(zcdp.exitCode, 1);
    QVERIFY2(zcdp.err.contains(QStringLiteral("line 1: mechanism: 'ptr-iqr' is an output-DP mechanism")),
             qPrintable(zcdp.err));
    QVERIFY(!QFile::exists(path("o-refused.json")));

    // Killed after the early-stop reservation was made durable: header, reserve p, event p, reserve e.
    const std::string journal = test::readTextFile(path("o.journal").toStdString());
    std::vector<std::string> lines;
    for (std::size_t at = 0, next; (next = journal.find('\n', at)) != std::string::npos; at = next + 1)
        lines.push_back(journal.substr(at, next + 1 - at));
    QCOMPARE(lines.size(), std::size_t{7});
    QVERIFY(lines[3].find(R"("type":"reserve")") != std::string::npos);
    writeFile(path("o-killed.journal"), lines[0] + lines[1] + lines[2] + lines[3]);
    const auto resumed = runCli(
        args({QStringLiteral("run"), QStringLiteral("--queries"), path("o.jsonl"), QStringLiteral("--out"),
              path("o-resumed.json"), QStringLiteral("--journal"), path("o-killed.journal")}));
    QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.err));
    const json tr = json::parse(test::readTextFile(path("o-resumed.json").toStdString()));
    QCOMPARE(tr["events"].size(), std::size_t{3});
    const json &open = tr["events"][1];
    QCOMPARE(open["id"].get<std::string>(), std::string("e"));
    QVERIFY(open["odp_record"]["cell"].is_null());
    QVERIFY(!open["odp_record"].contains("early_stop")); // its lost output is never shown
    QCOMPARE(open["cost"]["expost"].get<double>(), e["reserved_epsilon"].get<double>());
    const auto resumedVerified = runCli(args({QStringLiteral("verify"), path("o-resumed.json")}));
    QVERIFY2(resumedVerified.exitCode == 0, qPrintable(resumedVerified.err + resumedVerified.out));
}

QTEST_GUILESS_MAIN(TestCliOdpRun)
#include "tst_cliodprun.moc"
