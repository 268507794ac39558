// SPDX-License-Identifier: MIT
// The ledger JSON reader, the all-strategies evaluation and `pbx-cli account` (runAccountCommand).
#include "app/cli/account_command.h"
#include "core/accounting/evaluation.h"
#include "core/accounting/ledger_json.h"
#include "tests/accounting/oracle.h"

#include <QTemporaryDir>

#include <fstream>
#include <sstream>

using namespace pbx;
using namespace pbx::accounting;

namespace {
const char *kIssueLedger = R"({"neighbours":"add-remove","events":[
 {"mechanism":"gaussian","sigma":1.1,"sensitivity":1,"count":1000,"sampling":{"kind":"poisson","rate":0.01}},
 {"mechanism":"laplace","scale":2,"sensitivity":1,"count":10},
 {"mechanism":"pure","epsilon":0.1,"count":5},
 {"mechanism":"approx","epsilon":0.2,"delta":1e-7},
 {"mechanism":"zcdp","rho":0.01},
 {"mechanism":"randomized-response","epsilon":1}]})";
}

class TestLedger : public QObject
{
    Q_OBJECT
private slots:
    void parseIssueExample();
    void rejects_data();
    void rejects();
    void evaluateAll();
    void cliHelpAndUsage();
    void cliRuns();
    void cliBadLedger();
    void cliExtremeLedgers_data();
    void cliExtremeLedgers();
    void emptyLedgerIsZero();
};

void TestLedger::parseIssueExample()
{
    auto l = parseLedgerJson(kIssueLedger);
    QVERIFY2(l.ok(), l.ok() ? "" : l.error().message.c_str());
    QCOMPARE(l->events.size(), std::size_t(6));
    QCOMPARE(l->events[0].count, std::int64_t(1000));
    QCOMPARE(l->events[0].sampling.kind, SamplingKind::Poisson);
    QCOMPARE(l->events[0].sampling.rate, 0.01);
    QCOMPARE(l->events[5].mechanism, MechanismKind::RandomizedResponse);
}

void TestLedger::rejects_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("mentions");
    auto row = [](const char *name, const char *json, const char *mentions) {
        QTest::newRow(name) << QString::fromUtf8(json) << QString::fromUtf8(mentions);
    };
    row("not json", R"({"events": [)", "not valid JSON");
    row("nan", R"({"events":[{"mechanism":"pure","epsilon":NaN}]})", "not valid JSON");
    row("inf string", R"({"events":[{"mechanism":"pure","epsilon":"inf"}]})", "events[0].epsilon");
    row("negative sigma", R"({"events":[{"mechanism":"gaussian","sigma":-1}]})", "events[0].sigma");
    row("unknown mechanism", R"({"events":[{"mechanism":"pure","epsilon":1},{"mechanism":"exponential"}]})",
        "events[1].mechanism");
    row("delta one", R"({"events":[{"mechanism":"approx","epsilon":1,"delta":1}]})", "events[0].delta");
    row("missing field", R"({"events":[{"mechanism":"laplace"}]})", "events[0].scale");
    row("typo field", R"({"events":[{"mechanism":"gaussian","sigma":1,"sensitivty":2}]})",
        "events[0].sensitivty");
    row("zero count", R"({"events":[{"mechanism":"pure","epsilon":1,"count":0}]})", "events[0].count");
    row("fractional count", R"({"events":[{"mechanism":"pure","epsilon":1,"count":2.5}]})",
        "events[0].count");
    row("bad rate", R"({"events":[{"mechanism":"pure","epsilon":1,"sampling":{"kind":"poisson","rate":0}}]})",
        "events[0].sampling.rate");
    row("bad kind",
        R"({"events":[{"mechanism":"pure","epsilon":1,"sampling":{"kind":"shuffle","rate":0.1}}]})",
        "events[0].sampling.kind");
    row("bad neighbours", R"({"neighbours":"swap","events":[]})", "neighbours");
    row("no events", R"({"neighbours":"replace"})", "events");
}

void TestLedger::rejects()
{
    QFETCH(QString, json);
    QFETCH(QString, mentions);
    auto l = parseLedgerJson(json.toStdString());
    QVERIFY(!l.ok());
    QVERIFY2(QString::fromStdString(l.error().message).contains(mentions), l.error().message.c_str());
}

