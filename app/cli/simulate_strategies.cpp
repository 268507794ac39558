// SPDX-License-Identifier: MIT
#include "app/cli/simulate_strategies.h"

#include "app/cli/simulate_lab_input.h"
#include "app/cli/simulate_limits.h"
#include "core/io/strategies_lab_json.h"
#include "core/simulation/strategies_lab_run.h"
#include "core/strategies/strategies_lab.h"
#include "core/strategies/strategy_error.h"
#include "core/util/try.h"

#include <cstdio>
#include <variant>

namespace pbx::cli {

const char *const kSimulateStrategiesUsage
    = "Usage: pbx-cli simulate strategies --config LAB.json --out FILE.json [--seed N]\n"
      "\n"
      "The strategies & inference lab: how the same budget buys different accuracy. LAB.json is\n"
      "{\"format\": \"pbx-strategies-lab\", \"version\": 1, \"experiment\": E, ...} with E one of\n"
      "  bmi                 the lecture's BMI example (\"dataset\": \"slides\" or \"cps1988\" with a\n"
      "                      public \"cutoff\"): Algorithm 1 vs 2, predicted 128/32/12 per eps^2 and measured\n"
      "  ranges              range-query strategies on an ordered column (\"column\", \"bounds\",\n"
      "                      \"strategies\": identity, all-ranges, tree, haar; \"workload\"; \"post\")\n"
      "  inference           a projection (\"projection\": tree-consistency, nonnegative,\n"
      "                      isotonic-sorted, isotonic-prefix): SSE before and after, runs worse\n"
      "  quantile            the exponential mechanism's quantile (\"column\", \"q\")\n"
      "  smooth-sensitivity  the median's smooth sensitivity (a non-private diagnostic)\n"
      "  stability           transformations' stability and Poisson subsampling\n"
      "and \"epsilon\", \"neighbours\" (add-remove or replace; stability: add-remove only),\n"
      "\"repetitions\". The seed (default 1) makes the Monte Carlo reproducible. The lab reads true\n"
      "answers to score accuracy and charges no budget, so a dataset must be public (embedded, or a\n"
      "CSV whose metadata says \"public\": true). A lab whose estimated work, repetitions ×\n"
      "strategies × (2k + workload answers), exceeds 4e9 steps is refused before it starts.\n"
      "Errors name a code: INVALID_EPSILON, INVALID_BOUNDS, INVALID_BRANCHING, DOMAIN_TOO_LARGE,\n"
      "INVALID_QUANTILE, NEIGHBOURS_MISMATCH, NOT_CONVEX, INVALID_CONFIG.\n";

int runSimulateStrategies(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    auto input = readLabInput(args, "strategies", kSimulateStrategiesUsage, {}, strategies::kInvalidConfig,
                              out, err);
    if (const int *exitCode = std::get_if<int>(&input))
        return *exitCode;
    auto &[options, json, outPath, seed] = std::get<LabInput>(input);
    auto config = strategies::parseLabConfig(json);
    if (!config) {
        err << "pbx-cli simulate: " << config.error().message << '\n';
        return 1;
    }
    // The stability experiment's constants and Poisson subsampling's ln(1 + p(e^ε − 1)) hold for
    // add/remove neighbours only; sessions refuse both under replace-one (requestStability).
    if (config->experiment == strategies::LabExperiment::Stability
        && config->neighbours == data::Neighbouring::Replace) {
        err << "pbx-cli simulate: " << strategies::kNeighboursMismatch
            << ": neighbours: the stability experiment's constants and Poisson subsampling's "
               "ln(1 + p(e^eps - 1)) hold for add/remove neighbours only (sessions refuse both under "
               "replace-one); use \"neighbours\": \"add-remove\"\n";
        return 1;
    }
    const auto result = runLabAndWrite(
        config->dataset, strategies::labNeedsTable(*config), outPath,
        [&](const data::Table *table) -> Result<io::json::Json> {
            // Estimated before it starts: refused above the named limit (simulate_limits.h).
            PBX_RETURN_IF_ERROR(checkStrategiesLabSize(*config, table));
            PBX_TRY(run, strategies::runStrategiesLab(*config, table, seed));
            return strategies::labResultJson(run);
        },
        err);
    if (!result)
        return 1;
    // A short summary on stdout.
    const auto &doc = *result;
    out << doc["simulation"].get<std::string>() << " -> " << outPath << '\n';
    if (doc.contains("results") && doc["results"].is_array()) {
        for (const auto &r : doc["results"]) {
            const std::string name
                = r.contains("label") ? r["label"].get<std::string>() : r["method"].get<std::string>();
            char line[256];
            const double predicted = r["predicted"].is_object()   ? r["predicted"]["average"].get<double>()
                                     : r["predicted"].is_number() ? r["predicted"].get<double>()
                                                                  : NAN;
            const bool measured = r["measured"].is_object();
            std::snprintf(line, sizeof line, "  %-58s predicted %12.4g   measured %s\n", name.c_str(),
                          predicted,
                          measured ? (std::to_string(r["measured"]["average"].get<double>()) + " ± "
                                      + std::to_string(r["measured"]["standard_error"].get<double>()))
                                         .c_str()
                                   : "-");
            out << line;
        }
    }
    return 0;
}

} // namespace pbx::cli
