// SPDX-License-Identifier: MIT
// `pbx-cli run --filter rdp|advanced` end to end on CPS1988: journals, transcripts with the
// filter's parameters, `verify` of both (and of an edited transcript), the report, and the
// mechanisms each filter refuses before anything is answered.
#include "core/filters/rdp_filter.h"
#include "core/privacy/zcdp_conversion.h"
#include "tests/testutils.h"

#include "clitestutils.h"

#include <QFile>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

using nlohmann::json;
using namespace pbx;
using test::runCli;
using test::writeFile;

namespace {
/// A count request of `where` with an absolute target ±error at 95 %, as one JSON line.
std::string countLine(const std::string &id, const std::string &where, double error,
                      const char *mechanism = nullptr)
{
    json line = {{"id", id},
                 {"aggregate", "count"},
                 {"where", where},
                 {"target", {{"kind", "absolute"}, {"error", error}, {"confidence", 0.95}}}};
    if (mechanism)
        line["mechanism"] = mechanism;
    return line.dump() + "\n";
}

/// `n` absolute counts of CPS1988 subgroups (±100 at 95 %: a discrete-Laplace ε of about 0.03).
std::string smallCounts(int n, const char *mechanism = nullptr)
{
    std::string out;
    for (int i = 0; i < n; ++i)
        out += countLine("c" + std::to_string(i), "experience > " + std::to_string(i), 100, mechanism);
    return out;
}

/// Six requests: a Gaussian count, a Laplace count, a relative mean (Brownian noise reduction by
/// default under rdp), Laplace and Gaussian doubling, and a count too precise for the budget.
std::string mixedRequests()
{
    json mean = {{"id", "b1"},
                 {"aggregate", "mean"},
                 {"column", "wage"},
                 {"bounds", {0, 4000}},
                 {"target", {{"kind", "relative"}, {"error", 0.05}, {"confidence", 0.95}}}};
    json d1 = {{"id", "d1"},
               {"aggregate", "count"},
               {"where", "parttime == \"yes\""},
               {"target", {{"kind", "relative"}, {"error", 0.1}, {"confidence", 0.95}}},
               {"mechanism", "doubling-laplace"}};
    json d2 = d1;
    d2["id"] = "d2";
    d2["where"] = "smsa == \"no\"";
    d2["mechanism"] = "doubling-gaussian";
    return countLine("g1", "region == \"south\"", 40) + countLine("l1", "region == \"west\"", 60, "laplace")
           + mean.dump() + "\n" + d1.dump() + "\n" + d2.dump() + "\n"
           + countLine("x1", "region == \"northeast\"", 2);
}
} // namespace

class TestCliRdpAdvanced : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void rdpRunJournalVerifyReport();
    void advancedCertifiesMoreThanBasic();
    void refusedMechanismsSpendNothing_data();
    void refusedMechanismsSpendNothing();

private:
    QString path(const char *name) const { return m_dir.filePath(QString::fromLatin1(name)); }
    QTemporaryDir m_dir;
};

