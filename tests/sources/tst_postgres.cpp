// SPDX-License-Identifier: MIT
// The PostgreSQL source against a real server (tests/sources/postgres_server.h): CPS1988 loaded into
// a table answers every aggregate as the in-memory table does; the session is read-only (a view that
// would write fails); SQL injection attempts are refused or treated as values; a statement over the
// timeout is cancelled with a clear error; a killed server fails the call cleanly and the same source
// answers again after the server is restarted. Skipped, saying why, only when the PostgreSQL 15
// binaries are absent.
#include "core/data/source.h"
#include "core/io/request_json.h"
#include "core/session/session.h"
#include "core/sources/open_source.h"
#include "core/sources/postgres_source.h"
#include "tests/sources/postgres_server.h"
#include "tests/sources/source_fixtures.h"
#include "tests/test_rows.h"
#include "tests/testutils.h"

#include <future>

using namespace pbx;
using pbx::sources::PostgresDescriptor;
using pbx::sources::PostgresSource;

using pbx::test::categoricalColumn;
using pbx::test::metadataOf;
using pbx::test::numericColumn;
using pbx::test::statistics;

namespace {} // namespace

class TestPostgresSource : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void descriptorOpensTheSource();
    void cpsAgreesWithMemory();
    void randomPredicatesAgree();
    void readOnlyTransaction();
    void injectionIsRefusedOrAValue();
    void missingValuesFollowPublicRules();
    void statementTimeout();
    void cancelStopsTheRunningStatement();
    void schemaQualifiedTable();
    void killedServer();
    void killedServerMidSession();
    void publicTableWithoutRowsCountsOnFirstUse();
    void openErrors();

private:
    PostgresDescriptor descriptor(const std::string &table,
                                  int timeoutMs = sources::defaultStatementTimeoutMs) const
    {
        PostgresDescriptor d;
        d.host = m_server->directory();
        d.user = "pbx";
        d.database = "pbx";
        d.table = table;
        d.statementTimeoutMs = timeoutMs;
        return d;
    }

    std::unique_ptr<test::PostgresServer> m_server;
    data::Table m_cps;
};

void TestPostgresSource::initTestCase()
{
    if (const std::string why = test::PostgresServer::missing(); !why.empty())
        QSKIP(why.c_str());
    m_server = std::make_unique<test::PostgresServer>();
    const std::string started = m_server->initialise();
    QVERIFY2(started.empty(), started.c_str());
    {
        test::PostgresAdmin admin(m_server->conninfo());
        QVERIFY2(admin.ok(), admin.error().c_str());
        QCOMPARE(admin.exec("CREATE DATABASE pbx"), std::string());
    }
    test::PostgresAdmin admin(m_server->conninfo("pbx"));
    QVERIFY2(admin.ok(), admin.error().c_str());
    // CPS1988 with a spread of types: double, integer, smallint, text, varchar, char-free text.
    QCOMPARE(admin.exec("CREATE TABLE cps (wage double precision, education integer, experience smallint, "
                        "ethnicity text, smsa varchar(3), region text, parttime text)"),
             std::string());
    m_cps = test::cpsTable();
    QCOMPARE(admin.copy("cps", test::cpsCopyText(m_cps)), std::string());
    QCOMPARE(admin.value("SELECT count(*) FROM cps"), std::string("28155"));
}

void TestPostgresSource::cleanupTestCase()
{
    if (m_server)
        QVERIFY(m_server->stop());
}

void TestPostgresSource::descriptorOpensTheSource()
{
    const std::string text = "postgresql://pbx@/pbx?host=" + m_server->directory() + "&table=cps";
    auto parsed = sources::parseSourceDescriptor(text);
    QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().message.c_str());
    auto source = sources::openDatabaseSource(*parsed, test::cpsMetadata());
    QVERIFY2(source.ok(), source.ok() ? "" : source.error().message.c_str());
    QCOMPARE((*source)->kind(), data::SourceKind::Postgres);
    QCOMPARE((*source)->location(),
             "PostgreSQL database pbx on " + m_server->directory() + " (user pbx), table cps");
    QCOMPARE((*source)->declaredRowCount(), std::optional<std::size_t>(28155));
    QCOMPARE((*source)->schema().rowCount(), std::size_t{0});
    // The connection introduces itself to the server (its startup parameters reach it intact).
    test::PostgresAdmin admin(m_server->conninfo("pbx"));
    QCOMPARE(admin.value("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'pbx'"),
             std::string("1"));
}

