// SPDX-License-Identifier: MIT
// Table::create validation, column lookup and declared bounds.
#include "core/data/table.h"
#include "tests/test_rows.h"

#include "tests/testutils.h"

#include <limits>

using pbx::ErrorCode;
using pbx::data::Bounds;
using pbx::data::Column;
using pbx::data::ColumnType;
using pbx::data::Table;

namespace {

Column numeric(std::string name, std::vector<double> values)
{
    Column column;
    column.info.name = std::move(name);
    column.numeric = std::move(values);
    return column;
}

Column categorical(std::string name, std::vector<std::int32_t> codes, std::vector<std::string> labels)
{
    Column column;
    column.info.name = std::move(name);
    column.info.type = ColumnType::Categorical;
    column.codes = std::move(codes);
    column.info.categories = std::move(labels);
    return column;
}

} // namespace

class TestTable : public QObject
{
    Q_OBJECT

private slots:
    void createValid();
    void createInvalid_data();
    void createInvalid();
    void boundsValidate_data();
    void boundsValidate();
    void withDeclaredBounds();
    void publicRowsOnlyForPublicData();
};

void TestTable::createValid()
{
    std::vector<Column> columns;
    columns.push_back(numeric("wage", {1.0, 2.0, 3.0}));
    columns.push_back(categorical("region", {0, 1, 0}, {"north", "south"}));
    const auto table = Table::create("t", std::move(columns), "made by hand");
    QVERIFY(table.ok());
    QCOMPARE(table->rowCount(), std::size_t{3});
    QCOMPARE(table->columnCount(), std::size_t{2});
    QCOMPARE(table->name(), std::string("t"));
    QCOMPARE(table->provenance(), std::string("made by hand"));
    QCOMPARE(table->columnIndex("region"), std::optional<std::size_t>(1));
    QCOMPARE(table->columnIndex("Region"), std::optional<std::size_t>());
    const pbx::test::PublicRows rows(*table);
    QCOMPARE(rows->numeric(0)[2], 3.0);
    QCOMPARE(rows->codes(1)[1], 1);

    const auto empty = Table::create("empty", {});
    QVERIFY(empty.ok());
    QCOMPARE(empty->rowCount(), std::size_t{0});
}

void TestTable::createInvalid_data()
{
    QTest::addColumn<int>("which");
    QTest::addColumn<QString>("message");
    QTest::newRow("lengths differ") << 0 << "column 'b': numeric column has 2 values, expected 3";
    QTest::newRow("duplicate name") << 1 << "column name 'a' appears twice";
    QTest::newRow("empty name") << 2 << "a column has an empty name";
    QTest::newRow("code outside dictionary") << 3 << "row 2 has code 2, outside the 2 categories";
    QTest::newRow("negative code") << 4 << "row 1 has code -1";
    QTest::newRow("invalid bounds") << 5 << "column 'a': lower bound 2 exceeds upper bound 1";
    QTest::newRow("bounds on categorical") << 6 << "bounds apply to numeric columns only";
    QTest::newRow("duplicate category") << 7 << "category 'x' appears twice";
    QTest::newRow("numeric column with codes") << 8 << "numeric column has 3 values";
}

void TestTable::createInvalid()
{
    QFETCH(int, which);
    QFETCH(QString, message);
    std::vector<Column> columns;
    columns.push_back(numeric("a", {1, 2, 3}));
    switch (which) {
    case 0:
        columns.push_back(numeric("b", {1, 2}));
        break;
    case 1:
        columns.push_back(numeric("a", {1, 2, 3}));
        break;
    case 2:
        columns.push_back(numeric("", {1, 2, 3}));
        break;
    case 3:
        columns.push_back(categorical("c", {0, 2, 1}, {"x", "y"}));
        break;
    case 4:
        columns.push_back(categorical("c", {-1, 0, 1}, {"x", "y"}));
        break;
    case 5:
        columns[0].info.declaredBounds = Bounds{2, 1};
        break;
    case 6:
        columns.push_back(categorical("c", {0, 0, 0}, {"x"}));
        columns[1].info.declaredBounds = Bounds{0, 1};
        break;
    case 7:
        columns.push_back(categorical("c", {0, 0, 0}, {"x", "x"}));
        break;
    case 8:
        columns[0].codes = {0, 0, 0};
        break;
    }
    const auto table = Table::create("t", std::move(columns));
    QVERIFY(!table.ok());
    QCOMPARE(static_cast<int>(table.error().code), static_cast<int>(ErrorCode::InvalidArgument));
    QVERIFY2(QString::fromStdString(table.error().message).contains(message), table.error().message.c_str());
}

