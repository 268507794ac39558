// SPDX-License-Identifier: MIT
// The embedded default dataset, loaded through the catalog, checked against numbers computed
// independently in R from the AER package's own copy of the data (r-cran-aer 1.2-10):
//   Rscript -e 'load("/usr/lib/R/site-library/AER/data/CPS1988.rda"); d <- CPS1988;
//     print(sum(d$region == "south")); print(sprintf("%.17g", mean(d$wage)));
//     print(sum(d$region == "south" & d$education >= 12));
//     print(sum(d$ethnicity == "afam" | d$parttime == "yes")); print(sum(d$experience < 0));
//     print(sum(!(d$smsa == "yes") & d$wage > 1000)); print(sum(d$wage > 5000))'
// gives 8760, "603.72684638607711", 7008, 4512, 438, 483, 15.
#include "resources/dataset_catalog.h"
#include "tests/test_rows.h"

#include "core/data/predicate.h"

#include "tests/testutils.h"

#include <QTemporaryDir>

#include <numeric>

using pbx::ErrorCode;
using pbx::data::ColumnType;
using pbx::data::Predicate;
using pbx::data::Table;

class TestCps1988 : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void schema();
    void counts_data();
    void counts();
    void meanWage();
    void nameIsCaseInsensitive();
    void loadsFilesWithSidecars();
    void refusals();

private:
    Table m_table;
};

void TestCps1988::initTestCase()
{
    QCOMPARE(pbx::resources::embeddedDatasetNames(), (std::vector<std::string>{"cps1988"}));
    QCOMPARE(pbx::resources::defaultDatasetName, std::string_view("cps1988"));
    auto table = pbx::resources::loadDataset("cps1988");
    QVERIFY2(table.ok(), table.ok() ? "" : table.error().message.c_str());
    m_table = std::move(table).value();
}

void TestCps1988::schema()
{
    QCOMPARE(m_table.name(), std::string("cps1988"));
    QCOMPARE(m_table.rowCount(), std::size_t{28155});
    QCOMPARE(m_table.columnCount(), std::size_t{7});
    const char *names[] = {"wage", "education", "experience", "ethnicity", "smsa", "region", "parttime"};
    for (std::size_t i = 0; i < 7; ++i) {
        QCOMPARE(m_table.columnInfo(i).name, std::string(names[i]));
        QCOMPARE(m_table.columnInfo(i).type, i < 3 ? ColumnType::Numeric : ColumnType::Categorical);
        QVERIFY2(!m_table.columnInfo(i).description.empty(), names[i]);
    }
    // Declared (public) bounds from the metadata, not from the data.
    const auto wage = m_table.columnInfo(0).declaredBounds;
    QVERIFY(wage.has_value());
    QCOMPARE(wage->lower, 0.0);
    QCOMPARE(wage->upper, 5000.0);
    QCOMPARE(m_table.columnInfo(1).declaredBounds->upper, 20.0);
    QCOMPARE(m_table.columnInfo(2).declaredBounds->lower, -8.0);
    QCOMPARE(m_table.columnInfo(2).declaredBounds->upper, 64.0);
    // Factor levels in R's order, as declared.
    QCOMPARE(m_table.columnInfo(3).categories, (std::vector<std::string>{"cauc", "afam"}));
    QCOMPARE(m_table.columnInfo(5).categories,
             (std::vector<std::string>{"northeast", "midwest", "south", "west"}));
    QVERIFY(m_table.provenance().find("March 1988 Current Population Survey") != std::string::npos);
    QVERIFY(m_table.provenance().find("Licence: ") != std::string::npos);
}

void TestCps1988::counts_data()
{
    QTest::addColumn<QString>("predicate");
    QTest::addColumn<int>("expected");
    QTest::newRow("everything") << "" << 28155;
    QTest::newRow("south") << R"(region == "south")" << 8760;
    QTest::newRow("design example") << R"(region == "south" and education >= 12)" << 7008;
    QTest::newRow("afam or part-time") << R"(ethnicity == "afam" or parttime == "yes")" << 4512;
    QTest::newRow("negative experience") << "experience < 0" << 438;
    QTest::newRow("rural, high wage") << R"(not smsa == "yes" and wage > 1000)" << 483;
    QTest::newRow("above the declared wage bound") << "wage > 5000" << 15;
}