void TestPostgresSource::cpsAgreesWithMemory()
{
    auto source = PostgresSource::open(descriptor("cps"), test::cpsMetadata());
    QVERIFY2(source.ok(), source.ok() ? "" : source.error().message.c_str());
    const data::TableSource memory(std::make_shared<const data::Table>(m_cps));
    const test::Agreement agreement = test::compareWithMemory(*data::publicAggregates(**source, "a test"),
                                                              *data::publicAggregates(memory, "a test"));
    QVERIFY2(agreement.failure.empty(), agreement.failure.c_str());
    QCOMPARE(agreement.compared, 12 * 16 + 12 * 4);
    qInfo(
        "PostgreSQL 15: %d of %d statistics bit-identical to the in-memory table, largest relative difference %g",
        agreement.bitIdentical, agreement.compared, agreement.largestRelative);
}

void TestPostgresSource::randomPredicatesAgree()
{
    // 150 seeded random predicates (up to three levels of and / or / not; literals that rows hold,
    // values between them, every operator and every category): counts, the means of wage and
    // experience and the region histogram agree with the in-memory table.
    auto source = PostgresSource::open(descriptor("cps"), test::cpsMetadata());
    QVERIFY2(source.ok(), source.ok() ? "" : source.error().message.c_str());
    const data::TableSource memory(std::make_shared<const data::Table>(m_cps));
    const auto predicates = test::randomCpsPredicates(test::PublicRows(m_cps), 150, 30);
    const test::Agreement agreement = test::compareOnPredicates(
        *data::publicAggregates(**source, "a test"), *data::publicAggregates(memory, "a test"), predicates);
    QVERIFY2(agreement.failure.empty(), agreement.failure.c_str());
    QCOMPARE(agreement.compared, 150 * 8);
    QCOMPARE(agreement.selective, 137); // of 150 select some rows but not all (seed 30)
    qInfo("PostgreSQL, random predicates: %d of %d statistics bit-identical, largest relative difference %g",
          agreement.bitIdentical, agreement.compared, agreement.largestRelative);
}

void TestPostgresSource::readOnlyTransaction()
{
    // A view whose reading would write: the read-only transaction refuses the write, the call fails
    // cleanly, and nothing was written.
    test::PostgresAdmin admin(m_server->conninfo("pbx"));
    QCOMPARE(admin.exec("CREATE TABLE written (k integer);"
                        "CREATE FUNCTION sneaky() RETURNS integer LANGUAGE sql VOLATILE AS "
                        "$$ INSERT INTO written VALUES (1) RETURNING k $$;"
                        "CREATE VIEW writing AS SELECT wage, sneaky() AS s FROM cps LIMIT 3"),
             std::string());
    auto source = PostgresSource::open(descriptor("writing"), metadataOf({numericColumn("wage", {0, 5000})}));
    QVERIFY2(source.ok(), source.ok() ? "" : source.error().message.c_str());
    auto aggregates = data::publicAggregates(**source, "a test");
    auto compiled
        = data::CompiledQuery::compile({data::Aggregate::Sum, "wage", std::nullopt, ""}, (*source)->schema());
    PBX_VERIFY_ERROR(aggregates->statistics(*compiled), Io,
                     "cannot execute INSERT in a read-only transaction");
    QCOMPARE(admin.value("SELECT count(*) FROM written"), std::string("0"));
}

