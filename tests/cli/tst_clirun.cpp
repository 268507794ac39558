// SPDX-License-Identifier: MIT
// `pbx-cli run` as other tools use it: the transcript contract, golden numbers for a seeded run
// on CPS1988, reproducibility, and one-line errors that spend nothing.
#include "core/data/query.h"
#include "core/io/csv_reader.h"
#include "core/io/dataset_metadata.h"
#include "core/io/gzip.h"
#include "tests/test_rows.h"
#include "tests/testutils.h"

#include "clitestutils.h"

#include <QProcess>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

using nlohmann::json;
using namespace pbx;

namespace {
using Run = test::CliRun;
using test::runCli;

QString dataFile(const char *name)
{
    return QStringLiteral(PBX_CLI_DATA "/") + QString::fromLatin1(name);
}

/// CPS1988 from the source tree, read by the core (the truth the answers are checked against).
data::Table cps1988()
{
    const std::string dir = PBX_CLI_DATA "/../../../resources/datasets/";
    auto metadata = io::parseDatasetMetadata(test::readTextFile(dir + "cps1988.json")).value();
    io::CsvReadOptions options;
    options.metadata = &metadata;
    return io::readCsv(io::gunzip(test::readTextFile(dir + "cps1988.csv.gz")).value(), "cps1988", options)
        .value();
}

/// Runs FILE under `filter` with `seed`; returns the transcript's events.
json runTranscript(const QString &queries, const QString &filter, int seed, const QString &out)
{
    const Run r
        = runCli({QStringLiteral("run"), QStringLiteral("--queries"), queries, QStringLiteral("--out"), out,
                  QStringLiteral("--filter"), filter, QStringLiteral("--seed"), QString::number(seed)});
    if (r.exitCode != 0)
        qFatal("pbx-cli run failed: %s", qPrintable(r.err));
    return json::parse(test::readTextFile(out.toStdString()));
}
} // namespace

class TestCliRun : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void transcriptContract();
    void goldenSeededRun();
    void reproducible();
    void unifiedCertifiesAtLeastAsManyAsZcdp();
    void plannedCapIsRecorded();
    void badInput_data();
    void badInput();

private:
    QTemporaryDir m_dir;
};

