// SPDX-License-Identifier: MIT
// Rows per second of a count and of a clipped sum (every sum a mean needs, one call) on the same
// synthetic table in memory, in SQLite and in PostgreSQL, and the process's peak memory (getrusage
// maxrss) after each. Not a timed test: run by hand, one source per process so each peak is its own:
//
//   PBX_BENCH_ROWS=10000000 build/bench/bench_sources --benchmark_filter=Memory
//   PBX_BENCH_ROWS=10000000 build/bench/bench_sources --benchmark_filter=Sqlite
//   PBX_BENCH_ROWS=10000000 build/bench/bench_sources --benchmark_filter=Postgres
//
// PBX_BENCH_ROWS: rows of the table (default 10^7). Row i holds x = ((i·7919) mod 10007)/10 (0 to
// 1000.6) and c = "a", "b", "c", "d" by i mod 4; every engine computes x in doubles, so all three
// hold the same values (the benchmark checks the answers agree). The database tables are generated
// inside the database (a recursive CTE, generate_series), so the rows never pass through pbx: the
// database benchmarks' peak is the client's, flat in the row count (the server's own memory is its
// work_mem and shared buffers, not counted here). PostgreSQL: a server of its own in a temporary
// directory (tests/sources/postgres_server.h), skipped when PostgreSQL 15 is not installed.
#include "core/data/source.h"
#include "core/sources/postgres_source.h"
#include "core/sources/sqlite_source.h"
#include "tests/sources/postgres_server.h"

#include <benchmark/benchmark.h>
#include <sqlite3.h>
#include <sys/resource.h>

#include <cstdlib>
#include <memory>
#include <string>

namespace {

using namespace pbx;

std::size_t rowCount()
{
    const char *text = std::getenv("PBX_BENCH_ROWS");
    const long long rows = text ? std::atoll(text) : 10'000'000;
    return rows > 0 ? static_cast<std::size_t>(rows) : 10'000'000;
}

double peakMegabytes()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0; // kilobytes on Linux
}

io::DatasetMetadata metadata()
{
    io::DatasetMetadata m;
    m.isPublic = true; // synthetic: the benchmark reads its answers through door (b)
    m.rows = rowCount();
    io::ColumnMetadata x;
    x.name = "x";
    x.type = data::ColumnType::Numeric;
    x.bounds = data::Bounds{0, 500};
    io::ColumnMetadata c;
    c.name = "c";
    c.type = data::ColumnType::Categorical;
    c.categories = {"a", "b", "c", "d"};
    m.columns = {x, c};
    return m;
}

std::unique_ptr<data::Source> memorySource()
{
    const std::size_t n = rowCount();
    data::Column x;
    x.info = {"x", data::ColumnType::Numeric, data::Bounds{0, 500}, "", {}, false};
    x.numeric.resize(n);
    data::Column c;
    c.info = {"c", data::ColumnType::Categorical, std::nullopt, "", {"a", "b", "c", "d"}, false};
    c.codes.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        x.numeric[i] = static_cast<double>((static_cast<unsigned long long>(i) * 7919ULL) % 10007ULL) / 10.0;
        c.codes[i] = static_cast<std::int32_t>(i % 4);
    }
    auto table = data::Table::create("synthetic", {std::move(x), std::move(c)});
    return std::make_unique<data::TableSource>(std::make_shared<const data::Table>(table->withPublic(true)));
}

struct SqliteFixture
{
    std::string path = "/tmp/pbx-bench-sources.db";
    std::unique_ptr<data::Source> source;

    SqliteFixture()
    {
        std::remove(path.c_str());
        sqlite3 *db = nullptr;
        sqlite3_open(path.c_str(), &db);
        const std::string fill
            = "CREATE TABLE t (x REAL, c TEXT); WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL "
              "SELECT i + 1 FROM s WHERE i + 1 < "
              + std::to_string(rowCount())
              + ") INSERT INTO t SELECT ((i * 7919) % 10007) / 10.0, char(97 + i % 4) FROM s";
        sqlite3_exec(db, fill.c_str(), nullptr, nullptr, nullptr);
        sqlite3_close(db);
        auto opened = sources::SqliteSource::open({path, "t", 3'600'000}, metadata());
        if (opened)
            source = std::move(opened).value();
    }
    ~SqliteFixture() { std::remove(path.c_str()); }
};