void TestCps1988::counts()
{
    QFETCH(QString, predicate);
    QFETCH(int, expected);
    const auto compiled = Predicate::compile(predicate.toStdString(), m_table);
    QVERIFY2(compiled.ok(), compiled.ok() ? "" : compiled.error().message.c_str());
    QCOMPARE(compiled->countMatches(pbx::test::PublicRows(m_table)), static_cast<std::size_t>(expected));
}

void TestCps1988::meanWage()
{
    const pbx::test::PublicRows rows(m_table);
    const auto wage = rows->numeric(0);
    const double mean = std::accumulate(wage.begin(), wage.end(), 0.0) / double(wage.size());
    PBX_FUZZY_COMPARE(mean, 603.72684638607711, 1e-13);
}

void TestCps1988::nameIsCaseInsensitive()
{
    const auto upper = pbx::resources::loadDataset("CPS1988");
    QVERIFY(upper.ok());
    QCOMPARE(upper->rowCount(), std::size_t{28155});
    QCOMPARE(upper->name(), std::string("cps1988"));
}

void TestCps1988::loadsFilesWithSidecars()
{
    // The shipped source file with its same-stem sidecar loads exactly like the embedded copy.
    const auto fromSource = pbx::resources::loadDataset(PBX_SOURCE_DIR "/resources/datasets/cps1988.csv.gz");
    QVERIFY2(fromSource.ok(), fromSource.ok() ? "" : fromSource.error().message.c_str());
    QCOMPARE(fromSource->name(), std::string("cps1988"));
    QCOMPARE(fromSource->columnInfo(5).categories, m_table.columnInfo(5).categories);
    QCOMPARE(fromSource->columnInfo(0).declaredBounds->upper, 5000.0);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string csv = dir.filePath(QStringLiteral("people.csv")).toStdString();
    {
        std::ofstream out(csv, std::ios::binary);
        out << "age,city\n30,b\n40,a\n";
    }
    const auto bare = pbx::resources::loadDataset(csv);
    QVERIFY(bare.ok());
    QCOMPARE(bare->name(), std::string("people"));
    QVERIFY(!bare->columnInfo(0).declaredBounds);

    {
        std::ofstream out(csv + ".json", std::ios::binary); // "<path>.json" sidecar
        out << R"({"format": "pbx-dataset-metadata", "version": 1,
                   "columns": [{"name": "age", "bounds": [0, 120]}]})";
    }
    const auto described = pbx::resources::loadDataset(csv);
    QVERIFY2(described.ok(), described.ok() ? "" : described.error().message.c_str());
    QCOMPARE(described->columnInfo(0).declaredBounds->upper, 120.0);

    {
        std::ofstream out(csv + ".json", std::ios::binary);
        out << R"({"format": "pbx-dataset-metadata", "version": 9})";
    }
    const auto future = pbx::resources::loadDataset(csv);
    QVERIFY(!future.ok()); // a broken sidecar is reported, never silently ignored
    QCOMPARE(static_cast<int>(future.error().code), static_cast<int>(ErrorCode::Unsupported));
}

void TestCps1988::refusals()
{
    const auto empty = pbx::resources::loadDataset("");
    QVERIFY(!empty.ok());
    QCOMPARE(static_cast<int>(empty.error().code), static_cast<int>(ErrorCode::InvalidArgument));
    const auto unknown = pbx::resources::loadDataset("cps1989");
    QVERIFY(!unknown.ok());
    QCOMPARE(static_cast<int>(unknown.error().code), static_cast<int>(ErrorCode::NotFound));
    QVERIFY2(unknown.error().message.find("neither an embedded dataset (cps1988)") != std::string::npos,
             unknown.error().message.c_str());
}

QTEST_APPLESS_MAIN(TestCps1988)
#include "tst_cps1988.moc"
