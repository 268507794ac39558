// SPDX-License-Identifier: MIT
// `pbx-cli compare` as a real process: the JSON contract (the `account` object plus "curves")
// with known numbers (100 steps of ε = 0.1 at δ = 1e-5: basic composition 10, the optimum
// 4.306791372516508, ε(k) = 0.1 k for basic composition), the text table, --out, and the exit
// codes (0 success, 1 bad input with one line naming the file, field or option, 2 usage); and
// --per-step-delta on the comparison view's 50 Gaussians with σ = 10 (ui.comparison
// perStepViewForGaussianPlan; ui.comparisoncli checks the view and the CLI agree exactly).
#include "core/accounting/per_step_dp.h"
#include "tests/cli/clitestutils.h"
#include "tests/testutils.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest/QtTest>

namespace {

QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &text)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

const QByteArray kPureLedger
    = R"({"neighbours":"add-remove","events":[{"mechanism":"pure","epsilon":0.1,"count":100}]})";
/// The comparison view's example "50 Gaussian queries, σ = 10".
const QByteArray kGaussianLedger
    = R"({"neighbours":"add-remove","events":[{"mechanism":"gaussian","sigma":10,"sensitivity":1,"count":50}]})";

/// The fields of the line of a text table that starts with `first`; empty when there is none.
QStringList rowOf(const QString &out, const QString &first)
{
    for (const QString &line : out.split(QLatin1Char('\n'))) {
        const QStringList fields = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (!fields.isEmpty() && fields[0] == first)
            return fields;
    }
    return {};
}

} // namespace

class TestCliCompare : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void json();
    void text();
    void outFile();
    void errors();
    void perStepDelta();
    void perStepDeltaText();
    void perStepDeltaErrors();
};

