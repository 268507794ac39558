// SPDX-License-Identifier: MIT
// The data-source layer on the in-memory table and on SQLite: the doors, the in-memory source's
// numbers (bit for bit those of the existing code paths), CPS1988 loaded into an SQLite file
// answering every aggregate as the in-memory table does, missing values, SQL injection attempts,
// the statement timeout, a cancel from another thread and the schema errors.
#include "core/data/source.h"
#include "core/sources/sqlite_source.h"
#include "core/strategies/histogram.h"
#include "tests/sources/source_fixtures.h"
#include "tests/sources/sqlite_cps.h"
#include "tests/test_rows.h"
#include "tests/testutils.h"

#include <QTemporaryDir>

#include <chrono>
#include <cstring>
#include <future>
#include <thread>

#include <sqlite3.h>

using namespace pbx;
using pbx::sources::SqliteDescriptor;
using pbx::sources::SqliteSource;
using pbx::test::writeCps;
using pbx::test::Writer;

using pbx::test::categoricalColumn;
using pbx::test::metadataOf;
using pbx::test::numericColumn;
using pbx::test::statistics;

namespace {} // namespace

class TestSqliteSource : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void tableSourceIsTheExistingCodePath();
    void doorsRefusePrivateData();
    void cpsAgreesWithMemory();
    void randomPredicatesAgree();
    void declaredMetadataOnly();
    void missingValuesFollowPublicRules();
    void injectionIsRefusedOrAValue();
    void statementTimeout();
    void cancelStopsTheRunningStatement();
    void openErrors();

private:
    std::string sqlitePath(const char *name) const
    {
        return m_dir.filePath(QString::fromLatin1(name)).toStdString();
    }

    QTemporaryDir m_dir;
    data::Table m_cps;
    std::string m_cpsPath;
};

void TestSqliteSource::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_cps = test::cpsTable();
    m_cpsPath = sqlitePath("cps.db");
    QVERIFY(writeCps(m_cpsPath, m_cps));
}

void TestSqliteSource::tableSourceIsTheExistingCodePath()
{
    const data::TableSource source(std::make_shared<const data::Table>(m_cps));
    QCOMPARE(source.kind(), data::SourceKind::InMemory);
    QCOMPARE(source.declaredRowCount(), std::optional<std::size_t>(28155));
    auto aggregates = data::publicAggregates(source, "a test");
    QVERIFY(aggregates.ok());
    const test::PublicRows rows(m_cps);
    for (const auto &[where, expected] : test::cpsPredicates()) {
        for (data::QuerySpec spec : test::cpsQueries()) {
            spec.where = where;
            auto compiled = data::CompiledQuery::compile(spec, m_cps);
            QVERIFY(compiled.ok());
            const data::QueryStatistics direct = compiled->evaluate(rows);
            const auto viaSource = aggregates->statistics(*compiled);
            QVERIFY(viaSource.ok());
            // Bit for bit: the same function on the same rows.
            QCOMPARE(std::memcmp(&direct, &*viaSource, sizeof direct), 0);
        }
        auto predicate = data::Predicate::compile(where, m_cps);
        QVERIFY(predicate.ok());
        for (const char *column : {"ethnicity", "region"}) {
            auto histogram = strategies::countHistogram(rows, {column, {}}, *predicate);
            auto counts = aggregates->categoryCounts(column, *predicate);
            QVERIFY(histogram.ok() && counts.ok());
            QCOMPARE(counts->labels, histogram->labels);
            QCOMPARE(counts->counts, histogram->counts);
        }
    }
    // region == "south": 8760 rows; by region 6441, 6863, 8760, 6091 (sum 28155).
    auto byRegion = aggregates->categoryCounts("region");
    QVERIFY(byRegion.ok());
    QCOMPARE(byRegion->counts, (std::vector<std::int64_t>{6441, 6863, 8760, 6091}));
    PBX_VERIFY_ERROR(aggregates->categoryCounts("wage"), InvalidArgument, "'wage' is numeric");
    PBX_VERIFY_ERROR(aggregates->categoryCounts("regon"), NotFound, "unknown column 'regon'");
}

