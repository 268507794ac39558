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
#include "core/util/try.h"
#include "resources/dataset_catalog.h"

#include <chrono>
#include <cstdio>

namespace pbx::cli {

namespace {

constexpr const char *kSimulateUsage
    = "Usage: pbx-cli simulate relative-error --out FILE.json [--dataset NAME-or-CSV] [--alpha A]\n"
      "                   [--epsilon E] [--delta D] [--repetitions R] [--queries N]\n"
      "                   [--max-epsilon-per-query C] [--plan-queries N] [--confidence P]\n"
      "                   [--seed N] [--synthetic] [--ireduct-step G] [--ireduct-start-scale L]\n"
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
      "The last row, ireduct, is the batch baseline (Xiao et al. 2011): the same N counts fixed in\n"
      "advance, all released at Laplace scale L (default 10·N/ε), then round after round the\n"
      "uncertified ones get less noise by Laplace noise reduction (scale × G, default 0.9) while the\n"
      "batch's total stays within ε. Its outcome line says how often all counts were certified with\n"
      "budget left over (the batch was too small) or the budget ran out first (too large).\n"
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

/// The relative-error lab's settings from the command line. Errors: the option's one-line message.
Result<simulation::LabSettings> parseLabSettings(const Options &options)
{
    simulation::LabSettings s;
    for (const auto &[name, field] : std::initializer_list<std::pair<const char *, double *>>{
             {"--alpha", &s.alpha},
             {"--epsilon", &s.epsilon},
             {"--delta", &s.delta},
             {"--max-epsilon-per-query", &s.maxEpsilonPerQuery},
             {"--confidence", &s.confidence},
             {"--ireduct-step", &s.ireductStep},
             {"--ireduct-start-scale", &s.ireductStartScale}}) {
        PBX_TRY(value, options.number(name));
        if (value)
            *field = *value;
    }
    for (const auto &[name, field] :
         std::initializer_list<std::pair<const char *, int *>>{{"--repetitions", &s.repetitions},
                                                               {"--queries", &s.queriesPerRepetition},
                                                               {"--plan-queries", &s.plannedQueries}}) {
        PBX_TRY(value, options.unsignedInteger(name));
        if (value)
            *field = static_cast<int>(std::min<std::uint64_t>(*value, 1u << 30));
    }
    PBX_TRY(seed, options.unsignedInteger("--seed"));
    s.seed = seed.value_or(1);
    PBX_RETURN_IF_ERROR(s.validate());
    return s;
}

/// The table the lab runs on: the dataset when it is public, or (--synthetic) a table drawn from
/// its public metadata alone. Errors: loading, synthesis, or the lab's refusal of private data.
Result<data::Table> loadLabTable(const Options &options, const std::string &datasetName, std::uint64_t seed)
{
    auto table = resources::loadDataset(datasetName);
    if (!table)
        return makeError(table.error().code, "--dataset: " + table.error().message);
    if (options.has("--synthetic")) {
        auto synthetic = simulation::synthesizeFromMetadata(*table, seed);
        if (!synthetic)
            return makeError(synthetic.error().code, "--synthetic: " + synthetic.error().message);
        return synthetic;
    }
    if (!table->isPublic())
        return makeError(ErrorCode::Unsupported, simulation::labRefusal(table->name()) + " (--synthetic)");
    return table;
}

/// The "settings" object of the lab's output document.
io::json::Json settingsJson(const simulation::LabSettings &s, const std::string &datasetName, bool synthetic,
                            std::size_t cells)
{
    return {{"dataset", datasetName},
            {"synthetic", synthetic},
            {"cells", cells},
            {"queries_per_repetition",
             std::min<std::size_t>(cells, static_cast<std::size_t>(s.queriesPerRepetition))},
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
            {"ireduct_step", s.ireductStep},
            {"ireduct_start_scale",
             s.ireductStartScale > 0.0 ? io::json::Json(s.ireductStartScale) : io::json::Json("10·n/ε")},
            {"seed", s.seed},
            {"note", "simulation mode: true counts are read to score accuracy, never to stop"}};
}

/// Prints the results table to `out` and returns them as the document's "results" array.
io::json::Json printAndListResults(const std::vector<simulation::LabResult> &results, std::ostream &out)
{
    io::json::Json list = io::json::Json::array();
    out << "method              filter          answered (mean ± sd)   within α   ε spent\n";
    for (const auto &r : results) {
        const std::string method = simulation::labMethodName(r.method);
        const std::string filter(filters::filterKindName(r.method.filter));
        list.push_back(
            {{"method", method},
             {"filter", filter},
             {"answered", {{"mean", r.answeredMean}, {"sd", r.answeredSd}}},
             {"within_alpha", r.withinAlpha ? io::json::Json(*r.withinAlpha) : io::json::Json(nullptr)},
             {"attempted", {{"mean", r.attemptedMean}}},
             {"epsilon_spent", {{"mean", r.epsilonSpentMean}}}});
        if (r.batch)
            list.back()["batch"] = {{"all_good", r.batch->allGood},
                                    {"budget_exhausted", r.batch->budgetExhausted},
                                    {"rounds", {{"mean", r.batch->roundsMean}}}};
        // A share of no answers is no score: "—" (null in the document), not 1.0.
        char within[16] = "     —";
        if (r.withinAlpha)
            std::snprintf(within, sizeof within, "%6.4f", *r.withinAlpha);
        char line[160];
        std::snprintf(line, sizeof line, "%-19s %-15s %8.1f ± %-8.1f       %s     %s\n", method.c_str(),
                      filter.c_str(), r.answeredMean, r.answeredSd, within,
                      format(r.epsilonSpentMean).c_str());
        out << line;
    }
    for (const auto &r : results)
        if (r.batch)
            out << "ireduct: " << r.batch->allGood << " of " << r.answeredPerRepetition.size()
                << " repetitions certified every count with budget left over (the batch was too small), "
                << r.batch->budgetExhausted << " ran out of budget first (too large); "
                << format(r.batch->roundsMean) << " rounds on average\n";
    return list;
}

/// pbx-cli simulate relative-error: runs the lab and writes its document. Returns the exit code.
int runRelativeError(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    auto options = Options::parse(args,
                                  {"--out", "--dataset", "--alpha", "--epsilon", "--delta", "--repetitions",
                                   "--queries", "--max-epsilon-per-query", "--confidence", "--seed",
                                   "--plan-queries", "--ireduct-step", "--ireduct-start-scale"},
                                  {"--help", "--synthetic"});
    if (!options) {
        err << "pbx-cli simulate: " << options.error().message << '\n';
        return 2;
    }
    if (options->has("--help")) {
        out << kSimulateUsage;
        return 0;
    }
    const auto outPath = options->value("--out");
    if (!outPath) {
        err << "pbx-cli simulate: --out is required (see --help)\n";
        return 2;
    }
    const std::string datasetName = options->value("--dataset").value_or("cps1988");
    // --out is replaced at the end: never the dataset or its metadata sidecar.
    if (auto clash = outNamesAnInput(*outPath, {datasetName}); !clash) {
        err << "pbx-cli simulate: " << clash.error().message << '\n';
        return 2;
    }
    auto fail = [&](const Error &e) {
        err << "pbx-cli simulate: " << e.message << '\n';
        return 1;
    };
    auto s = parseLabSettings(*options);
    if (!s)
        return fail(s.error());
    auto table = loadLabTable(*options, datasetName, s->seed);
    if (!table)
        return fail(table.error());
    auto workload = simulation::countCells(*table);
    if (!workload)
        return fail(workload.error());
    // Estimated before it starts (simulate_limits.h); the output's temporary file is created
    // before the run, so a folder that is missing or not writable fails at once.
    if (auto size = checkRelativeErrorLabSize(*s, workload->cells.size()); !size)
        return fail(size.error());
    auto outFile = io::AtomicFile::open(*outPath);
    if (!outFile)
        return fail(Error{outFile.error().code, "--out: " + outFile.error().message});
    const auto started = std::chrono::steady_clock::now();
    auto results = simulation::runRelativeErrorLab(*workload, *s, simulation::defaultLabMethods(), {}, 2);
    if (!results)
        return fail(results.error());
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

    io::json::Json doc = io::json::Json::object();
    doc["format"] = "pbx-simulation";
    doc["version"] = 1;
    doc["simulation"] = "relative-error";
    doc["settings"] = settingsJson(*s, datasetName, options->has("--synthetic"), workload->cells.size());
    doc["seconds"] = seconds;
    doc["results"] = printAndListResults(*results, out);
    if (auto written = outFile->commit(doc.dump(2) + "\n"); !written)
        return fail(written.error());
    out << "(" << format(seconds) << " s on 2 threads)\n";
    return 0;
}

} // namespace

int runSimulateCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    if (args.empty() || args[0] == "--help") {
        out << kSimulateUsage;
        return args.empty() ? 2 : 0;
    }
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (args[0] == "strategies")
        return runSimulateStrategies(rest, out, err);
    if (args[0] == "growing")
        return runSimulateGrowing(rest, out, err);
    if (args[0] == "relative-error")
        return runRelativeError(rest, out, err);
    err << "pbx-cli simulate: unknown simulation '" << args[0]
        << "' (expected relative-error, strategies or growing)\n";
    return 2;
}

} // namespace pbx::cli