void TestCliCompare::json()
{
    QTemporaryDir dir;
    const QString ledger = writeFile(dir, QStringLiteral("pure.json"), kPureLedger);
    const auto run = pbx::test::runCli(
        {QStringLiteral("compare"), QStringLiteral("--ledger"), ledger, QStringLiteral("--json")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.err.isEmpty());
    const QJsonObject doc = QJsonDocument::fromJson(run.out.toUtf8()).object();
    QCOMPARE(doc[QLatin1String("query")][QLatin1String("delta")].toDouble(), 1e-5);
    PBX_FUZZY_COMPARE(doc[QLatin1String("basic")][QLatin1String("epsilon")].toDouble(), 10.0, 1e-14);
    PBX_FUZZY_COMPARE(doc[QLatin1String("optimal")][QLatin1String("epsilon")].toDouble(), 4.306791372516508,
                      1e-10);
    QVERIFY(doc[QLatin1String("pld")][QLatin1String("applicable")].toBool());
    const QJsonObject curves = doc[QLatin1String("curves")].toObject();
    const QJsonObject prefixes = curves[QLatin1String("prefixes")].toObject();
    const QJsonArray steps = prefixes[QLatin1String("steps")].toArray();
    const QJsonArray basic = prefixes[QLatin1String("epsilon")][QLatin1String("basic")].toArray();
    QCOMPARE(steps.size(), 30);
    QCOMPARE(basic.size(), 30);
    for (int k = 0; k < 30; ++k)
        PBX_FUZZY_COMPARE(basic[k].toDouble(), 0.1 * steps[k].toDouble(), 1e-13);
    QCOMPARE(steps.last().toInt(), 100);
    QCOMPARE(prefixes[QLatin1String("pldInterval")].toDouble(), 1e-4);
    const QJsonObject profile = curves[QLatin1String("profile")].toObject();
    QCOMPARE(profile[QLatin1String("epsilon")].toArray().size(), 64);
    QCOMPARE(profile[QLatin1String("delta")][QLatin1String("optimal")].toArray().size(), 64);
    QVERIFY(!curves[QLatin1String("rdp")][QLatin1String("orders")].toArray().isEmpty());
    QVERIFY(!curves[QLatin1String("pld")][QLatin1String("mass")].toArray().isEmpty());

    // δ at ε: the table's δ, and ε at the curves' δ for each strategy.
    const auto deltas
        = pbx::test::runCli({QStringLiteral("compare"), QStringLiteral("--ledger"), ledger,
                             QStringLiteral("--epsilon"), QStringLiteral("5"), QStringLiteral("--json")});
    QCOMPARE(deltas.exitCode, 0);
    const QJsonObject d = QJsonDocument::fromJson(deltas.out.toUtf8()).object();
    QCOMPARE(d[QLatin1String("query")][QLatin1String("epsilon")].toDouble(), 5.0);
    QCOMPARE(d[QLatin1String("basic")][QLatin1String("delta")].toDouble(), 1.0);
    QVERIFY(d[QLatin1String("optimal")][QLatin1String("delta")].toDouble() < 1e-5);
    PBX_FUZZY_COMPARE(d[QLatin1String("optimal")][QLatin1String("epsilonAtDelta")].toDouble(),
                      4.306791372516508, 1e-10);
}

void TestCliCompare::text()
{
    QTemporaryDir dir;
    const QString ledger = writeFile(dir, QStringLiteral("pure.json"), kPureLedger);
    const auto run = pbx::test::runCli({QStringLiteral("compare"), QStringLiteral("--ledger"), ledger});
    QCOMPARE(run.exitCode, 0);
    const QStringList lines = run.out.split(QLatin1Char('\n'));
    QCOMPARE(lines[0], QStringLiteral("Ledger: 1 event, 100 steps, add-remove"));
    QVERIFY(lines[2].startsWith(QStringLiteral("strategy")));
    QVERIFY(lines[3].startsWith(QStringLiteral("basic")));
    QVERIFY2(lines[3].contains(QStringLiteral("  10  ")), qPrintable(lines[3]));
    QVERIFY(lines[5].startsWith(QStringLiteral("optimal")));
    QVERIFY2(lines[5].contains(QStringLiteral("4.306791373")), qPrintable(lines[5]));
    for (const char *section : {"Privacy profile delta(epsilon)", "epsilon(k) at delta = 1e-05",
                                "RDP over orders", "PLD histogram"})
        QVERIFY2(run.out.contains(QLatin1String(section)), section);
    // The ε(k) table: the last prefix is the whole ledger, basic composition 10.
    bool found = false;
    for (const QString &line : lines) {
        const QStringList fields = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (fields.size() == 8 && fields[0] == QStringLiteral("100") && fields[1] == QStringLiteral("100")) {
            QCOMPARE(fields[2], QStringLiteral("10"));
            found = true;
        }
    }
    QVERIFY2(found, qPrintable(run.out));
}

void TestCliCompare::outFile()
{
    QTemporaryDir dir;
    const QString ledger = writeFile(dir, QStringLiteral("pure.json"), kPureLedger);
    const QString out = dir.filePath(QStringLiteral("out.json"));
    const auto run = pbx::test::runCli({QStringLiteral("compare"), QStringLiteral("--ledger"), ledger,
                                        QStringLiteral("--json"), QStringLiteral("--out"), out});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.isEmpty());
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject doc = QJsonDocument::fromJson(f.readAll()).object();
    PBX_FUZZY_COMPARE(doc[QLatin1String("basic")][QLatin1String("epsilon")].toDouble(), 10.0, 1e-14);

    const auto bad
        = pbx::test::runCli({QStringLiteral("compare"), QStringLiteral("--ledger"), ledger,
                             QStringLiteral("--out"), dir.filePath(QStringLiteral("no/such/dir/x"))});
    QCOMPARE(bad.exitCode, 1);
    QVERIFY2(bad.err.contains(QStringLiteral("no/such/dir/x")), qPrintable(bad.err));
    QCOMPARE(bad.err.count(QLatin1Char('\n')), 1);
}

