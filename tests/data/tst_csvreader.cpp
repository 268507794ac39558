// SPDX-License-Identifier: MIT
// CSV reader: type inference, quoting, line/column positions in errors, limits, metadata, files.
#include "core/io/csv_reader.h"
#include "tests/test_rows.h"

#include "tests/testutils.h"

#include <QTemporaryDir>

using pbx::ErrorCode;
using pbx::data::ColumnType;
using pbx::data::Table;
using pbx::io::CsvReadOptions;
using pbx::io::readCsv;

namespace {

// "NCN": one letter per column, N numeric, C categorical.
std::string typeString(const Table &table)
{
    std::string types;
    for (std::size_t i = 0; i < table.columnCount(); ++i)
        types += table.columnInfo(i).type == ColumnType::Numeric ? 'N' : 'C';
    return types;
}

std::string manyFields(std::size_t count, const std::string &prefix)
{
    std::string line;
    for (std::size_t i = 0; i < count; ++i)
        line += (i ? "," : "") + prefix + std::to_string(i);
    return line + "\n";
}

pbx::io::DatasetMetadata regionMetadata()
{
    pbx::io::DatasetMetadata metadata;
    metadata.name = "survey";
    metadata.provenance = "hand-made test data";
    metadata.licence = "CC0";
    pbx::io::ColumnMetadata wage;
    wage.name = "wage";
    wage.type = ColumnType::Numeric;
    wage.bounds = pbx::data::Bounds{0, 100};
    wage.description = "weekly wage";
    pbx::io::ColumnMetadata region;
    region.name = "region";
    region.categories = {"west", "south", "north"};
    metadata.columns = {wage, region};
    return metadata;
}

} // namespace

class TestCsvReader : public QObject
{
    Q_OBJECT

private slots:
    void valid_data();
    void valid();
    void invalid_data();
    void invalid();
    void valuesAndDictionaries();
    void quotedFields();
    void limits();
    void metadataIsApplied();
    void metadataErrors_data();
    void metadataErrors();
    void readsFiles();
};

void TestCsvReader::valid_data()
{
    QTest::addColumn<std::string>("csv");
    QTest::addColumn<int>("rows");
    QTest::addColumn<std::string>("types");

    QTest::newRow("basic") << std::string("a,b,c\n1,x,2.5\n3,y,-1e3\n") << 2 << std::string("NCN");
    QTest::newRow("CRLF") << std::string("a,b,c\r\n1,x,2.5\r\n3,y,-1e3\r\n") << 2 << std::string("NCN");
    QTest::newRow("no final newline") << std::string("a,b\n1,x\n3,y") << 2 << std::string("NC");
    QTest::newRow("byte-order mark") << std::string("\xEF\xBB\xBF"
                                                    "a,b\n1,x\n")
                                     << 1 << std::string("NC");
    QTest::newRow("blank lines skipped") << std::string("a,b\n1,2\n\n3,4\n   \n\n") << 2 << std::string("NN");
    QTest::newRow("spaces around fields") << std::string(" a , b \n 1 , x \n") << 1 << std::string("NC");
    QTest::newRow("bad number makes categorical") << std::string("v\n1\n2\nthree\n") << 3 << std::string("C");
    QTest::newRow("NA is a label") << std::string("v,w\n1,2\nNA,3\n") << 2 << std::string("CN");
    QTest::newRow("infinity is a label") << std::string("v\n1\ninf\n") << 2 << std::string("C");
    QTest::newRow("nan is a label") << std::string("v\n1\nnan\n") << 2 << std::string("C");
    QTest::newRow("overflow is a label") << std::string("v\n1\n1e999\n") << 2 << std::string("C");
    QTest::newRow("hex is a label") << std::string("v\n1\n0x10\n") << 2 << std::string("C");
    QTest::newRow("trailing text is a label") << std::string("v\n1\n12kg\n") << 2 << std::string("C");
    QTest::newRow("explicit plus is numeric") << std::string("v\n+4\n-2\n.5\n3.\n") << 4 << std::string("N");
    QTest::newRow("double sign is a label") << std::string("v\n+-4\n") << 1 << std::string("C");
    QTest::newRow("quoted number is numeric") << std::string("v\n\"12\"\n") << 1 << std::string("N");
    QTest::newRow("single column") << std::string("v\n1\n2\n3\n") << 3 << std::string("N");
}

