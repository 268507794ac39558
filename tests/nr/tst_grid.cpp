// SPDX-License-Identifier: MIT
// The lazy geometric noise grid shared by Brownian and Laplace noise reduction
// (docs/accuracy-first.md §5.3: start 10⁴, ratio 0.97 in noise-std units, down to a cap).
#include "core/mechanisms/noise_reduction_grid.h"
#include "tests/testutils.h"

#include <cmath>

using pbx::mechanisms::GeometricNoiseGrid;

class TestGeometricNoiseGrid : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void pointCount_data();
    void pointCount();
    void lazyCursor();
    void conversions();
    void scaleForTime();
    void invalid_data();
    void invalid();
};

void TestGeometricNoiseGrid::pointCount_data()
{
    QTest::addColumn<double>("start");
    QTest::addColumn<double>("ratio");
    QTest::addColumn<double>("floor");
    QTest::addColumn<int>("count");
    // K − 1 = ⌈ln(floor/start)/ln(ratio)⌉ when start·ratio^k never lands on the floor exactly.
    QTest::newRow("1e4 → 1, ×0.97") << 1e4 << 0.97 << 1.0 << 304;   // ⌈302.38⌉ + 1
    QTest::newRow("exact halving 8 → 1") << 8.0 << 0.5 << 1.0 << 4; // 8, 4, 2, 1
    QTest::newRow("one point") << 3.0 << 0.9 << 3.0 << 1;
    QTest::newRow("floor just above a point") << 1.0 << 0.5 << 0.2500000001 << 3; // 1, ½, floor
    QTest::newRow("within 1e-9 of the floor snaps") << 1.0 << 0.5 << 0.25 * (1 - 1e-12) << 3;
}

void TestGeometricNoiseGrid::pointCount()
{
    QFETCH(double, start);
    QFETCH(double, ratio);
    QFETCH(double, floor);
    QFETCH(int, count);
    const auto grid = GeometricNoiseGrid::create(start, ratio, floor);
    QVERIFY(grid.ok());
    QCOMPARE(grid->pointCount(), count);
    QCOMPARE(grid->scaleAt(0), start);
    QCOMPARE(grid->scaleAt(count - 1), floor);
    QCOMPARE(grid->scaleAt(count + 5), floor);
    for (int k = 1; k < count; ++k) {
        QVERIFY(grid->scaleAt(k) < grid->scaleAt(k - 1));
        QVERIFY(grid->timeAt(k) < grid->timeAt(k - 1));
        QVERIFY(grid->scaleAt(k) >= floor);
    }
    // The point before the floor is still strictly (by more than the snap) above it.
    if (count >= 2)
        QVERIFY(grid->scaleAt(count - 2) > floor * (1 + 1e-9));
}

void TestGeometricNoiseGrid::lazyCursor()
{
    auto grid = GeometricNoiseGrid::create(100.0, 0.97, 10.0).value();
    // ln(0.1)/ln(0.97) = 75.6 → points k = 0 … 75 above the floor, k = 76 is the floor.
    QCOMPARE(grid.pointCount(), 77);
    QCOMPARE(grid.index(), 0);
    QCOMPARE(grid.scale(), 100.0);
    QCOMPARE(grid.time(), 1e4);
    QCOMPARE(*grid.peekNextScale(), 97.0);
    QCOMPARE(grid.index(), 0); // peeking does not move
    int steps = 0;
    double previous = grid.time();
    while (grid.advance()) {
        ++steps;
        QVERIFY(grid.time() < previous);
        previous = grid.time();
        PBX_FUZZY_COMPARE(grid.scale(), grid.index() < 76 ? 100.0 * std::pow(0.97, grid.index()) : 10.0,
                          1e-15);
    }
    QCOMPARE(steps, 76);
    QVERIFY(grid.atFloor());
    QVERIFY(!grid.peekNextScale().has_value());
    QCOMPARE(grid.scale(), 10.0);
    QVERIFY(grid.seek(3).ok());
    QCOMPARE(grid.index(), 3);
    PBX_VERIFY_ERROR(grid.seek(77), InvalidArgument, "grid index");
    PBX_VERIFY_ERROR(grid.seek(-1), InvalidArgument, "grid index");
}

void TestGeometricNoiseGrid::conversions()
{
    const auto grid = GeometricNoiseGrid::create(4.0, 0.5, 1.0).value();
    QCOMPARE(grid.timeAt(0), 16.0);
    QCOMPARE(grid.timeAt(1), 4.0);
    // Laplace: ε = Δ1/b, rounded up (never below the exact quotient).
    QVERIFY(grid.epsilonAt(0, 1.0) >= 0.25);
    PBX_FUZZY_COMPARE(grid.epsilonAt(0, 1.0), 0.25, 1e-15);
    PBX_FUZZY_COMPARE(grid.epsilonAt(2, 3.0), 3.0, 1e-15);
    QVERIFY(std::isnan(grid.epsilonAt(0, 0.0)));
}

void TestGeometricNoiseGrid::scaleForTime()
{
    // The floor scale for a floor time (e.g. Δ²/(2ρ_cap)): its square never falls below the time,
    // so the floor's ρ charge stays within the cap.
    for (double t : {1.0, 2.0, 6.955515, 10.18576, 1e-7, 3e5, 0.1}) {
        const double s = GeometricNoiseGrid::scaleForTime(t);
        QVERIFY(s * s >= t);
        QVERIFY(std::nextafter(s, 0.0) * std::nextafter(s, 0.0) < t);
        const auto grid = GeometricNoiseGrid::create(10.0 * s, 0.97, s).value();
        QVERIFY(grid.timeAt(grid.pointCount() - 1) >= t);
    }
    QCOMPARE(GeometricNoiseGrid::scaleForTime(4.0), 2.0);
    QVERIFY(std::isnan(GeometricNoiseGrid::scaleForTime(0.0)));
}

void TestGeometricNoiseGrid::invalid_data()
{
    QTest::addColumn<double>("start");
    QTest::addColumn<double>("ratio");
    QTest::addColumn<double>("floor");
    QTest::newRow("floor above start") << 1.0 << 0.9 << 2.0;
    QTest::newRow("ratio 1") << 2.0 << 1.0 << 1.0;
    QTest::newRow("ratio too close to 1") << 2.0 << 1.0 - 1e-9 << 1.0;
    QTest::newRow("ratio 0") << 2.0 << 0.0 << 1.0;
    QTest::newRow("zero floor") << 2.0 << 0.9 << 0.0;
    QTest::newRow("NaN start") << std::nan("") << 0.9 << 1.0;
    QTest::newRow("infinite start") << HUGE_VAL << 0.9 << 1.0;
    QTest::newRow("too many points") << 1e300 << 0.999999 << 1e-300;
}

void TestGeometricNoiseGrid::invalid()
{
    QFETCH(double, start);
    QFETCH(double, ratio);
    QFETCH(double, floor);
    const auto grid = GeometricNoiseGrid::create(start, ratio, floor);
    QVERIFY(!grid.ok());
    QCOMPARE(grid.error().code, pbx::ErrorCode::InvalidArgument);
}

QTEST_APPLESS_MAIN(TestGeometricNoiseGrid)
#include "tst_grid.moc"
