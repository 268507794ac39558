// SPDX-License-Identifier: MIT
// Dataset metadata sidecar: parsing (tolerant but strict about meaning), writing, applying.
#include "core/io/dataset_metadata.h"
#include "tests/test_rows.h"

#include "tests/testutils.h"

using pbx::ErrorCode;
using pbx::data::Column;
using pbx::data::ColumnType;
using pbx::data::Table;
using pbx::io::DatasetMetadata;
using pbx::io::parseDatasetMetadata;

namespace {

std::string document(const std::string &columns, const std::string &extra = {})
{
    return R"({"format": "pbx-dataset-metadata", "version": 1)" + extra + R"(, "columns": )" + columns + "}";
}

Table metadataTable()
{
    Column wage;
    wage.info.name = "wage";
    wage.numeric = {1, 2, 3};
    Column region;
    region.info.name = "region";
    region.info.type = ColumnType::Categorical;
    region.info.categories = {"north", "south", "unused"};
    region.codes = {1, 0, 1};
    auto table = Table::create("small", {wage, region}, "original");
    if (!table)
        qFatal("metadataTable: %s", table.error().message.c_str());
    return std::move(table).value();
}

} // namespace

class TestDatasetMetadata : public QObject
{
    Q_OBJECT

private slots:
    void parsesFullDocument();
    void toleratesUnknownKeysAndNulls();
    void errors_data();
    void errors();
    void writeThenReadRoundTrips();
    void applyRecodesAndAnnotates();
    void applyErrors_data();
    void applyErrors();
    void readsShippedSidecar();
};

void TestDatasetMetadata::parsesFullDocument()
{
    const auto metadata = parseDatasetMetadata(R"({
        "format": "pbx-dataset-metadata", "version": 1, "name": "cps1988", "title": "Wages",
        "rows": 28155, "provenance": "CPS", "licence": "GPL",
        "columns": [
            {"name": "wage", "type": "numeric", "bounds": [0, 5000], "description": "weekly"},
            {"name": "region", "type": "categorical", "categories": ["south", "west"]},
            {"name": "free"}
        ]})");
    QVERIFY2(metadata.ok(), metadata.ok() ? "" : metadata.error().message.c_str());
    QCOMPARE(metadata->name, std::string("cps1988"));
    QCOMPARE(metadata->title, std::string("Wages"));
    QCOMPARE(metadata->rows, std::optional<std::size_t>(28155));
    QCOMPARE(metadata->provenance, std::string("CPS"));
    QCOMPARE(metadata->licence, std::string("GPL"));
    QCOMPARE(metadata->columns.size(), std::size_t{3});
    const auto *wage = metadata->column("wage");
    QVERIFY(wage);
    QVERIFY(wage->type == ColumnType::Numeric);
    QCOMPARE(wage->bounds->lower, 0.0);
    QCOMPARE(wage->bounds->upper, 5000.0);
    QCOMPARE(wage->description, std::string("weekly"));
    QCOMPARE(metadata->column("region")->categories, (std::vector<std::string>{"south", "west"}));
    QVERIFY(!metadata->column("free")->type);
    QVERIFY(!metadata->column("nope"));
}

void TestDatasetMetadata::toleratesUnknownKeysAndNulls()
{
    const auto metadata = parseDatasetMetadata(
        R"({"format": "pbx-dataset-metadata", "version": 1, "futureKey": {"a": [1, 2]},
            "title": null, "columns": [{"name": "w", "unit": "USD", "bounds": null}]})");
    QVERIFY2(metadata.ok(), metadata.ok() ? "" : metadata.error().message.c_str());
    QVERIFY(metadata->title.empty());
    QVERIFY(!metadata->columns[0].bounds);
    QVERIFY(parseDatasetMetadata(R"({"format": "pbx-dataset-metadata", "version": 1})").ok());
}