void TestPostgresSource::injectionIsRefusedOrAValue()
{
    test::PostgresAdmin admin(m_server->conninfo("pbx"));
    const std::string create
        = "CREATE TABLE \"t\"\"x\" (\"we\"\"ird\" double precision, \"a'b; DROP TABLE keep; --\" text, city text);"
          "CREATE TABLE keep (k integer); INSERT INTO keep VALUES (1);"
          "INSERT INTO \"t\"\"x\" VALUES (3, 'p', 'x'' OR ''1''=''1'), (4, 'q', 'Bern'), (5, 'p', 'Bern');";
    QCOMPARE(admin.exec(create), std::string());
    const io::DatasetMetadata metadata
        = metadataOf({numericColumn("we\"ird", {0, 10}),
                      categoricalColumn("a'b; DROP TABLE keep; --", {"p", "q"}), categoricalColumn("city")});
    auto source = PostgresSource::open(descriptor("t\"x"), metadata);
    QVERIFY2(source.ok(), source.ok() ? "" : source.error().message.c_str());
    auto aggregates = data::publicAggregates(**source, "a test");
    using data::Aggregate;
    QCOMPARE(statistics(*aggregates, {Aggregate::Sum, "we\"ird", std::nullopt, ""}).clippedSum, 12.0);
    auto byHostile = aggregates->categoryCounts("a'b; DROP TABLE keep; --");
    QVERIFY(byHostile.ok());
    QCOMPARE(byHostile->counts, (std::vector<std::int64_t>{2, 1}));
    QCOMPARE(statistics(*aggregates, {Aggregate::Count, "", std::nullopt, "city == \"x' OR '1'='1\""}).count,
             1.0);
    QCOMPARE(statistics(*aggregates,
                        {Aggregate::Count, "", std::nullopt, "city == \"Bern'; DROP TABLE keep; --\""})
                 .count,
             0.0);
    QCOMPARE(statistics(*aggregates, {Aggregate::Count, "", std::nullopt, "city == \"$1\""}).count, 0.0);
    // A NUL byte cannot be in PostgreSQL text: == matches no row, != every row, without a round trip error.
    std::string nul = "city == 'Bern";
    nul += '\0';
    nul += "'";
    QCOMPARE(statistics(*aggregates, {Aggregate::Count, "", std::nullopt, nul}).count, 0.0);
    nul.replace(5, 2, "!=");
    QCOMPARE(statistics(*aggregates, {Aggregate::Count, "", std::nullopt, nul}).count, 3.0);
    // Invalid UTF-8 in a literal: the server refuses the value, the call fails cleanly.
    PBX_VERIFY_ERROR(aggregates->statistics(*data::CompiledQuery::compile(
                         {Aggregate::Count, "", std::nullopt, "city == '\xff\xfe'"}, (*source)->schema())),
                     Io, "the query failed");
    PBX_VERIFY_ERROR(PostgresSource::open(descriptor("keep; DROP TABLE keep; --"), metadata), NotFound,
                     "postgresql: no table or view 'keep; DROP TABLE keep; --'");
    PBX_VERIFY_ERROR(PostgresSource::open(descriptor("keep\"; DROP TABLE keep; --"), metadata), NotFound,
                     "no table or view");
    QCOMPARE(admin.value("SELECT count(*) FROM keep"), std::string("1"));
}

void TestPostgresSource::missingValuesFollowPublicRules()
{
    test::PostgresAdmin admin(m_server->conninfo("pbx"));
    QCOMPARE(
        admin.exec("CREATE TABLE missing (x numeric, c text);"
                   "INSERT INTO missing VALUES (1, 'a'), (7, 'b'), (NULL, 'a'), (NULL, NULL), (12, 'zz')"),
        std::string());
    auto source = PostgresSource::open(
        descriptor("missing"), metadataOf({numericColumn("x", {2, 10}), categoricalColumn("c", {"a", "b"})}));
    QVERIFY2(source.ok(), source.ok() ? "" : source.error().message.c_str());
    auto aggregates = data::publicAggregates(**source, "a test");
    using data::Aggregate;
    QCOMPARE(statistics(*aggregates, {Aggregate::Count, "", std::nullopt, "x < 100"}).count, 3.0);
    QCOMPARE(statistics(*aggregates, {Aggregate::Count, "", std::nullopt, "x != 7"}).count, 4.0);
    QCOMPARE(statistics(*aggregates, {Aggregate::Count, "", std::nullopt, "not x < 100"}).count, 2.0);
    QCOMPARE(statistics(*aggregates, {Aggregate::Count, "", std::nullopt, "c != \"a\""}).count, 3.0);
    const data::QueryStatistics sum = statistics(*aggregates, {Aggregate::Mean, "x", std::nullopt, ""});
    QCOMPARE(sum.count, 5.0);
    QCOMPARE(sum.clippedSum, 23.0);
    QCOMPARE(sum.centredSum, -7.0);
    auto counts = aggregates->categoryCounts("c");
    QVERIFY(counts.ok());
    QCOMPARE(counts->counts, (std::vector<std::int64_t>{2, 1}));
}

