// SPDX-License-Identifier: MIT
// A session over a data source (docs/data-sources.md, "Wiring"): the true answer is computed
// before anything is charged, so a failing database call refuses the request with nothing spent;
// CPS1988 in SQLite answers every pushed-down request kind exactly as the in-memory table (same
// seed, same answers, same charges); the request kinds that read rows are refused on a database
// source before anything is reserved or charged.
#include "core/data/source.h"
#include "core/io/request_json.h"
#include "core/session/session.h"
#include "core/sources/sqlite_source.h"
#include "tests/sources/source_fixtures.h"
#include "tests/sources/sqlite_cps.h"
#include "tests/testutils.h"

#include <QTemporaryDir>

#include <chrono>

using namespace pbx;
using session::Session;
using session::SessionSettings;

namespace {

/// CPS1988 in memory behind a database kind, whose aggregate calls fail while `failing` is set
/// (as a lost connection does): the session's order of work is tested without a server.
class FlakySource final : public data::Source
{
public:
    explicit FlakySource(std::shared_ptr<const data::Table> table) : m_memory(std::move(table)) {}
    const data::Table &schema() const override { return m_memory.schema(); }
    data::SourceKind kind() const override { return data::SourceKind::Postgres; }
    std::string location() const override { return "a flaky test source"; }
    std::optional<std::size_t> declaredRowCount() const override { return m_memory.declaredRowCount(); }

    mutable bool failing = false;
    mutable int calls = 0;

private:
    Result<data::QueryStatistics> computeStatistics(const data::CompiledQuery &query) const override
    {
        ++calls;
        if (failing)
            return makeError(ErrorCode::Io, "the connection to the server was lost; nothing was computed");
        return data::publicAggregates(m_memory, "the test")->statistics(query);
    }
    Result<data::CategoryCounts> computeCategoryCounts(std::size_t column,
                                                       const data::Predicate &where) const override
    {
        ++calls;
        if (failing)
            return makeError(ErrorCode::Io, "the connection to the server was lost; nothing was computed");
        return data::publicAggregates(m_memory, "the test")
            ->categoryCounts(m_memory.schema().columnInfo(column).name, where);
    }

    data::TableSource m_memory;
};

session::QueryRequest requestOf(const std::string &line)
{
    auto request = io::readRequestLine(line, 1);
    if (!request)
        qFatal("%s: %s", line.c_str(), request.error().message.c_str());
    return *request;
}

SessionSettings settingsOf(filters::FilterKind filter, std::uint64_t seed)
{
    SessionSettings settings;
    settings.epsilon = 20.0;
    settings.delta = 1e-5;
    settings.filter = filter;
    settings.seed = seed;
    return settings;
}

std::shared_ptr<const data::Table> cps()
{
    return std::make_shared<const data::Table>(test::cpsTable());
}

const char *const kCount
    = R"({"aggregate":"count","where":"region == 'south'","target":{"kind":"absolute","error":50}})";
const char *const kMean = R"({"aggregate":"mean","column":"wage","target":{"kind":"relative","error":0.05}})";
const char *const kHistogram
    = R"({"aggregate":"histogram","column":"region","where":"education >= 12","target":{"kind":"absolute","error":60}})";

} // namespace

class TestSourceSession : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void failedCallRefusesWithNothingCharged();
    void sqliteAnswersAsInMemory_data();
    void sqliteAnswersAsInMemory();
    void rowReadingKindsAreRefusedBeforeAnyCharge_data();
    void rowReadingKindsAreRefusedBeforeAnyCharge();
    void undeclaredRowCountRefusesReleases();
    void timeoutRefusesWithNothingCharged();

private:
    std::shared_ptr<const data::Source> openSqlite(io::DatasetMetadata metadata) const;

    QTemporaryDir m_dir;
    std::string m_cpsPath;
};