void TestDatasetMetadata::errors_data()
{
    QTest::addColumn<std::string>("json");
    QTest::addColumn<pbx::ErrorCode>("code");
    QTest::addColumn<QString>("message");
    const auto parse = ErrorCode::Parse;

    QTest::newRow("not JSON") << std::string("{\"format\": ") << parse << "is not valid JSON (at byte";
    QTest::newRow("array") << std::string("[]") << parse << "expected a JSON object";
    QTest::newRow("no format") << std::string(R"({"version": 1})") << parse
                               << "format: expected \"pbx-dataset-metadata\"";
    QTest::newRow("other format") << std::string(R"({"format": "pbx-transcript", "version": 1})") << parse
                                  << "this is not a dataset metadata document";
    QTest::newRow("no version") << std::string(R"({"format": "pbx-dataset-metadata"})") << parse
                                << "version: expected an integer";
    QTest::newRow("version as text") << std::string(R"({"format": "pbx-dataset-metadata", "version": "1"})")
                                     << parse << "version: expected an integer";
    QTest::newRow("future version") << std::string(R"({"format": "pbx-dataset-metadata", "version": 2})")
                                    << ErrorCode::Unsupported
                                    << "version 2 is newer than this program understands (up to 1)";
    QTest::newRow("version 0") << std::string(R"({"format": "pbx-dataset-metadata", "version": 0})") << parse
                               << "version: expected a positive integer";
    QTest::newRow("name not a string")
        << document("[]", R"(, "name": 5)") << parse << "name: expected a string";
    QTest::newRow("negative rows") << document("[]", R"(, "rows": -1)") << parse
                                   << "rows: expected a non-negative integer";
    QTest::newRow("columns not an array") << document("{}") << parse << "columns: expected an array";
    QTest::newRow("column not an object") << document("[1]") << parse << "columns[0]: expected an object";
    QTest::newRow("column without name")
        << document(R"([{"type": "numeric"}])") << parse << "columns[0].name: expected a non-empty string";
    QTest::newRow("unknown type") << document(R"([{"name": "a", "type": "text"}])") << parse
                                  << "columns[0].type: expected \"numeric\" or \"categorical\"";
    QTest::newRow("one bound") << document(R"([{"name": "a", "bounds": [1]}])") << parse
                               << "columns[0].bounds: expected an array of two numbers [lower, upper]";
    QTest::newRow("bound as text") << document(R"([{"name": "a", "bounds": ["0", 1]}])") << parse
                                   << "columns[0].bounds: expected an array of two numbers";
    QTest::newRow("reversed bounds") << document(R"([{"name": "a", "bounds": [5, 1]}])") << parse
                                     << "columns[0].bounds: lower bound 5 exceeds upper bound 1";
    QTest::newRow("huge bound") << document(R"([{"name": "a", "bounds": [0, 1e999]}])") << parse
                                << "dataset metadata";
    QTest::newRow("bounds on categorical")
        << document(R"([{"name": "a", "type": "categorical", "bounds": [0, 1]}])") << parse
        << "columns[0].bounds: bounds apply to numeric columns only";
    QTest::newRow("categories on numeric")
        << document(R"([{"name": "a", "type": "numeric", "categories": ["x"]}])") << parse
        << "columns[0].categories: categories apply to categorical columns only";
    QTest::newRow("bounds and categories")
        << document(R"([{"name": "a", "bounds": [0, 1], "categories": ["x"]}])") << parse
        << "columns[0]: a column cannot have both bounds and categories";
    QTest::newRow("repeated category") << document(R"([{"name": "a", "categories": ["x", "x"]}])") << parse
                                       << "columns[0].categories[1]: category 'x' is listed twice";
    QTest::newRow("empty category") << document(R"([{"name": "a", "categories": [""]}])") << parse
                                    << "columns[0].categories[0]: expected a non-empty string";
    QTest::newRow("no categories") << document(R"([{"name": "a", "categories": []}])") << parse
                                   << "columns[0].categories: expected a non-empty array of strings";
    QTest::newRow("described twice") << document(R"([{"name": "a"}, {"name": "a"}])") << parse
                                     << "columns[1].name: column 'a' is described twice";
    QTest::newRow("description not text") << document(R"([{"name": "a", "description": 3}])") << parse
                                          << "columns[0].description: expected a string";
}

void TestDatasetMetadata::errors()
{
    QFETCH(std::string, json);
    QFETCH(pbx::ErrorCode, code);
    QFETCH(QString, message);
    const auto metadata = parseDatasetMetadata(json);
    QVERIFY(!metadata.ok());
    QCOMPARE(static_cast<int>(metadata.error().code), static_cast<int>(code));
    QVERIFY2(QString::fromStdString(metadata.error().message).contains(message),
             metadata.error().message.c_str());
}

void TestDatasetMetadata::writeThenReadRoundTrips()
{
    DatasetMetadata metadata;
    metadata.name = "n";
    metadata.title = "T";
    metadata.rows = 3;
    metadata.provenance = "P";
    metadata.licence = "L";
    pbx::io::ColumnMetadata a;
    a.name = "a";
    a.type = ColumnType::Numeric;
    a.bounds = pbx::data::Bounds{-0.5, 1e6};
    a.description = "quote \" and ünïcode";
    pbx::io::ColumnMetadata b;
    b.name = "b";
    b.type = ColumnType::Categorical;
    b.categories = {"y", "x"};
    metadata.columns = {a, b};

    const std::string json = pbx::io::datasetMetadataToJson(metadata);
    QVERIFY(json.find("\"format\": \"pbx-dataset-metadata\"") != std::string::npos);
    const auto back = parseDatasetMetadata(json);
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
    QCOMPARE(back->name, metadata.name);
    QCOMPARE(back->rows, metadata.rows);
    QCOMPARE(back->columns.size(), std::size_t{2});
    QCOMPARE(back->columns[0].bounds->lower, -0.5);
    QCOMPARE(back->columns[0].bounds->upper, 1e6);
    QCOMPARE(back->columns[0].description, a.description);
    QCOMPARE(back->columns[1].categories, b.categories);
    QCOMPARE(pbx::io::datasetMetadataToJson(*back), json); // writing is deterministic
}

