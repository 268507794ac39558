// SPDX-License-Identifier: MIT
// `pbx-cli compare` as a real process: the JSON contract (the `account` object plus "curves")
// with known numbers (100 steps of ε = 0.1 at δ = 1e-5: basic composition 10, the optimum
// 4.306791372516508, ε(k) = 0.1 k for basic composition), the text table, --out, and the exit
// codes (0 success, 1 bad input with one line naming the file, field or option, 2 usage).
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

} // namespace

class TestCliCompare : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void json();
    void text();
    void outFile();
    void errors();
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

QTEST_GUILESS_MAIN(TestCliCompare)
#include "tst_clicompare.moc"