void TestSourceSession::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_cpsPath = m_dir.filePath(QStringLiteral("cps.db")).toStdString();
    QVERIFY(test::writeCps(m_cpsPath, test::cpsTable()));
}

std::shared_ptr<const data::Source> TestSourceSession::openSqlite(io::DatasetMetadata metadata) const
{
    auto source = sources::SqliteSource::open({m_cpsPath, "cps"}, metadata);
    if (!source)
        qFatal("%s", source.error().message.c_str());
    return std::shared_ptr<const data::Source>(std::move(source.value()));
}

// The true answer first, then the charge: a failed call (a lost connection) returns the error with
// no event appended and nothing spent, whatever the request kind; the session goes on afterwards,
// and its next answers are those of a session that never saw the failure (the seeded noise is per
// event, and no event was appended).
void TestSourceSession::failedCallRefusesWithNothingCharged()
{
    auto flaky = std::make_shared<FlakySource>(cps());
    auto session = Session::create(std::shared_ptr<const data::Source>(flaky),
                                   settingsOf(filters::FilterKind::Zcdp, 11));
    QVERIFY(session);
    auto first = (*session)->ask(requestOf(kCount));
    QVERIFY(first);
    const double spent = (*session)->filter().spent();
    QVERIFY(spent > 0.0);

    flaky->failing = true;
    for (const char *line : {kCount, kMean, kHistogram}) {
        const int calls = flaky->calls;
        PBX_VERIFY_ERROR((*session)->ask(requestOf(line)), Io, "connection to the server was lost");
        QCOMPARE(flaky->calls, calls + 1);
        QCOMPARE((*session)->events().size(), std::size_t{1});
        QCOMPARE((*session)->filter().spent(), spent);
    }

    flaky->failing = false;
    auto mean = (*session)->ask(requestOf(kMean));
    auto histogram = (*session)->ask(requestOf(kHistogram));
    QVERIFY(mean && histogram);
    auto memory = Session::create(cps(), settingsOf(filters::FilterKind::Zcdp, 11));
    QVERIFY((*memory)->ask(requestOf(kCount)));
    auto memoryMean = (*memory)->ask(requestOf(kMean));
    auto memoryHistogram = (*memory)->ask(requestOf(kHistogram));
    QCOMPARE(mean->answer, memoryMean->answer);
    QCOMPARE(mean->cost, memoryMean->cost);
    QCOMPARE(histogram->strategyRecord()->values, memoryHistogram->strategyRecord()->values);
    QCOMPARE((*session)->filter().spent(), (*memory)->filter().spent());
}

void TestSourceSession::sqliteAnswersAsInMemory_data()
{
    QTest::addColumn<int>("filter");
    QTest::addColumn<QString>("line");
    const auto add = [](const char *name, filters::FilterKind filter, const char *line) {
        QTest::newRow(name) << int(filter) << QString::fromUtf8(line);
    };
    add("count zcdp", filters::FilterKind::Zcdp, kCount);
    add("count basic", filters::FilterKind::Basic, kCount);
    add("sum zcdp", filters::FilterKind::Zcdp,
        R"({"aggregate":"sum","column":"wage","where":"parttime != 'yes' and experience >= 10","target":{"kind":"absolute","error":200000}})");
    add("sum given bounds basic", filters::FilterKind::Basic,
        R"({"aggregate":"sum","column":"education","bounds":[8.5,16],"target":{"kind":"absolute","error":5000}})");
    add("mean doubling zcdp", filters::FilterKind::Zcdp, kMean);
    add("mean doubling basic", filters::FilterKind::Basic, kMean);
    add("mean laplace-nr expost", filters::FilterKind::ExPost,
        R"({"aggregate":"mean","column":"wage","where":"region == 'west'","mechanism":"laplace-nr","target":{"kind":"relative","error":0.05}})");
    add("histogram zcdp", filters::FilterKind::Zcdp, kHistogram);
    add("histogram basic", filters::FilterKind::Basic,
        R"({"aggregate":"histogram","column":"ethnicity","target":{"kind":"absolute","error":30}})");
}

