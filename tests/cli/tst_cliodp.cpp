// SPDX-License-Identifier: MIT
// `pbx-cli odp …` as a real process: the JSON and CSV contracts, the numbers of the output-DP
// test vectors through the command line, and the exit codes (0 success, 1 bad input or
// refusal, 2 usage).
#include "tests/cli/clitestutils.h"
#include "tests/testutils.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

namespace {
/// runCli with UTF-8 literals.
pbx::test::CliRun runCli(std::initializer_list<const char *> words)
{
    QStringList args;
    for (const char *w : words)
        args << QString::fromUtf8(w);
    return pbx::test::runCli(args);
}
} // namespace

class TestCliOdp : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void svt();
    void svtFigureCsv();
    void iqr();
    void earlyStop();
    void thm15();
    void recover();
    void table1();
    void outFile();
    void exitCodes();
};

namespace {
QJsonObject cliJson(const pbx::test::CliRun &run)
{
    return QJsonDocument::fromJson(run.out.toUtf8()).object();
}
} // namespace

void TestCliOdp::svt()
{
    const auto run
        = runCli({"odp", "svt", "--threshold", "2000", "--c", "4", "--epsilon", "1", "--seed", "3"});
    QCOMPARE(run.exitCode, 0);
    const auto doc = cliJson(run);
    PBX_FUZZY_COMPARE(doc[QLatin1String("epsilon1")].toDouble(), 0.1, 1e-14);
    PBX_FUZZY_COMPARE(doc[QLatin1String("epsilon2")].toDouble(), 0.4, 1e-14);
    const int j = doc[QLatin1String("j")].toInt();
    QVERIFY(j >= 0 && j <= 4);
    PBX_FUZZY_COMPARE(doc[QLatin1String("cost")].toDouble(), 0.1 + j * 0.1, 1e-14);
    QCOMPARE(doc[QLatin1String("cells")].toArray().size(), 5);
    QCOMPARE(doc[QLatin1String("releases")].toArray().size(), j);
    PBX_FUZZY_COMPARE(doc[QLatin1String("worst_epsilon")].toDouble(), 0.5, 1e-14);
    QVERIFY(doc[QLatin1String("epsilon_spent")].toDouble() <= 1.0 + 1e-12);
}

void TestCliOdp::svtFigureCsv()
{
    const auto run = runCli({"odp", "svt-figure", "--counts", "0,3,10", "--format", "csv"});
    QCOMPARE(run.exitCode, 0);
    const QStringList lines = run.out.trimmed().split(QLatin1Char('\n'));
    QCOMPARE(lines.size(), 4);
    QCOMPARE(lines[0], QStringLiteral("L,p_nothing,expected_j,dp_std,filter_std,odp_std,odp_std_if_exact"));
    const QStringList three = lines[2].split(QLatin1Char(','));
    QCOMPARE(three[0], QStringLiteral("3"));
    QVERIFY(std::abs(three[2].toDouble() - 3.0009) < 1e-4);
    QVERIFY(std::abs(three[4].toDouble() - 8.4878) < 1e-4);
    QVERIFY(std::abs(three[5].toDouble() - 5.2516) < 1e-4);
}

void TestCliOdp::iqr()
{
    const auto run = runCli({"odp", "iqr", "--neighbours", "replace", "--epsilon", "0.1", "--order", "fixed",
                             "--mode", "bin", "--seed", "1"});
    QCOMPARE(run.exitCode, 0);
    const auto doc = cliJson(run);
    QCOMPARE(doc[QLatin1String("gamma")].toArray()[0].toInt(), 223);
    QCOMPARE(doc[QLatin1String("gamma")].toArray()[1].toInt(), 171);
    PBX_FUZZY_COMPARE(doc[QLatin1String("t")].toDouble(), 132.22363377404326, 1e-15);
    const int c = doc[QLatin1String("case")].toInt();
    QVERIFY(c >= 1 && c <= 3);
    // Bin mode, two entries: case 1 costs ε, cases 2 and 3 cost 2ε.
    PBX_FUZZY_COMPARE(doc[QLatin1String("cost")].toDouble(), c == 1 ? 0.1 : 0.2, 1e-14);
    const auto sub = runCli({"odp", "iqr", "--neighbours", "replace", "--epsilon", "0.1", "--seed", "2",
                             "--where", "ethnicity == \"afam\" and region == \"west\""});
    QCOMPARE(sub.exitCode, 0);
    QCOMPARE(cliJson(sub)[QLatin1String("n")].toInt(), 195);
    const auto refused = runCli({"odp", "iqr", "--epsilon", "0.1"});
    QCOMPARE(refused.exitCode, 1);
    QVERIFY(refused.err.contains(QStringLiteral("replace-one")));
}

