// SPDX-License-Identifier: MIT
// Sensitivities of count, clipped sum and centred sum under both neighbouring relations.
#include "core/data/sensitivity.h"
#include "tests/testutils.h"

using pbx::data::Bounds;
using pbx::data::Neighbours;

Q_DECLARE_METATYPE(Neighbours)

class TestSensitivity : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sensitivities_data();
    void sensitivities();
    void names();
};

void TestSensitivity::sensitivities_data()
{
    QTest::addColumn<Neighbours>("neighbours");
    QTest::addColumn<double>("lower");
    QTest::addColumn<double>("upper");
    QTest::addColumn<double>("sum");
    QTest::addColumn<double>("centred");
    const auto AR = Neighbours::AddRemove;
    const auto RP = Neighbours::Replace;
    // add/remove: max(|L|,|U|) and (U−L)/2; replace: max(U−L, |L|, |U|) and U−L.
    QTest::newRow("wage [0,4000] add/remove") << AR << 0.0 << 4000.0 << 4000.0 << 2000.0;
    QTest::newRow("wage [0,4000] replace") << RP << 0.0 << 4000.0 << 4000.0 << 4000.0;
    QTest::newRow("[100,200] add/remove") << AR << 100.0 << 200.0 << 200.0 << 50.0;
    // A replaced row may leave the predicate: the sum then moves by up to 200, not U−L = 100.
    QTest::newRow("[100,200] replace") << RP << 100.0 << 200.0 << 200.0 << 100.0;
    QTest::newRow("[-5,65] add/remove") << AR << -5.0 << 65.0 << 65.0 << 35.0;
    QTest::newRow("[-5,65] replace") << RP << -5.0 << 65.0 << 70.0 << 70.0;
    QTest::newRow("[-10,-2] replace") << RP << -10.0 << -2.0 << 10.0 << 8.0;
}

void TestSensitivity::sensitivities()
{
    QFETCH(Neighbours, neighbours);
    QFETCH(double, lower);
    QFETCH(double, upper);
    QFETCH(double, sum);
    QFETCH(double, centred);
    const Bounds b{lower, upper};
    QCOMPARE(pbx::data::countSensitivity(neighbours).l1, 1.0);
    QCOMPARE(pbx::data::sumSensitivity(b, neighbours).l1, sum);
    QCOMPARE(pbx::data::sumSensitivity(b, neighbours).l2, sum);
    QCOMPARE(pbx::data::centredSumSensitivity(b, neighbours).l1, centred);
}

void TestSensitivity::names()
{
    QCOMPARE(pbx::data::parseNeighbours("replace").value(), Neighbours::Replace);
    QCOMPARE(pbx::data::neighboursName(Neighbours::AddRemove), std::string_view("add-remove"));
    QVERIFY(!pbx::data::parseNeighbours("swap").ok());
}

QTEST_APPLESS_MAIN(TestSensitivity)
#include "tst_sensitivity.moc"