void TestCsvReader::valid()
{
    QFETCH(std::string, csv);
    QFETCH(int, rows);
    QFETCH(std::string, types);
    const auto table = readCsv(csv, "t");
    QVERIFY2(table.ok(), table.ok() ? "" : table.error().message.c_str());
    QCOMPARE(table->rowCount(), static_cast<std::size_t>(rows));
    QCOMPARE(typeString(*table), types);
    QCOMPARE(table->name(), std::string("t"));
}

void TestCsvReader::invalid_data()
{
    QTest::addColumn<std::string>("csv");
    QTest::addColumn<QString>("message");

    QTest::newRow("empty file") << std::string() << "the file is empty";
    QTest::newRow("only blank lines") << std::string("\n\n  \n") << "the file is empty";
    QTest::newRow("header only") << std::string("a,b\n") << "header but no data rows";
    QTest::newRow("short row") << std::string("a,b,c\n1,2,3\n4,5\n")
                               << "line 3: expected 3 fields as in the header, found 2";
    QTest::newRow("long row") << std::string("a,b\n1,2\n3,4,5\n")
                              << "line 3: expected 2 fields as in the header, found 3";
    QTest::newRow("empty header name")
        << std::string("a,,c\n1,2,3\n") << "line 1, column 2: empty column name in the header";
    QTest::newRow("duplicate header name")
        << std::string("a,b,a\n1,2,3\n") << "line 1, column 3: duplicate column name 'a' (also column 1)";
    QTest::newRow("empty cell") << std::string("wage,region\n1,x\n,y\n")
                                << "line 3, column 1 ('wage'): empty cell; missing values are not supported";
    QTest::newRow("empty last cell") << std::string("a,b\n1,\n") << "line 2, column 2 ('b'): empty cell";
    QTest::newRow("empty quoted cell")
        << std::string("a,b\n1,\"\"\n") << "line 2, column 2 ('b'): empty cell";
    QTest::newRow("quote inside unquoted field")
        << std::string("a,b\n1,x\"y\n") << "line 2, character 4: malformed quoting";
    QTest::newRow("text after closing quote")
        << std::string("a,b\n1,\"x\"y\n") << "line 2, character 6: malformed quoting";
    QTest::newRow("unterminated quote")
        << std::string("a,b\n1,\"xy\n2,z\n") << "the file ends inside a quoted field";
    QTest::newRow("lines count physical lines")
        << std::string("a,b\n\"l1\nl2\",1\n\n,2\n") << "line 5, column 1 ('a'): empty cell";
}

void TestCsvReader::invalid()
{
    QFETCH(std::string, csv);
    QFETCH(QString, message);
    const auto table = readCsv(csv, "t");
    QVERIFY(!table.ok());
    QCOMPARE(static_cast<int>(table.error().code), static_cast<int>(ErrorCode::Parse));
    QVERIFY2(QString::fromStdString(table.error().message).contains(message), table.error().message.c_str());
}

void TestCsvReader::valuesAndDictionaries()
{
    const auto table = readCsv("wage,region,n\n1.5,south,3\n-2e2,north,1\n7,south,2\n+0,east,4\n", "t");
    QVERIFY(table.ok());
    const pbx::test::PublicRows rows(*table);
    const auto wage = rows->numeric(0);
    QCOMPARE(std::vector<double>(wage.begin(), wage.end()), (std::vector<double>{1.5, -200.0, 7.0, 0.0}));
    // Inferred dictionaries are sorted, whatever the row order.
    QCOMPARE(table->columnInfo(1).categories, (std::vector<std::string>{"east", "north", "south"}));
    const auto codes = rows->codes(1);
    QCOMPARE(std::vector<std::int32_t>(codes.begin(), codes.end()), (std::vector<std::int32_t>{2, 1, 2, 0}));
    QVERIFY(!table->columnInfo(0).declaredBounds); // never inferred from the data
}