// Same seed, same answers, same charges: the statistics and per-category counts SQLite computes
// for CPS1988 are those of the in-memory table (bit for bit on this data, tst_sqlite), so every
// released value, cost and spend after it is identical.
void TestSourceSession::sqliteAnswersAsInMemory()
{
    QFETCH(int, filter);
    QFETCH(QString, line);
    const auto settings = settingsOf(static_cast<filters::FilterKind>(filter), 2026);
    auto onSqlite = Session::create(openSqlite(test::cpsMetadata()), settings);
    auto inMemory = Session::create(cps(), settings);
    QVERIFY(onSqlite && inMemory);
    QCOMPARE((*onSqlite)->source().kind(), data::SourceKind::Sqlite);
    QCOMPARE((*onSqlite)->publicRowCount(), std::size_t{28155});
    for (int round = 0; round < 2; ++round) {
        auto a = (*onSqlite)->ask(requestOf(line.toStdString()));
        auto b = (*inMemory)->ask(requestOf(line.toStdString()));
        QVERIFY2(a && b, a ? "" : a.error().message.c_str());
        QCOMPARE(a->status, session::EventStatus::Released);
        QCOMPARE(a->answer, b->answer);
        QCOMPARE(a->cost, b->cost);
        QCOMPARE(a->attempts.size(), b->attempts.size());
        QCOMPARE(a->spentAfter, b->spentAfter);
        if (b->strategyRecord())
            QCOMPARE(a->strategyRecord()->values, b->strategyRecord()->values);
    }
}

void TestSourceSession::rowReadingKindsAreRefusedBeforeAnyCharge_data()
{
    QTest::addColumn<int>("filter");
    QTest::addColumn<QString>("line");
    QTest::addColumn<QString>("kind");
    const auto add = [](const char *name, filters::FilterKind filter, const char *line, const char *kind) {
        QTest::newRow(name) << int(filter) << QString::fromUtf8(line) << QString::fromUtf8(kind);
    };
    add("quantile", filters::FilterKind::Basic,
        R"({"aggregate":"quantile","column":"wage","q":0.5,"target":{"kind":"absolute","error":400}})",
        "a quantile");
    add("workload", filters::FilterKind::Basic,
        R"({"aggregate":"workload","column":"education","strategy":{"kind":"tree","branching":3},)"
        R"("workload":"prefixes","target":{"kind":"absolute","error":200}})",
        "a range workload");
    add("numeric histogram", filters::FilterKind::Basic,
        R"({"aggregate":"histogram","column":"education","target":{"kind":"absolute","error":60}})",
        "a histogram of a numeric column");
    add("subsampled histogram", filters::FilterKind::Basic,
        R"({"aggregate":"histogram","column":"region","subsample":0.5,"target":{"kind":"absolute","error":60}})",
        "a Poisson-subsampled histogram");
    add("svt", filters::FilterKind::Odp,
        R"({"id":"q","mechanism":"svt","column":"region","threshold":100000,"c":2,"epsilon":0.4})",
        "an output-DP request");
    add("growing", filters::FilterKind::Basic,
        R"({"id":"q","type":"growing","algorithm":"bbscheduler","stream":{"start_size":500,"end":1500,"seed":7},)"
        R"("budget":{"kind":"pure","epsilon":1},"schedule":{"kind":"geometric","gamma":1},)"
        R"("black_box":{"kind":"laplace-k","queries":["education >= 16"]}})",
        "a growing-database stream");
}

