// SPDX-License-Identifier: MIT
// `pbx-cli compare --json` pinned to the byte: the whole document (table, δ(ε) profile, RDP curve,
// PLD histogram, ε(k) and δ(k) over 30 prefixes) of four ledgers, recorded before the curves
// were made incremental (issue 31), so that a faster comparison prints the same numbers to the
// digits printed. The ledgers (tests/cli/data/compare/): 100 Gaussian steps σ = 1.1 in one
// event; 60 distinct Laplace steps (scales 5, 5.25, …, 19.75); 36 events mixing Laplace (count
// 2), Gaussian (count 3) and randomized response, at --epsilon 3 and with --per-step-delta auto.
// To re-record after a deliberate change of the numbers: run the command of each row and
// overwrite its *.expected.json, and say why in the commit.
#include "tests/cli/clitestutils.h"

#include <QFile>
#include <QtTest/QtTest>

namespace {

QString dataFile(const QString &name)
{
    return QStringLiteral(PBX_CLI_DATA "/compare/") + name;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return f.readAll();
}

} // namespace

class TestCliComparePinned : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void pinned_data();
    void pinned();
};

void TestCliComparePinned::pinned_data()
{
    QTest::addColumn<QString>("ledger");
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("expected");
    QTest::newRow("gaussian100") << QStringLiteral("gaussian100.json") << QStringList{}
                                 << QStringLiteral("gaussian100.expected.json");
    QTest::newRow("laplace60") << QStringLiteral("laplace60.json") << QStringList{}
                               << QStringLiteral("laplace60.expected.json");
    QTest::newRow("mixed at ε = 3") << QStringLiteral("mixed.json")
                                    << QStringList{QStringLiteral("--epsilon"), QStringLiteral("3")}
                                    << QStringLiteral("mixed_eps3.expected.json");
    QTest::newRow("mixed per-step δ")
        << QStringLiteral("mixed.json")
        << QStringList{QStringLiteral("--per-step-delta"), QStringLiteral("auto")}
        << QStringLiteral("mixed_psd.expected.json");
}

void TestCliComparePinned::pinned()
{
    QFETCH(QString, ledger);
    QFETCH(QStringList, options);
    QFETCH(QString, expected);
    QStringList args{QStringLiteral("compare"), QStringLiteral("--ledger"), dataFile(ledger)};
    args << options << QStringLiteral("--json");
    const auto run = pbx::test::runCli(args);
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.err.isEmpty());
    const QStringList got = run.out.split(QLatin1Char('\n'));
    const QStringList want = QString::fromUtf8(readAll(dataFile(expected))).split(QLatin1Char('\n'));
    // The first line that differs, with its number, rather than two 35 kB documents.
    for (qsizetype i = 0; i < std::min(got.size(), want.size()); ++i)
        if (got[i] != want[i])
            QFAIL(qPrintable(
                QStringLiteral("line %1: got '%2', expected '%3'").arg(i + 1).arg(got[i], want[i])));
    QCOMPARE(got.size(), want.size());
}

QTEST_GUILESS_MAIN(TestCliComparePinned)
#include "tst_clicomparepinned.moc"