void TestPostgresSource::statementTimeout()
{
    test::PostgresAdmin admin(m_server->conninfo("pbx"));
    QCOMPARE(admin.exec("CREATE VIEW slow AS SELECT c.wage FROM cps c, (SELECT pg_sleep(30)) s"),
             std::string());
    auto source
        = PostgresSource::open(descriptor("slow", 200), metadataOf({numericColumn("wage", {0, 5000})}));
    QVERIFY2(source.ok(), source.ok() ? "" : source.error().message.c_str());
    auto aggregates = data::publicAggregates(**source, "a test");
    auto compiled
        = data::CompiledQuery::compile({data::Aggregate::Count, "", std::nullopt, ""}, (*source)->schema());
    const auto started = std::chrono::steady_clock::now();
    PBX_VERIFY_ERROR(
        aggregates->statistics(*compiled), ResourceLimit,
        "the query ran over the statement timeout (200 ms) and was cancelled; nothing was computed");
    QVERIFY(std::chrono::steady_clock::now() - started < std::chrono::seconds(20));
    // The server's own setting, from the connection's startup options.
    auto cps = PostgresSource::open(descriptor("cps", 200), test::cpsMetadata());
    QVERIFY(cps.ok());
    QCOMPARE(
        statistics(*data::publicAggregates(**cps, "a test"), {data::Aggregate::Count, "", std::nullopt, ""})
            .count,
        28155.0);
}

// The GUI's Cancel from another thread: PQcancel stops the server's statement (a view sleeping 30 s,
// the timeout 20 s) within a moment, Cancelled, not ResourceLimit; while the request stands every
// call fails at once; withdrawn, the same connection runs the next statement (to its timeout).
void TestPostgresSource::cancelStopsTheRunningStatement()
{
    // Rows with nap = 1 come after a 30-s sleep; a predicate nap == 0 never reaches it (the branch
    // is pruned at planning), so the same connection can show that it still answers.
    test::PostgresAdmin admin(m_server->conninfo("pbx"));
    QCOMPARE(admin.exec("CREATE VIEW napping AS SELECT c.wage, 0 AS nap FROM cps c UNION ALL "
                        "SELECT c.wage, 1 AS nap FROM cps c, (SELECT pg_sleep(30)) s"),
             std::string());
    auto source
        = PostgresSource::open(descriptor("napping", 20000),
                               metadataOf({numericColumn("wage", {0, 5000}), numericColumn("nap", {0, 1})}));
    QVERIFY2(source.ok(), source.ok() ? "" : source.error().message.c_str());
    auto aggregates = data::publicAggregates(**source, "a test");
    auto all
        = data::CompiledQuery::compile({data::Aggregate::Count, "", std::nullopt, ""}, (*source)->schema());
    const auto started = std::chrono::steady_clock::now();
    auto running = std::async(std::launch::async, [&] { return aggregates->statistics(*all); });
    QCOMPARE(running.wait_for(std::chrono::milliseconds(500)), std::future_status::timeout);
    (*source)->setCancelRequested(true);
    QCOMPARE(running.wait_for(std::chrono::seconds(5)), std::future_status::ready);
    QVERIFY(std::chrono::steady_clock::now() - started < std::chrono::milliseconds(5500));
    PBX_VERIFY_ERROR(running.get(), Cancelled,
                     "postgresql (pbx, table napping): the query was cancelled; nothing was computed");
    const auto refused = std::chrono::steady_clock::now();
    PBX_VERIFY_ERROR(aggregates->statistics(*all), Cancelled, "the query was cancelled");
    QVERIFY(std::chrono::steady_clock::now() - refused < std::chrono::milliseconds(500));
    (*source)->setCancelRequested(false);
    QCOMPARE(statistics(*aggregates, {data::Aggregate::Count, "", std::nullopt, "nap == 0"}).count, 28155.0);
}

