// SPDX-License-Identifier: MIT
// Percentages and confidence levels: rounding never changes meaning (a fraction below 1 is never
// shown as "100 %", one above 0 never as "0 %"). Counts take their noun in the right number
// ("1 request", never "1 requests"), in the GUI and in the CLI and reports (pbx::countNoun).
#include "core/util/plural.h"
#include "ui/util/numberformat.h"

#include <QtTest/QtTest>

using pbx::ui::formatConfidence;
using pbx::ui::formatCount;
using pbx::ui::formatPercent;

class TestNumberFormat : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void percent_data()
    {
        QTest::addColumn<double>("fraction");
        QTest::addColumn<int>("decimals");
        QTest::addColumn<QString>("expected");
        QTest::newRow("ordinary") << 0.374 << 1 << QStringLiteral("37.4 %");
        QTest::newRow("whole") << 0.5 << 0 << QStringLiteral("50 %");
        QTest::newRow("full") << 1.0 << 0 << QStringLiteral("100 %");
        QTest::newRow("empty") << 0.0 << 1 << QStringLiteral("0.0 %");
        // The gauge at 99.65 % spent: one more decimal, not "100 %".
        QTest::newRow("nearly full") << 0.9965 << 0 << QStringLiteral("99.7 %");
        QTest::newRow("nearly full, one decimal") << 0.99996 << 1 << QStringLiteral("99.996 %");
        QTest::newRow("beyond three more decimals") << 0.9999999 << 1 << QStringLiteral("> 99.9999 %");
        QTest::newRow("barely started") << 0.00004 << 1 << QStringLiteral("0.004 %");
        QTest::newRow("almost nothing") << 1e-12 << 0 << QStringLiteral("< 0.001 %");
    }

    void percent()
    {
        QFETCH(double, fraction);
        QFETCH(int, decimals);
        QFETCH(QString, expected);
        QCOMPARE(formatPercent(fraction, decimals), expected);
    }

    void confidence_data()
    {
        QTest::addColumn<double>("level");
        QTest::addColumn<QString>("expected");
        QTest::newRow("95") << 0.95 << QStringLiteral("95 %");
        QTest::newRow("99.5") << 0.995 << QStringLiteral("99.5 %");
        // The refusal card showed 0.99999 as "100 %".
        QTest::newRow("99.999") << 0.99999 << QStringLiteral("99.999 %");
        QTest::newRow("99.99999") << 0.9999999 << QStringLiteral("99.99999 %");
    }

    void confidence()
    {
        QFETCH(double, level);
        QFETCH(QString, expected);
        QCOMPARE(formatConfidence(level), expected);
    }

    void counts()
    {
        const QString one = QStringLiteral("request");
        const QString many = QStringLiteral("requests");
        QCOMPARE(formatCount(1, one, many), QStringLiteral("1 request"));
        QCOMPARE(formatCount(0, one, many), QStringLiteral("0 requests"));
        QCOMPARE(formatCount(2, one, many), QStringLiteral("2 requests"));
        QCOMPARE(formatCount(10000, one, many), QStringLiteral("10,000 requests"));
        QCOMPARE(pbx::countNoun(1, "epoch", "epochs"), std::string("1 epoch"));
        QCOMPARE(pbx::countNoun(0, "epoch", "epochs"), std::string("0 epochs"));
        QCOMPARE(pbx::countNoun(12, "epoch", "epochs"), std::string("12 epochs"));
    }
};

QTEST_MAIN(TestNumberFormat)
#include "tst_numberformat.moc"
