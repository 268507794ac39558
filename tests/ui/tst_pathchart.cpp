// SPDX-License-Identifier: MIT
// PrivacyLossPathChart: points appear after the coalescing timer (many appends → one update),
// refused requests get markers, the native series is hidden for pure ε. Saves a PNG.
#include "ui/charts/privacylosspathchart.h"
#include "uitestutils.h"

#include <QtTest/QtTest>

#include <vector>

using pbx::ui::PrivacyLossPathChart;

class TestPathChart : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void coalescesUpdates()
    {
        PrivacyLossPathChart chart;
        chart.setBudget(1.0, 0.0175, QStringLiteral("ρ"), 1e-6);
        chart.flush();
        QCOMPARE(chart.pointCount(), 0);
        // Before the first request only the budget is drawn, and the chart says what fills it.
        QCOMPARE(chart.message(),
                 QStringLiteral("No request yet: each release adds a step here, up to the budget line."));
        for (int i = 1; i <= 10; ++i)
            chart.appendPoint({0.05 * i, 0.0008 * i, false});
        // Nothing is redrawn until the single-shot timer fires, then all ten points at once.
        QCOMPARE(chart.pointCount(), 0);
        QTRY_COMPARE(chart.pointCount(), 10);
        chart.appendPoint({0.5, 0.008, true});
        chart.flush();
        QCOMPARE(chart.pointCount(), 11);
        QCOMPARE(chart.refusedCount(), 1);
        QVERIFY(chart.message().isEmpty());
        QVERIFY(chart.legendText().contains(QStringLiteral("ρ spent")));
    }

    void replacesWholePath()
    {
        PrivacyLossPathChart chart;
        chart.setBudget(1.0, 1.0, QStringLiteral("ε"), 0.0);
        std::vector<PrivacyLossPathChart::PathPoint> points{
            {0.2, 0.2, false}, {0.2, 0.2, true}, {0.45, 0.45, false}};
        chart.setPath(points);
        chart.flush();
        QCOMPARE(chart.pointCount(), 3);
        QCOMPARE(chart.refusedCount(), 1);
        // Pure ε: native = ε, so the second series is not in the legend.
        QVERIFY(!chart.legendText().contains(QStringLiteral("right axis")));
        QVERIFY(chart.marksRequests());
        // 40 requests (lesson 1's last step): the line alone, its markers would run together.
        std::vector<PrivacyLossPathChart::PathPoint> forty;
        for (int i = 1; i <= 40; ++i)
            forty.push_back({0.03 * i, 0.03 * i, false});
        chart.setPath(forty);
        chart.flush();
        QCOMPARE(chart.pointCount(), 40);
        QVERIFY(!chart.marksRequests());
        forty.resize(31);
        chart.setPath(forty);
        chart.flush();
        QVERIFY(chart.marksRequests());
        chart.setPath({});
        chart.flush();
        QCOMPARE(chart.pointCount(), 0);
    }

    void screenshot()
    {
        PrivacyLossPathChart chart;
        chart.resize(420, 420);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.setBudget(1.0, 1.0, QStringLiteral("ε"), 1e-6);
        chart.flush();
        QTest::qWait(100);
        chart.setBudget(1.0, 0.0175, QStringLiteral("ρ"), 1e-6);
        std::vector<PrivacyLossPathChart::PathPoint> points;
        double rho = 0.0;
        for (int i = 0; i < 14; ++i) {
            const bool refused = i == 9 || i == 13;
            if (!refused)
                rho += 0.0011;
            // ε = ρ + 2√(ρ ln(1/δ)) at δ = 1e-6
            const double eps = rho + 2.0 * std::sqrt(rho * std::log(1e6));
            points.push_back({eps, rho, refused});
        }
        chart.setPath(points);
        chart.resize(420, 420);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.flush();
        QCoreApplication::processEvents();
        // All 14 requests are drawn, the two refusals (9 and 13) as markers, under the ρ budget.
        QCOMPARE(chart.pointCount(), 14);
        QCOMPARE(chart.refusedCount(), 2);
        QVERIFY2(chart.legendText().contains(QStringLiteral("ρ spent")), qPrintable(chart.legendText()));
        QVERIFY(!pbx::test::saveScreenshot(chart, QStringLiteral("pathchart_zcdp")).isEmpty());
    }
};

QTEST_MAIN(TestPathChart)
#include "tst_pathchart.moc"