void TestSqliteSource::doorsRefusePrivateData()
{
    // Door (b) decides from the public flag alone, for the in-memory table and a database alike.
    const data::TableSource privateTable(std::make_shared<const data::Table>(m_cps.withPublic(false)));
    PBX_VERIFY_ERROR(data::publicAggregates(privateTable, "pbx-cli odp iqr"), Unsupported,
                     "pbx-cli odp iqr reads the rows of the dataset, which is not declared public");
    io::DatasetMetadata metadata = test::cpsMetadata();
    metadata.isPublic = false;
    auto source = SqliteSource::open({m_cpsPath, "cps"}, metadata);
    QVERIFY2(source.ok(), source.ok() ? "" : source.error().message.c_str());
    QVERIFY(!(*source)->isPublic());
    PBX_VERIFY_ERROR(data::publicAggregates(**source, "the relative-error lab"), Unsupported,
                     "the relative-error lab reads the rows");
}

void TestSqliteSource::cpsAgreesWithMemory()
{
    const std::string bytesBefore = test::readTextFile(m_cpsPath);
    auto source = SqliteSource::open({m_cpsPath, "cps"}, test::cpsMetadata());
    QVERIFY2(source.ok(), source.ok() ? "" : source.error().message.c_str());
    QCOMPARE((*source)->kind(), data::SourceKind::Sqlite);
    QCOMPARE((*source)->location(), "SQLite file " + m_cpsPath + ", table cps");
    const data::TableSource memory(std::make_shared<const data::Table>(m_cps));
    const test::Agreement agreement = test::compareWithMemory(*data::publicAggregates(**source, "a test"),
                                                              *data::publicAggregates(memory, "a test"));
    QVERIFY2(agreement.failure.empty(), agreement.failure.c_str());
    // 12 predicates × (6 counts + 5 × 2 sums) + 12 × 4 histograms.
    QCOMPARE(agreement.compared, 12 * 16 + 12 * 4);
    qInfo(
        "SQLite %s: %d of %d statistics bit-identical to the in-memory table, largest relative difference %g",
        sqlite3_libversion(), agreement.bitIdentical, agreement.compared, agreement.largestRelative);
    // Read-only: the file is byte for byte what it was, and no journal was made beside it.
    source->reset();
    QVERIFY(test::readTextFile(m_cpsPath) == bytesBefore);
    QVERIFY(!QFile::exists(QString::fromStdString(m_cpsPath + "-journal")));
    QVERIFY(!QFile::exists(QString::fromStdString(m_cpsPath + "-wal")));
}

void TestSqliteSource::randomPredicatesAgree()
{
    // 150 seeded random predicates (up to three levels of and / or / not; literals that rows hold,
    // values between them, every operator and every category): counts, the means of wage and
    // experience and the region histogram agree with the in-memory table.
    auto source = SqliteSource::open({m_cpsPath, "cps"}, test::cpsMetadata());
    QVERIFY2(source.ok(), source.ok() ? "" : source.error().message.c_str());
    const data::TableSource memory(std::make_shared<const data::Table>(m_cps));
    const auto predicates = test::randomCpsPredicates(test::PublicRows(m_cps), 150, 30);
    const test::Agreement agreement = test::compareOnPredicates(
        *data::publicAggregates(**source, "a test"), *data::publicAggregates(memory, "a test"), predicates);
    QVERIFY2(agreement.failure.empty(), agreement.failure.c_str());
    QCOMPARE(agreement.compared, 150 * 8);
    QCOMPARE(agreement.selective, 137); // of 150 select some rows but not all (seed 30)
    qInfo("SQLite, random predicates: %d of %d statistics bit-identical, largest relative difference %g",
          agreement.bitIdentical, agreement.compared, agreement.largestRelative);
}

