// SPDX-License-Identifier: MIT
// `pbx-cli run --filter odometer` end to end on CPS1988: no ε budget, every count answered, the
// odometer's running ε after each one; the journal and transcript record it, `verify` recomputes
// it from the ledger and states "the session so far is (ε_n, δ)-DP", the report says the same, and
// --epsilon is refused before anything is spent.
#include "core/util/number_format.h"
#include "tests/testutils.h"

#include "clitestutils.h"

#include <QFile>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>

using nlohmann::json;
using namespace pbx;
using test::runCli;
using test::writeFile;

namespace {
/// `n` absolute counts of CPS1988 subgroups, ±100 at 95 % by the discrete Laplace (ε₀ ≈ 0.0298).
std::string laplaceCounts(int n)
{
    std::string out;
    for (int i = 0; i < n; ++i)
        out += json({{"id", "c" + std::to_string(i)},
                     {"aggregate", "count"},
                     {"where", "experience > " + std::to_string(i)},
                     {"mechanism", "laplace"},
                     {"target", {{"kind", "absolute"}, {"error", 100}, {"confidence", 0.95}}}})
                   .dump()
               + "\n";
    return out;
}

/// min(Σε, min_j (1 + λ_j)·Σε²/2 + ln(25/δ)/λ_j), λ_j = 2^{j/2}, j = 0 … 24, in long double.
double odometerReading(const std::vector<double> &epsilons, long double delta)
{
    long double sum = 0, rho = 0;
    for (double e : epsilons) {
        sum += e;
        rho += 0.5L * e * e;
    }
    long double best = std::numeric_limits<long double>::infinity();
    for (int j = 0; j < 25; ++j) {
        const long double lambda = std::exp2(0.5L * j);
        best = std::min(best, (1 + lambda) * rho + std::log(25.0L / delta) / lambda);
    }
    return static_cast<double>(std::min(sum, best));
}
} // namespace

class TestCliOdometer : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void runJournalVerifyReport();
    void epsilonIsRefused();

private:
    QString path(const char *name) const { return m_dir.filePath(QString::fromLatin1(name)); }
    QTemporaryDir m_dir;
};

void TestCliOdometer::runJournalVerifyReport()
{
    // 60 counts: a basic filter with ε = 1 stops after 33 (cli.rdpadvanced); the odometer answers all.
    writeFile(path("counts.jsonl"), laplaceCounts(60));
    const auto run
        = runCli(test::runCommandArguments(path("counts.jsonl"), path("odo.json"), path("odo.journal"),
                                           {QStringLiteral("--filter"), QStringLiteral("odometer"),
                                            QStringLiteral("--seed"), QStringLiteral("3")}));
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const auto doc = json::parse(test::readTextFile(path("odo.json").toStdString()));
    QCOMPARE(doc.at("filter").at("kind").get<std::string>(), std::string("odometer"));
    QVERIFY(doc.at("budget").at("epsilon").is_null());
    QVERIFY(doc.at("filter").at("budget").is_null());
    QCOMPARE(doc.at("events").size(), std::size_t(60));
    std::vector<double> epsilons;
    for (const auto &e : doc.at("events")) {
        QCOMPARE(e.at("status").get<std::string>(), std::string("released"));
        epsilons.push_back(e.at("cost").at("epsilon").get<double>());
        // After each event, the reading of the ledger so far (an independent evaluation).
        PBX_FUZZY_COMPARE(e.at("spent_after").at("epsilon").get<double>(), odometerReading(epsilons, 1e-6L),
                          1e-11);
    }
    PBX_FUZZY_COMPARE(epsilons.front(), 0.0298071763, 1e-9);
    const double reading = doc.at("spent").at("epsilon").get<double>();
    PBX_FUZZY_COMPARE(reading, odometerReading(epsilons, 1e-6L), 1e-11);
    QVERIFY(reading > 1.0); // past what a (1, 1e-6) filter would have allowed
    const double preplanned = doc.at("spent").at("odometer").at("preplanned_epsilon").get<double>();
    QVERIFY(preplanned < reading); // the price of not committing to a budget
    // verify replays every cost and states the same reading (ε rounded up), for both records.
    const std::string statement = "the session so far is (" + formatDirected(reading, 6, Rounding::Up)
                                  + ", 1e-06)-DP by the privacy odometer";
    for (const char *file : {"odo.json", "odo.journal"}) {
        const auto verified = runCli({QStringLiteral("verify"), path(file)});
        QVERIFY2(verified.exitCode == 0, qPrintable(verified.err + verified.out));
        QVERIFY2(verified.out.contains(QString::fromStdString(statement)), qPrintable(verified.out));
    }
    QVERIFY2(run.out.contains(QString::fromStdString(statement)), qPrintable(run.out));
    // A halved cost is caught: the stated reading no longer matches the ledger.
    json edited = doc;
    edited["events"][0]["cost"]["epsilon"] = 0.5 * epsilons[0];
    edited["events"][0]["attempts"][0]["cost"] = 0.5 * epsilons[0];
    writeFile(path("odo-edited.json"), edited.dump(2));
    QCOMPARE(runCli({QStringLiteral("verify"), path("odo-edited.json")}).exitCode, 1);
    // The report states the odometer's guarantee, not a budget.
    const auto report
        = runCli({QStringLiteral("report"), path("odo.json"), QStringLiteral("--out"), path("odo.html")});
    QVERIFY2(report.exitCode == 0, qPrintable(report.err));
    const std::string html = test::readTextFile(path("odo.html").toStdString());
    QVERIFY(html.find("no ε budget (an odometer)") != std::string::npos);
    QVERIFY(html.find("price of not committing to a budget") != std::string::npos);
    QVERIFY(html.find("(" + formatDirected(reading, 6, Rounding::Up) + ", 1e-06)-differentially private")
            != std::string::npos);
}

void TestCliOdometer::epsilonIsRefused()
{
    writeFile(path("one.jsonl"), laplaceCounts(1));
    const auto run = runCli({QStringLiteral("run"), QStringLiteral("--queries"), path("one.jsonl"),
                             QStringLiteral("--out"), path("eps.json"), QStringLiteral("--filter"),
                             QStringLiteral("odometer"), QStringLiteral("--epsilon"), QStringLiteral("1")});
    QVERIFY(run.exitCode != 0);
    QVERIFY2(run.err.contains(QStringLiteral("--epsilon: an odometer session has no ε budget")),
             qPrintable(run.err));
    QVERIFY(!QFile::exists(path("eps.json")));
}

QTEST_GUILESS_MAIN(TestCliOdometer)
#include "tst_cliodometer.moc"
