// SPDX-License-Identifier: MIT
// A session over a data source (docs/data-sources.md, "Wiring"): the true answer is computed
// before anything is charged, so a failing database call refuses the request with nothing spent;
// CPS1988 in SQLite answers every pushed-down request kind exactly as the in-memory table (same
// seed, same answers, same charges); the request kinds that read rows are refused on a database
// source before anything is reserved or charged.
#include "core/data/source.h"
#include "core/io/dataset_metadata.h"
#include "core/io/request_json.h"
#include "core/session/cost_preview.h"
#include "core/session/session.h"
#include "core/session/source_support.h"
#include "core/sources/sqlite_source.h"
#include "tests/sources/source_fixtures.h"
#include "tests/sources/sqlite_cps.h"
#include "tests/test_rows.h"
#include "tests/testutils.h"

#include <QFile>
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
    void publicTableWithoutRowsPlansWithItsCount();
    void publicCountTimeoutRefusesWithNothingCharged();
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
    // A mode selects from the same per-category counts (one GROUP BY): the same picks.
    add("mode top 2 zcdp", filters::FilterKind::Zcdp,
        R"({"aggregate":"mode","column":"region","where":"education >= 12","k":2,"target":{"kind":"absolute","error":40}})");
    add("mode report-noisy-max rdp", filters::FilterKind::Rdp,
        R"({"aggregate":"mode","column":"ethnicity","mechanism":"report-noisy-max","target":{"kind":"absolute","error":20}})");
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
        if (b->strategyRecord()) {
            QCOMPARE(a->strategyRecord()->values, b->strategyRecord()->values);
            QCOMPARE(a->strategyRecord()->labels, b->strategyRecord()->labels);
        }
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

// A database source whose metadata declares no "rows" and does not say the data are public: a
// release needs the public row count to bound its sensitivity, and the table's own count would be a
// private number, so the release is refused (InvalidArgument naming "rows") before anything is
// charged, and no COUNT(*) is run; a categorical histogram needs none and is answered.
void TestSourceSession::undeclaredRowCountRefusesReleases()
{
    io::DatasetMetadata metadata = test::cpsMetadata();
    metadata.rows.reset();
    metadata.isPublic = false;
    auto s = Session::create(openSqlite(metadata), settingsOf(filters::FilterKind::Zcdp, 3));
    QVERIFY(s);
    PBX_VERIFY_ERROR((*s)->ask(requestOf(kCount)), InvalidArgument, "declare \"rows\" in the metadata");
    PBX_VERIFY_ERROR(session::previewCost(**s, requestOf(kCount)), InvalidArgument,
                     "rows: the dataset's metadata declares no row count");
    QCOMPARE((*s)->filter().spent(), 0.0);
    QVERIFY((*s)->events().empty());
    QVERIFY(!(*s)->source().publicRowCount()->has_value()); // nothing counted
    QCOMPARE((*s)->publicRowCount(), std::size_t{0});
    QVERIFY((*s)->ask(requestOf(kHistogram)));
}