void TestCliCompare::errors()
{
    QTemporaryDir dir;
    const QString ledger = writeFile(dir, QStringLiteral("pure.json"), kPureLedger);
    const QString invalid
        = writeFile(dir, QStringLiteral("invalid.json"), R"({"events":[{"mechanism":"pure","epsilon":-1}]})");
    struct Case
    {
        QStringList args;
        int exitCode;
        QString names; ///< what the one-line message must name
    };
    const QList<Case> cases{
        {{QStringLiteral("--ledger"), dir.filePath(QStringLiteral("missing.json"))},
         1,
         QStringLiteral("missing.json")},
        {{QStringLiteral("--ledger"), invalid}, 1, QStringLiteral("events[0].epsilon")},
        {{QStringLiteral("--ledger"), ledger, QStringLiteral("--delta"), QStringLiteral("2")},
         1,
         QStringLiteral("--delta")},
        {{QStringLiteral("--ledger"), ledger, QStringLiteral("--delta"), QStringLiteral("x")},
         1,
         QStringLiteral("--delta")},
        {{QStringLiteral("--ledger"), ledger, QStringLiteral("--epsilon"), QStringLiteral("-1")},
         1,
         QStringLiteral("--epsilon")},
        {{QStringLiteral("--ledger"), ledger, QStringLiteral("--interval"), QStringLiteral("0")},
         1,
         QStringLiteral("--interval")},
        {{QStringLiteral("--ledger"), ledger, QStringLiteral("--delta"), QStringLiteral("1e-5"),
          QStringLiteral("--epsilon"), QStringLiteral("1")},
         2,
         QStringLiteral("--epsilon")},
        {{QStringLiteral("--bogus")}, 2, QStringLiteral("--bogus")},
        {{}, 2, QStringLiteral("--ledger")},
    };
    for (const Case &c : cases) {
        const auto run = pbx::test::runCli(QStringList{QStringLiteral("compare")} + c.args);
        QVERIFY2(run.exitCode == c.exitCode,
                 qPrintable(c.args.join(QLatin1Char(' ')) + QStringLiteral(": ") + run.err));
        QVERIFY2(run.out.isEmpty(), qPrintable(run.out));
        QCOMPARE(run.err.count(QLatin1Char('\n')), 1);
        QVERIFY2(run.err.startsWith(QStringLiteral("compare: ")) && run.err.contains(c.names),
                 qPrintable(run.err));
    }
    const auto help = pbx::test::runCli({QStringLiteral("compare"), QStringLiteral("--help")});
    QCOMPARE(help.exitCode, 0);
    QVERIFY(help.out.contains(QStringLiteral("--ledger FILE [--delta D | --epsilon E]")));
    const auto commands = pbx::test::runCli({QStringLiteral("--help")});
    QVERIFY(commands.out.contains(QStringLiteral("  compare ")));
}