// Decided from the request and the source's kind, before anything is reserved or charged: the
// message names the kind, says it needs an in-memory table and what a database source answers.
void TestSourceSession::rowReadingKindsAreRefusedBeforeAnyCharge()
{
    QFETCH(int, filter);
    QFETCH(QString, line);
    QFETCH(QString, kind);
    auto settings = settingsOf(static_cast<filters::FilterKind>(filter), 5);
    // Output-DP requests and growing streams are stated for replace-one neighbours.
    if (settings.filter == filters::FilterKind::Odp || line.contains(QStringLiteral("growing")))
        settings.neighbours = data::Neighbouring::Replace;
    auto onSqlite = Session::create(openSqlite(test::cpsMetadata()), settings);
    QVERIFY(onSqlite);
    const auto request = requestOf(line.toStdString());
    auto refused = (*onSqlite)->ask(request);
    PBX_VERIFY_ERROR(refused, Unsupported, kind.toStdString() + " needs an in-memory table");
    PBX_VERIFY_ERROR(refused, Unsupported, "a SQLite source answers counts, sums and means");
    QCOMPARE((*onSqlite)->events().size(), std::size_t{0});
    QCOMPARE((*onSqlite)->filter().spent(), 0.0);
    // The same request on the in-memory table is answered (the refusal is the source's, not the
    // request's).
    auto inMemory = Session::create(cps(), settings);
    auto answered = (*inMemory)->ask(request);
    QVERIFY2(answered, answered ? "" : answered.error().message.c_str());
}

// A database source whose metadata declares no "rows": a release needs the public row count to
// bound its sensitivity, so it is refused (InvalidArgument naming "rows") before anything is
// charged; a categorical histogram needs none and is answered.
void TestSourceSession::undeclaredRowCountRefusesReleases()
{
    io::DatasetMetadata metadata = test::cpsMetadata();
    metadata.rows.reset();
    auto session = Session::create(openSqlite(metadata), settingsOf(filters::FilterKind::Zcdp, 3));
    QVERIFY(session);
    PBX_VERIFY_ERROR((*session)->ask(requestOf(kCount)), InvalidArgument, "declare \"rows\" in the metadata");
    QCOMPARE((*session)->filter().spent(), 0.0);
    QVERIFY((*session)->events().empty());
    QVERIFY((*session)->ask(requestOf(kHistogram)));
}

// A real statement timeout (SQLite's progress handler at 100 ms) in a session: a histogram over a
// view of 2.8·10⁹ rows is refused with ResourceLimit, no event and nothing spent, and the session
// goes on (the next request on the same source is asked and times out the same way, cleanly).
void TestSourceSession::timeoutRefusesWithNothingCharged()
{
    {
        test::Writer writer(m_cpsPath);
        QVERIFY2(
            writer.exec("CREATE VIEW IF NOT EXISTS slowcps AS SELECT cps.* FROM cps, (WITH RECURSIVE "
                        "c(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM c WHERE v < 100000) SELECT v FROM c)"),
            writer.error().c_str());
    }
    io::DatasetMetadata metadata = test::cpsMetadata();
    metadata.rows.reset(); // no COUNT(*) at open: the view is the slow part
    metadata.isPublic = false;
    auto source = sources::SqliteSource::open({m_cpsPath, "slowcps", 100}, metadata);
    QVERIFY2(source, source ? "" : source.error().message.c_str());
    auto session = Session::create(std::shared_ptr<const data::Source>(std::move(source.value())),
                                   settingsOf(filters::FilterKind::Zcdp, 5));
    QVERIFY(session);
    for (int attempt = 0; attempt < 2; ++attempt) {
        const auto started = std::chrono::steady_clock::now();
        PBX_VERIFY_ERROR(
            (*session)->ask(requestOf(kHistogram)), ResourceLimit,
            "the query ran over the statement timeout (100 ms) and was stopped; nothing was computed");
        QVERIFY(std::chrono::steady_clock::now() - started < std::chrono::seconds(20));
        QCOMPARE((*session)->filter().spent(), 0.0);
        QVERIFY((*session)->events().empty());
    }
}

QTEST_GUILESS_MAIN(TestSourceSession)
#include "tst_sourcesession.moc"