void TestPostgresSource::killedServer()
{
    auto source = PostgresSource::open(descriptor("cps"), test::cpsMetadata());
    QVERIFY2(source.ok(), source.ok() ? "" : source.error().message.c_str());
    auto aggregates = data::publicAggregates(**source, "a test");
    const data::QuerySpec spec{data::Aggregate::Mean, "wage", std::nullopt, "region == \"south\""};
    const data::QueryStatistics before = statistics(*aggregates, spec);
    QCOMPARE(before.count, 8760.0);

    // Killed as a crash would (immediate: no clean shutdown): the call fails, naming the lost connection.
    QVERIFY(m_server->stop("immediate"));
    auto compiled = data::CompiledQuery::compile(spec, (*source)->schema());
    auto failed = aggregates->statistics(*compiled);
    QVERIFY(!failed.ok());
    QCOMPARE(failed.error().code, ErrorCode::Io);
    QVERIFY2(failed.error().message.find("nothing was computed") != std::string::npos,
             failed.error().message.c_str());
    QVERIFY2(failed.error().message.find('\n') == std::string::npos, "one line");
    // While it is down, every call fails the same way (the reconnect fails), and so does opening.
    PBX_VERIFY_ERROR(aggregates->statistics(*compiled), Io, "cannot reach the server");
    PBX_VERIFY_ERROR(PostgresSource::open(descriptor("cps"), test::cpsMetadata()), Io,
                     "postgresql: cannot connect to");

    // Restarted: the same source reconnects and answers exactly as before.
    const std::string restarted = m_server->start();
    QVERIFY2(restarted.empty(), restarted.c_str());
    const data::QueryStatistics after = statistics(*aggregates, spec);
    QCOMPARE(after.count, before.count);
    QCOMPARE(after.clippedSum, before.clippedSum);
    QCOMPARE(after.centredSum, before.centredSum);
}

// A session over the server: the server killed mid-session refuses the request with
// nothing charged and nothing appended; after the restart the session goes on, and its answers and
// spend are those of the same session on the in-memory table that never saw the failure.
void TestPostgresSource::killedServerMidSession()
{
    auto source = PostgresSource::open(descriptor("cps"), test::cpsMetadata());
    QVERIFY2(source.ok(), source.ok() ? "" : source.error().message.c_str());
    session::SessionSettings settings;
    settings.epsilon = 10.0;
    settings.delta = 1e-5;
    settings.seed = 30;
    auto onServer
        = session::Session::create(std::shared_ptr<const data::Source>(std::move(source).value()), settings);
    auto inMemory = session::Session::create(std::make_shared<const data::Table>(m_cps), settings);
    QVERIFY(onServer && inMemory);
    const auto request = [](const std::string &line) { return *io::readRequestLine(line, 1); };
    const std::string count
        = R"({"aggregate":"count","where":"region == 'south'","target":{"kind":"absolute","error":50}})";
    const std::string mean
        = R"({"aggregate":"mean","column":"wage","target":{"kind":"relative","error":0.05}})";
    const std::string histogram
        = R"({"aggregate":"histogram","column":"region","target":{"kind":"absolute","error":60}})";
    const std::string mode
        = R"({"aggregate":"mode","column":"region","k":2,"target":{"kind":"absolute","error":40}})";
    QVERIFY((*onServer)->ask(request(count)));
    const double spent = (*onServer)->filter().spent();

    QVERIFY(m_server->stop("immediate"));
    PBX_VERIFY_ERROR((*onServer)->ask(request(mean)), Io, "nothing was computed");
    PBX_VERIFY_ERROR((*onServer)->ask(request(histogram)), Io, "cannot reach the server");
    PBX_VERIFY_ERROR((*onServer)->ask(request(mode)), Io, "cannot reach the server");
    QCOMPARE((*onServer)->events().size(), std::size_t{1});
    QCOMPARE((*onServer)->filter().spent(), spent);

    const std::string restarted = m_server->start();
    QVERIFY2(restarted.empty(), restarted.c_str());
    for (const std::string &line : {count, mean, histogram, mode}) {
        auto a = line == count ? (*onServer)->events().front() : *(*onServer)->ask(request(line));
        auto b = *(*inMemory)->ask(request(line));
        QCOMPARE(a.answer, b.answer);
        QCOMPARE(a.cost, b.cost);
        QCOMPARE(a.spentAfter, b.spentAfter);
        if (b.strategyRecord()) // the histogram's cells, the mode's two picked regions
            QCOMPARE(a.strategyRecord()->labels, b.strategyRecord()->labels);
    }
    QCOMPARE((*onServer)->events().size(), std::size_t{4});
}