// Issue 30 §1: "the row count used for planning is the declared public one (or the table's, if the
// metadata says it is public)". Public metadata without "rows": opening runs no COUNT(*) (nothing is
// known yet); the first cost preview counts the table once (28155) and plans with it, so the cost
// line, the released answers and the charges are those of the same metadata with "rows": 28155, of
// the embedded table and of a CSV file with that metadata (no "rows" either: its count is its own).
void TestSourceSession::publicTableWithoutRowsPlansWithItsCount()
{
    io::DatasetMetadata metadata = test::cpsMetadata();
    metadata.rows.reset();
    QVERIFY(metadata.isPublic);
    const auto source = openSqlite(metadata);
    QVERIFY(!source->declaredRowCount());
    QVERIFY(!source->knownPublicRowCount()); // not counted at open
    // The same data as a CSV file whose sidecar says the same (public, no "rows").
    const QString csv = m_dir.filePath(QStringLiteral("cps.csv"));
    {
        const data::Table table = test::cpsTable();
        const test::PublicRows rows(table);
        std::string text = "wage,education,experience,ethnicity,smsa,region,parttime\n";
        for (std::size_t r = 0; r < rows->rowCount(); ++r)
            for (std::size_t c = 0; c < 7; ++c)
                text += test::cellText(rows, c, r) + (c < 6 ? ',' : '\n');
        QFile file(csv);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QVERIFY(file.write(text.data(), qint64(text.size())) == qint64(text.size()));
        QFile sidecar(csv + QStringLiteral(".json"));
        const std::string json = io::datasetMetadataToJson(metadata);
        QVERIFY(sidecar.open(QIODevice::WriteOnly));
        QVERIFY(sidecar.write(json.data(), qint64(json.size())) == qint64(json.size()));
    }
    auto csvTable = resources::loadDataset(csv.toStdString());
    QVERIFY2(csvTable, csvTable ? "" : csvTable.error().message.c_str());
    QCOMPARE(csvTable->rowCount(), std::size_t{28155});
    QVERIFY(csvTable->isPublic());

    const char *const sum
        = R"({"aggregate":"sum","column":"wage","where":"parttime != 'yes'","target":{"kind":"absolute","error":200000}})";
    for (const auto filter : {filters::FilterKind::Zcdp, filters::FilterKind::Basic}) {
        const auto settings = settingsOf(filter, 2030);
        // A fresh source for each filter: the first preview runs the count.
        auto counted
            = Session::create(filter == filters::FilterKind::Zcdp ? source : openSqlite(metadata), settings);
        auto declared = Session::create(openSqlite(test::cpsMetadata()), settings);
        auto inMemory = Session::create(cps(), settings);
        auto fromCsv = Session::create(std::make_shared<const data::Table>(*csvTable), settings);
        QVERIFY(counted && declared && inMemory && fromCsv);
        QCOMPARE((*counted)->publicRowCount(), std::size_t{0}); // nothing known yet
        QVERIFY(session::previewCost(**counted, requestOf(sum)));
        QCOMPARE(*session::releaseRowCount((*counted)->source()), std::size_t{28155});
        QCOMPARE(*(*counted)->source().knownPublicRowCount(), std::size_t{28155});
        QCOMPARE((*counted)->publicRowCount(), std::size_t{28155});
        QCOMPARE((*fromCsv)->publicRowCount(), std::size_t{28155});
        for (const char *line : {kCount, sum, kMean}) {
            auto preview = session::previewCost(**counted, requestOf(line));
            QVERIFY2(preview, preview ? "" : preview.error().message.c_str());
            QCOMPARE(preview->exact, session::previewCost(**declared, requestOf(line))->exact);
            QCOMPARE(preview->exact, session::previewCost(**fromCsv, requestOf(line))->exact);
            auto a = (*counted)->ask(requestOf(line));
            QVERIFY2(a, a ? "" : a.error().message.c_str());
            QCOMPARE(a->status, session::EventStatus::Released);
            for (auto *other : {&*declared, &*inMemory, &*fromCsv}) {
                auto b = (*other)->ask(requestOf(line));
                QVERIFY(b);
                QCOMPARE(a->answer, b->answer);
                QCOMPARE(a->cost, b->cost);
                QCOMPARE(a->spentAfter, b->spentAfter);
            }
        }
    }
}

// The lazy count fails (a real statement timeout: SQLite's progress handler at 100 ms on a view of
// 2.8·10⁹ rows whose metadata says it is public and declares no "rows"): opening stays cheap, and
// the preview and every release are refused with ResourceLimit, in one line beginning "rows: ",
// nothing appended and nothing spent; nothing is cached, so the next request counts again and is
// refused the same way.
void TestSourceSession::publicCountTimeoutRefusesWithNothingCharged()
{
    {
        test::Writer writer(m_cpsPath);
        QVERIFY2(
            writer.exec("CREATE VIEW IF NOT EXISTS slowcps AS SELECT cps.* FROM cps, (WITH RECURSIVE "
                        "c(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM c WHERE v < 100000) SELECT v FROM c)"),
            writer.error().c_str());
    }
    io::DatasetMetadata metadata = test::cpsMetadata();
    metadata.rows.reset();
    QVERIFY(metadata.isPublic);
    const auto opening = std::chrono::steady_clock::now();
    auto source = sources::SqliteSource::open({m_cpsPath, "slowcps", 100}, metadata);
    QVERIFY2(source, source ? "" : source.error().message.c_str());
    QVERIFY(std::chrono::steady_clock::now() - opening < std::chrono::seconds(5));
    auto s = Session::create(std::shared_ptr<const data::Source>(std::move(source.value())),
                             settingsOf(filters::FilterKind::Zcdp, 5));
    QVERIFY(s);
    const std::string refusal
        = "rows: cannot count the rows of table 'slowcps' (its metadata says the data are public but declares "
          "no \"rows\"; a release plans with the table's count): sqlite ("
          + m_cpsPath
          + "): the query ran over the statement timeout (100 ms) and was stopped; nothing was computed";
    for (int attempt = 0; attempt < 2; ++attempt) {
        const auto started = std::chrono::steady_clock::now();
        auto preview = session::previewCost(**s, requestOf(kCount));
        QVERIFY(!preview);
        QCOMPARE(preview.error().code, ErrorCode::ResourceLimit);
        QCOMPARE(preview.error().message, refusal);
        for (const char *line : {kCount, kMean}) {
            auto asked = (*s)->ask(requestOf(line));
            QVERIFY(!asked);
            QCOMPARE(asked.error().code, ErrorCode::ResourceLimit);
            QCOMPARE(asked.error().message, refusal);
        }
        QVERIFY(std::chrono::steady_clock::now() - started < std::chrono::seconds(30));
        QCOMPARE((*s)->filter().spent(), 0.0);
        QVERIFY((*s)->events().empty());
        QVERIFY(!(*s)->source().knownPublicRowCount());
    }
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