void TestLedger::evaluateAll()
{
    auto l = parseLedgerJson(kIssueLedger);
    auto report = evaluateLedger(l.value(), AccountingQuery{true, 1e-5}, allStrategyNames());
    QVERIFY(report.ok());
    const auto &j = report.value();
    QCOMPARE(j["query"]["delta"].get<double>(), 1e-5);
    // Gaussian and zCDP events have no per-step (ε, δ); zCDP events have no PLD; the subsampled
    // Gaussian has no zCDP: only RDP applies to this ledger, and it says which order it used.
    for (const char *name : {"basic", "advanced", "optimal", "zcdp", "pld"}) {
        QCOMPARE(j[name]["applicable"].get<bool>(), false);
        QVERIFY(!j[name]["reason"].get<std::string>().empty());
    }
    QCOMPARE(j["rdp"]["applicable"].get<bool>(), true);
    QVERIFY(j["rdp"]["epsilon"].get<double>() > 0);
    QVERIFY(j["rdp"].contains("optimalOrder"));
    // Without the zCDP event, the PLD applies and brackets the truth.
    Ledger noZcdp = l.value();
    noZcdp.events.erase(noZcdp.events.begin() + 4);
    auto r2 = evaluateLedger(noZcdp, AccountingQuery{true, 1e-5}, {"rdp", "pld"});
    const auto &p = r2.value()["pld"];
    QCOMPARE(p["applicable"].get<bool>(), true);
    QCOMPARE(p["discretisationInterval"].get<double>(), 1e-4);
    QVERIFY(p["optimisticEpsilon"].get<double>() <= p["epsilon"].get<double>());
    QVERIFY(p["epsilon"].get<double>() <= r2.value()["rdp"]["epsilon"].get<double>()); // PLD is tighter
}

void TestLedger::cliHelpAndUsage()
{
    std::ostringstream out, err;
    QCOMPARE(runAccountCommand({"--help"}, out, err), 0);
    QVERIFY(out.str().find("--ledger") != std::string::npos);
    QCOMPARE(runAccountCommand({}, out, err), 2);
    QCOMPARE(runAccountCommand({"--ledger", "x.json", "--delta", "1e-5", "--epsilon", "1"}, out, err), 2);
    QCOMPARE(runAccountCommand({"--ledger", "x.json", "--delta", "2"}, out, err), 2);
    QCOMPARE(runAccountCommand({"--ledger", "x.json", "--strategies", "basic,magic"}, out, err), 2);
    QCOMPARE(runAccountCommand({"--bogus"}, out, err), 2);
}

void TestLedger::cliRuns()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("ledger.json")).toStdString();
    {
        std::ofstream f(path);
        f << R"({"neighbours":"add-remove","events":[{"mechanism":"pure","epsilon":0.1,"count":100}]})";
    }
    std::ostringstream out, err;
    QCOMPARE(
        runAccountCommand({"--ledger", path, "--strategies", "basic,advanced,optimal,zcdp,rdp"}, out, err),
        0);
    auto j = nlohmann::json::parse(out.str());
    PBX_FUZZY_COMPARE(j["basic"]["epsilon"].get<double>(), 10.0, 1e-14);
    // KOV optimum at δ = 1e-5 (docs/composition.md TV-9): 4.306791372516508.
    PBX_FUZZY_COMPARE(j["optimal"]["epsilon"].get<double>(), 4.306791372516508, 1e-10);
    QVERIFY(!j.contains("pld"));
    std::ostringstream out2, err2;
    QCOMPARE(runAccountCommand({"--ledger", path, "--epsilon", "5", "--strategies", "optimal"}, out2, err2),
             0);
    auto j2 = nlohmann::json::parse(out2.str());
    QCOMPARE(j2["query"]["epsilon"].get<double>(), 5.0);
    QVERIFY(j2["optimal"]["delta"].get<double>() < 1e-5);
}