// Public metadata without "rows" (issue 30 §1): the table's own COUNT(*) is the planning count, run
// on first use (opening a view of pg_sleep(30) stays cheap), cached; a statement timeout or a killed
// server during that count refuses the request in one line beginning "rows: ", nothing appended and
// nothing spent; after the restart the same session counts, plans with 28155 and answers as the
// in-memory table. Private metadata without "rows" never counts: refused as before.
void TestPostgresSource::publicTableWithoutRowsCountsOnFirstUse()
{
    io::DatasetMetadata metadata = test::cpsMetadata();
    metadata.rows.reset();
    QVERIFY(metadata.isPublic);
    session::SessionSettings settings;
    settings.epsilon = 10.0;
    settings.delta = 1e-5;
    settings.seed = 31;
    const auto request = [](const std::string &line) { return *io::readRequestLine(line, 1); };
    const std::string count
        = R"({"aggregate":"count","where":"region == 'south'","target":{"kind":"absolute","error":50}})";
    const std::string mean
        = R"({"aggregate":"mean","column":"wage","target":{"kind":"relative","error":0.05}})";
    const auto sessionOn = [&](const PostgresDescriptor &d, const io::DatasetMetadata &m) {
        auto source = PostgresSource::open(d, m);
        if (!source)
            qFatal("%s", source.error().message.c_str());
        return std::move(
            session::Session::create(std::shared_ptr<const data::Source>(std::move(source).value()), settings)
                .value());
    };

    // A timeout during the count: a view that sleeps 30 s, the statement timeout 200 ms.
    test::PostgresAdmin admin(m_server->conninfo("pbx"));
    QCOMPARE(admin.exec("CREATE VIEW slowpublic AS SELECT c.* FROM cps c, (SELECT pg_sleep(30)) s"),
             std::string());
    const auto opening = std::chrono::steady_clock::now();
    auto slow = sessionOn(descriptor("slowpublic", 200), metadata);
    QVERIFY(std::chrono::steady_clock::now() - opening < std::chrono::seconds(5));
    for (const std::string &line : {count, mean}) {
        auto refused = slow->ask(request(line));
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, ErrorCode::ResourceLimit);
        QCOMPARE(
            refused.error().message,
            std::string("rows: cannot count the rows of table 'slowpublic' (its metadata says the data are "
                        "public but declares no \"rows\"; a release plans with the table's count): "
                        "postgresql (pbx, table slowpublic): the query ran over the statement timeout "
                        "(200 ms) and was cancelled; nothing was computed"));
    }
    QVERIFY(slow->events().empty());
    QCOMPARE(slow->filter().spent(), 0.0);

    // The server killed before the first use: refused, nothing charged; counted after the restart.
    auto onServer = sessionOn(descriptor("cps"), metadata);
    auto inMemory = session::Session::create(std::make_shared<const data::Table>(m_cps), settings);
    QVERIFY(inMemory);
    QVERIFY(!onServer->source().knownPublicRowCount());
    QVERIFY(m_server->stop("immediate"));
    PBX_VERIFY_ERROR(onServer->ask(request(count)), Io,
                     "rows: cannot count the rows of table 'cps' (its metadata says the data are public");
    PBX_VERIFY_ERROR(onServer->ask(request(mean)), Io, "cannot reach the server");
    QVERIFY(onServer->events().empty());
    QCOMPARE(onServer->filter().spent(), 0.0);
    QVERIFY(!onServer->source().knownPublicRowCount());
    const std::string restarted = m_server->start();
    QVERIFY2(restarted.empty(), restarted.c_str());
    for (const std::string &line : {count, mean}) {
        auto a = onServer->ask(request(line));
        auto b = (*inMemory)->ask(request(line));
        QVERIFY2(a && b, a ? "" : a.error().message.c_str());
        QCOMPARE(a->status, session::EventStatus::Released);
        QCOMPARE(a->answer, b->answer);
        QCOMPARE(a->cost, b->cost);
        QCOMPARE(a->spentAfter, b->spentAfter);
    }
    QCOMPARE(*onServer->source().knownPublicRowCount(), std::size_t{28155});
    QCOMPARE(onServer->publicRowCount(), std::size_t{28155});

    // Not public: no count, the release refused as before.
    metadata.isPublic = false;
    auto privateSession = sessionOn(descriptor("cps"), metadata);
    PBX_VERIFY_ERROR(privateSession->ask(request(count)), InvalidArgument,
                     "declare \"rows\" in the metadata");
    QVERIFY(!privateSession->source().knownPublicRowCount());
    QCOMPARE(privateSession->filter().spent(), 0.0);
}