void TestTable::boundsValidate_data()
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    QTest::addColumn<double>("lower");
    QTest::addColumn<double>("upper");
    QTest::addColumn<bool>("valid");
    QTest::newRow("ordinary") << 0.0 << 5000.0 << true;
    QTest::newRow("point interval") << 3.0 << 3.0 << true;
    QTest::newRow("negative range") << -8.0 << 64.0 << true;
    QTest::newRow("reversed") << 1.0 << 0.0 << false;
    QTest::newRow("NaN lower") << nan << 1.0 << false;
    QTest::newRow("infinite upper") << 0.0 << inf << false;
    QTest::newRow("infinite lower") << -inf << 0.0 << false;
}

void TestTable::boundsValidate()
{
    QFETCH(double, lower);
    QFETCH(double, upper);
    QFETCH(bool, valid);
    QCOMPARE((Bounds{lower, upper}.validate().ok()), valid);
}

void TestTable::withDeclaredBounds()
{
    std::vector<Column> columns;
    columns.push_back(numeric("wage", {1.0, 2.0}));
    columns.push_back(categorical("region", {0, 0}, {"x"}));
    const auto table = Table::create("t", std::move(columns));
    QVERIFY(table.ok());

    const auto bounded = table->withDeclaredBounds("wage", Bounds{0, 10});
    QVERIFY(bounded.ok());
    QVERIFY(bounded->columnInfo(0).declaredBounds.has_value());
    QCOMPARE(bounded->columnInfo(0).declaredBounds->upper, 10.0);
    QVERIFY(!table->columnInfo(0).declaredBounds.has_value()); // the original is unchanged

    const auto missing = table->withDeclaredBounds("wages", Bounds{0, 10});
    QVERIFY(!missing.ok());
    QCOMPARE(static_cast<int>(missing.error().code), static_cast<int>(ErrorCode::NotFound));
    const auto onCategorical = table->withDeclaredBounds("region", Bounds{0, 10});
    QVERIFY(!onCategorical.ok());
    QCOMPARE(static_cast<int>(onCategorical.error().code), static_cast<int>(ErrorCode::InvalidArgument));
    PBX_VERIFY_ERROR(table->withDeclaredBounds("wage", Bounds{10, 0}), InvalidArgument, "column 'wage'");
}

// Door (b) of core/data/rows.h: a private table's rows are refused, from the flag alone,
// naming the use; a table declared public hands out rows that read its values.
void TestTable::publicRowsOnlyForPublicData()
{
    const auto table = Table::create("t", {numeric("wage", {1.0, 2.0, 3.0})});
    QVERIFY(table.ok());
    QVERIFY(!table->isPublic());
    const auto refused = pbx::data::publicRows(*table, "the lab");
    QVERIFY(!refused);
    QCOMPARE(refused.error().code, ErrorCode::Unsupported);
    QVERIFY2(refused.error().message.rfind(
                 "the lab reads the rows of the dataset, which is not declared public", 0)
                 == 0,
             refused.error().message.c_str());
    const Table declared = table->withPublic(true);
    const auto rows = pbx::data::publicRows(declared, "the lab");
    QVERIFY(rows.ok());
    QCOMPARE(&rows->table(), &declared);
    QCOMPARE(rows->rowCount(), std::size_t{3});
    QCOMPARE(rows->numeric(0)[2], 3.0);
}

QTEST_APPLESS_MAIN(TestTable)
#include "tst_table.moc"
