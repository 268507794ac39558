// SPDX-License-Identifier: MIT
#include "app/cli/simulate_command.h"

#include "app/cli/options.h"
#include "app/cli/simulate_growing.h"
#include "app/cli/simulate_lab_input.h"
#include "app/cli/simulate_limits.h"
#include "app/cli/simulate_strategies.h"
#include "core/io/json_fields.h"
#include "core/io/text_file.h"
#include "core/simulation/relative_error_lab.h"
#include "core/util/number_format.h"
#include "resources/dataset_catalog.h"

#include <chrono>
#include <cstdio>

namespace pbx::cli {

namespace {

constexpr const char *kUsage
    = "Usage: pbx-cli simulate relative-error --out FILE.json [--dataset NAME-or-CSV] [--alpha A]\n"
      "                   [--epsilon E] [--delta D] [--repetitions R] [--queries N]\n"
      "                   [--max-epsilon-per-query C] [--plan-queries N] [--confidence P]\n"
      "                   [--seed N] [--synthetic]\n"
      "\n"
      "Releases as many counts as possible, each within relative error α, under one budget:\n"
      "the workload is every marginal cell of the dataset's data cube (CPS1988: region × ethnicity\n"
      "× smsa × parttime × education, 2,699 cells), N of them per repetition in random order.\n"
      "Each method × filter runs the same workloads and noise seeds. The output lists, per\n"
      "method and filter, the counts answered (mean, sd) and the fraction of them really within α.\n"
      "Defaults: dataset cps1988, α 0.1, ε 1, δ 1e-6, 200 repetitions, 500 queries, confidence\n"
      "0.95, seed 1 (about 4 minutes on 2 threads); repetitions x queries above 250,000 is refused\n"
      "before it starts. Per-query cap: as in pbx-cli run, the remaining budget in the query's unit\n"
      "divided by the queries still to come (or by N with --plan-queries N); a fixed cap with\n"
      "--max-epsilon-per-query C (ε, or ρ = C²/2 for zCDP mechanisms).\n"
      "\n"
      "The lab reads true counts and charges no budget, so it runs only on public data: the\n"
      "embedded datasets, or a CSV whose metadata sidecar says \"public\": true. --synthetic runs\n"
      "it instead on a table drawn uniformly from the dataset's declared categories and bounds\n"
      "(its public metadata alone; no row is read).\n"
      "\n"
      "pbx-cli simulate strategies --config LAB.json --out FILE.json [--seed N]: the strategies &\n"
      "inference lab (pbx-cli simulate strategies --help).\n"
      "\n"
      "pbx-cli simulate growing --config LAB.json --out FILE.json [--seed N] [--plan-only]: growing\n"
      "databases: BBScheduler, BBImprover and PMWG (pbx-cli simulate growing --help).\n";

std::string format(double x)
{
    return formatSignificant(x, 4);
}

} // namespace

int runSimulateCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    if (args.empty() || args[0] == "--help") {
        out << kUsage;
        return args.empty() ? 2 : 0;
    }
    if (args[0] == "strategies")
        return runSimulateStrategies({args.begin() + 1, args.end()}, out, err);
    if (args[0] == "growing")
        return runSimulateGrowing({args.begin() + 1, args.end()}, out, err);
    if (args[0] != "relative-error") {
        err << "pbx-cli simulate: unknown simulation '" << args[0]
            << "' (expected relative-error, strategies or growing)\n";
        return 2;
    }
    auto options
        = Options::parse({args.begin() + 1, args.end()},
                         {"--out", "--dataset", "--alpha", "--epsilon", "--delta", "--repetitions",
                          "--queries", "--max-epsilon-per-query", "--confidence", "--seed", "--plan-queries"},
                         {"--help", "--synthetic"});
    if (!options) {
        err << "pbx-cli simulate: " << options.error().message << '\n';
        return 2;
    }
    if (options->has("--help")) {
        out << kUsage;
        return 0;
    }
    const auto outPath = options->value("--out");
    if (!outPath) {
        err << "pbx-cli simulate: --out is required (see --help)\n";
        return 2;
    }
    // --out is replaced at the end: never the dataset or its metadata sidecar.
    if (auto clash = outNamesAnInput(*outPath, {options->value("--dataset").value_or("cps1988")}); !clash) {
        err << "pbx-cli simulate: " << clash.error().message << '\n';
        return 2;
    }
    simulation::LabSettings s;
    for (const auto &[name, field] : std::initializer_list<std::pair<const char *, double *>>{
             {"--alpha", &s.alpha},
             {"--epsilon", &s.epsilon},
             {"--delta", &s.delta},
             {"--max-epsilon-per-query", &s.maxEpsilonPerQuery},
             {"--confidence", &s.confidence}}) {
        auto value = options->number(name);
        if (!value) {
            err << "pbx-cli simulate: " << value.error().message << '\n';
            return 1;
        }
        if (*value)
            *field = **value;
    }
    for (const auto &[name, field] :
         std::initializer_list<std::pair<const char *, int *>>{{"--repetitions", &s.repetitions},
                                                               {"--queries", &s.queriesPerRepetition},
                                                               {"--plan-queries", &s.plannedQueries}}) {
        auto value = options->unsignedInteger(name);
        if (!value) {
            err << "pbx-cli simulate: " << value.error().message << '\n';
            return 1;
        }
        if (*value)
            *field = static_cast<int>(std::min<std::uint64_t>(**value, 1u << 30));
    }
    auto seed = options->unsignedInteger("--seed");
    if (!seed) {
        err << "pbx-cli simulate: " << seed.error().message << '\n';
        return 1;
    }
    s.seed = seed->value_or(1);
    if (auto valid = s.validate(); !valid) {
        err << "pbx-cli simulate: " << valid.error().message << '\n';
        return 1;
    }
    const std::string datasetName = options->value("--dataset").value_or("cps1988");
    auto table = resources::loadDataset(datasetName);
    if (!table) {
        err << "pbx-cli simulate: --dataset: " << table.error().message << '\n';
        return 1;
    }
    if (options->has("--synthetic")) {
        auto synthetic = simulation::synthesizeFromMetadata(*table, s.seed);
        if (!synthetic) {
            err << "pbx-cli simulate: --synthetic: " << synthetic.error().message << '\n';
            return 1;
        }
        table = std::move(synthetic);
    } else if (!table->isPublic()) {
        err << "pbx-cli simulate: " << simulation::labRefusal(table->name()) << " (--synthetic)\n";
        return 1;
    }
    auto workload = simulation::countCells(*table);
    if (!workload) {
        err << "pbx-cli simulate: " << workload.error().message << '\n';
        return 1;
    }
    // Estimated before it starts (simulate_limits.h); the output's temporary file is created
    // before the run, so a folder that is missing or not writable fails at once.
    if (auto size = checkRelativeErrorLabSize(s, workload->cells.size()); !size) {
        err << "pbx-cli simulate: " << size.error().message << '\n';
        return 1;
    }
    auto outFile = io::AtomicFile::open(*outPath);
    if (!outFile) {
        err << "pbx-cli simulate: --out: " << outFile.error().message << '\n';
        return 1;
    }
    const auto methods = simulation::defaultLabMethods();
    const auto started = std::chrono::steady_clock::now();
    auto results = simulation::runRelativeErrorLab(*workload, s, methods, {}, 2);
    if (!results) {
        err << "pbx-cli simulate: " << results.error().message << '\n';
        return 1;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

    using io::json::Json;
    Json doc = Json::object();
    doc["format"] = "pbx-simulation";
    doc["version"] = 1;
    doc["simulation"] = "relative-error";
    doc["settings"]
        = {{"dataset", datasetName},
           {"synthetic", options->has("--synthetic")},
           {"cells", workload->cells.size()},
           {"queries_per_repetition",
            std::min<std::size_t>(workload->cells.size(), static_cast<std::size_t>(s.queriesPerRepetition))},
           {"alpha", s.alpha},
           {"confidence", s.confidence},
           {"epsilon", s.epsilon},
           {"delta", s.delta},
           {"repetitions", s.repetitions},
           {"max_epsilon_per_query", s.maxEpsilonPerQuery},
           {"max_rho_per_query", s.maxEpsilonPerQuery * s.maxEpsilonPerQuery / 2.0},
           {"per_query_cap", s.maxEpsilonPerQuery > 0.0 ? "fixed (max_epsilon_per_query)"
                             : s.plannedQueries > 0     ? "remaining / plan_queries"
                                                        : "remaining / queries still to come"},
           {"plan_queries", s.plannedQueries},
           {"unified_expost_epsilon_share", s.split.expostEpsilonShare},
           {"seed", s.seed},
           {"note", "simulation mode: true counts are read to score accuracy, never to stop"}};
    doc["seconds"] = seconds;
    Json list = Json::array();
    out << "method              filter          answered (mean ± sd)   within α   ε spent\n";
    for (const auto &r : *results) {
        const std::string method(session::releaseMethodName(r.method.mechanism));
        const std::string filter(filters::filterKindName(r.method.filter));
        list.push_back({{"method", method},
                        {"filter", filter},
                        {"answered", {{"mean", r.answeredMean}, {"sd", r.answeredSd}}},
                        {"within_alpha", r.withinAlpha},
                        {"attempted", {{"mean", r.attemptedMean}}},
                        {"epsilon_spent", {{"mean", r.epsilonSpentMean}}}});
        char line[160];
        std::snprintf(line, sizeof line, "%-19s %-15s %8.1f ± %-8.1f       %6.4f     %s\n", method.c_str(),
                      filter.c_str(), r.answeredMean, r.answeredSd, r.withinAlpha,
                      format(r.epsilonSpentMean).c_str());
        out << line;
    }
    doc["results"] = list;
    if (auto written = outFile->commit(doc.dump(2) + "\n"); !written) {
        err << "pbx-cli simulate: " << written.error().message << '\n';
        return 1;
    }
    out << "(" << format(seconds) << " s on 2 threads)\n";
    return 0;
}

} // namespace pbx::cli