void TestDatasetMetadata::applyRecodesAndAnnotates()
{
    const auto metadata = parseDatasetMetadata(document(
        R"([{"name": "region", "categories": ["south", "east", "north"], "description": "where"},
            {"name": "wage", "bounds": [0, 10]}])",
        R"(, "name": "renamed", "rows": 3, "provenance": "survey", "licence": "CC0")"));
    QVERIFY(metadata.ok());
    const auto table = pbx::io::applyDatasetMetadata(metadataTable(), *metadata);
    QVERIFY2(table.ok(), table.ok() ? "" : table.error().message.c_str());
    QCOMPARE(table->name(), std::string("renamed"));
    QCOMPARE(table->provenance(), std::string("survey Licence: CC0"));
    QCOMPARE(table->columnInfo(0).declaredBounds->upper, 10.0);
    // "unused" had no rows, so it may leave the dictionary; codes follow the declared order.
    QCOMPARE(table->columnInfo(1).categories, (std::vector<std::string>{"south", "east", "north"}));
    const pbx::test::PublicRows rows(*table);
    const auto codes = rows->codes(1);
    QCOMPARE(std::vector<std::int32_t>(codes.begin(), codes.end()), (std::vector<std::int32_t>{0, 2, 0}));
    QCOMPARE(table->columnInfo(1).description, std::string("where"));

    // Empty metadata changes nothing but keeps the table's name and provenance.
    const auto same = pbx::io::applyDatasetMetadata(metadataTable(), DatasetMetadata{});
    QVERIFY(same.ok());
    QCOMPARE(same->name(), std::string("small"));
    QCOMPARE(same->provenance(), std::string("original"));
}

void TestDatasetMetadata::applyErrors_data()
{
    QTest::addColumn<std::string>("json");
    QTest::addColumn<pbx::ErrorCode>("code");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown column") << document(R"([{"name": "age"}])") << ErrorCode::NotFound
                                    << "the metadata describes column 'age', which the data does not have";
    QTest::newRow("type mismatch")
        << document(R"([{"name": "wage", "type": "categorical"}])") << ErrorCode::InvalidArgument
        << "column 'wage': the metadata declares it categorical, but it is numeric";
    QTest::newRow("bounds on categorical")
        << document(R"([{"name": "region", "bounds": [0, 1]}])") << ErrorCode::InvalidArgument
        << "column 'region': bounds apply to numeric columns only";
    QTest::newRow("undeclared label")
        << document(R"([{"name": "region", "categories": ["north"]}])") << ErrorCode::InvalidArgument
        << "column 'region': label 'south' is not among the declared categories";
    QTest::newRow("row count") << document("[]", R"(, "rows": 4)") << ErrorCode::InvalidArgument
                               << "the metadata declares 4 rows, but the data has 3";
}

void TestDatasetMetadata::applyErrors()
{
    QFETCH(std::string, json);
    QFETCH(pbx::ErrorCode, code);
    QFETCH(QString, message);
    const auto metadata = parseDatasetMetadata(json);
    QVERIFY2(metadata.ok(), metadata.ok() ? "" : metadata.error().message.c_str());
    const auto table = pbx::io::applyDatasetMetadata(metadataTable(), *metadata);
    QVERIFY(!table.ok());
    QCOMPARE(static_cast<int>(table.error().code), static_cast<int>(code));
    QVERIFY2(QString::fromStdString(table.error().message).contains(message), table.error().message.c_str());
}

void TestDatasetMetadata::readsShippedSidecar()
{
    const auto metadata = pbx::io::readDatasetMetadataFile(PBX_SOURCE_DIR "/resources/datasets/cps1988.json");
    QVERIFY2(metadata.ok(), metadata.ok() ? "" : metadata.error().message.c_str());
    QCOMPARE(metadata->name, std::string("cps1988"));
    QCOMPARE(metadata->columns.size(), std::size_t{7});
    const auto missing = pbx::io::readDatasetMetadataFile(PBX_SOURCE_DIR "/no/such/file.json");
    QVERIFY(!missing.ok());
    QCOMPARE(static_cast<int>(missing.error().code), static_cast<int>(ErrorCode::Io));
}

QTEST_APPLESS_MAIN(TestDatasetMetadata)
#include "tst_datasetmetadata.moc"
