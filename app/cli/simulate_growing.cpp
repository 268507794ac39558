// SPDX-License-Identifier: MIT
#include "app/cli/simulate_growing.h"

#include "app/cli/simulate_lab_input.h"
#include "app/cli/simulate_limits.h"
#include "core/growing/growing_error.h"
#include "core/growing/growing_lab.h"
#include "core/io/growing_lab_json.h"
#include "core/simulation/growing_lab_run.h"
#include "core/util/try.h"

#include <cstdio>
#include <variant>

namespace pbx::cli {

const char *const kSimulateGrowingUsage
    = "Usage: pbx-cli simulate growing --config LAB.json --out FILE.json [--seed N] [--plan-only]\n"
      "\n"
      "Growing databases (Cummings, Krehbiel, Lai & Tantipongpipat 2018): a budget that lasts forever\n"
      "while rows keep arriving. LAB.json is {\"format\": \"pbx-growing-lab\", \"version\": 1, ...} with\n"
      "  \"algorithm\"  bbscheduler (re-run a black box at t = n(1+gamma)^i), bbimprover (every step) or\n"
      "               pmwg (private multiplicative weights; \"pmwg\": {\"universe\": \"small\" | \"full\",\n"
      "               \"mode\": \"practical\" | \"theory\", \"alpha\", \"p\", \"c0\", \"T\", \"eta\", "
      "\"checkpoints\",\n"
      "               \"per_checkpoint\", \"uniform_update\"}) or nsg (numeric sparse vector on its own;\n"
      "               \"nsg\": {\"p\", \"T\", \"cap\": {\"kind\": \"time\", \"c0\"} | {\"kind\": \"constant\", \"c\"},\n"
      "               \"queries\": [predicates], \"checkpoints\"})\n"
      "               or ermg (output-perturbation logistic regression on CPS1988, Gaussian noise; \"schedule\":\n"
      "               {\"kind\": \"improver\", \"a\", \"every\"} or {\"kind\": \"zcdp-equalised\", \"gamma\"};\n"
      "               \"erm\": {\"lambda\", \"tol\", \"draws\"})\n"
      "  \"stream\"     {\"start_size\": n, \"order\": \"random\" | \"sorted:<predicate>\", \"end\": T}\n"
      "  \"budget\"     {\"kind\": \"pure\", \"epsilon\"} | {\"kind\": \"zcdp\", \"rho\"} |\n"
      "               {\"kind\": \"approx\", \"epsilon\", \"delta\", \"conversion\": \"cks\" | \"simple\"}\n"
      "  \"schedule\"   bbscheduler: {\"kind\": geometric | polynomial | zcdp-equalised | zcdp-geometric,\n"
      "               \"gamma\": number or \"optimal\"}; bbimprover: {\"a\": 0.1, \"every\": 1}\n"
      "  \"black_box\"  {\"kind\": \"laplace-k\", \"queries\": [predicates] or k} | {\"kind\": "
      "\"noisy-histogram\",\n"
      "               \"universe\", \"cells_per_query\"} | {\"kind\": \"smalldb\", \"universe\", "
      "\"queries\"} or\n"
      "               {\"kind\": \"smalldb\", \"m\": 8} (SmallDBG: exact SmallDB on CPS1988 region x smsa x parttime)\n"
      "  \"beta\", \"repetitions\", \"dataset\" (default cps1988), \"neighbours\" (replace only).\n"
      "The output lists every epoch (start, end, epsilon or rho, cumulative, beta, bound) or BBImprover's\n"
      "steps and its crossover with BBScheduler, the privacy reserved and spent, and (simulation) the\n"
      "measured error over seeded arrival orders. --plan-only reads no data (stream.end is then required).\n"
      "Errors name a code and the field: INVALID_CONFIG, INVALID_START_SIZE, INVALID_GAMMA,\n"
      "INVALID_BUDGET, INVALID_SCHEDULE, INVALID_DECAY, INVALID_BETA, INVALID_BLACK_BOX, EPOCH_OVERFLOW,\n"
      "GROWING_NEIGHBOURS_UNSUPPORTED, INVALID_UNIVERSE, INVALID_ALPHA, INVALID_NOISE_EXPONENT, "
      "INVALID_CAP,\n"
      "INVALID_THRESHOLD, INVALID_LEARNING_RATE, CAP_REQUIRED, SMALLDB_TOO_LARGE.\n"
      "A simulation is estimated before it starts and refused (INVALID_CONFIG naming the fields) above\n"
      "1 GiB of per-query tables (5 bytes per query and row) or 4e9 steps (repetitions x queries x\n"
      "(arrivals + held times); PMWG checkpoints x per_checkpoint x universe cells; ERMG repetitions x\n"
      "releases x rows x 20).\n";

int runSimulateGrowing(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    auto input = readLabInput(args, "growing", kSimulateGrowingUsage, {"--plan-only"},
                              growing::kInvalidConfig, out, err);
    if (const int *exitCode = std::get_if<int>(&input))
        return *exitCode;
    auto &[options, json, outPath, seed] = std::get<LabInput>(input);
    const bool planOnly = options.has("--plan-only");
    auto config = growing::parseGrowingLab(json);
    if (!config) {
        err << "pbx-cli simulate: " << config.error().message << '\n';
        return 1;
    }
    const auto result = runLabAndWrite(
        config->dataset, !planOnly, outPath,
        [&](const data::Table *table) -> Result<io::json::Json> {
            // Estimated before it starts: refused above the named limits (simulate_limits.h).
            PBX_RETURN_IF_ERROR(checkGrowingLabSize(*config, table));
            auto run = growing::runGrowingLab(*config, table, seed, planOnly); // a plan reads no data at all
            if (!run)
                return run.error();
            return growing::growingLabResultJson(*run);
        },
        err);
    if (!result)
        return 1;
    const auto &doc = *result;
    out << doc["simulation"].get<std::string>() << " -> " << outPath << '\n';
    const auto &privacy = doc["privacy"];
    char line[256];
    for (const char *key : {"total_reserved", "spent_realised", "realised", "worst_case"})
        if (privacy.contains(key) && privacy[key].is_number()) {
            std::snprintf(line, sizeof line, "  %s %s %.6g\n", privacy["unit"].get<std::string>().c_str(),
                          key, privacy[key].get<double>());
            out << line;
        }
    if (doc.contains("hard_queries")) {
        // PMWG scores every answer; NSG only its hard (numeric) answers.
        const auto &errors = doc["errors"];
        const bool nsg = errors.contains("hard_mean_abs");
        std::snprintf(line, sizeof line, "  hard queries %zu (cap at the end %llu), mean |error| %.4f%s\n",
                      doc["hard_queries"].size(),
                      static_cast<unsigned long long>(doc["cap"].back()["cap"].get<std::uint64_t>()),
                      errors[nsg ? "hard_mean_abs" : "mean_abs"].get<double>(), nsg ? " (hard answers)" : "");
        out << line;
    }
    if (doc.contains("epochs"))
        for (const auto &e : doc["epochs"]) {
            std::snprintf(
                line, sizeof line,
                "  epoch %2d  t %10llu .. %-10llu  eps %.6f  cumulative %.6f  bound %.5f\n",
                e["index"].get<int>(), static_cast<unsigned long long>(e["start"].get<std::uint64_t>()),
                static_cast<unsigned long long>(e["end"].get<std::uint64_t>()), e["epsilon"].get<double>(),
                e["cumulative"].get<double>(), e["bound"].is_number() ? e["bound"].get<double>() : NAN);
            out << line;
        }
    return 0;
}

} // namespace pbx::cli
