// SPDX-License-Identifier: MIT
// `pbx-cli compare --json` pinned: the whole document (table, δ(ε) profile, RDP curve, PLD
// histogram, ε(k) and δ(k) over 30 prefixes) of four ledgers, recorded before the curves were made
// incremental, so that a faster comparison prints the same numbers. Same keys, strings,
// array lengths and flags; every number within 1e-9 relative (kRelativeTolerance): the faster
// curves sum in another order (the δ(ε) profile in one sweep, ε(k) by running products), which
// moves the last digits — measured ≤ 1.5e-14 for the profile — while each value stays an upper
// bound. The ledgers (tests/cli/data/compare/): 100 Gaussian steps σ = 1.1 in one event; 60
// distinct Laplace steps (scales 5, 5.25, …, 19.75); 36 events mixing Laplace (count 2), Gaussian
// (count 3) and randomized response, at --epsilon 3 and with --per-step-delta auto.
// The two mixed files were re-recorded when the PLD's ε(k) stopped forming its last convolution
// (ComposedPmfQuery, docs/composition-strategies.md): its ε(k) and δ(k) moved down by the FFT
// round-off charge no longer paid (ε ≤ 1.03e-7 relative; δ ≤ 1.8e-11 absolute), still upper bounds.
// laplace60 and mixed per-step δ were re-recorded when the optimal strategy's ε(k) became one
// running product (OptimalPrefixComposer, docs/composition-strategies.md): its ε(k) moved up by at
// most 4.6e-5 (mixed) and 2.9e-3 (laplace60, d = 1e-3) relative, never down (its PLD dominates the
// fresh build's), and its δ(ε) profile up by 2e-12 relative (one sweep, raised to stay above the
// pointwise values); every other number is bit-identical.
// To re-record after a deliberate change of the numbers: run the command of each row and
// overwrite its *.expected.json, and say why in the commit.
#include "tests/cli/clitestutils.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest/QtTest>

#include <cmath>

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

constexpr double kRelativeTolerance = 1e-9;

/// The first place where `got` and `want` differ (a number by more than kRelativeTolerance
/// relative, anything else at all), as "path: got …, expected …"; empty when they agree.
QString firstDifference(const QJsonValue &got, const QJsonValue &want, const QString &path)
{
    const auto show = [](const QJsonValue &v) {
        if (v.isDouble())
            return QString::number(v.toDouble(), 'g', 17);
        if (v.isArray())
            return QStringLiteral("an array of %1").arg(v.toArray().size());
        if (v.isObject())
            return QStringLiteral("an object");
        return QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact));
    };
    const QString differ
        = path + QStringLiteral(": got ") + show(got) + QStringLiteral(", expected ") + show(want);
    if (got.type() != want.type())
        return differ;
    if (want.isDouble()) {
        const double a = got.toDouble(), b = want.toDouble();
        return std::fabs(a - b) <= kRelativeTolerance * std::max(std::fabs(a), std::fabs(b)) ? QString()
                                                                                             : differ;
    }
    if (want.isArray()) {
        const QJsonArray g = got.toArray(), w = want.toArray();
        if (g.size() != w.size())
            return differ;
        for (qsizetype i = 0; i < w.size(); ++i)
            if (QString d = firstDifference(g[i], w[i], path + QStringLiteral("[%1]").arg(i)); !d.isEmpty())
                return d;
        return {};
    }
    if (want.isObject()) {
        const QJsonObject g = got.toObject(), w = want.toObject();
        if (g.keys() != w.keys())
            return path + QStringLiteral(": keys ") + g.keys().join(QLatin1Char(','))
                   + QStringLiteral(", expected ") + w.keys().join(QLatin1Char(','));
        for (auto it = w.begin(); it != w.end(); ++it)
            if (QString d
                = firstDifference(g.value(it.key()), it.value(), path + QLatin1Char('.') + it.key());
                !d.isEmpty())
                return d;
        return {};
    }
    return got == want ? QString() : differ;
}

QJsonValue parse(const QByteArray &text)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(text, &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("not JSON: %s", qPrintable(error.errorString()));
    return doc.object();
}

} // namespace

class TestCliComparePinned : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void pinned_data();
    void pinned();
    void toleranceIsRelative();
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
    const QString difference
        = firstDifference(parse(run.out.toUtf8()), parse(readAll(dataFile(expected))), QStringLiteral("$"));
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
}

// The comparison itself: a number moved by 1e-10 relative passes, by 1e-8 fails and is named.
void TestCliComparePinned::toleranceIsRelative()
{
    const QJsonValue want = parse(readAll(dataFile(QStringLiteral("gaussian100.expected.json"))));
    QJsonObject pld = want[QStringLiteral("pld")].toObject();
    const double eps = pld[QStringLiteral("epsilon")].toDouble();
    QCOMPARE(eps, 79.27549552788922);
    QJsonObject near = want.toObject(), far = want.toObject();
    pld[QStringLiteral("epsilon")] = eps * (1.0 + 1e-10);
    near[QStringLiteral("pld")] = pld;
    pld[QStringLiteral("epsilon")] = eps * (1.0 + 1e-8);
    far[QStringLiteral("pld")] = pld;
    QCOMPARE(firstDifference(near, want, QStringLiteral("$")), QString());
    QVERIFY(firstDifference(far, want, QStringLiteral("$"))
                .startsWith(QStringLiteral("$.pld.epsilon: got 79.2754")));
}

QTEST_GUILESS_MAIN(TestCliComparePinned)
#include "tst_clicomparepinned.moc"
