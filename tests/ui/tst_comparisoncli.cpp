// SPDX-License-Identifier: MIT
// One computation for the comparison view and `pbx-cli compare`: for the same ledger file the
// view's job (with the input the view builds) and the CLI's JSON agree exactly — every table
// answer and reason, every point of the δ(ε) profile, of ε(k) over prefixes, of the RDP curve
// and of the PLD histogram — for a ledger with partitions and a post-processing step, under
// add/remove (ε at δ) and replace-one (δ at ε); and with the per-step (ε, δ) view on "auto" in
// the view and `--per-step-delta auto` in the CLI, the same per-step δ, Σδᵢ and answers.
#include "app/cli/compare_command.h"
#include "core/accounting/ledger_json.h"
#include "ui/charts/comparisoncharts.h"
#include "ui/comparison/comparisonjob.h"
#include "ui/comparison/comparisonview.h"
#include "ui/comparison/planmodel.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <sstream>

using namespace pbx;
using pbx::ui::ComparisonView;

namespace {

/// A JSON number of comparisonToJson: null is NaN (not applicable there), "inf" is +∞.
double number(const nlohmann::json &j)
{
    if (j.is_null())
        return std::numeric_limits<double>::quiet_NaN();
    if (j.is_string())
        return j.get<std::string>() == "inf" ? std::numeric_limits<double>::infinity()
                                             : std::numeric_limits<double>::quiet_NaN();
    return j.get<double>();
}

bool same(double a, double b)
{
    return (std::isnan(a) && std::isnan(b)) || a == b;
}

/// Every element exactly equal (NaN matches null).
bool sameSeries(const std::vector<double> &values, const nlohmann::json &j, const char *what)
{
    if (!j.is_array() || j.size() != values.size()) {
        qWarning("%s: %zu values, JSON %s", what, values.size(), j.dump().substr(0, 80).c_str());
        return false;
    }
    for (std::size_t i = 0; i < values.size(); ++i)
        if (!same(values[i], number(j[i]))) {
            qWarning("%s[%zu]: job %.17g, CLI %.17g", what, i, values[i], number(j[i]));
            return false;
        }
    return true;
}

/// Recomputes now and waits for the (complete) results.
bool computeAndWait(ComparisonView &view)
{
    QSignalSpy shown(&view, &ComparisonView::resultsShown);
    view.recomputeNow();
    return shown.wait(180000) || !shown.isEmpty();
}

} // namespace

class TestComparisonCli : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void jobAndCliAgree_data();
    void jobAndCliAgree();
};

void TestComparisonCli::jobAndCliAgree_data()
{
    QTest::addColumn<QByteArray>("ledger");
    QTest::addColumn<bool>("epsilonAtDelta");
    QTest::addColumn<double>("epsilon");
    QTest::addColumn<bool>("perStepAuto");
    const QByteArray events = R"("events":[
        {"mechanism":"gaussian","sigma":3,"count":8},
        {"mechanism":"laplace","scale":10,"count":4,"partition":"north"},
        {"mechanism":"post-processing"},
        {"mechanism":"laplace","scale":5,"count":3,"partition":"south"},
        {"mechanism":"pure","epsilon":0.05,"count":4}]})";
    QTest::newRow("add-remove, ε at δ")
        << (R"({"neighbours":"add-remove",)" + events) << true << 1.0 << false;
    QTest::newRow("replace, δ at ε") << (R"({"neighbours":"replace",)" + events) << false << 2.0 << false;
    QTest::newRow("add-remove, ε at δ, per-step auto")
        << (R"({"neighbours":"add-remove",)" + events) << true << 1.0 << true;
}

