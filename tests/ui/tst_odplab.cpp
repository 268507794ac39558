// SPDX-License-Identifier: MIT
// Labs ▸ Output DP: the filter-path demonstration, the sparse-vector figure computed off the GUI
// thread (with cancel), the early-stopping presets and the crossover table; a screenshot of
// every tab.
#include "tests/ui/uitestutils.h"
#include "ui/charts/odplinechart.h"
#include "ui/odp/odplabdialog.h"

#include <QComboBox>
#include <QTabWidget>
#include <QTableWidget>

using namespace pbx::ui;

class TestOdpLab : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void filterPath();
    void sparseVectorFigure();
    void earlyStopping();
    void crossover();
    void ptrAndRecovery();
};

void TestOdpLab::filterPath()
{
    OdpLabDialog lab;
    lab.show();
    // reserved, settled, plain DP (stops before request 6), certificate
    QCOMPARE(lab.filterChart()->curveCount(), 4);
    QCOMPARE(lab.filterChart()->pointCount(2), 6); // origin + requests 1–5
    QCOMPARE(lab.filterChart()->pointCount(1), 10);
    QCOMPARE(lab.deltaChart()->curveCount(), 1);
    QVERIFY(!pbx::test::saveScreenshot(lab, QStringLiteral("odplab-filter")).isEmpty());
}

void TestOdpLab::sparseVectorFigure()
{
    OdpLabDialog lab;
    lab.tabs()->setCurrentIndex(1);
    lab.show();
    lab.computeSvtFigure();
    lab.waitForSvtFigure();
    QTRY_VERIFY(!lab.svtRunning());
    QTRY_COMPARE(lab.svtChart()->curveCount(), 3);
    QCOMPARE(lab.svtChart()->pointCount(0), 21); // DP, L = 0 … 20
    QVERIFY(!pbx::test::saveScreenshot(lab, QStringLiteral("odplab-svt")).isEmpty());
    // Cancel right after a start: the job stops and the chart keeps the last result.
    lab.computeSvtFigure();
    lab.cancelSvtFigure();
    lab.waitForSvtFigure();
    QTRY_VERIFY(!lab.svtRunning());
    QCOMPARE(lab.svtChart()->curveCount(), 3);
}

void TestOdpLab::earlyStopping()
{
    OdpLabDialog lab;
    lab.tabs()->setCurrentIndex(3);
    lab.show();
    QCOMPARE(lab.earlyStopChart()->curveCount(), 4); // DP, Lemma 11, basic, Theorem 15
    QCOMPARE(lab.earlyStopChart()->pointCount(1), 5);
    QVERIFY(!pbx::test::saveScreenshot(lab, QStringLiteral("odplab-earlystop")).isEmpty());
    auto *preset = lab.findChildren<QComboBox *>().last();
    preset->setCurrentIndex(1);
    QCOMPARE(lab.earlyStopChart()->curveCount(), 2); // Gaussian: DP and Lemma 11
    QCOMPARE(lab.earlyStopChart()->pointCount(1), 10);
    QVERIFY(!pbx::test::saveScreenshot(lab, QStringLiteral("odplab-earlystop-gauss")).isEmpty());
}

void TestOdpLab::crossover()
{
    OdpLabDialog lab;
    lab.tabs()->setCurrentIndex(5);
    lab.show();
    QCOMPARE(lab.crossoverTable()->item(2, 2)->text(), QStringLiteral("16")); // ε₀ = 0.1, δ = 1e-5
    QCOMPARE(lab.crossoverTable()->item(6, 6)->text(), QStringLiteral("164"));
    QVERIFY(!pbx::test::saveScreenshot(lab, QStringLiteral("odplab-crossover")).isEmpty());
}

void TestOdpLab::ptrAndRecovery()
{
    OdpLabDialog lab;
    lab.tabs()->setCurrentIndex(2);
    lab.show();
    QCOMPARE(lab.ptrChart()->curveCount(), 3);
    // Noisy mode, in units of ε: DP 3/3/3, Lemma 10 3/3/2, two entries 2/3/2.
    QCOMPARE(lab.ptrCosts()->item(0, 2)->text(), QStringLiteral("3ε"));
    QCOMPARE(lab.ptrCosts()->item(1, 2)->text(), QStringLiteral("2ε"));
    QCOMPARE(lab.ptrCosts()->item(3, 0)->text(), QStringLiteral("2ε"));
    QCOMPARE(lab.ptrCosts()->item(3, 1)->text(), QStringLiteral("3ε"));
    QVERIFY(!pbx::test::saveScreenshot(lab, QStringLiteral("odplab-ptr")).isEmpty());
    lab.tabs()->setCurrentIndex(4);
    QCOMPARE(lab.recoveryChart()->curveCount(), 5);
    QVERIFY(!pbx::test::saveScreenshot(lab, QStringLiteral("odplab-recovery")).isEmpty());
}

QTEST_MAIN(TestOdpLab)
#include "tst_odplab.moc"