void TestCliOdp::earlyStop()
{
    const auto run = runCli({"odp", "early-stop", "--stops", "100,200,300,400,500,600,700,800,900,1000",
                             "--noise-multiplier", "30", "--delta", "1e-5"});
    QCOMPARE(run.exitCode, 0);
    const auto doc = cliJson(run);
    QVERIFY(std::abs(doc[QLatin1String("dp_epsilon")].toDouble() - 4.652985) < 1e-6);
    QVERIFY(std::abs(doc[QLatin1String("costs")].toArray()[0].toDouble() - 1.447988) < 1e-6);
    QVERIFY(std::abs(doc[QLatin1String("costs")].toArray()[9].toDouble() - 5.189037) < 1e-6);
    const auto tuned = runCli({"odp", "early-stop", "--stops", "20,40,60,80,100", "--step-epsilon", "0.05",
                               "--delta", "1e-6", "--theorem", "thm15", "--stopped-at", "70"});
    QCOMPARE(tuned.exitCode, 0);
    const auto t = cliJson(tuned);
    QVERIFY(std::abs(t[QLatin1String("scale")].toDouble() - 1.329022) < 1e-6);
    QCOMPARE(t[QLatin1String("stopped_at")].toObject()[QLatin1String("cell")].toInt(),
             3); // between stops: the next one's cost
    QVERIFY(std::abs(t[QLatin1String("stopped_at")].toObject()[QLatin1String("cost")].toDouble() - 2.070138)
            < 1e-6);
}

void TestCliOdp::thm15()
{
    const auto run = runCli({"odp", "thm15", "--stops", "20,40,60,80,100", "--step-epsilon", "0.05",
                             "--costs", "0.898351,1.394911,1.777398,2.088141,2.373870"});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(std::abs(cliJson(run)[QLatin1String("delta")].toDouble() - 7.370599e-07)
            < 1e-11); // costs given to 6 digits
}

void TestCliOdp::recover()
{
    const auto run = runCli({"odp", "recover", "--features", "weak", "--seed", "5", "--simulation"});
    QCOMPARE(run.exitCode, 0);
    const auto doc = cliJson(run);
    PBX_FUZZY_COMPARE(doc[QLatin1String("cells")].toObject()[QLatin1String("release")].toDouble(), 2.0,
                      1e-12);
    PBX_FUZZY_COMPARE(doc[QLatin1String("cells")].toObject()[QLatin1String("bottom")].toDouble(), 0.5, 1e-9);
    PBX_FUZZY_COMPARE(doc[QLatin1String("s")].toDouble(), 4.439709e-03, 1e-6);
    QVERIFY(std::abs(doc[QLatin1String("simulation")].toObject()[QLatin1String("true_error")].toDouble()
                     - 0.495564)
            < 1e-6);
    const double cost = doc[QLatin1String("cost")].toDouble();
    QVERIFY(cost
            == doc[QLatin1String("cells")]
                   .toObject()[doc[QLatin1String("released")].toBool() ? QStringLiteral("release")
                                                                       : QStringLiteral("bottom")]
                   .toDouble());
    const auto bad = runCli({"odp", "recover", "--tau", "1.5"});
    QCOMPARE(bad.exitCode, 1);
    QVERIFY(bad.err.contains(QStringLiteral("tau")));
    const auto lambda = runCli({"odp", "recover", "--lambda", "0"});
    QCOMPARE(lambda.exitCode, 1);
    QVERIFY(lambda.err.contains(QStringLiteral("lambda")));
}