void TestCliRdpAdvanced::rdpRunJournalVerifyReport()
{
    writeFile(path("mixed.jsonl"), mixedRequests());
    const auto run = runCli(test::runCommandArguments(
        path("mixed.jsonl"), path("rdp.json"), path("rdp.journal"),
        {QStringLiteral("--filter"), QStringLiteral("rdp"), QStringLiteral("--seed"), QStringLiteral("5")}));
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const auto doc = json::parse(test::readTextFile(path("rdp.json").toStdString()));
    const auto &filter = doc.at("filter");
    QCOMPARE(filter.at("kind").get<std::string>(), std::string("rdp"));
    QCOMPARE(filter.at("unit").get<std::string>(), std::string("epsilon"));
    QCOMPARE(filter.at("orders").size(), std::size_t(24));
    // α = 28 is the 17th order: B(28) at δ/24.
    QCOMPARE(filter.at("orders").at(16).at("alpha").get<double>(), 28.0);
    QCOMPARE(filter.at("orders").at(16).at("budget").get<double>(),
             filters::rdpOrderBudget(1.0, 1e-6 / 24, 28));
    const auto &events = doc.at("events");
    QCOMPARE(events.size(), std::size_t(6));
    // Default mechanisms: a Gaussian release for an absolute count, Brownian noise reduction for a
    // relative mean (charged step by step in ρ: each step is a Gaussian mechanism).
    QCOMPARE(events.at(0).at("mechanism").get<std::string>(), std::string("gaussian"));
    QVERIFY(events.at(0).at("cost").contains("rho"));
    QCOMPARE(events.at(1).at("mechanism").get<std::string>(), std::string("laplace"));
    QVERIFY(events.at(1).at("cost").contains("epsilon"));
    QCOMPARE(events.at(2).at("mechanism").get<std::string>(), std::string("brownian"));
    QVERIFY(events.at(2).at("cost").contains("rho"));
    QCOMPARE(events.at(2).at("status").get<std::string>(), std::string("released"));
    QCOMPARE(events.at(3).at("mechanism").get<std::string>(), std::string("doubling-laplace"));
    QCOMPARE(events.at(4).at("mechanism").get<std::string>(), std::string("doubling-gaussian"));
    // ±2 on a count needs ρ ≈ 0.48: no order has room.
    QCOMPARE(events.at(5).at("status").get<std::string>(), std::string("refused"));
    QVERIFY2(events.at(5).at("reason").get<std::string>().find("no Rényi order has room")
                 != std::string::npos,
             events.at(5).at("reason").get<std::string>().c_str());
    // The spend: ε at the binding order, within the budget; the per-order sums are recorded.
    const auto &spent = doc.at("spent");
    QVERIFY(spent.at("epsilon").get<double>() > 0.0 && spent.at("epsilon").get<double>() <= 1.0);
    QCOMPARE(spent.at("by_order").size(), std::size_t(24));
    QVERIFY(spent.at("binding_order").is_number());
    QVERIFY(spent.at("binding_order").get<double>() > 14.0);

    for (const char *file : {"rdp.json", "rdp.journal"}) {
        const auto verified = runCli({QStringLiteral("verify"), path(file)});
        QVERIFY2(verified.exitCode == 0, qPrintable(verified.err + verified.out));
        QVERIFY(verified.out.contains(QStringLiteral("every cost recomputed")));
    }
    // An edited cost is caught by the replay.
    json edited = doc;
    edited["events"][0]["cost"]["rho"] = 0.5 * edited["events"][0]["cost"]["rho"].get<double>();
    edited["events"][0]["attempts"][0]["cost"] = edited["events"][0]["cost"]["rho"];
    writeFile(path("rdp-edited.json"), edited.dump(2));
    const auto caught = runCli({QStringLiteral("verify"), path("rdp-edited.json")});
    QCOMPARE(caught.exitCode, 1);
    // The report names the filter and its sources.
    const auto report
        = runCli({QStringLiteral("report"), path("rdp.json"), QStringLiteral("--out"), path("rdp.html")});
    QVERIFY2(report.exitCode == 0, qPrintable(report.err));
    const std::string html = test::readTextFile(path("rdp.html").toStdString());
    QVERIFY(html.find("Feldman &amp; Zrnic 2021") != std::string::npos
            || html.find("Feldman & Zrnic 2021") != std::string::npos);
}

