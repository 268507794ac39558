// SPDX-License-Identifier: MIT
// Opening a saved session: reading a transcript of N requests and auditing it
// (every cost recomputed, the ledger replayed into a fresh filter), as File ▸ Open session and
// `pbx-cli verify` do. Measured for N = 10³ and 10⁴ Laplace releases on a 64-row table; the time
// must grow linearly with N (a 10⁴-request session opened in about 8 s in the GUI).
// Run by hand:
//   build/bench/bench_session_open
#include "core/io/session_file.h"
#include "core/io/transcript_json.h"
#include "core/session/session.h"

#include "bench/bench_tiny_table.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>

namespace {

using namespace pbx;

using bench::tinyTable;

/// The transcript of `requests` seeded Laplace counts under the basic filter.
std::string transcript(const std::shared_ptr<const data::Table> &table, std::size_t requests)
{
    session::SessionSettings settings;
    settings.epsilon = 1e12; // no request is refused for lack of budget
    settings.filter = filters::FilterKind::Basic;
    settings.seed = 5;
    auto s = session::Session::create(table, settings);
    if (!s) {
        std::fprintf(stderr, "%s\n", s.error().message.c_str());
        std::exit(1);
    }
    session::QueryRequest r;
    r.query.where = "region == \"south\"";
    r.target = {session::TargetKind::Absolute, 10, 0.95};
    r.mechanism = session::ReleaseMethod::Laplace;
    for (std::size_t i = 0; i < requests; ++i)
        if (auto e = (*s)->ask(r); !e) {
            std::fprintf(stderr, "%s\n", e.error().message.c_str());
            std::exit(1);
        }
    return io::writeTranscriptJson(**s);
}

void openTranscript(benchmark::State &state)
{
    const auto table = tinyTable();
    const std::string text = transcript(table, static_cast<std::size_t>(state.range(0)));
    for (auto _ : state) {
        auto document = io::readTranscriptJson(text);
        if (!document) {
            state.SkipWithError(document.error().message.c_str());
            return;
        }
        io::SessionFile file;
        file.header = document->header;
        file.events = std::move(document->events);
        file.statedSpent = std::make_pair(document->spentUnit, document->spent);
        auto audited = io::auditSessionFile(file, table);
        if (!audited) {
            state.SkipWithError(audited.error().message.c_str());
            return;
        }
        benchmark::DoNotOptimize((*audited)->events().size());
    }
    state.counters["per_request"]
        = benchmark::Counter(static_cast<double>(state.range(0)),
                             benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

} // namespace

BENCHMARK(openTranscript)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
