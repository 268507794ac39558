// SPDX-License-Identifier: MIT
// Sensitivities of count, clipped sum and centred sum under both neighbouring relations.
#include "core/data/query.h"
#include "core/data/sensitivity.h"
#include "core/session/release/query_shape.h"
#include "tests/test_rows.h"
#include "tests/testutils.h"

using pbx::data::Bounds;
using pbx::data::Neighbouring;

class TestSensitivity : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sensitivities_data();
    void sensitivities();
    void names();
    void computedSumsExceedNominalDeltaAndArePadded();
};

// The computed sums of neighbouring tables can differ by more than the nominal Δ.
// Bounds [0, 2⁵³−1]: rows {2⁵³−1, 5} sum to 2⁵³+4 exactly; one more row of 2⁵³−1 gives
// 2⁵⁴+3, rounded to 2⁵⁴+4: the difference is 2⁵³ = Δ + 1. The channel's padded Δ covers it.
void TestSensitivity::computedSumsExceedNominalDeltaAndArePadded()
{
    const double top = std::ldexp(1.0, 53) - 1.0;
    const Bounds bounds{0.0, top};
    auto table = [&](std::vector<double> values) {
        pbx::data::Column x{{"x", pbx::data::ColumnType::Numeric, bounds, "", {}}, std::move(values), {}};
        return pbx::data::Table::create("t", {x}).value();
    };
    const auto small = table({top, 5.0});
    const auto large = table({top, 5.0, top});
    pbx::data::QuerySpec spec;
    spec.aggregate = pbx::data::Aggregate::Sum;
    spec.column = "x";
    const double s = pbx::data::CompiledQuery::compile(spec, small)
                         .value()
                         .evaluate(pbx::test::PublicRows(small))
                         .clippedSum;
    const double s2 = pbx::data::CompiledQuery::compile(spec, large)
                          .value()
                          .evaluate(pbx::test::PublicRows(large))
                          .clippedSum;
    const double nominal = pbx::data::sumSensitivity(bounds, Neighbouring::AddRemove).l1;
    QCOMPARE(nominal, top);
    QCOMPARE(s2 - s, std::ldexp(1.0, 53)); // > Δ
    QVERIFY(s2 - s > nominal);
    const double padded = pbx::session::sumChannelSensitivity("sum", bounds, Neighbouring::AddRemove,
                                                              static_cast<double>(large.rowCount()));
    QVERIFY(padded >= s2 - s);
    // The shape every mechanism calibrates with uses the padded value (n = 2 rows in public).
    auto shape
        = pbx::session::QueryShape::of(pbx::data::Aggregate::Sum, bounds, {}, Neighbouring::AddRemove, 2.0);
    QCOMPARE(shape.channels().front().sensitivity, padded);
    // For CPS1988-sized data the pad is tiny: wage ∈ [0, 5000], 28,155 rows.
    const double wage = pbx::data::computedSumSensitivity(5000.0, {0.0, 5000.0}, 28155);
    QVERIFY(wage > 5000.0 && wage < 5000.0 * (1.0 + 1e-6));
}

void TestSensitivity::sensitivities_data()
{
    QTest::addColumn<Neighbouring>("neighbours");
    QTest::addColumn<double>("lower");
    QTest::addColumn<double>("upper");
    QTest::addColumn<double>("sum");
    QTest::addColumn<double>("centred");
    const auto AR = Neighbouring::AddRemove;
    const auto RP = Neighbouring::Replace;
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
    QFETCH(Neighbouring, neighbours);
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
    QCOMPARE(pbx::data::parseNeighbouring("replace").value(), Neighbouring::Replace);
    QCOMPARE(pbx::data::neighbouringName(Neighbouring::AddRemove), std::string_view("add-remove"));
    PBX_VERIFY_ERROR(pbx::data::parseNeighbouring("swap"), InvalidArgument, "neighbouring relation 'swap'");
}

QTEST_APPLESS_MAIN(TestSensitivity)
#include "tst_sensitivity.moc"