void TestSqliteSource::declaredMetadataOnly()
{
    // Bounds, categories and the row count come from the metadata; the schema holds no row.
    io::DatasetMetadata metadata = test::cpsMetadata();
    metadata.columns[0].bounds.reset(); // wage without declared bounds
    auto source = SqliteSource::open({m_cpsPath, "cps"}, metadata);
    QVERIFY(source.ok());
    const data::Table &schema = (*source)->schema();
    QCOMPARE(schema.rowCount(), std::size_t{0});
    QCOMPARE(schema.name(), std::string("cps1988"));
    QCOMPARE((*source)->declaredRowCount(), std::optional<std::size_t>(28155));
    QCOMPARE(schema.columnInfo(5).categories,
             (std::vector<std::string>{"northeast", "midwest", "south", "west"}));
    QCOMPARE(schema.columnInfo(2).declaredBounds->lower, -8.0);
    // A column without declared bounds cannot be summed, as in memory.
    PBX_VERIFY_ERROR(data::CompiledQuery::compile({data::Aggregate::Sum, "wage", std::nullopt, ""}, schema),
                     InvalidArgument, "bounds: column 'wage' has no declared bounds");
    // The declared row count is checked at open, as the CSV loader checks it.
    metadata.rows = 28154;
    PBX_VERIFY_ERROR(SqliteSource::open({m_cpsPath, "cps"}, metadata), InvalidArgument,
                     "the metadata declares 28154 rows, but table 'cps' has 28155");
    metadata.rows.reset();
    auto undeclared = SqliteSource::open({m_cpsPath, "cps"}, metadata);
    QVERIFY(undeclared.ok());
    QVERIFY(!(*undeclared)->declaredRowCount());
    // Only the columns the metadata describes are the source's.
    auto two = SqliteSource::open(
        {m_cpsPath, "cps"}, metadataOf({numericColumn("education", {0, 20}), categoricalColumn("region")}));
    QVERIFY2(two.ok(), two.ok() ? "" : two.error().message.c_str());
    QCOMPARE((*two)->schema().columnCount(), std::size_t{2});
    QVERIFY((*two)->schema().columnInfo(1).domainFromData);
    auto aggregates = data::publicAggregates(**two, "a test");
    PBX_VERIFY_ERROR(aggregates->categoryCounts("region"), InvalidArgument,
                     "the categories of 'region' were inferred from the data; declare them in the metadata");
    PBX_VERIFY_ERROR(data::Predicate::compile("wage > 3", (*two)->schema()), NotFound,
                     "unknown column 'wage'");
    // Labels outside undeclared categories are values: they match no row.
    QCOMPARE(statistics(*aggregates, {data::Aggregate::Count, "", std::nullopt, "region == \"south\""}).count,
             8760.0);
    QCOMPARE(statistics(*aggregates, {data::Aggregate::Count, "", std::nullopt, "region == \"mars\""}).count,
             0.0);
}

void TestSqliteSource::missingValuesFollowPublicRules()
{
    const std::string path = sqlitePath("missing.db");
    Writer writer(path);
    QVERIFY(writer.exec("CREATE TABLE t (x REAL, c TEXT);"
                        "INSERT INTO t VALUES (1, 'a'), (7, 'b'), (NULL, 'a'), ('seven', NULL), (12, 'zz')"));
    auto source = SqliteSource::open(
        {path, "t"}, metadataOf({numericColumn("x", {2, 10}), categoricalColumn("c", {"a", "b"})}));
    QVERIFY2(source.ok(), source.ok() ? "" : source.error().message.c_str());
    auto aggregates = data::publicAggregates(**source, "a test");
    using data::Aggregate;
    // NULL and the text 'seven' are missing: they compare as NaN does in memory.
    QCOMPARE(statistics(*aggregates, {Aggregate::Count, "", std::nullopt, "x < 100"}).count, 3.0);
    QCOMPARE(statistics(*aggregates, {Aggregate::Count, "", std::nullopt, "x != 7"}).count, 4.0);
    QCOMPARE(statistics(*aggregates, {Aggregate::Count, "", std::nullopt, "not x == 7"}).count, 4.0);
    QCOMPARE(statistics(*aggregates, {Aggregate::Count, "", std::nullopt, "not x < 100"}).count, 2.0);
    QCOMPARE(statistics(*aggregates, {Aggregate::Count, "", std::nullopt, "c != \"a\""}).count, 3.0);
    // Sums: clip(1) = 2, 7, missing → L = 2 twice, clip(12) = 10: 23; centred about 6: −4+1−4−4+4 = −7.
    const data::QueryStatistics sum = statistics(*aggregates, {Aggregate::Mean, "x", std::nullopt, ""});
    QCOMPARE(sum.count, 5.0);
    QCOMPARE(sum.clippedSum, 23.0);
    QCOMPARE(sum.centredSum, -7.0);
    // A missing or undeclared label is in no cell: a 2, b 1 (NULL and 'zz' nowhere).
    auto counts = aggregates->categoryCounts("c");
    QVERIFY(counts.ok());
    QCOMPARE(counts->counts, (std::vector<std::int64_t>{2, 1}));
}