void TestCsvReader::quotedFields()
{
    const std::string csv = "label,n\n"
                            "\"hello, world\",1\n"
                            "\"multi\nline\",2\n"
                            "\"say \"\"hi\"\"\",3\n"
                            "\"  padded  \",4\n";
    const auto table = readCsv(csv, "t");
    QVERIFY2(table.ok(), table.ok() ? "" : table.error().message.c_str());
    QCOMPARE(table->rowCount(), std::size_t{4});
    QCOMPARE(typeString(*table), std::string("CN"));
    QCOMPARE(table->columnInfo(0).categories,
             (std::vector<std::string>{"  padded  ", "hello, world", "multi\nline", "say \"hi\""}));

    CsvReadOptions semicolons;
    semicolons.delimiter = ';';
    const auto european = readCsv("a;b\n\"1,5\";2\n", "t", semicolons);
    QVERIFY(european.ok());
    QCOMPARE(typeString(*european), std::string("CN"));
    semicolons.delimiter = '"';
    QCOMPARE(static_cast<int>(readCsv("a\n1\n", "t", semicolons).error().code),
             static_cast<int>(ErrorCode::InvalidArgument));
}

void TestCsvReader::limits()
{
    // A header with 1001 columns is refused while reading it, before any data is stored.
    const auto wide = readCsv(manyFields(1001, "c") + manyFields(1001, ""), "t");
    QVERIFY(!wide.ok());
    QVERIFY2(wide.error().message.find("line 1: more than 1000 fields") != std::string::npos,
             wide.error().message.c_str());
    // 1000 columns are fine.
    const auto widest = readCsv(manyFields(1000, "c") + manyFields(1000, ""), "t");
    QVERIFY2(widest.ok(), widest.ok() ? "" : widest.error().message.c_str());
    QCOMPARE(widest->columnCount(), std::size_t{1000});
    // A data row claiming a huge number of fields stops at the limit too.
    const auto huge = readCsv("a,b\n" + manyFields(50000, ""), "t");
    QVERIFY(!huge.ok());
    QVERIFY2(huge.error().message.find("line 2: more than 1000 fields") != std::string::npos,
             huge.error().message.c_str());

    CsvReadOptions few;
    few.maxRows = 2;
    QVERIFY(readCsv("v\n1\n2\n", "t", few).ok());
    const auto tooMany = readCsv("v\n1\n2\n3\n", "t", few);
    QVERIFY(!tooMany.ok());
    QVERIFY2(tooMany.error().message.find("more than 2 data rows") != std::string::npos,
             tooMany.error().message.c_str());
    QCOMPARE(CsvReadOptions{}.maxRows, std::size_t{10'000'000});
    QCOMPARE(CsvReadOptions{}.maxColumns, std::size_t{1000});
}

void TestCsvReader::metadataIsApplied()
{
    const pbx::io::DatasetMetadata metadata = regionMetadata();
    CsvReadOptions options;
    options.metadata = &metadata;
    const auto table = readCsv("wage,region,other\n10,south,1\n20,west,2\n", "file", options);
    QVERIFY2(table.ok(), table.ok() ? "" : table.error().message.c_str());
    QCOMPARE(table->name(), std::string("survey"));
    QCOMPARE(table->provenance(), std::string("hand-made test data Licence: CC0"));
    QVERIFY(table->columnInfo(0).declaredBounds.has_value());
    QCOMPARE(table->columnInfo(0).declaredBounds->upper, 100.0);
    QCOMPARE(table->columnInfo(0).description, std::string("weekly wage"));
    // Declared order, including the unused label "north".
    QCOMPARE(table->columnInfo(1).categories, (std::vector<std::string>{"west", "south", "north"}));
    const pbx::test::PublicRows rows(*table);
    const auto codes = rows->codes(1);
    QCOMPARE(std::vector<std::int32_t>(codes.begin(), codes.end()), (std::vector<std::int32_t>{1, 0}));
    QVERIFY(!table->columnInfo(2).declaredBounds);

    // A declared categorical column stays categorical even when its labels look numeric.
    pbx::io::DatasetMetadata codesMetadata;
    pbx::io::ColumnMetadata zip;
    zip.name = "zip";
    zip.type = ColumnType::Categorical;
    codesMetadata.columns = {zip};
    options.metadata = &codesMetadata;
    const auto zips = readCsv("zip\n02139\n10001\n", "t", options);
    QVERIFY(zips.ok());
    QCOMPARE(zips->columnInfo(0).categories, (std::vector<std::string>{"02139", "10001"}));
}

