// SPDX-License-Identifier: MIT
// Predicate evaluation on the embedded CPS1988 dataset (28,155 rows). Run by hand:
//   build/bench/bench_predicate
// The design target: a typical predicate evaluates in well under a millisecond.
#include "core/data/predicate.h"
#include "resources/dataset_catalog.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>

namespace {

const pbx::data::Table &cps1988()
{
    static const pbx::data::Table table = [] {
        auto loaded = pbx::resources::loadDataset("cps1988");
        if (!loaded) {
            std::fprintf(stderr, "cannot load cps1988: %s\n", loaded.error().message.c_str());
            std::exit(1);
        }
        return std::move(loaded).value();
    }();
    return table;
}

void evaluate(benchmark::State &state, const char *text)
{
    const pbx::data::Table &table = cps1988();
    const auto rows = *pbx::data::publicRows(table, "the benchmark"); // embedded: public
    const auto predicate = pbx::data::Predicate::compile(text, table);
    if (!predicate) {
        state.SkipWithError(predicate.error().message.c_str());
        return;
    }
    std::vector<std::uint8_t> mask;
    for (auto _ : state) {
        predicate->evaluate(rows, mask);
        benchmark::DoNotOptimize(mask.data());
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(table.rowCount()));
}

void compile(benchmark::State &state)
{
    const pbx::data::Table &table = cps1988();
    for (auto _ : state) {
        auto predicate = pbx::data::Predicate::compile(R"(region == "south" and education >= 12)", table);
        benchmark::DoNotOptimize(predicate);
    }
}

} // namespace

BENCHMARK_CAPTURE(evaluate, south_and_education, R"(region == "south" and education >= 12)")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(
    evaluate, five_comparisons,
    R"((region == "south" or region == "west") and not parttime == "yes" and wage > 500 and experience < 30)")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(compile)->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