void TestSqliteSource::injectionIsRefusedOrAValue()
{
    const std::string path = sqlitePath("hostile.db");
    {
        Writer writer(path);
        const std::string create
            = "CREATE TABLE \"t\"\"x\" (\"we\"\"ird\" REAL, \"a'b; DROP TABLE keep; --\" TEXT, city TEXT);"
              "CREATE TABLE keep (k INTEGER); INSERT INTO keep VALUES (1);"
              "INSERT INTO \"t\"\"x\" VALUES (3, 'p', 'x'' OR ''1''=''1'), (4, 'q', 'Bern'), (5, 'p', 'Bern');";
        const bool created = writer.exec(create);
        QVERIFY2(created, writer.error().c_str());
    }
    // Quoted identifiers: a table and columns whose names hold quotes and SQL.
    const io::DatasetMetadata metadata
        = metadataOf({numericColumn("we\"ird", {0, 10}),
                      categoricalColumn("a'b; DROP TABLE keep; --", {"p", "q"}), categoricalColumn("city")});
    auto source = SqliteSource::open({path, "t\"x"}, metadata);
    QVERIFY2(source.ok(), source.ok() ? "" : source.error().message.c_str());
    auto aggregates = data::publicAggregates(**source, "a test");
    using data::Aggregate;
    QCOMPARE(statistics(*aggregates, {Aggregate::Sum, "we\"ird", std::nullopt, ""}).clippedSum, 12.0);
    auto byHostile = aggregates->categoryCounts("a'b; DROP TABLE keep; --");
    QVERIFY(byHostile.ok());
    QCOMPARE(byHostile->counts, (std::vector<std::int64_t>{2, 1}));
    // String literals are bound values: a classic injection matches exactly the row holding that text.
    QCOMPARE(statistics(*aggregates, {Aggregate::Count, "", std::nullopt, "city == \"x' OR '1'='1\""}).count,
             1.0);
    QCOMPARE(
        statistics(*aggregates, {Aggregate::Count, "", std::nullopt, "city == \"Bern\\\" OR 1=1 --\""}).count,
        0.0);
    std::string nul = "city == 'a";
    nul += '\0';
    nul += "b'";
    QCOMPARE(statistics(*aggregates, {Aggregate::Count, "", std::nullopt, nul}).count, 0.0);
    QCOMPARE(
        statistics(*aggregates, {Aggregate::Count, "", std::nullopt, "city == \"'); DROP TABLE keep; --\""})
            .count,
        0.0);
    // Predicate text that is not the predicate language never reaches SQL.
    const data::Table &schema = (*source)->schema();
    PBX_VERIFY_ERROR(data::Predicate::compile("city == 'Bern'; DROP TABLE keep", schema), Parse,
                     "character 15: unexpected character ';'");
    PBX_VERIFY_ERROR(data::Predicate::compile("city == 'Bern' -- comment", schema), Parse, "character 16");
    PBX_VERIFY_ERROR(data::Predicate::compile("1 == 1 or city == 'x'", schema), Parse, "character 1");
    PBX_VERIFY_ERROR(
        data::CompiledQuery::compile({Aggregate::Sum, "x\" FROM keep --", std::nullopt, ""}, schema),
        NotFound, "column: unknown column");
    // A hostile table name is a name: no such table, and nothing was dropped.
    PBX_VERIFY_ERROR(SqliteSource::open({path, "keep; DROP TABLE keep; --"}, metadata), NotFound,
                     "sqlite: no table or view 'keep; DROP TABLE keep; --'");
    Writer check(path);
    QVERIFY2(check.exec("SELECT k FROM keep"), "table keep was dropped");
}

void TestSqliteSource::statementTimeout()
{
    const std::string path = sqlitePath("slow.db");
    {
        Writer writer(path);
        QVERIFY(writer.exec(
            "CREATE VIEW slow AS WITH RECURSIVE c(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM c "
            "WHERE v < 1000000000) SELECT v FROM c; CREATE TABLE quick (v REAL); INSERT INTO quick VALUES (1)"));
    }
    SqliteDescriptor descriptor{path, "slow", 100};
    auto source = SqliteSource::open(descriptor, metadataOf({numericColumn("v", {0, 1})}));
    QVERIFY2(source.ok(), source.ok() ? "" : source.error().message.c_str());
    auto aggregates = data::publicAggregates(**source, "a test");
    auto compiled = data::CompiledQuery::compile({data::Aggregate::Count, "", std::nullopt, "v > 0"},
                                                 (*source)->schema());
    const auto started = std::chrono::steady_clock::now();
    PBX_VERIFY_ERROR(
        aggregates->statistics(*compiled), ResourceLimit,
        "the query ran over the statement timeout (100 ms) and was stopped; nothing was computed");
    QVERIFY(std::chrono::steady_clock::now() - started < std::chrono::seconds(20));
    // The connection stays usable: the next call runs (and times out) again, cleanly.
    PBX_VERIFY_ERROR(aggregates->statistics(*compiled), ResourceLimit, "statement timeout");
    auto quick = SqliteSource::open({path, "quick", 100}, metadataOf({numericColumn("v", {0, 1})}));
    QVERIFY(quick.ok());
    QCOMPARE(
        statistics(*data::publicAggregates(**quick, "a test"), {data::Aggregate::Count, "", std::nullopt, ""})
            .count,
        1.0);
}

