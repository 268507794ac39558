// SPDX-License-Identifier: MIT
// Session::ask over long sessions: the time per request must not grow with
// the ledger. Each benchmark answers N requests in one session (seeded noise, a 64-row table so
// the query itself costs next to nothing, a budget no request exhausts) and reports the mean
// time per request: for N = 10⁵ and 10⁶ on the basic filter (Laplace), and for N = 10³ and 10⁴
// on the unified filter (Brownian noise reduction accounted ex-post, which needs the count of
// earlier Brownian runs). Measured (2 shared cores, load ≈ 7): Laplace 15.5 µs per request at
// 10⁵ and 15.7 µs at 10⁶; Brownian ex-post 1.28 ms at 10³ and 1.27 ms at 10⁴.
// Run by hand:
//   build/bench/bench_session
// Before the fix the count of earlier Brownian runs scanned the whole ledger: 10⁵ requests took
// 27 s (O(n²)); constant time per request means the two sizes report the same per-request time.
#include "core/session/session.h"

#include "bench/bench_tiny_table.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>

namespace {

using namespace pbx;

using bench::tinyTable;

void answer(benchmark::State &state, filters::FilterKind filter,
            std::optional<session::ReleaseMethod> mechanism, session::AccuracyTarget target)
{
    const auto requests = static_cast<std::size_t>(state.range(0));
    const auto table = tinyTable();
    for (auto _ : state) {
        session::SessionSettings settings;
        settings.epsilon = 1e12; // no request is ever refused for lack of budget
        settings.filter = filter;
        settings.seed = 5;
        auto s = session::Session::create(table, settings);
        if (!s) {
            state.SkipWithError(s.error().message.c_str());
            return;
        }
        session::QueryRequest r;
        r.query.where = "region == \"south\"";
        r.target = target;
        r.mechanism = mechanism;
        for (std::size_t i = 0; i < requests; ++i) {
            auto e = (*s)->ask(r);
            if (!e) {
                state.SkipWithError(e.error().message.c_str());
                return;
            }
            benchmark::DoNotOptimize(e->answer);
        }
        state.PauseTiming();
        s->reset(); // freeing 10⁶ events is not part of answering them
        state.ResumeTiming();
    }
    state.counters["per_request"]
        = benchmark::Counter(static_cast<double>(requests),
                             benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void laplace(benchmark::State &state)
{
    answer(state, filters::FilterKind::Basic, session::ReleaseMethod::Laplace,
           {session::TargetKind::Absolute, 10, 0.95});
}

void brownianExPost(benchmark::State &state)
{
    answer(state, filters::FilterKind::Unified, session::ReleaseMethod::Brownian,
           {session::TargetKind::Absolute, 10, 0.95});
}

} // namespace

BENCHMARK(laplace)->Arg(100000)->Arg(1000000)->Iterations(1)->Unit(benchmark::kSecond);
// Brownian noise reduction costs about a millisecond a request (its boundary and path), so its
// sizes are 10³ and 10⁴; the ledger-length dependence it adds is the same counter.
BENCHMARK(brownianExPost)->Arg(1000)->Arg(10000)->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK_MAIN();