void TestCsvReader::metadataErrors_data()
{
    QTest::addColumn<std::string>("csv");
    QTest::addColumn<pbx::ErrorCode>("code");
    QTest::addColumn<QString>("message");

    QTest::newRow("declared numeric, text cell")
        << std::string("wage,region\n1,south\nabc,west\n") << ErrorCode::Parse
        << "line 3, column 1 ('wage'): 'abc' is not a finite number, but the metadata declares "
           "the column numeric";
    QTest::newRow("label outside declared categories")
        << std::string("wage,region\n1,east\n") << ErrorCode::Parse
        << "line 2, column 2 ('region'): label 'east' is not among the declared categories";
    QTest::newRow("described column missing") << std::string("wage,place\n1,south\n") << ErrorCode::NotFound
                                              << "the metadata describes column 'region', which the "
                                                 "CSV header does not have";
}

void TestCsvReader::metadataErrors()
{
    QFETCH(std::string, csv);
    QFETCH(pbx::ErrorCode, code);
    QFETCH(QString, message);
    const pbx::io::DatasetMetadata metadata = regionMetadata();
    CsvReadOptions options;
    options.metadata = &metadata;
    const auto table = readCsv(csv, "t", options);
    QVERIFY(!table.ok());
    QCOMPARE(static_cast<int>(table.error().code), static_cast<int>(code));
    QVERIFY2(QString::fromStdString(table.error().message).contains(message), table.error().message.c_str());
}

void TestCsvReader::readsFiles()
{
    // The embedded dataset's source file: gzip detected by content, name from the file stem.
    const std::string gz = PBX_SOURCE_DIR "/resources/datasets/cps1988.csv.gz";
    const auto inferred = pbx::io::readCsvFile(gz);
    QVERIFY2(inferred.ok(), inferred.ok() ? "" : inferred.error().message.c_str());
    QCOMPARE(inferred->name(), std::string("cps1988"));
    QCOMPARE(inferred->rowCount(), std::size_t{28155});
    QCOMPARE(typeString(*inferred), std::string("NNNCCCC"));
    QCOMPARE(inferred->provenance(), std::string("read from cps1988.csv.gz"));
    // Inferred dictionaries are sorted (metadata would give the declared order instead).
    QCOMPARE(inferred->columnInfo(5).categories,
             (std::vector<std::string>{"midwest", "northeast", "south", "west"}));

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string plain = dir.filePath(QStringLiteral("my data.csv")).toStdString();
    {
        std::ofstream out(plain, std::ios::binary);
        out << "x,y\n1,a\n2,b\n";
    }
    const auto table = pbx::io::readCsvFile(plain);
    QVERIFY(table.ok());
    QCOMPARE(table->name(), std::string("my data"));
    QCOMPARE(table->rowCount(), std::size_t{2});

    const auto missing = pbx::io::readCsvFile(dir.filePath(QStringLiteral("nope.csv")).toStdString());
    QVERIFY(!missing.ok());
    QCOMPARE(static_cast<int>(missing.error().code), static_cast<int>(ErrorCode::Io));

    const std::string broken = dir.filePath(QStringLiteral("broken.csv")).toStdString();
    {
        std::ofstream out(broken, std::ios::binary);
        out << "x,y\n1\n";
    }
    const auto refused = pbx::io::readCsvFile(broken);
    QVERIFY(!refused.ok());
    QVERIFY2(refused.error().message.find("broken.csv: line 2: expected 2 fields") != std::string::npos,
             refused.error().message.c_str());
}

QTEST_APPLESS_MAIN(TestCsvReader)
#include "tst_csvreader.moc"