// The GUI's Cancel (setCancelRequested from the GUI thread while a worker runs the statement): the
// running statement stops within a moment, long before its 3-s timeout, with Cancelled, not
// ResourceLimit; while the request stands every call fails at once; withdrawn, the same connection
// runs the next statement (to its timeout here: the view is endless).
void TestSqliteSource::cancelStopsTheRunningStatement()
{
    const std::string path = sqlitePath("endless.db");
    {
        Writer writer(path);
        QVERIFY(writer.exec("CREATE VIEW endless AS WITH RECURSIVE c(v) AS (SELECT 1 UNION ALL SELECT v + 1 "
                            "FROM c WHERE v < 1000000000000) SELECT v FROM c"));
    }
    auto source = SqliteSource::open({path, "endless", 3000}, metadataOf({numericColumn("v", {0, 1})}));
    QVERIFY2(source.ok(), source.ok() ? "" : source.error().message.c_str());
    auto aggregates = data::publicAggregates(**source, "a test");
    auto compiled = data::CompiledQuery::compile({data::Aggregate::Count, "", std::nullopt, "v > 0"},
                                                 (*source)->schema());
    const auto started = std::chrono::steady_clock::now();
    auto running = std::async(std::launch::async, [&] { return aggregates->statistics(*compiled); });
    QCOMPARE(running.wait_for(std::chrono::milliseconds(300)), std::future_status::timeout);
    (*source)->setCancelRequested(true);
    QCOMPARE(running.wait_for(std::chrono::seconds(2)), std::future_status::ready);
    const auto took = std::chrono::steady_clock::now() - started;
    QVERIFY(took < std::chrono::milliseconds(2300));
    PBX_VERIFY_ERROR(running.get(), Cancelled,
                     "sqlite (" + path + "): the query was cancelled; nothing was computed");
    const auto refused = std::chrono::steady_clock::now();
    PBX_VERIFY_ERROR(aggregates->statistics(*compiled), Cancelled, "the query was cancelled");
    QVERIFY(std::chrono::steady_clock::now() - refused < std::chrono::milliseconds(500));
    (*source)->setCancelRequested(false);
    PBX_VERIFY_ERROR(aggregates->statistics(*compiled), ResourceLimit, "statement timeout (3000 ms)");
}

void TestSqliteSource::openErrors()
{
    const io::DatasetMetadata cps = test::cpsMetadata();
    const std::string absent = sqlitePath("absent.db");
    PBX_VERIFY_ERROR(SqliteSource::open({absent, "cps"}, cps), Io, "sqlite: cannot open '" + absent + "'");
    QVERIFY2(!QFile::exists(QString::fromStdString(absent)), "opening read-only must not create the file");
    const std::string text = sqlitePath("text.db");
    {
        std::ofstream out(text);
        out << "this is not a database, but long enough to have a header of one hundred bytes or more: "
               "................................................................................\n";
    }
    PBX_VERIFY_ERROR(SqliteSource::open({text, "cps"}, cps), Io, "file is not a database");
    PBX_VERIFY_ERROR(SqliteSource::open({m_cpsPath, "cps"}, io::DatasetMetadata{}), InvalidArgument,
                     "metadata: columns: a database source needs its columns described");
    PBX_VERIFY_ERROR(SqliteSource::open({m_cpsPath, "cps"}, metadataOf({numericColumn("salary", {0, 1})})),
                     NotFound, "the metadata describes column 'salary', which table 'cps' does not have");
    PBX_VERIFY_ERROR(SqliteSource::open({m_cpsPath, "cps"}, metadataOf({numericColumn("region", {0, 1})})),
                     InvalidArgument,
                     "column 'region': the metadata declares it numeric, but table 'cps' stores it as TEXT");
}

QTEST_APPLESS_MAIN(TestSqliteSource)
#include "tst_sqlite.moc"