void TestLedger::cliBadLedger()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("bad.json")).toStdString();
    {
        std::ofstream f(path);
        f << R"({"events":[{"mechanism":"pure","epsilon":1},{"mechanism":"approx","epsilon":1,"delta":-1}]})";
    }
    std::ostringstream out, err;
    QCOMPARE(runAccountCommand({"--ledger", path}, out, err), 1);
    QVERIFY2(err.str().find("events[1].delta") != std::string::npos, err.str().c_str());
    QCOMPARE(runAccountCommand({"--ledger", "/nonexistent/ledger.json"}, out, err), 1);
}

void TestLedger::cliExtremeLedgers_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("strategies");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("expected"); // in stderr (exit 1) or in the JSON (exit 0)
    // The ledgers of fuzz/regressions/ledger/extreme_*.json at the default interval:
    // each used to abort (std::bad_alloc), loop forever, take 15 s / 3.7 GB or print a message
    // that does not name the event.
    const auto row
        = [](const char *name, const char *file, const char *strategies, int code, const char *expected) {
              QTest::newRow(name) << QString::fromLatin1(file) << QString::fromLatin1(strategies) << code
                                  << QString::fromUtf8(expected);
          };
    row("count 1e12 pld", "extreme_count_1e12.json", "pld", 1,
        "account: pld: events[0] (gaussian): PLD would need 19428 GB at interval 0.0001 (limit 0.27 GB); use a coarser --interval or the rdp strategy\n");
    row("count 1e12 all", "extreme_count_1e12.json", "basic,advanced,optimal,zcdp,rdp,pld", 0,
        "\"resourceLimit\": true");
    row("sigma 1e-4 pld", "extreme_sigma_1e-4.json", "pld", 1,
        "account: pld: events[0] (gaussian): PLD would need");
    row("sigma 1e-10 pld", "extreme_sigma_1e-10.json", "pld", 1,
        "account: pld: events[1] (gaussian): PLD would need more than a petabyte");
    row("sigma 0.01 pld", "extreme_sigma_0.01.json", "pld", 1,
        "account: pld: events[0] (gaussian): PLD would need");
    row("laplace 1e15 pld", "extreme_laplace_count_1e15.json", "pld,optimal", 1,
        "account: pld: events[0] (laplace): PLD would need");
    row("sigma 1e-300 zcdp", "extreme_sigma_1e-300.json", "zcdp,rdp,pld", 0,
        "events[0] (gaussian): the composed ρ exceeds the largest double");
}

void TestLedger::cliExtremeLedgers()
{
    QFETCH(QString, file);
    QFETCH(QString, strategies);
    QFETCH(int, exitCode);
    QFETCH(QString, expected);
    const std::string path = std::string(PBX_SOURCE_DIR) + "/fuzz/regressions/ledger/" + file.toStdString();
    std::ostringstream out, err;
    QCOMPARE(runAccountCommand({"--ledger", path, "--strategies", strategies.toStdString()}, out, err),
             exitCode);
    const std::string haystack = exitCode == 0 ? out.str() : err.str();
    QVERIFY2(haystack.find(expected.toStdString()) != std::string::npos, haystack.c_str());
    if (exitCode == 1) // one line per refusing strategy
        QCOMPARE(std::count(haystack.begin(), haystack.end(), '\n'),
                 std::count(strategies.begin(), strategies.end(), QLatin1Char(',')) + 1);
}

// An empty ledger costs nothing under every strategy (advanced used to report ε = 1e-323).
void TestLedger::emptyLedgerIsZero()
{
    for (Neighbouring relation : {Neighbouring::AddRemove, Neighbouring::Replace}) {
        Ledger empty;
        empty.neighbours = relation;
        auto report = evaluateLedger(empty, AccountingQuery{true, 1e-5}, allStrategyNames());
        QVERIFY(report.ok());
        for (const std::string &name : allStrategyNames()) {
            QVERIFY2((*report)[name]["applicable"].get<bool>(), name.c_str());
            QVERIFY2((*report)[name]["epsilon"].get<double>() == 0.0, name.c_str());
        }
        auto deltas = evaluateLedger(empty, AccountingQuery{false, 0.0}, allStrategyNames());
        QVERIFY(deltas.ok());
        for (const std::string &name : allStrategyNames())
            QVERIFY2((*deltas)[name]["delta"].get<double>() == 0.0, name.c_str());
    }
}

QTEST_APPLESS_MAIN(TestLedger)
#include "tst_ledger.moc"
