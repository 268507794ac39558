// SPDX-License-Identifier: MIT
// `pbx-cli odp early-stop | thm15 | recover`.
#include "app/cli/odp_cli_support.h"

#include "core/data/rows.h"
#include "core/datasets/cps1988_recovery.h"
#include "core/math/directed_rounding.h"
#include "core/odp/budget_recovery.h"
#include "core/odp/early_stop_filters.h"
#include "core/odp/early_stopping.h"
#include "resources/dataset_catalog.h"

#include <cmath>
#include <regex>
#include <sstream>

namespace pbx::cli::odpcli {

namespace {

using io::json::Json;

constexpr const char *kEarlyUsage
    = "Usage: pbx-cli odp early-stop --stops K1,K2,… (--noise-multiplier Z | --step-epsilon E0)\n"
      "                   --delta D [--step-delta D0] [--split equal|proportional]\n"
      "                   [--theorem lemma11|thm15] [--composition gauss|kov|mv|basic]\n"
      "                   [--stopped-at K] [--format json|csv] [--out FILE]\n"
      "ODP costs E_j of stopping after k_j steps (Hartmann et al. 2023, Lemma 11: E_j = C(k_j, δ'_j), δ = Σδ'_j), the plain\n"
      "DP cost C(K, δ) of all K steps, and what stopping at k_j returns. --theorem thm15 scales the\n"
      "δ'_j up until the exact δ of the costs (Hartmann et al. 2023, Theorem 15) equals δ (ε₀ steps, kov or mv).\n"
      "Compositions: gauss (Gaussian steps), kov (Kairouz et al.), mv (the optimal heterogeneous\n"
      "composition, here computed exactly), basic (per-step charges; δ may be 0).\n"
      "filter_budgets: the budget a Rényi filter (24 orders, δ/24 each) or a zCDP filter must be given,\n"
      "before the run, to let it continue to each k_j (a filter's guarantee is its budget wherever\n"
      "the run stops); pure or Gaussian steps only.\n";

constexpr const char *kThm15Usage
    = "Usage: pbx-cli odp thm15 --stops K1,K2,… (--step-epsilon E0 | --step-epsilons LIST)\n"
      "                   --costs E1,E2,… [--step-delta D0] [--grid G] [--out FILE]\n"
      "The smallest δ such that every iterative mechanism with these (ε_i, δ_i)-DP steps and every\n"
      "stopping rule is (E, δ)-ODP (Hartmann et al. 2023, Theorem 15). Heterogeneous ε_i are rounded up to --grid.\n";

constexpr const char *kRecoverUsage
    = "Usage: pbx-cli odp recover [--label \"wage > 500\"] [--features full|weak] [--lambda 0.01]\n"
      "                   [--eps-p 2] [--eps-t 0.5] [--tau 0.49] [--split mod5] [--repeat R]\n"
      "                   [--simulation] [--dataset NAME-or-CSV] [--seed S] [--out FILE]\n"
      "Private logistic regression by output perturbation, tested on a disjoint split (row i is a\n"
      "test row iff i mod 5 = 4); released only if the noisy error ≤ τ, otherwise ⊥. Cells:\n"
      "released max(ε_p, Δ_test/s), ⊥ max(min(ε_p, Δ_train/s), Δ_test/s) (Hartmann et al. 2023, Theorem 17).\n"
      "--simulation adds the true error and the pass probability. Public data only (an embedded\n"
      "dataset, or a CSV whose metadata says \"public\": true); on private data ask a 'recover' request\n"
      "in a session (pbx-cli run). --repeat R runs R independent releases: their total cost is R runs'\n"
      "costs by basic composition (total_cost).\n";

std::vector<std::int64_t> stopsOf(const Options &o)
{
    if (!o.has("--stops"))
        throw Exit{2, "--stops is required (see --help)"};
    std::vector<std::int64_t> stops;
    for (double v : numberList(o, "--stops", {})) {
        if (v != std::floor(v) || std::abs(v) > 1e9)
            throw Exit{1, "--stops: stopping points are whole numbers"};
        stops.push_back(static_cast<std::int64_t>(v));
    }
    okOrExit(odp::validateStops(stops), "--stops");
    return stops;
}

} // namespace

int earlyStop(const std::vector<std::string> &args, std::ostream &out)
{
    const Options o = parseOrExit(args, {"--stops", "--noise-multiplier", "--step-epsilon", "--step-delta",
                                         "--delta", "--split", "--theorem", "--composition", "--stopped-at"});
    if (printHelp(o, out, kEarlyUsage))
        return 0;
    const auto stops = stopsOf(o);
    if (o.has("--noise-multiplier") == o.has("--step-epsilon"))
        throw Exit{2, "give exactly one of --noise-multiplier and --step-epsilon"};
    odp::IterativeSteps steps;
    if (o.has("--noise-multiplier")) {
        steps.kind = odp::IterativeSteps::Kind::Gaussian;
        steps.noiseMultiplier = number(o, "--noise-multiplier", 0.0);
    } else {
        steps.stepEpsilon = number(o, "--step-epsilon", 0.0);
        steps.stepDelta = number(o, "--step-delta", 0.0);
    }
    const bool gaussian = steps.kind == odp::IterativeSteps::Kind::Gaussian;
    const std::string composition
        = choice(o, "--composition", gaussian ? "gauss" : "kov", {"gauss", "kov", "mv", "basic"});
    const std::string split = choice(o, "--split", "equal", {"equal", "proportional"});
    const std::string theorem = choice(o, "--theorem", "lemma11", {"lemma11", "thm15"});
    const double delta = composition == "basic" ? number(o, "--delta", 0.0) : requiredNumber(o, "--delta");
    const auto comp = composition == "gauss" ? odp::StepComposition::Gaussian
                      : composition == "kov" ? odp::StepComposition::Kov
                      : composition == "mv"  ? odp::StepComposition::Exact
                                             : odp::StepComposition::Basic;
    const auto plan = valueOrExit(
        odp::lemma11Plan(stops, steps, comp, delta,
                         split == "equal" ? odp::DeltaSplit::Equal : odp::DeltaSplit::Proportional));
    std::vector<double> costs = plan.costs;
    Json doc
        = {{"mechanism", "early-stop"}, {"theorem", theorem}, {"composition", composition}, {"split", split}};
    if (theorem == "thm15") {
        const auto tuned = valueOrExit(odp::tuneWithTheorem15(stops, steps, comp, delta));
        costs = tuned.costs;
        doc["scale"] = tuned.scale;
        doc["delta_theorem15"] = tuned.delta;
    } else if (!gaussian && stops.back() <= 20000) {
        const auto k = static_cast<std::size_t>(stops.back());
        doc["delta_theorem15"]
            = valueOrExit(odp::theorem15Delta(stops, std::vector<double>(k, steps.stepEpsilon),
                                              std::vector<double>(k, steps.stepDelta), costs));
    }
    Json rows = Json::array();
    std::string csv = "k,cost,returned_vs_worst,returned_vs_dp\n";
    double worst = 0.0;
    for (double c : costs)
        worst = std::max(worst, c);
    for (std::size_t j = 0; j < stops.size(); ++j) {
        rows.push_back({{"k", stops[j]},
                        {"cost", costs[j]},
                        {"delta_prime", plan.deltaPrimes[j]},
                        {"returned_vs_worst", worst - costs[j]},
                        {"returned_vs_dp", plan.dpEpsilon - costs[j]}});
        csv += std::to_string(stops[j]) + "," + csvNumber(costs[j]) + "," + csvNumber(worst - costs[j]) + ","
               + csvNumber(plan.dpEpsilon - costs[j]) + "\n";
    }
    doc["costs"] = costs;
    doc["stops"] = rows;
    // The same run under a privacy filter instead (its guarantee is the budget, fixed before the
    // run): the budget that lets it continue to each k_j. Not for (ε₀, δ₀) steps with δ₀ > 0.
    if (const auto filters = odp::filterBudgetsForStops(stops, steps, delta); filters) {
        Json budgets = Json::array();
        for (const auto &b : *filters)
            budgets.push_back(
                {{"k", b.k}, {"rdp_filter_epsilon", b.rdpEpsilon}, {"zcdp_filter_epsilon", b.zcdpEpsilon}});
        doc["filter_budgets"] = budgets;
    }
    doc["delta"] = plan.delta;
    doc["worst_epsilon"] = worst;
    doc["dp_epsilon"] = plan.dpEpsilon;
    if (o.has("--stopped-at")) {
        const auto at = integer(o, "--stopped-at", 0);
        if (at < 0 || at > stops.back())
            throw Exit{1, "--stopped-at must lie in [0, " + std::to_string(stops.back()) + "]"};
        const int cell = odp::earlyStopCell(stops, at);
        doc["stopped_at"] = {{"steps", at},
                             {"cell", cell},
                             {"cost", costs[static_cast<std::size_t>(cell)]},
                             {"returned_vs_worst", worst - costs[static_cast<std::size_t>(cell)]},
                             {"returned_vs_dp", plan.dpEpsilon - costs[static_cast<std::size_t>(cell)]}};
    }
    emit(o, doc, csv, out);
    return 0;
}

int thm15(const std::vector<std::string> &args, std::ostream &out)
{
    const Options o = parseOrExit(
        args, {"--stops", "--step-epsilon", "--step-epsilons", "--step-delta", "--costs", "--grid"});
    if (printHelp(o, out, kThm15Usage))
        return 0;
    const auto stops = stopsOf(o);
    if (stops.back() > 1000000)
        throw Exit{1, "--stops: at most 10^6 steps"};
    const auto k = static_cast<std::size_t>(stops.back());
    std::vector<double> eps;
    if (o.has("--step-epsilons")) {
        eps = numberList(o, "--step-epsilons", {});
        if (eps.size() != k)
            throw Exit{1, "--step-epsilons: one value per step up to the last stopping point"};
    } else {
        eps.assign(k, requiredNumber(o, "--step-epsilon"));
    }
    if (!o.has("--costs"))
        throw Exit{2, "--costs is required (see --help)"};
    const auto costs = numberList(o, "--costs", {});
    const std::vector<double> deltas(k, number(o, "--step-delta", 0.0));
    const double delta
        = valueOrExit(odp::theorem15Delta(stops, eps, deltas, costs, number(o, "--grid", 0.0)));
    emit(o, Json{{"theorem", "15"}, {"stops", stops}, {"costs", costs}, {"delta", delta}}, {}, out);
    return 0;
}

int recover(const std::vector<std::string> &args, std::ostream &out)
{
    const Options o = parseOrExit(args,
                                  {"--label", "--features", "--lambda", "--eps-p", "--eps-t", "--tau",
                                   "--split", "--repeat", "--dataset", "--seed"},
                                  {"--simulation"});
    if (printHelp(o, out, kRecoverUsage))
        return 0;
    const std::string label = o.value("--label").value_or("wage > 500");
    static const std::regex labelForm(R"(\s*wage\s*>\s*([0-9]+(\.[0-9]+)?)\s*)");
    std::smatch match;
    if (!std::regex_match(label, match, labelForm))
        throw Exit{1, "--label: only \"wage > NUMBER\" is supported"};
    const double labelThreshold = std::stod(match[1].str());
    const std::string features = choice(o, "--features", "full", {"full", "weak"});
    choice(o, "--split", "mod5", {"mod5"});
    odp::RecoveryParameters p;
    p.lambda = number(o, "--lambda", 0.01);
    p.epsilonModel = number(o, "--eps-p", 2.0);
    p.epsilonTest = number(o, "--eps-t", 0.5);
    p.tau = number(o, "--tau", 0.49);
    const auto repeat = integer(o, "--repeat", 1);
    if (repeat < 1 || repeat > 100000)
        throw Exit{1, "--repeat must lie in [1, 100000]"};
    auto table = resources::loadDataset(o.value("--dataset").value_or("cps1988"));
    if (!table)
        throw Exit{1, "--dataset: " + table.error().message};
    const bool simulation = o.has("--simulation");
    // Door (b) of core/data/rows.h: no session to charge, so public data only (decided from the
    // public flag, before any row is read).
    auto rows = data::publicRows(*table, "this command");
    if (!rows)
        throw Exit{1, rows.error().message + "; in a session it is the request kind 'recover'"};
    const auto split = valueOrExit(odp::cps1988Recovery(*rows, features, labelThreshold));
    const auto calibration = valueOrExit(odp::calibrateRecovery(
        p, static_cast<std::size_t>(split.train.x.rows()), static_cast<std::size_t>(split.test.x.rows())));
    const auto fit = valueOrExit(odp::fitLogistic(split.train, p.lambda, p.gradientTolerance));
    auto bits = randomSource(o);
    Json runs = Json::array();
    int released = 0;
    double costSum = 0.0;
    double totalCost = 0.0; // Σ cost rounded up at every step: an upper bound on the composed ε
    Json first;
    for (std::int64_t r = 0; r < repeat; ++r) {
        const auto run = valueOrExit(
            odp::perturbAndTest(fit, static_cast<std::size_t>(split.train.x.rows()), split.test, p, *bits));
        released += run.released;
        costSum += run.cost;
        totalCost = math::addRoundUp(totalCost, run.cost);
        Json j = {{"released", run.released}, {"noisy_error", run.noisyError}, {"cost", run.cost}};
        if (run.released)
            j["theta"] = std::vector<double>(run.theta.data(), run.theta.data() + run.theta.size());
        if (r == 0)
            first = j;
        if (repeat > 1)
            runs.push_back(j);
    }
    Json doc = first;
    doc["mechanism"] = "recover";
    doc["cells"] = {{"release", calibration.releaseCost}, {"bottom", calibration.bottomCost}};
    doc["s"] = calibration.testNoise;
    doc["q95"] = calibration.testNoise * std::log(10.0);
    doc["sensitivity"] = {{"model_l2", calibration.modelSensitivity},
                          {"train", calibration.trainSensitivity},
                          {"test", calibration.testSensitivity}};
    doc["n_train"] = split.train.x.rows();
    doc["n_test"] = split.test.x.rows();
    doc["features"] = features;
    doc["lambda"] = p.lambda;
    doc["eps_p"] = p.epsilonModel;
    doc["eps_t"] = p.epsilonTest;
    doc["tau"] = p.tau;
    if (!calibration.testCanSave)
        doc["warning"]
            = "the test cannot save budget (Hartmann et al. 2023, Corollary 18, needs eps_t < eps_p)";
    if (repeat > 1) {
        doc["runs"] = runs;
        doc["pass_rate"] = released / static_cast<double>(repeat);
        doc["mean_cost"] = costSum / static_cast<double>(repeat);
        // R independent releases on the same data compose: basic composition, the sum of the
        // realised costs, rounded up ("cost" alone is the first run's).
        doc["total_cost"] = totalCost;
    }
    if (simulation) {
        const double trueError = odp::meanAbsoluteError(fit.theta, split.test);
        doc["simulation"]
            = {{"note", "simulation mode on public data: reads the true error"},
               {"true_error", trueError},
               {"pass_probability", odp::recoveryPassProbability(trueError, p.tau, calibration.testNoise)}};
    }
    emit(o, doc, {}, out);
    return 0;
}

} // namespace pbx::cli::odpcli
