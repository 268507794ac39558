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
    row("unknown mechanism", R"({"events":[{"mechanism":"pure","epsilon":1},{"mechanism":"exponential"}]})", "events[1].mechanism");
    row("delta one", R"({"events":[{"mechanism":"approx","epsilon":1,"delta":1}]})", "events[0].delta");
    row("missing field", R"({"events":[{"mechanism":"laplace"}]})", "events[0].scale");
    row("typo field", R"({"events":[{"mechanism":"gaussian","sigma":1,"sensitivty":2}]})", "events[0].sensitivty");
    row("zero count", R"({"events":[{"mechanism":"pure","epsilon":1,"count":0}]})", "events[0].count");
    row("fractional count", R"({"events":[{"mechanism":"pure","epsilon":1,"count":2.5}]})", "events[0].count");
    row("bad rate", R"({"events":[{"mechanism":"pure","epsilon":1,"sampling":{"kind":"poisson","rate":0}}]})", "events[0].sampling.rate");
    row("bad kind", R"({"events":[{"mechanism":"pure","epsilon":1,"sampling":{"kind":"shuffle","rate":0.1}}]})", "events[0].sampling.kind");
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
    QCOMPARE(runAccountCommand({"--ledger", path, "--strategies", "basic,advanced,optimal,zcdp,rdp"}, out, err), 0);
    auto j = nlohmann::json::parse(out.str());
    PBX_FUZZY_COMPARE(j["basic"]["epsilon"].get<double>(), 10.0, 1e-14);
    // KOV optimum at δ = 1e-5 (spec TV-9): 4.306791372516508.
    PBX_FUZZY_COMPARE(j["optimal"]["epsilon"].get<double>(), 4.306791372516508, 1e-10);
    QVERIFY(!j.contains("pld"));
    std::ostringstream out2, err2;
    QCOMPARE(runAccountCommand({"--ledger", path, "--epsilon", "5", "--strategies", "optimal"}, out2, err2), 0);
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

QTEST_APPLESS_MAIN(TestLedger)
#include "tst_ledger.moc"