void TestCliCompare::perStepDelta()
{
    QTemporaryDir dir;
    const QString ledger = writeFile(dir, QStringLiteral("gaussian50.json"), kGaussianLedger);
    const auto run = pbx::test::runCli({QStringLiteral("compare"), QStringLiteral("--ledger"), ledger,
                                        QStringLiteral("--per-step-delta"), QStringLiteral("auto"),
                                        QStringLiteral("--json")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.err.isEmpty());
    const QJsonObject doc = QJsonDocument::fromJson(run.out.toUtf8()).object();
    // auto: δ/(2k) = 1e-5/100, as the view's "auto (δ/2k)".
    QCOMPARE(doc[QLatin1String("query")][QLatin1String("perStepDelta")].toDouble(), 1e-7);
    // One step of σ = 10 at δ = 1e-7 (Balle & Wang 2018 Thm 8), 50 of them added up.
    const double eps0 = pbx::accounting::gaussianEpsilonAtDelta(10.0, 1.0, 1e-7).value();
    PBX_FUZZY_COMPARE(eps0, 0.44707842418640126, 1e-12);
    const double expected[][2] = {{22.353921209320063, 5e-6},  // basic: 50 ε₀, total δ = Σδᵢ
                                  {22.3539212093223, 5e-6},    // advanced falls back to basic
                                  {16.900337461167354, 1e-5}}; // optimal: Σδᵢ + 5e-6 of its own
    const char *names[] = {"basic", "advanced", "optimal"};
    for (int i = 0; i < 3; ++i) {
        const QJsonObject s = doc[QLatin1String(names[i])].toObject();
        QVERIFY2(s[QLatin1String("applicable")].toBool(), names[i]);
        PBX_FUZZY_COMPARE(s[QLatin1String("epsilon")].toDouble(), expected[i][0], 1e-12);
        const QJsonObject p = s[QLatin1String("perStep")].toObject();
        QCOMPARE(p[QLatin1String("stepDelta")].toDouble(), 1e-7);
        QCOMPARE(p[QLatin1String("convertedSteps")].toInt(), 50);
        PBX_FUZZY_COMPARE(p[QLatin1String("stepsDelta")].toDouble(), 5e-6, 1e-12);
    }
    PBX_FUZZY_COMPARE(doc[QLatin1String("basic")][QLatin1String("epsilon")].toDouble(), 50.0 * eps0, 1e-12);
    // RDP, zCDP and the PLD account the Gaussian itself: no per-step view, the same numbers.
    for (const char *name : {"zcdp", "rdp", "pld"})
        QVERIFY2(!doc[QLatin1String(name)].toObject().contains(QLatin1String("perStep")), name);
    PBX_FUZZY_COMPARE(doc[QLatin1String("rdp")][QLatin1String("epsilon")].toDouble(), 3.1889915626336105,
                      1e-12);

    // The same per-step δ given as a number: the same answers.
    const auto fixed = pbx::test::runCli({QStringLiteral("compare"), QStringLiteral("--ledger"), ledger,
                                          QStringLiteral("--per-step-delta"), QStringLiteral("1e-7"),
                                          QStringLiteral("--json")});
    QCOMPARE(fixed.exitCode, 0);
    const QJsonObject f = QJsonDocument::fromJson(fixed.out.toUtf8()).object();
    for (const char *name : names)
        QCOMPARE(f[QLatin1String(name)][QLatin1String("epsilon")].toDouble(),
                 doc[QLatin1String(name)][QLatin1String("epsilon")].toDouble());

    // Without the option the three do not apply to Gaussian steps.
    const auto off = pbx::test::runCli(
        {QStringLiteral("compare"), QStringLiteral("--ledger"), ledger, QStringLiteral("--json")});
    QCOMPARE(off.exitCode, 0);
    const QJsonObject o = QJsonDocument::fromJson(off.out.toUtf8()).object();
    QVERIFY(!o[QLatin1String("basic")][QLatin1String("applicable")].toBool());
    QVERIFY(!o[QLatin1String("query")].toObject().contains(QLatin1String("perStepDelta")));
}

void TestCliCompare::perStepDeltaText()
{
    QTemporaryDir dir;
    const QString ledger = writeFile(dir, QStringLiteral("gaussian50.json"), kGaussianLedger);
    const auto run = pbx::test::runCli({QStringLiteral("compare"), QStringLiteral("--ledger"), ledger,
                                        QStringLiteral("--per-step-delta"), QStringLiteral("auto")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains(QStringLiteral("Per-step (epsilon, delta) view: 50 Gaussian/zCDP steps at "
                                             "delta = 1e-07 each (auto: delta/(2k), rounded down)\n")),
             qPrintable(run.out));
    QVERIFY(
        run.out.contains(QStringLiteral("strategy  sum of step deltas  composition's share  total delta")));
    // As the view's row detail: basic "total δ = Σδᵢ ≤ 5e-6", optimal "total δ = 1e-5 = Σδᵢ 5e-6
    // + 5e-6 of the composition". (The first table's rows start with the names too; the
    // per-step table's rows come last.)
    const QString perStep = run.out.mid(run.out.indexOf(QStringLiteral("Per-step")));
    QCOMPARE(rowOf(perStep, QStringLiteral("basic")),
             (QStringList{QStringLiteral("basic"), QStringLiteral("5e-06"), QStringLiteral("0"),
                          QStringLiteral("5e-06")}));
    QCOMPARE(rowOf(perStep, QStringLiteral("advanced")),
             (QStringList{QStringLiteral("advanced"), QStringLiteral("5e-06"), QStringLiteral("0"),
                          QStringLiteral("5e-06")}));
    QCOMPARE(rowOf(perStep, QStringLiteral("optimal")),
             (QStringList{QStringLiteral("optimal"), QStringLiteral("5e-06"), QStringLiteral("5e-06"),
                          QStringLiteral("1e-05")}));
    QVERIFY(rowOf(perStep, QStringLiteral("rdp")).isEmpty());
    QVERIFY(rowOf(run.out, QStringLiteral("basic")).contains(QStringLiteral("22.35392121")));

    // 1e-6 per step: the 50 steps charge 5e-5 > δ = 1e-5, nothing is left (the view's note).
    const auto voided = pbx::test::runCli({QStringLiteral("compare"), QStringLiteral("--ledger"), ledger,
                                           QStringLiteral("--per-step-delta"), QStringLiteral("1e-6")});
    QCOMPARE(voided.exitCode, 0);
    const QString tail = voided.out.mid(voided.out.indexOf(QStringLiteral("Per-step")));
    QCOMPARE(rowOf(tail, QStringLiteral("optimal")),
             (QStringList{QStringLiteral("optimal"), QStringLiteral("5e-05"), QStringLiteral("none"),
                          QStringLiteral("left"), QStringLiteral("1e-05")}));
    QVERIFY2(tail.contains(QStringLiteral("certify no finite epsilon")), qPrintable(tail));
    QVERIFY2(tail.contains(QStringLiteral("sum of delta_i = 5e-05")), qPrintable(tail));
    QVERIFY2(tail.contains(QStringLiteral("below delta/k = 2e-07")), qPrintable(tail));
    QVERIFY(rowOf(voided.out, QStringLiteral("basic")).contains(QStringLiteral("inf")));

    // A ledger without Gaussian or zCDP steps: auto has nothing to convert.
    const QString pure = writeFile(dir, QStringLiteral("pure.json"), kPureLedger);
    const auto none = pbx::test::runCli({QStringLiteral("compare"), QStringLiteral("--ledger"), pure,
                                         QStringLiteral("--per-step-delta"), QStringLiteral("auto")});
    QCOMPARE(none.exitCode, 0);
    QVERIFY(!none.out.contains(QStringLiteral("Per-step")));
    QVERIFY(rowOf(none.out, QStringLiteral("basic")).contains(QStringLiteral("10")));
}

void TestCliCompare::perStepDeltaErrors()
{
    QTemporaryDir dir;
    const QString ledger = writeFile(dir, QStringLiteral("gaussian50.json"), kGaussianLedger);
    // Negative, zero, not below δ (the default 1e-5, or --delta), not a number: one line, exit 1.
    const QList<QStringList> cases{
        {QStringLiteral("-1e-7")},
        {QStringLiteral("0")},
        {QStringLiteral("1e-5")},
        {QStringLiteral("2e-5")},
        {QStringLiteral("1e-3"), QStringLiteral("--delta"), QStringLiteral("1e-3")},
        {QStringLiteral("x")},
        {QStringLiteral("nan")},
        {QStringLiteral("inf")},
        {QStringLiteral("Auto")}};
    for (const QStringList &c : cases) {
        const auto run = pbx::test::runCli(QStringList{QStringLiteral("compare"), QStringLiteral("--ledger"),
                                                       ledger, QStringLiteral("--per-step-delta")}
                                           + c);
        QVERIFY2(run.exitCode == 1, qPrintable(c.join(QLatin1Char(' ')) + QStringLiteral(": ") + run.err));
        QVERIFY2(run.out.isEmpty(), qPrintable(run.out));
        QCOMPARE(run.err.count(QLatin1Char('\n')), 1);
        QVERIFY2(run.err.startsWith(QStringLiteral("compare: --per-step-delta")), qPrintable(run.err));
    }
    const auto missing = pbx::test::runCli(
        {QStringLiteral("compare"), QStringLiteral("--ledger"), ledger, QStringLiteral("--per-step-delta")});
    QCOMPARE(missing.exitCode, 2);
    // Just below a given δ is fine.
    const auto below = pbx::test::runCli({QStringLiteral("compare"), QStringLiteral("--ledger"), ledger,
                                          QStringLiteral("--delta"), QStringLiteral("1e-3"),
                                          QStringLiteral("--per-step-delta"), QStringLiteral("9e-4"),
                                          QStringLiteral("--json")});
    QCOMPARE(below.exitCode, 0);
    const auto help = pbx::test::runCli({QStringLiteral("compare"), QStringLiteral("--help")});
    QVERIFY(help.out.contains(QStringLiteral("[--per-step-delta D | --per-step-delta auto]")));
    QVERIFY(help.out.contains(QStringLiteral("δ/(2k) rounded down to two significant digits")));
}

QTEST_GUILESS_MAIN(TestCliCompare)
#include "tst_clicompare.moc"