void TestCliRun::transcriptContract()
{
    const QString out = m_dir.filePath(QStringLiteral("contract.json"));
    const Run r = runCli({QStringLiteral("run"), QStringLiteral("--queries"), dataFile("queries.jsonl"),
                          QStringLiteral("--out"), out, QStringLiteral("--filter"), QStringLiteral("basic"),
                          QStringLiteral("--neighbours"), QStringLiteral("replace")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const auto doc = json::parse(test::readTextFile(out.toStdString()));
    QCOMPARE(doc.at("format").get<std::string>(), std::string("pbx-transcript"));
    QCOMPARE(doc.at("version").get<int>(), 1);
    QCOMPARE(doc.at("budget").at("epsilon").get<double>(), 1.0);
    QCOMPARE(doc.at("budget").at("delta").get<double>(), 1e-6);
    QCOMPARE(doc.at("filter").at("kind").get<std::string>(), std::string("basic"));
    QCOMPARE(doc.at("neighbours").get<std::string>(), std::string("replace"));
    QCOMPARE(doc.at("dataset").at("rows").get<int>(), 28155);
    QVERIFY(doc.at("spent").contains("epsilon") && doc.at("spent").contains("delta"));
    QCOMPARE(doc.at("noise").at("seeded").get<bool>(), false);
    const auto &events = doc.at("events");
    QCOMPARE(events.size(), std::size_t(6));
    double costSum = 0;
    for (const auto &e : events) {
        QVERIFY(e.contains("id") && e.contains("status"));
        if (e.at("status") == "released") {
            QVERIFY(e.contains("answer") && e.contains("error_bound") && e.contains("mechanism"));
            QVERIFY(e.at("mechanism").get<std::string>().find("laplace") != std::string::npos);
        }
        // Pure ε (Laplace) or pure ex-post ε (Laplace noise reduction): both are ε in this filter.
        const auto &cost = e.at("cost");
        QVERIFY(!cost.contains("rho"));
        costSum
            += cost.contains("epsilon") ? cost.at("epsilon").get<double>() : cost.at("expost").get<double>();
    }
    PBX_FUZZY_COMPARE(doc.at("spent").at("epsilon").get<double>(), costSum, 1e-12);
    QVERIFY(doc.at("spent").at("epsilon").get<double>() <= 1.0);
    QVERIFY(r.out.contains(QStringLiteral("q1: released")));
}

// Seed 7, zCDP, ε = 1, δ = 1e-6 on CPS1988. The numbers come from this implementation (there is
// no external oracle for noisy answers); what is checked against theory is that each error bar
// matches its calibration and that the answers sit near the exact statistics (computed in R).
void TestCliRun::goldenSeededRun()
{
    const QString out = m_dir.filePath(QStringLiteral("golden.json"));
    const Run r = runCli({QStringLiteral("run"), QStringLiteral("--queries"), dataFile("queries.jsonl"),
                          QStringLiteral("--out"), out, QStringLiteral("--seed"), QStringLiteral("7")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const auto doc = json::parse(test::readTextFile(out.toStdString()));
    const auto &events = doc.at("events");
    QCOMPARE(events.size(), std::size_t(6));
    // q1: absolute ±40 at 95 %: one release.
    const auto &q1 = events.at(0);
    QCOMPARE(q1.at("mechanism").get<std::string>(), std::string("gaussian"));
    // Exact discrete Gaussian noise: ρ = 1/(2σ²) of its σ, at most the continuous (1.96/40)²/2.
    const double rho = q1.at("cost").at("rho").get<double>();
    const double sigma = q1.at("attempts").at(0).at("releases").at(0).at("scale").get<double>();
    PBX_FUZZY_COMPARE(rho, 1.0 / (2 * sigma * sigma), 1e-9);
    QVERIFY(rho <= std::pow(1.959963984540054 / 40, 2) / 2
            && rho >= 0.95 * std::pow(1.959963984540054 / 40, 2) / 2);
    QVERIFY(q1.at("accounting").get<std::string>().find("exact discrete Gaussian") != std::string::npos);
    QCOMPARE(q1.at("answer").get<double>(), std::round(q1.at("answer").get<double>()));
    QVERIFY(std::fabs(q1.at("answer").get<double>() - 8760) < 40 * 3); // R: sum(CPS1988$region == "south")
    // q2: mean wage within 5 %: doubling with Gaussian noise, accepted at the last attempt.
    const auto &q2 = events.at(1);
    QCOMPARE(q2.at("mechanism").get<std::string>(), std::string("doubling-gaussian"));
    QVERIFY(q2.at("target_met").get<bool>());
    QVERIFY(q2.at("attempts").back().at("accepted").get<bool>());
    const double answer = q2.at("answer").get<double>(), bound = q2.at("error_bound").get<double>();
    QVERIFY(bound <= 0.05 * (answer - bound));
    QVERIFY(std::fabs(answer - 601.3011) < 0.1 * 601.3011); // R: mean(pmin(CPS1988$wage, 4000))
    // q6: ±2 on a count costs ρ ≈ (1.96/2)²/2 ≈ 0.48, far beyond the budget: refused.
    const auto &q6 = events.at(5);
    QCOMPARE(q6.at("status").get<std::string>(), std::string("refused"));
    QVERIFY(q6.at("reason").get<std::string>().rfind("this query needs ρ = ", 0) == 0);
    QVERIFY(q6.at("reason").get<std::string>().find(" but ") != std::string::npos);
    QVERIFY(doc.at("spent").at("rho").get<double>() <= doc.at("filter").at("budget").get<double>());
    QVERIFY(doc.at("noise").at("seeded").get<bool>());
}

void TestCliRun::reproducible()
{
    const QString a = m_dir.filePath(QStringLiteral("a.json")), b = m_dir.filePath(QStringLiteral("b.json"));
    for (const QString &path : {a, b})
        QCOMPARE(runCli({QStringLiteral("run"), QStringLiteral("--queries"), dataFile("queries.jsonl"),
                         QStringLiteral("--out"), path, QStringLiteral("--seed"), QStringLiteral("99")})
                     .exitCode,
                 0);
    QCOMPARE(test::readTextFile(a.toStdString()), test::readTextFile(b.toStdString()));
}

// 24 relative-error counts of CPS1988 subgroups (region × education band ×
// part-time) at ε = 1, δ = 1e-6: `unified` certifies at least as many answers as `zcdp`, and every
// certified answer is within its target of the true count.
void TestCliRun::unifiedCertifiesAtLeastAsManyAsZcdp()
{
    QTemporaryDir dir;
    const data::Table table = cps1988();
    const QString queries = dataFile("cps_subgroups_24.jsonl");
    for (int seed = 1; seed <= 3; ++seed) {
        std::map<std::string, int> certified;
        for (const char *filter : {"zcdp", "unified", "brownian-zcdp", "basic"}) {
            const json doc = runTranscript(
                queries, QString::fromLatin1(filter), seed,
                dir.filePath(QStringLiteral("%1-%2.json").arg(QLatin1String(filter)).arg(seed)));
            QCOMPARE(doc["events"].size(), std::size_t{24});
            for (const auto &e : doc["events"]) {
                if (std::string(filter) == "unified")
                    QVERIFY(e["accounting"].get<std::string>().rfind("unified: paid by the", 0) == 0);
                if (e["status"] != "released" || !e["target_met"].get<bool>())
                    continue;
                ++certified[filter];
                data::QuerySpec spec;
                spec.where = e["where"].get<std::string>();
                const double truth = data::CompiledQuery::compile(spec, table)
                                         .value()
                                         .evaluate(pbx::test::PublicRows(table))
                                         .count;
                const double alpha = e["target"]["error"].get<double>();
                QVERIFY2(std::fabs(e["answer"].get<double>() - truth) <= alpha * truth,
                         e["id"].get<std::string>().c_str());
            }
        }
        QVERIFY2(certified["unified"] >= certified["zcdp"],
                 qPrintable(QStringLiteral("seed %1: unified %2, zcdp %3")
                                .arg(seed)
                                .arg(certified["unified"])
                                .arg(certified["zcdp"])));
        QVERIFY(certified["zcdp"] >= 10);
    }
}

// Without max_cost, the cap is remaining / requests still to come: the basic filter's first of 24
// requests may spend at most ε/24, and the transcript records that cap as max_cost.
void TestCliRun::plannedCapIsRecorded()
{
    QTemporaryDir dir;
    const json doc = runTranscript(dataFile("cps_subgroups_24.jsonl"), QStringLiteral("basic"), 1,
                                   dir.filePath(QStringLiteral("basic.json")));
    const auto &first = doc["events"][0];
    PBX_FUZZY_COMPARE(first["max_cost"].get<double>(), 1.0 / 24.0, 1e-12);
    QVERIFY(first["cost"].begin().value().get<double>() <= 1.0 / 24.0);
    QVERIFY(doc["spent"].contains("note"));
}

void TestCliRun::badInput_data()
{
    QTest::addColumn<QStringList>("extra");
    QTest::addColumn<QString>("queries");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown column on line 3") << QStringList{} << QStringLiteral("bad_line.jsonl")
                                              << QStringLiteral("line 3: column: unknown column 'salary'");
    QTest::newRow("mistyped category on line 2")
        << QStringList{} << QStringLiteral("bad_label.jsonl")
        << QStringLiteral(
               "line 2: where: character 11: 'South' is not a category of column 'region'; did you mean 'south'?");
    QTest::newRow("epsilon 0") << QStringList{QStringLiteral("--epsilon"), QStringLiteral("0")}
                               << QStringLiteral("queries.jsonl")
                               << QStringLiteral("ε must be a finite number > 0");
    QTest::newRow("delta 1") << QStringList{QStringLiteral("--delta"), QStringLiteral("1")}
                             << QStringLiteral("queries.jsonl")
                             << QStringLiteral("δ must lie strictly between 0 and 1");
    QTest::newRow("epsilon nan") << QStringList{QStringLiteral("--epsilon"), QStringLiteral("nan")}
                                 << QStringLiteral("queries.jsonl")
                                 << QStringLiteral("--epsilon: 'nan' is not a finite number");
    QTest::newRow("unknown dataset") << QStringList{QStringLiteral("--dataset"), QStringLiteral("nope.csv")}
                                     << QStringLiteral("queries.jsonl") << QStringLiteral("--dataset:");
    QTest::newRow("bad filter") << QStringList{QStringLiteral("--filter"), QStringLiteral("renyi")}
                                << QStringLiteral("queries.jsonl")
                                << QStringLiteral("unknown filter 'renyi'");
    // A method the filter cannot account is refused before the first answer, not half-way.
    QTest::newRow("brownian under basic on line 2")
        << QStringList{QStringLiteral("--filter"), QStringLiteral("basic")}
        << QStringLiteral("mechanism_filter.jsonl")
        << QStringLiteral("line 2: mechanism: the basic filter cannot account 'brownian'");
    QTest::newRow("missing queries file")
        << QStringList{} << QStringLiteral("absent.jsonl") << QStringLiteral("no such file");
}

// Bad input: non-zero exit, one line on stderr, and no transcript written (nothing was spent).
void TestCliRun::badInput()
{
    QFETCH(QStringList, extra);
    QFETCH(QString, queries);
    QFETCH(QString, message);
    const QString out = m_dir.filePath(QStringLiteral("bad.json"));
    QFile::remove(out);
    const Run r = runCli(QStringList{QStringLiteral("run"), QStringLiteral("--queries"),
                                     dataFile(queries.toLatin1().constData()), QStringLiteral("--out"), out}
                         + extra);
    QVERIFY(r.exitCode != 0);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
    QCOMPARE(r.err.trimmed().count(QLatin1Char('\n')), 0);
    QVERIFY(!QFile::exists(out));
}

QTEST_GUILESS_MAIN(TestCliRun)
#include "tst_clirun.moc"