void TestCliOdp::table1()
{
    const auto run = runCli({"odp", "table1", "--format", "csv"});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains(QStringLiteral("\n0.1,1e-05,16\n")));
    QVERIFY(run.out.contains(QStringLiteral("\n2,1e-09,164\n")));
    const auto comp = runCli({"odp", "table1", "--eps0", "1", "--delta", "1e-3", "--companions"});
    const auto row = cliJson(comp)[QLatin1String("rows")].toArray()[0].toObject();
    QCOMPARE(row[QLatin1String("k_min")].toInt(), 22);
    QCOMPARE(row[QLatin1String("kov_analytic")].toInt(), 48);
    QCOMPARE(row[QLatin1String("drv")].toString(), QStringLiteral("never"));
    QCOMPARE(row[QLatin1String("ten_percent")].toInt(), 29);
}

void TestCliOdp::outFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("t.json"));
    const auto run = pbx::test::runCli(
        {QStringLiteral("odp"), QStringLiteral("table1"), QStringLiteral("--eps0"), QStringLiteral("0.5"),
         QStringLiteral("--delta"), QStringLiteral("1e-5"), QStringLiteral("--out"), path});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.isEmpty());
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(QJsonDocument::fromJson(f.readAll())
                 .object()[QLatin1String("rows")]
                 .toArray()[0]
                 .toObject()[QLatin1String("k_min")]
                 .toInt(),
             24);
}

void TestCliOdp::exitCodes()
{
    QCOMPARE(runCli({"odp"}).exitCode, 2);
    QCOMPARE(runCli({"odp", "--help"}).exitCode, 0);
    QCOMPARE(runCli({"odp", "nosuch"}).exitCode, 2);
    QCOMPARE(runCli({"odp", "svt", "--help"}).exitCode, 0);
    QCOMPARE(runCli({"odp", "table1", "--bogus", "1"}).exitCode, 2);
    QCOMPARE(runCli({"odp", "svt", "--c", "4", "--epsilon", "1"}).exitCode, 2); // --threshold missing
    QCOMPARE(runCli({"odp", "iqr", "--mode", "wild"}).exitCode, 2);
    QCOMPARE(runCli({"odp", "thm15", "--stops", "1,2", "--step-epsilon", "0.1", "--costs", "0.1,0.2",
                     "--format", "csv"})
                 .exitCode,
             2); // JSON only
    // Hostile values: exit 1, the field named, nothing released.
    const auto c0 = runCli({"odp", "svt", "--threshold", "10", "--c", "0", "--epsilon", "1"});
    QCOMPARE(c0.exitCode, 1);
    QVERIFY(c0.err.contains(QStringLiteral("--c")));
    QVERIFY(c0.out.isEmpty());
    const auto e1 = runCli({"odp", "svt", "--threshold", "10", "--c", "2", "--epsilon", "1", "--epsilon1",
                            "-1", "--epsilon2", "0.4"});
    QCOMPARE(e1.exitCode, 1);
    QVERIFY(e1.err.contains(QStringLiteral("epsilon1")));
    const auto nan = runCli({"odp", "svt", "--threshold", "nan", "--c", "2", "--epsilon", "1"});
    QCOMPARE(nan.exitCode, 1);
    QVERIFY(nan.err.contains(QStringLiteral("--threshold")));
    const auto stops
        = runCli({"odp", "early-stop", "--stops", "20,10", "--step-epsilon", "0.1", "--delta", "1e-6"});
    QCOMPARE(stops.exitCode, 1);
    QVERIFY(stops.err.contains(QStringLiteral("stops")));
}

QTEST_GUILESS_MAIN(TestCliOdp)
#include "tst_cliodp.moc"