struct PostgresFixture
{
    std::unique_ptr<test::PostgresServer> server;
    std::unique_ptr<data::Source> source;
    std::string skip;

    PostgresFixture()
    {
        skip = test::PostgresServer::missing();
        if (!skip.empty())
            return;
        server = std::make_unique<test::PostgresServer>();
        skip = server->initialise();
        if (!skip.empty())
            return;
        test::PostgresAdmin admin(server->conninfo());
        skip = admin.exec(
            "CREATE TABLE t (x double precision, c text); INSERT INTO t SELECT ((i * 7919) % 10007) / "
            "10.0, chr(97 + (i % 4)::integer) FROM generate_series(0::bigint, "
            + std::to_string(rowCount() - 1) + ") i");
        if (skip.empty())
            skip = admin.exec("VACUUM ANALYZE t"); // not inside the INSERT's transaction
        if (!skip.empty())
            return;
        sources::PostgresDescriptor d;
        d.host = server->directory();
        d.user = "pbx";
        d.database = "postgres";
        d.table = "t";
        d.statementTimeoutMs = 3'600'000;
        auto opened = sources::PostgresSource::open(d, metadata());
        if (opened)
            source = std::move(opened).value();
        else
            skip = opened.error().message;
    }
};

// Runs one query per iteration and reports rows/s, the peak memory, and the answer.
void run(benchmark::State &state, const data::Source *source, const data::QuerySpec &spec,
         const std::string &why = "the source could not be opened")
{
    if (!source) {
        state.SkipWithError(why.c_str());
        return;
    }
    auto aggregates = data::publicAggregates(*source, "bench_sources");
    auto compiled = data::CompiledQuery::compile(spec, source->schema());
    if (!aggregates || !compiled) {
        state.SkipWithError("cannot compile the query");
        return;
    }
    data::QueryStatistics last;
    for (auto _ : state) {
        auto statistics = aggregates->statistics(*compiled);
        if (!statistics) {
            state.SkipWithError(statistics.error().message.c_str());
            return;
        }
        last = *statistics;
        benchmark::DoNotOptimize(last);
    }
    state.counters["rows_per_second"]
        = benchmark::Counter(static_cast<double>(rowCount()), benchmark::Counter::kIsIterationInvariantRate);
    state.counters["peak_MB"] = peakMegabytes();
    state.counters["count"] = last.count;
    state.counters["clipped_sum"] = last.clippedSum;
}

const data::QuerySpec countSpec{data::Aggregate::Count, "", std::nullopt, R"(c == "b" and x > 250)"};
const data::QuerySpec sumSpec{data::Aggregate::Mean, "x", std::nullopt, R"(c != "d")"};

const data::Source *memory()
{
    static const std::unique_ptr<data::Source> source = memorySource();
    return source.get();
}

const data::Source *sqlite()
{
    static const SqliteFixture fixture;
    return fixture.source.get();
}

const PostgresFixture &postgres()
{
    static const PostgresFixture fixture;
    return fixture;
}

void BM_MemoryCount(benchmark::State &state)
{
    run(state, memory(), countSpec);
}
void BM_MemoryClippedSum(benchmark::State &state)
{
    run(state, memory(), sumSpec);
}
void BM_SqliteCount(benchmark::State &state)
{
    run(state, sqlite(), countSpec);
}
void BM_SqliteClippedSum(benchmark::State &state)
{
    run(state, sqlite(), sumSpec);
}
void BM_PostgresCount(benchmark::State &state)
{
    run(state, postgres().source.get(), countSpec, postgres().skip);
}
void BM_PostgresClippedSum(benchmark::State &state)
{
    run(state, postgres().source.get(), sumSpec, postgres().skip);
}

} // namespace

BENCHMARK(BM_MemoryCount)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_MemoryClippedSum)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SqliteCount)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SqliteClippedSum)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_PostgresCount)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_PostgresClippedSum)->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();