void TestComparisonCli::jobAndCliAgree()
{
    QFETCH(QByteArray, ledger);
    QFETCH(bool, epsilonAtDelta);
    QFETCH(double, epsilon);
    QFETCH(bool, perStepAuto);
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("ledger.json")).toStdString();
    std::ofstream(path) << ledger.toStdString();
    auto parsed = accounting::parseLedgerJson(ledger.toStdString());
    QVERIFY(parsed.ok());

    // The GUI: the view builds the input from its plan; the job computes it.
    ComparisonView view;
    view.resize(1400, 900);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setSource(ComparisonView::Source::Plan);
    QVERIFY(view.planModel()->replacePlan(*parsed, QStringLiteral("mixed")));
    view.setPldInterval(1e-3); // the coarsest grid the view offers: a quick test
    view.setQuery(epsilonAtDelta, 1e-5, epsilon);
    if (perStepAuto)
        view.setPerStepAuto(true);
    else
        view.setPerStepDelta(0.0);
    QVERIFY(computeAndWait(view));
    const ui::ComparisonInput input = view.lastInput();
    QCOMPARE(input.ledger.events.size(), parsed->events.size());
    QFuture<ui::ComparisonResult> future = ui::startComparison(input);
    future.waitForFinished();
    const QList<ui::ComparisonResult> results = future.results();
    QCOMPARE(results.size(), 2); // the table first, then with the ε(k) curves
    const ui::ComparisonResult &job = results.last();
    QCOMPARE(job.stage, int(ui::ComparisonResult::Complete));
    QVERIFY(job.error.isEmpty());
    const accounting::Comparison &c = job.comparison;

    // The CLI.
    std::vector<std::string> args{"--ledger", path, "--json", "--interval", "1e-3"};
    if (!epsilonAtDelta)
        args.insert(args.end(), {"--epsilon", std::to_string(epsilon)});
    if (perStepAuto)
        args.insert(args.end(), {"--per-step-delta", "auto"});
    std::ostringstream out, err;
    QCOMPARE(cli::runCompareCommand(args, out, err), 0);
    const nlohmann::json cli = nlohmann::json::parse(out.str());

    QCOMPARE(c.partitions, std::size_t{epsilonAtDelta ? 2u : 1u});
    QCOMPARE(job.strategies.size(), std::size_t{6});
    for (std::size_t i = 0; i < job.strategies.size(); ++i) {
        const ui::StrategyOutcome &row = job.strategies[i];
        const nlohmann::json &s = cli[row.name.toStdString()];
        QCOMPARE(s["applicable"].get<bool>(), row.applicable);
        if (!row.applicable) {
            QCOMPARE(QString::fromStdString(s["reason"].get<std::string>()), row.reason);
            continue;
        }
        QVERIFY2(same(number(s["epsilon"]), row.answer.epsilon), qPrintable(row.name));
        QVERIFY2(same(number(s["delta"]), row.answer.delta), qPrintable(row.name));
        QCOMPARE(s["method"].get<std::string>(), row.answer.method);
        if (!epsilonAtDelta)
            QVERIFY2(same(number(s["epsilonAtDelta"]), row.epsilonAtDelta), qPrintable(row.name));
        // The per-step (ε, δ) view: the same per-step δ, converted steps and Σδᵢ.
        QCOMPARE(s.contains("perStep"), row.perStep.has_value());
        if (row.perStep) {
            QCOMPARE(s["perStep"]["stepDelta"].get<double>(), row.perStep->stepDelta);
            QCOMPARE(s["perStep"]["convertedSteps"].get<std::int64_t>(), row.perStep->convertedSteps);
            QVERIFY(same(number(s["perStep"]["stepsDelta"]), row.perStep->stepsDelta));
        }
    }
    if (perStepAuto) {
        // δ/(2k) for the 8 Gaussian steps: 1e-5/16 = 6.25e-7, rounded down to 6.2e-7.
        QCOMPARE(input.perStepDelta, 6.2e-7);
        QCOMPARE(cli["query"]["perStepDelta"].get<double>(), 6.2e-7);
        QVERIFY(job.strategies[0].applicable && job.strategies[0].perStep);
        QCOMPARE(job.strategies[0].perStep->convertedSteps, std::int64_t{8});
    } else {
        // Some strategy does not apply (basic has no (ε, δ) for a Gaussian); most do.
        QVERIFY(!job.strategies[0].applicable);
    }
    QVERIFY(job.strategies[5].applicable);

    const nlohmann::json &curves = cli["curves"];
    QVERIFY(sameSeries(c.profileEpsilons, curves["profile"]["epsilon"], "profile ε"));
    QCOMPARE(c.profileDeltas.size(), job.strategies.size());
    for (std::size_t i = 0; i < c.profileDeltas.size(); ++i)
        QVERIFY(
            sameSeries(c.profileDeltas[i], curves["profile"]["delta"][c.strategies[i].name], "profile δ"));

    QVERIFY(!c.rdp.orders.empty());
    QVERIFY(sameSeries(c.rdp.orders, curves["rdp"]["orders"], "RDP orders"));
    QVERIFY(sameSeries(c.rdp.values, curves["rdp"]["values"], "RDP values"));
    QVERIFY(sameSeries(c.rdp.epsilonByOrder, curves["rdp"]["epsilonByOrder"], "RDP ε by order"));
    QCOMPARE(number(curves["rdp"]["optimalOrder"]), c.rdp.optimalOrder);
    if (!epsilonAtDelta) { // δ at ε: the RDP curve's δ by order too
        QVERIFY(sameSeries(c.rdp.deltaByOrder, curves["rdp"]["deltaByOrder"], "RDP δ by order"));
        QCOMPARE(number(curves["rdp"]["deltaOptimalOrder"]), c.rdp.deltaOptimalOrder);
    }

    QVERIFY(!c.pld.loss.empty());
    QVERIFY(sameSeries(c.pld.loss, curves["pld"]["loss"], "PLD loss"));
    QVERIFY(sameSeries(c.pld.mass, curves["pld"]["mass"], "PLD mass"));
    QCOMPARE(curves["pld"]["binWidth"].get<double>(), c.pld.binWidth);
    QCOMPARE(curves["pld"]["infinityMass"].get<double>(), c.pld.infinityMass);
    QCOMPARE(curves["pld"]["interval"].get<double>(), c.pld.interval);
    QCOMPARE(curves["pld"]["direction"].get<std::string>(),
             std::string(c.pld.addDirection ? "add" : "remove"));

    // ε(k): the same prefixes (the view's rule and the CLI's), the same points.
    const nlohmann::json &prefixes = curves["prefixes"];
    QCOMPARE(c.prefixX.size(), std::size_t{20}); // 20 steps (post-processing is one), a prefix each
    QVERIFY(sameSeries(c.prefixX, prefixes["x"], "prefix x"));
    QCOMPARE(prefixes["steps"].get<std::vector<std::int64_t>>(), c.prefixSteps);
    QCOMPARE(prefixes["pldInterval"].get<double>(), c.prefixPldInterval);
    for (std::size_t i = 0; i < c.prefixEpsilons.size(); ++i)
        QVERIFY(sameSeries(c.prefixEpsilons[i], prefixes["epsilon"][c.strategies[i].name], "ε(k)"));
    QCOMPARE(c.prefixDeltas.empty(), epsilonAtDelta);
    for (std::size_t i = 0; i < c.prefixDeltas.size(); ++i)
        QVERIFY(sameSeries(c.prefixDeltas[i], prefixes["delta"][c.strategies[i].name], "δ(k)"));
    QCOMPARE(number(curves["pld"]["threshold"]), c.pld.threshold);

    // And the view drew those curves: one point per prefix where the PLD applies.
    view.flushCharts();
    QCOMPARE(view.compositionChart()->pointCount(QStringLiteral("pld")),
             static_cast<int>(c.prefixX.size()) + 1);
}

QTEST_MAIN(TestComparisonCli)
#include "tst_comparisoncli.moc"
