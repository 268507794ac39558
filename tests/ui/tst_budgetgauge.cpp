// SPDX-License-Identifier: MIT
// BudgetGauge: threshold colours, filled vs empty parts of the arcs (sampled pixels), the inner
// ε ring only when the native unit is not ε, and the text readout. Saves one PNG per row.
#include "ui/widgets/budgetgauge.h"
#include "uitestutils.h"

#include <QImage>
#include <QtTest/QtTest>

using pbx::ui::BudgetGauge;

class TestBudgetGauge : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void thresholdColours()
    {
        QCOMPARE(BudgetGauge::colourForFraction(0.0), BudgetGauge::colourForFraction(0.59));
        QVERIFY(BudgetGauge::colourForFraction(0.59) != BudgetGauge::colourForFraction(0.6));
        QCOMPARE(BudgetGauge::colourForFraction(0.6), BudgetGauge::colourForFraction(0.84));
        QVERIFY(BudgetGauge::colourForFraction(0.84) != BudgetGauge::colourForFraction(0.85));
        QCOMPARE(BudgetGauge::colourForFraction(0.85), BudgetGauge::colourForFraction(1.0));
    }

    /// What was spent is shown rounded up and what remains rounded down, with the digits every
    /// view uses, and the ε line says it is the guarantee (the headline is a share of ρ).
    void readoutRoundsLossesUpAndSaysWhichIsTheGuarantee()
    {
        BudgetGauge gauge;
        gauge.setBudget(0.0175, QStringLiteral("ρ"), 1.0, 1e-6);
        gauge.setSpent(0.00123412, 0.20512);
        const QString readout = gauge.readout();
        QVERIFY2(readout.contains(QStringLiteral("ρ spent 0.001235 of 0.0175")), qPrintable(readout));
        QVERIFY2(readout.contains(QStringLiteral("0.01626 left")), qPrintable(readout)); // 0.01626588
        QVERIFY2(readout.contains(QStringLiteral("guarantee: ε ≤ 0.2052 of 1 at δ = 1e-6")),
                 qPrintable(readout));
        bool guaranteeLine = false;
        for (const auto &item : gauge.textItems())
            guaranteeLine
                = guaranteeLine || item.text == QStringLiteral("guarantee: ε ≤ 0.2052 of 1 at δ = 1e-6");
        QVERIFY(guaranteeLine);
    }

    void paintsFilledAndEmptyParts_data()
    {
        QTest::addColumn<QString>("unit");
        QTest::addColumn<double>("budget");
        QTest::addColumn<double>("fraction");
        QTest::addColumn<double>("epsilonFraction");
        // ρ budget of (ε = 1, δ = 1e-6) is about 0.0175; its ε-equivalent grows faster than ρ.
        QTest::newRow("zcdp_30pct") << QStringLiteral("ρ") << 0.0175 << 0.30 << 0.62;
        QTest::newRow("zcdp_70pct") << QStringLiteral("ρ") << 0.0175 << 0.70 << 0.86;
        QTest::newRow("basic_95pct") << QStringLiteral("ε") << 1.0 << 0.95 << 0.95;
    }

    void paintsFilledAndEmptyParts()
    {
        QFETCH(QString, unit);
        QFETCH(double, budget);
        QFETCH(double, fraction);
        QFETCH(double, epsilonFraction);

        BudgetGauge gauge;
        gauge.setBudget(budget, unit, 1.0, 1e-6);
        gauge.setSpent(fraction * budget, epsilonFraction);
        QCOMPARE(gauge.spent(), fraction * budget);
        QVERIFY(qAbs(gauge.fraction() - fraction) < 1e-12);
        QVERIFY(qAbs(gauge.remaining() - (1.0 - fraction) * budget) < 1e-12);
        QCOMPARE(gauge.showsEpsilonRing(), unit != QStringLiteral("ε"));
        QVERIFY(gauge.readout().contains(unit));

        gauge.resize(340, 290);
        gauge.show();
        QVERIFY(QTest::qWaitForWindowExposed(&gauge));
        const QImage image = gauge.grab().toImage();
        QVERIFY(!image.isNull());
        const QString name
            = QStringLiteral("budgetgauge_%1").arg(QString::fromLatin1(QTest::currentDataTag()));
        QVERIFY(!pbx::test::saveScreenshot(gauge, name).isEmpty());

        const auto pixel = [&](QPointF p) { return image.pixelColor(p.toPoint()); };
        const QColor expectedFill = BudgetGauge::colourForFraction(fraction);
        const QColor filled = pixel(gauge.pointOnRing(BudgetGauge::Ring::Native, fraction / 2));
        const QColor empty = pixel(gauge.pointOnRing(BudgetGauge::Ring::Native, (1 + fraction) / 2));
        QVERIFY2(pbx::test::closeColour(filled, expectedFill),
                 qPrintable(
                     QStringLiteral("filled part %1, expected %2").arg(filled.name(), expectedFill.name())));
        QVERIFY2(pbx::test::closeColour(empty, QColor(0xe3, 0xe6, 0xea)),
                 qPrintable(QStringLiteral("empty part %1").arg(empty.name())));

        const QColor innerFilled = pixel(gauge.pointOnRing(BudgetGauge::Ring::Epsilon, epsilonFraction / 2));
        if (gauge.showsEpsilonRing()) {
            const QColor expectedInner = BudgetGauge::colourForFraction(epsilonFraction).darker(135);
            QVERIFY2(pbx::test::closeColour(innerFilled, expectedInner),
                     qPrintable(QStringLiteral("inner ring %1, expected %2")
                                    .arg(innerFilled.name(), expectedInner.name())));
        } else {
            QVERIFY2(pbx::test::closeColour(innerFilled, gauge.palette().color(QPalette::Window)),
                     qPrintable(QStringLiteral("no inner ring expected, got %1").arg(innerFilled.name())));
        }
    }

    void clampsOverspendAndEmptyBudget()
    {
        BudgetGauge gauge;
        gauge.setBudget(0.0, QStringLiteral("ρ"), 1.0, 1e-6);
        QCOMPARE(gauge.fraction(), 0.0);
        gauge.setBudget(1.0, QStringLiteral("ε"), 1.0, 0.0);
        gauge.setSpent(2.0, 2.0);
        QCOMPARE(gauge.fraction(), 1.0);
        QCOMPARE(gauge.remaining(), 0.0);
        QVERIFY(!gauge.accessibleDescription().isEmpty());
    }
};

QTEST_MAIN(TestBudgetGauge)
#include "tst_budgetgauge.moc"