void TestPostgresSource::schemaQualifiedTable()
{
    test::PostgresAdmin admin(m_server->conninfo("pbx"));
    QCOMPARE(
        admin.exec(
            "CREATE SCHEMA \"Survey 1\"; CREATE TABLE \"Survey 1\".cps AS SELECT * FROM cps WHERE region = 'south'"),
        std::string());
    auto parsed = sources::parseSourceDescriptor("postgresql://pbx@/pbx?host=" + m_server->directory()
                                                 + "&table=cps&schema=Survey%201");
    QVERIFY(parsed.ok());
    io::DatasetMetadata metadata = test::cpsMetadata();
    metadata.rows = 8760;
    auto source = sources::openDatabaseSource(*parsed, metadata);
    QVERIFY2(source.ok(), source.ok() ? "" : source.error().message.c_str());
    QVERIFY((*source)->location().ends_with(", table Survey 1.cps"));
    QCOMPARE(statistics(*data::publicAggregates(**source, "a test"),
                        {data::Aggregate::Count, "", std::nullopt, ""})
                 .count,
             8760.0);
    std::get<PostgresDescriptor>(*parsed).schema = "survey 1";
    PBX_VERIFY_ERROR(sources::openDatabaseSource(*parsed, metadata), NotFound,
                     "postgresql: no table or view 'survey 1.cps' in database 'pbx'");
}

void TestPostgresSource::openErrors()
{
    PBX_VERIFY_ERROR(PostgresSource::open(descriptor("nonesuch"), test::cpsMetadata()), NotFound,
                     "postgresql: no table or view 'nonesuch' in database 'pbx'");
    io::DatasetMetadata miscounted = test::cpsMetadata();
    miscounted.rows = 28156;
    PBX_VERIFY_ERROR(PostgresSource::open(descriptor("cps"), miscounted), InvalidArgument,
                     "the metadata declares 28156 rows, but table 'cps' has 28155");
    PostgresDescriptor wrongDatabase = descriptor("cps");
    wrongDatabase.database = "absent";
    PBX_VERIFY_ERROR(PostgresSource::open(wrongDatabase, test::cpsMetadata()), Io,
                     "database \"absent\" does not exist");
    PBX_VERIFY_ERROR(PostgresSource::open(descriptor("cps"), metadataOf({numericColumn("region", {0, 1})})),
                     InvalidArgument,
                     "column 'region': the metadata declares it numeric, but table 'cps' stores it as text");
    test::PostgresAdmin admin(m_server->conninfo("pbx"));
    QCOMPARE(admin.exec("CREATE TABLE dated (d date, x integer)"), std::string());
    PBX_VERIFY_ERROR(PostgresSource::open(descriptor("dated"), metadataOf({categoricalColumn("d")})),
                     InvalidArgument, "column 'd': its database type 'date' is neither numeric nor text");
    auto integerCategories
        = PostgresSource::open(descriptor("dated"), metadataOf({categoricalColumn("x", {"1", "2"})}));
    QVERIFY2(integerCategories.ok(), integerCategories.ok() ? "" : integerCategories.error().message.c_str());
}

QTEST_APPLESS_MAIN(TestPostgresSource)
#include "tst_postgres.moc"