void TestCliRdpAdvanced::advancedCertifiesMoreThanBasic()
{
    // 60 counts at ε₀ ≈ 0.0298 each: basic composition runs out after 33 (Σε ≤ 1); the
    // advanced filter takes every one whose Σε² still satisfies √(2 ln(1/δ)·Σε²) + Σε²/2 ≤ 1.
    writeFile(path("counts.jsonl"), smallCounts(60));
    int released[2] = {0, 0};
    const char *kinds[2] = {"basic", "advanced"};
    for (int k = 0; k < 2; ++k) {
        const QString out = path(k == 0 ? "basic.json" : "advanced.json");
        const auto run = runCli(test::runCommandArguments(
            path("counts.jsonl"), out, path(k == 0 ? "basic.journal" : "advanced.journal"),
            {QStringLiteral("--filter"), QString::fromLatin1(kinds[k]), QStringLiteral("--seed"),
             QStringLiteral("11")}));
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const auto doc = json::parse(test::readTextFile(out.toStdString()));
        QCOMPARE(doc.at("filter").at("kind").get<std::string>(), std::string(kinds[k]));
        double sumSquares = 0.0;
        double sum = 0.0;
        double first = 0.0;
        for (const auto &e : doc.at("events")) {
            if (e.at("status") != "released")
                continue;
            ++released[k];
            const double eps = e.at("cost").at("epsilon").get<double>();
            if (first == 0.0)
                first = eps;
            QCOMPARE(eps, first); // the same calibration for every count
            QCOMPARE(e.at("mechanism").get<std::string>(), std::string("laplace"));
            sum += eps;
            sumSquares += eps * eps;
        }
        // Each filter's own rule holds on what it released (computed here from the costs).
        if (k == 0)
            QVERIFY(sum <= 1.0 + 1e-12);
        else
            QVERIFY(std::sqrt(2 * std::log(1e6) * sumSquares) + sumSquares / 2 <= 1.0 + 1e-12);
        const auto verified = runCli({QStringLiteral("verify"), out});
        QVERIFY2(verified.exitCode == 0, qPrintable(verified.err + verified.out));
        const auto journal
            = runCli({QStringLiteral("verify"), path(k == 0 ? "basic.journal" : "advanced.journal")});
        QVERIFY2(journal.exitCode == 0, qPrintable(journal.err + journal.out));
        PBX_FUZZY_COMPARE(first, 0.0298071763, 1e-9);
        if (k == 1) {
            QCOMPARE(released[1], static_cast<int>(std::floor(2 * 0.01746890477 / (first * first))));
            QCOMPARE(doc.at("filter").at("unit").get<std::string>(), std::string("rho"));
            PBX_FUZZY_COMPARE(doc.at("filter").at("crossover_epsilon").get<double>(), 0.034938, 2e-5);
        }
    }
    // Each count costs the discrete Laplace ε₀ = 0.0298071763 (±100 at 95 %): ⌊1/ε₀⌋ = 33 and
    // ⌊2ρ(1, 1e-6)/ε₀²⌋ = ⌊39.32⌋ = 39.
    QCOMPARE(released[0], 33);
    QCOMPARE(released[1], 39);
}

void TestCliRdpAdvanced::refusedMechanismsSpendNothing_data()
{
    QTest::addColumn<QString>("filter");
    QTest::addColumn<QString>("mechanism");
    QTest::addColumn<QString>("reason");
    QTest::newRow("rdp laplace-nr") << "rdp"
                                    << "laplace-nr"
                                    << "no Rényi bound of stopped Laplace noise reduction is known";
    QTest::newRow("advanced gaussian") << "advanced"
                                       << "gaussian"
                                       << "a Gaussian release is ρ-zCDP, not ε-DP";
    QTest::newRow("advanced brownian") << "advanced"
                                       << "brownian"
                                       << "not ε-DP";
    QTest::newRow("advanced laplace-nr") << "advanced"
                                         << "laplace-nr"
                                         << "depends on the level it stops at";
}

void TestCliRdpAdvanced::refusedMechanismsSpendNothing()
{
    QFETCH(QString, filter);
    QFETCH(QString, mechanism);
    QFETCH(QString, reason);
    writeFile(path("one.jsonl"), smallCounts(1) + smallCounts(1, mechanism.toStdString().c_str()));
    const QString out = path("refused.json");
    QFile::remove(out);
    const auto run = runCli(test::runCommandArguments(path("one.jsonl"), out, path("refused.journal"),
                                                      {QStringLiteral("--filter"), filter}));
    QCOMPARE(run.exitCode == 0, false);
    QVERIFY2(run.err.contains(QStringLiteral("line 2")) && run.err.contains(reason), qPrintable(run.err));
    QVERIFY(!QFile::exists(out)); // nothing was answered, nothing spent
}

QTEST_GUILESS_MAIN(TestCliRdpAdvanced)
#include "tst_clirdpadvanced.moc"
