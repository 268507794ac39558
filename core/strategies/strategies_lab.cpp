// SPDX-License-Identifier: MIT
#include "core/strategies/strategies_lab.h"

#include "core/strategies/bmi_example.h"
#include "core/strategies/constrained_inference.h"
#include "core/strategies/histogram.h"
#include "core/strategies/quantiles.h"
#include "core/strategies/stability.h"
#include "core/strategies/tree_strategy.h"
#include "core/util/parameter_checks.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>

namespace pbx::strategies {

using io::json::Json;

namespace {

constexpr LabExperiment kExperiments[] = {LabExperiment::Bmi,
                                          LabExperiment::Ranges,
                                          LabExperiment::Inference,
                                          LabExperiment::Quantile,
                                          LabExperiment::SmoothSensitivity,
                                          LabExperiment::Stability};

constexpr const char *kNote = "simulation mode: true answers are read to score accuracy, never to decide";

Error configError(const std::string &message)
{
    return strategyError(kInvalidConfig, message);
}

/// Reads an optional field with nlohmann without throwing.
template<typename T>
Result<std::optional<T>> optionalField(const Json &object, const char *key)
{
    if (!object.contains(key) || object[key].is_null())
        return std::optional<T>();
    const Json &v = object[key];
    if constexpr (std::is_same_v<T, bool>) {
        if (!v.is_boolean())
            return configError(std::string(key) + ": expected true or false");
        return std::optional<T>(v.get<bool>());
    } else if constexpr (std::is_same_v<T, std::string>) {
        if (!v.is_string())
            return configError(std::string(key) + ": expected a string");
        return std::optional<T>(v.get<std::string>());
    } else {
        if (!v.is_number())
            return configError(std::string(key) + ": expected a number");
        const double d = v.get<double>();
        if (!std::isfinite(d))
            return configError(std::string(key) + ": expected a finite number");
        return std::optional<T>(static_cast<T>(d));
    }
}

Result<std::size_t> positiveInteger(const Json &v, const std::string &what, std::size_t max)
{
    if (!v.is_number_integer() && !(v.is_number() && std::floor(v.get<double>()) == v.get<double>()))
        return configError(what + ": expected an integer");
    const double d = v.get<double>();
    if (d < 0 || d > static_cast<double>(max))
        return configError(what + ": out of range");
    return static_cast<std::size_t>(d);
}

struct Domain
{
    std::vector<double> leaves; ///< counts per integer value lo…hi
    double lo = 0.0;
    double hi = 0.0;
};

Result<std::size_t> numericColumn(const data::Rows &table, const std::string &column)
{
    if (column.empty())
        return configError("column: required for this experiment");
    const auto index = table.columnIndex(column);
    if (!index)
        return makeError(ErrorCode::NotFound, "column: no column '" + column + "' in " + table.name());
    if (table.columnInfo(*index).type != data::ColumnType::Numeric)
        return strategyError(kInvalidBounds,
                             "column '" + column + "' is not numeric (an ordered domain is needed)");
    return *index;
}

Result<std::pair<double, double>> columnBounds(const data::Rows &table, std::size_t index,
                                               const LabConfig &config)
{
    if (config.bounds)
        return *config.bounds;
    const auto &declared = table.columnInfo(index).declaredBounds;
    if (!declared)
        return strategyError(kInvalidBounds,
                             "bounds: the column has no declared bounds; give \"bounds\": [lo, hi]");
    return std::pair{declared->lower, declared->upper};
}

Result<Domain> orderedDomain(const data::Rows &table, const LabConfig &config)
{
    auto index = numericColumn(table, config.column);
    if (!index)
        return index.error();
    auto bounds = columnBounds(table, *index, config);
    if (!bounds)
        return bounds.error();
    auto edges = unitEdges(bounds->first, bounds->second);
    if (!edges)
        return edges.error();
    auto counts = countHistogram(table, {config.column, *edges});
    if (!counts)
        return counts.error();
    Domain d{{}, bounds->first, bounds->second};
    for (const auto c : counts->counts)
        d.leaves.push_back(static_cast<double>(c));
    return d;
}

std::vector<double> columnValues(const data::Rows &table, std::size_t index)
{
    const auto v = table.numeric(index);
    return {v.begin(), v.end()};
}

Json strategyJson(const RangeStrategy &s)
{
    Json j = {{"kind", std::string(rangeStrategyKindName(s.kind))}};
    if (s.kind == RangeStrategyKind::Tree) {
        j["branching"] = s.branching;
        j["root"] = s.root;
        j["consistency"] = s.consistency;
    }
    return j;
}

double laplace(std::mt19937_64 &rng, double scale)
{
    std::exponential_distribution<double> e(1.0);
    return scale * (e(rng) - e(rng));
}

bool report(const LabProgress &progress, double fraction, const std::string &stage)
{
    return !progress || progress(fraction, stage);
}

// ---------------------------------------------------------------- experiments

Result<Json> runBmi(const LabConfig &config, const data::Rows *table, std::uint64_t seed)
{
    BmiCells cells = bmiSlideCells();
    Json doc;
    if (config.dataset == "slides") {
        Json rows = Json::array();
        for (const auto &row : bmiSlideRows())
            rows.push_back({{"sex", std::string(1, row.sex)},
                            {"height_inches", row.heightInches},
                            {"weight_pounds", row.weightPounds},
                            {"bmi", std::round(bodyMassIndex(row) * 100.0) / 100.0}});
        doc["rows"] = rows;
    } else {
        auto census = bmiCensusCells(*table, config.cutoff);
        if (!census)
            return census.error();
        cells = *census;
        doc["cutoff"] = config.cutoff;
        doc["cells_meaning"]
            = "(afam & wage < cutoff, afam & wage >= cutoff, cauc & < cutoff, cauc & >= cutoff)";
    }
    auto sim = simulateBmi(cells, config.epsilon, config.neighbours, config.repetitions, seed);
    if (!sim)
        return sim.error();
    doc["cells"] = Json(std::vector<double>(cells.begin(), cells.end()));
    doc["answers"] = Json(std::vector<double>(sim->answers.begin(), sim->answers.end()));
    Json methods = Json::array();
    const double binWidth = 3.0 * sim->methods[0].predicted / 30.0; // simulateBmi's bins
    for (const auto &m : sim->methods)
        methods.push_back({{"method", m.name},
                           {"laplace_scale", m.laplaceScale},
                           {"predicted", io::json::finiteOrNull(m.predicted)},
                           {"measured", {{"average", m.measured}, {"standard_error", m.standardError}}},
                           {"histogram", {{"bin_width", binWidth}, {"shares", m.histogram}}}});
    doc["results"] = methods;
    doc["violation_probability"] = sim->violationProbability;
    doc["violation_probability_exact"]
        = config.dataset == "slides"
              ? Json(0.5
                     * std::exp(-3.0 * config.epsilon
                                / (config.neighbours == data::Neighbouring::Replace ? 2.0 : 1.0)))
              : Json(nullptr);
    doc["privacy"] = {
        {"algorithm_1", "four counts, each epsilon/4 (sensitivity 1): sequential composition"},
        {"algorithm_1_calibrated", "the 4-vector's l1 sensitivity is 2 (add/remove) or 4 (replace)"},
        {"algorithm_2",
         "disjoint cells: parallel composition (replace: each cell at epsilon/2); sums are post-processing"}};
    return doc;
}

Result<Json> runRanges(const LabConfig &config, const data::Rows &table, std::uint64_t seed,
                       const LabProgress &progress)
{
    auto domain = orderedDomain(table, config);
    if (!domain)
        return domain.error();
    const std::size_t k = domain->leaves.size();
    std::vector<Range> workload;
    if (config.workload == "explicit") {
        if (auto ok = checkRanges(config.ranges, k); !ok)
            return ok.error();
        workload = config.ranges;
    } else {
        auto named = namedWorkload(config.workload, k);
        if (!named)
            return named.error();
        workload = std::move(*named);
    }
    std::vector<RangeStrategy> strategies = config.strategies;
    if (strategies.empty())
        strategies = {{RangeStrategyKind::Identity},
                      {RangeStrategyKind::Tree, 2, true, true},
                      {RangeStrategyKind::Haar},
                      {RangeStrategyKind::AllRanges}};
    std::vector<RangePrediction> predictions;
    Json results = Json::array();
    for (std::size_t s = 0; s < strategies.size(); ++s) {
        auto p = predictRangeErrors(strategies[s], k, workload, config.epsilon, config.neighbours);
        if (!p)
            return p.error();
        predictions.push_back(*p);
        Json r = strategyJson(strategies[s]);
        r["strategy"] = r["kind"];
        r.erase("kind");
        r["label"] = strategies[s].label();
        r["sensitivity_l1"] = p->sensitivityL1;
        r["padded_size"] = p->padded;
        r["predicted"]
            = {{"average", p->average}, {"max", p->max}, {"total", p->total}, {"by_length", p->byLength}};
        const bool measurable = strategies[s].kind != RangeStrategyKind::AllRanges || k <= 512;
        if (measurable) {
            const auto stage = "measuring " + strategies[s].label();
            const double base = static_cast<double>(s) / static_cast<double>(strategies.size());
            const double width = 1.0 / static_cast<double>(strategies.size());
            auto m = measureRangeErrors(strategies[s], domain->leaves, workload, config.epsilon,
                                        config.neighbours, config.post, config.repetitions, seed + 7919u * s,
                                        [&](double f) { return report(progress, base + width * f, stage); });
            if (!m)
                return m.error();
            r["measured"] = {{"average", m->average},
                             {"standard_error", m->standardError},
                             {"runs", m->runs},
                             {"by_length", m->byLength},
                             {"by_length_standard_error", m->byLengthStandardError}};
        } else {
            r["measured"] = nullptr;
        }
        results.push_back(r);
    }
    Json doc;
    doc["domain"] = {{"column", config.column},
                     {"bounds", {domain->lo, domain->hi}},
                     {"cells", k},
                     {"empty_cells", std::count(domain->leaves.begin(), domain->leaves.end(), 0.0)}};
    doc["workload_size"] = workload.size();
    doc["results"] = results;
    const auto best = recommendedStrategy(predictions);
    doc["recommended"] = {{"index", best},
                          {"label", predictions[best].strategy.label()},
                          {"why", "smallest predicted average error over the workload (data-independent)"}};
    if (config.post.round)
        doc["rounding"]
            = "rounding to integers is for display: it is not a projection and can increase the error";
    return doc;
}

Result<Json> runInference(const LabConfig &config, const data::Rows &table, std::uint64_t seed,
                          const LabProgress &progress)
{
    auto domain = orderedDomain(table, config);
    if (!domain)
        return domain.error();
    const std::size_t k = domain->leaves.size();
    const bool replace = config.neighbours == data::Neighbouring::Replace;
    std::mt19937_64 rng(seed);
    std::optional<TreeShape> tree;
    if (config.projection == "tree-consistency" || config.projection == "isotonic-prefix") {
        auto shape = TreeShape::create(k, config.branching, true);
        if (!shape)
            return shape.error();
        tree = *shape;
    }
    // The projected vector's truth.
    std::vector<double> truth;
    if (config.projection == "nonnegative")
        truth = domain->leaves;
    else if (config.projection == "tree-consistency")
        truth = treeNodeCounts(*tree, domain->leaves);
    else if (config.projection == "isotonic-sorted") {
        truth = domain->leaves;
        std::sort(truth.begin(), truth.end());
    } else { // isotonic-prefix
        truth.assign(k, 0.0);
        double running = 0.0;
        for (std::size_t i = 0; i < k; ++i)
            truth[i] = running += domain->leaves[i];
    }
    double sumBefore = 0, sumAfter = 0, sumMoved = 0;
    int worse = 0, violations = 0;
    // The decomposition of the first runs, one by one, and the first run's vectors.
    constexpr int kShownRuns = 40;
    Json firstRuns = Json::array(), example;
    double scale = 0.0;
    if (config.projection == "nonnegative")
        scale = (replace ? 2.0 : 1.0) / config.epsilon;
    else if (config.projection == "isotonic-sorted")
        scale = (replace ? 2.0 : 1.0)
                / config.epsilon; // sorted counts: ℓ1 sensitivity 1 (add/remove), 2 (replace)
    else
        scale = static_cast<double>(tree->sensitivityL1(config.neighbours)) / config.epsilon;
    for (int run = 0; run < config.repetitions; ++run) {
        if (run % 256 == 0 && !report(progress, static_cast<double>(run) / config.repetitions, "projecting"))
            return makeError(ErrorCode::Cancelled, "cancelled");
        std::vector<double> noisy, projected;
        if (config.projection == "isotonic-prefix") {
            auto nodes = treeNodeCounts(*tree, domain->leaves);
            for (auto &v : nodes)
                v += laplace(rng, scale);
            const auto fitted = hayConsistentTree(*tree, nodes);
            const std::size_t offset = tree->levelOffset(tree->height);
            noisy.assign(k, 0.0);
            double running = 0.0;
            for (std::size_t i = 0; i < k; ++i)
                noisy[i] = running += fitted[offset + i];
            projected = *isotonicRegression(noisy);
        } else {
            noisy = truth;
            for (auto &v : noisy)
                v += laplace(rng, scale);
            if (config.projection == "nonnegative")
                projected = clipNonNegative(noisy);
            else if (config.projection == "tree-consistency")
                projected = hayConsistentTree(*tree, noisy);
            else
                projected = *isotonicRegression(noisy);
        }
        const double before = squaredDistance(noisy, truth), after = squaredDistance(projected, truth);
        const double moved = squaredDistance(noisy, projected);
        sumBefore += before;
        sumAfter += after;
        sumMoved += moved;
        if (run < kShownRuns)
            firstRuns.push_back({{"before", before}, {"after", after}, {"moved", moved}});
        if (run == 0)
            example = {{"truth", truth}, {"noisy", noisy}, {"projected", projected}};
        if (after > before * (1.0 + 1e-12) + 1e-9)
            ++worse;
        if (moved > 1e-18 * (1.0 + before))
            ++violations;
    }
    const double n = config.repetitions;
    Json doc;
    doc["projection"] = config.projection;
    doc["vector_size"] = truth.size();
    doc["runs"] = config.repetitions;
    doc["sse_before"] = sumBefore / n;
    doc["sse_after"] = sumAfter / n;
    doc["mean_distance_moved"] = sumMoved / n;
    doc["runs_worse"] = worse;
    doc["runs_outside_constraints"] = violations;
    doc["first_runs"] = firstRuns;
    doc["example"] = example;
    if (tree && config.projection == "tree-consistency") {
        const double v = 2.0 * scale * scale;
        doc["predicted"]
            = {{"sse_before", v * static_cast<double>(tree->nodeCount())},
               {"sse_after", v * static_cast<double>(tree->padded)},
               {"why",
                "projection onto an affine set of dimension K: expected error drops from #nodes*v to K*v"}};
    }
    doc["guarantee"]
        = "for the projected vector in l2 and every run: |qbar - q|^2 <= |qtilde - q|^2 - |qtilde - qbar|^2; "
          "single coordinates and derived queries can get worse";
    return doc;
}

Result<Json> runQuantile(const LabConfig &config, const data::Rows &table)
{
    auto index = numericColumn(table, config.column);
    if (!index)
        return index.error();
    auto bounds = columnBounds(table, *index, config);
    if (!bounds)
        return bounds.error();
    auto values = columnValues(table, *index);
    auto d = continuousQuantileDistribution(values, config.q, config.epsilon, bounds->first, bounds->second);
    if (!d)
        return d.error();
    auto sorted = values;
    for (auto &v : sorted)
        v = std::clamp(v, bounds->first, bounds->second);
    std::sort(sorted.begin(), sorted.end());
    const auto rank
        = static_cast<std::size_t>(std::max(1.0, std::ceil(config.q * static_cast<double>(sorted.size()))));
    const double truth = sorted[rank - 1];
    Json doc;
    doc["column"] = config.column;
    doc["bounds"] = {bounds->first, bounds->second};
    doc["q"] = config.q;
    doc["rows"] = sorted.size();
    doc["true_quantile"] = truth;
    doc["continuous"] = {{"expected_absolute_error", expectedAbsoluteError(*d, truth)},
                         {"expected_rank_error", expectedRankError(*d, config.q)}};
    const bool integerBounds = bounds->first == std::floor(bounds->first)
                               && bounds->second == std::floor(bounds->second)
                               && bounds->second - bounds->first < static_cast<double>(kMaxCells);
    if (integerBounds) {
        std::vector<double> grid;
        for (double v = bounds->first; v <= bounds->second; v += 1.0)
            grid.push_back(v);
        auto g = gridQuantileDistribution(values, config.q, config.epsilon, grid);
        if (!g)
            return g.error();
        Json log10p = Json::array();
        for (const double p : g->probabilities)
            log10p.push_back(p > 0.0 ? Json(std::log10(p)) : Json(nullptr));
        doc["grid"] = {{"candidates", grid},
                       {"utilities", g->utilities},
                       {"probabilities", g->probabilities},
                       {"log10_probabilities", log10p},
                       {"rank_error_bound_95", quantileRankErrorBound(config.epsilon, grid.size(), 0.05)}};
    }
    doc["accuracy"] = "McSherry-Talwar: with probability >= 1 - beta the released candidate's rank is within "
                      "(2/epsilon) ln(|grid|/beta) rows of the best candidate's";
    return doc;
}

Result<Json> runSmoothSensitivity(const LabConfig &config, const data::Rows &table,
                                  const LabProgress &progress)
{
    auto index = numericColumn(table, config.column);
    if (!index)
        return index.error();
    auto bounds = columnBounds(table, *index, config);
    if (!bounds)
        return bounds.error();
    const auto values = columnValues(table, *index);
    report(progress, 0.1, "smooth sensitivity (Cauchy)");
    const double beta = smoothSensitivityBeta(config.epsilon, 2.0);
    auto s = medianSmoothSensitivity(values, beta, bounds->first, bounds->second);
    if (!s)
        return s.error();
    if (auto ok = checkDelta(config.delta, "delta:"); !ok)
        return configError(ok.error().message);
    report(progress, 0.5, "smooth sensitivity (Laplace, (epsilon, delta))");
    const double betaLaplace = config.epsilon / (2.0 * std::log(2.0 / config.delta));
    auto sl = medianSmoothSensitivity(values, betaLaplace, bounds->first, bounds->second);
    if (!sl)
        return sl.error();
    auto em = continuousQuantileDistribution(values, 0.5, config.epsilon, bounds->first, bounds->second);
    if (!em)
        return em.error();
    auto sorted = values;
    for (auto &v : sorted)
        v = std::clamp(v, bounds->first, bounds->second);
    std::sort(sorted.begin(), sorted.end());
    const double median = sorted[(sorted.size() + 1) / 2 - 1];
    // The curve, thinned to at most 1000 points for the chart.
    Json curve = Json::array();
    const std::size_t stride = std::max<std::size_t>(1, s->curve.size() / 1000);
    for (std::size_t k = 0; k < s->curve.size(); k += stride)
        curve.push_back({k, s->curve[k]});
    Json doc;
    doc["column"] = config.column;
    doc["bounds"] = {bounds->first, bounds->second};
    doc["median"] = median;
    doc["cauchy"] = {{"beta", beta},
                     {"smooth_sensitivity", s->value},
                     {"attained_at_k", s->argmax},
                     {"noise_scale", 6.0 * s->value / config.epsilon},
                     {"guarantee", "pure epsilon-DP: median + (6/epsilon) S* Z, Z standard Cauchy"}};
    doc["laplace"] = {{"delta", config.delta},
                      {"beta", betaLaplace},
                      {"smooth_sensitivity", sl->value},
                      {"noise_scale", 2.0 * sl->value / config.epsilon},
                      {"guarantee", "(epsilon, delta)-DP: median + (2/epsilon) S* Lap(1)"}};
    doc["curve"] = curve;
    doc["exponential_mechanism"] = {{"expected_absolute_error", expectedAbsoluteError(*em, median)}};
    doc["warning"]
        = "non-private diagnostic: the smooth sensitivity, A(k) and the local sensitivity are computed "
          "from the true data and are not private";
    return doc;
}

Json runStability(const LabConfig &config)
{
    Json rows = Json::array();
    const double rho = config.epsilon * config.epsilon / 2.0;
    struct Item
    {
        Transformation t;
        unsigned parameter;
    };
    const Item items[] = {{Transformation::RowMap, 1},
                          {Transformation::Filter, 1},
                          {Transformation::FlatMap, 3},
                          {Transformation::GroupBy, 1},
                          {Transformation::Truncate, 2},
                          {Transformation::SelfJoin, 1},
                          {Transformation::SelfJoinTruncated, 2},
                          {Transformation::SelfJoinTruncated, 3},
                          {Transformation::SelfJoinTruncated, 4}};
    for (const auto &item : items) {
        const auto s = *transformationStability(item.t, item.parameter);
        Json row
            = {{"transformation", std::string(transformationName(item.t))}, {"parameter", item.parameter}};
        if (s) {
            row["stability"] = *s;
            row["epsilon"] = stableEpsilon(*s, config.epsilon);
            row["rho"] = stableRho(*s, rho);
        } else {
            row["stability"] = nullptr;
            row["note"] = "unbounded: a row joins every row of its key group; truncate first";
        }
        rows.push_back(row);
    }
    Json sampling = Json::array();
    for (const double p : {0.01, 0.1, 0.5}) {
        const double e = *subsampledEpsilon(p, config.epsilon);
        const auto shortcut = subsamplingShortcut(p, config.epsilon);
        sampling.push_back({{"rate", p},
                            {"epsilon", e},
                            {"shortcut_2p_epsilon", shortcut ? Json(*shortcut) : Json(nullptr)}});
    }
    Json doc;
    doc["base"] = {{"epsilon", config.epsilon}, {"rho", rho}};
    doc["transformations"] = rows;
    doc["poisson_subsampling"] = sampling;
    return doc;
}

} // namespace

std::string_view labExperimentName(LabExperiment e)
{
    switch (e) {
    case LabExperiment::Bmi:
        return "bmi";
    case LabExperiment::Ranges:
        return "ranges";
    case LabExperiment::Inference:
        return "inference";
    case LabExperiment::Quantile:
        return "quantile";
    case LabExperiment::SmoothSensitivity:
        return "smooth-sensitivity";
    case LabExperiment::Stability:
        return "stability";
    }
    return "ranges";
}

Result<LabConfig> parseLabConfig(const Json &doc)
{
    if (!doc.is_object())
        return configError("the configuration must be a JSON object");
    if (!doc.contains("format") || doc["format"] != "pbx-strategies-lab")
        return configError("format: expected \"pbx-strategies-lab\"");
    if (!doc.contains("version") || doc["version"] != 1)
        return configError("version: expected 1");
    LabConfig c;
    auto experiment = optionalField<std::string>(doc, "experiment");
    if (!experiment)
        return experiment.error();
    if (!*experiment)
        return configError(
            "experiment: required (bmi, ranges, inference, quantile, smooth-sensitivity or stability)");
    bool known = false;
    for (const auto e : kExperiments)
        if (labExperimentName(e) == **experiment) {
            c.experiment = e;
            known = true;
        }
    if (!known)
        return configError("experiment: unknown '" + **experiment + "'");
    if (c.experiment == LabExperiment::Bmi)
        c.dataset = "slides";
    if (auto v = optionalField<std::string>(doc, "dataset"); !v)
        return v.error();
    else if (*v)
        c.dataset = **v;
    if (auto v = optionalField<std::string>(doc, "column"); !v)
        return v.error();
    else if (*v)
        c.column = **v;
    if (c.column.empty())
        c.column = c.experiment == LabExperiment::Quantile || c.experiment == LabExperiment::SmoothSensitivity
                       ? "wage"
                       : "experience";
    if (doc.contains("bounds") && !doc["bounds"].is_null()) {
        const auto &b = doc["bounds"];
        if (!b.is_array() || b.size() != 2 || !b[0].is_number() || !b[1].is_number())
            return strategyError(kInvalidBounds, "bounds: expected [lo, hi]");
        const double lo = b[0].get<double>(), hi = b[1].get<double>();
        if (!std::isfinite(lo) || !std::isfinite(hi) || !(lo < hi))
            return strategyError(kInvalidBounds, "bounds: need finite lo < hi");
        if ((c.experiment == LabExperiment::Ranges || c.experiment == LabExperiment::Inference)
            && (lo != std::floor(lo) || hi != std::floor(hi)))
            return strategyError(kInvalidBounds, "bounds: an ordinal domain needs integer bounds");
        if (hi - lo + 1.0 > static_cast<double>(kMaxCells)
            && (c.experiment == LabExperiment::Ranges || c.experiment == LabExperiment::Inference))
            return strategyError(kInvalidBounds, "bounds: the domain has more than 65,536 values");
        c.bounds = std::pair{lo, hi};
    }
    if (auto v = optionalField<std::string>(doc, "neighbours"); !v)
        return v.error();
    else if (*v) {
        auto n = data::parseNeighbouring(**v);
        if (!n)
            return configError("neighbours: expected add-remove or replace");
        c.neighbours = *n;
    }
    if (doc.contains("epsilon")) {
        const auto &e = doc["epsilon"];
        if (!e.is_number() || !(e.get<double>() > 0.0) || !std::isfinite(e.get<double>()))
            return strategyError(kInvalidEpsilon, "epsilon: must be a finite number > 0");
        c.epsilon = e.get<double>();
    }
    if (doc.contains("q")) {
        const auto &q = doc["q"];
        if (!q.is_number())
            return strategyError(kInvalidQuantile, "q: must be a number in (0, 1)");
        c.q = q.get<double>();
        if (auto ok = checkQuantile(c.q); !ok)
            return ok.error();
    }
    if (doc.contains("repetitions")) {
        auto r = positiveInteger(doc["repetitions"], "repetitions", 10'000'000);
        if (!r)
            return r.error();
        if (*r < 2)
            return configError("repetitions: at least 2");
        c.repetitions = static_cast<int>(*r);
    }
    if (doc.contains("strategies")) {
        const auto &list = doc["strategies"];
        if (!list.is_array())
            return configError("strategies: expected an array");
        for (std::size_t i = 0; i < list.size(); ++i) {
            const auto &s = list[i];
            const std::string path = "strategies[" + std::to_string(i) + "]";
            if (!s.is_object() || !s.contains("kind") || !s["kind"].is_string())
                return configError(path + ".kind: required");
            auto kind = parseRangeStrategyKind(s["kind"].get<std::string>());
            if (!kind)
                return kind.error();
            RangeStrategy st{*kind};
            if (s.contains("branching")) {
                if (!s["branching"].is_number_integer() || s["branching"].get<long long>() < 2)
                    return strategyError(kInvalidBranching, path + ".branching: an integer >= 2");
                st.branching = static_cast<std::size_t>(s["branching"].get<long long>());
            }
            auto root = io::json::optionalBool(s, "root", path, true);
            auto consistency = io::json::optionalBool(s, "consistency", path, true);
            if (!root || !consistency)
                return configError(path + ": root and consistency are true or false");
            st.root = *root;
            st.consistency = *consistency;
            c.strategies.push_back(st);
        }
    }
    if (doc.contains("post") && !doc["post"].is_null()) {
        const auto &p = doc["post"];
        if (!p.is_object())
            return configError("post: expected an object");
        auto clip = io::json::optionalBool(p, "clip_nonnegative", "post");
        auto round = io::json::optionalBool(p, "round", "post");
        auto iso = io::json::optionalBool(p, "isotonic_prefix", "post");
        if (!clip || !round || !iso)
            return configError("post: clip_nonnegative, round and isotonic_prefix are true or false");
        c.post = {*clip, *round, *iso};
    }
    if (auto v = optionalField<std::string>(doc, "workload"); !v)
        return v.error();
    else if (*v)
        c.workload = **v;
    if (c.workload == "explicit") {
        if (!doc.contains("ranges") || !doc["ranges"].is_array())
            return configError("ranges: required for the explicit workload, as [[i, j], ...]");
        for (std::size_t i = 0; i < doc["ranges"].size(); ++i) {
            const auto &r = doc["ranges"][i];
            if (!r.is_array() || r.size() != 2)
                return configError("ranges[" + std::to_string(i) + "]: expected [first, last]");
            auto a = positiveInteger(r[0], "ranges[" + std::to_string(i) + "][0]", kMaxDomain);
            auto b = positiveInteger(r[1], "ranges[" + std::to_string(i) + "][1]", kMaxDomain);
            if (!a)
                return a.error();
            if (!b)
                return b.error();
            c.ranges.push_back({*a, *b});
        }
    }
    if (auto v = optionalField<std::string>(doc, "projection"); !v)
        return v.error();
    else if (*v)
        c.projection = **v;
    if (c.projection == "integers" || c.projection == "round")
        return strategyError(kNotConvex, "projection: the integers are not a convex set; rounding is not a "
                                         "projection and can increase the error (round only for display)");
    if (c.projection != "tree-consistency" && c.projection != "nonnegative"
        && c.projection != "isotonic-sorted" && c.projection != "isotonic-prefix")
        return configError(
            "projection: expected tree-consistency, nonnegative, isotonic-sorted or isotonic-prefix");
    if (doc.contains("branching")) {
        if (!doc["branching"].is_number_integer() || doc["branching"].get<long long>() < 2)
            return strategyError(kInvalidBranching, "branching: an integer >= 2");
        c.branching = static_cast<std::size_t>(doc["branching"].get<long long>());
    }
    if (auto v = optionalField<double>(doc, "cutoff"); !v)
        return v.error();
    else if (*v)
        c.cutoff = **v;
    if (auto v = optionalField<double>(doc, "delta"); !v)
        return v.error();
    else if (*v)
        c.delta = **v;
    if (auto v = optionalField<std::string>(doc, "parallel_rule"); !v)
        return v.error();
    else if (*v) {
        if (**v == "max" && c.neighbours == data::Neighbouring::Replace)
            return strategyError(kNeighboursMismatch,
                                 "parallel_rule: the max rule of parallel composition holds under "
                                 "add/remove only; under replace a changed row can move between "
                                 "two parts (use \"doubled\")");
        if (**v != "max" && **v != "doubled")
            return configError("parallel_rule: expected max or doubled");
    }
    return c;
}

Json labSettingsJson(const LabConfig &c, std::uint64_t seed)
{
    Json s;
    s["experiment"] = std::string(labExperimentName(c.experiment));
    if (labNeedsTable(c) || c.experiment == LabExperiment::Bmi)
        s["dataset"] = c.dataset;
    if (c.experiment != LabExperiment::Bmi && c.experiment != LabExperiment::Stability) {
        s["column"] = c.column;
        s["bounds"] = c.bounds ? Json{c.bounds->first, c.bounds->second} : Json("declared");
    }
    s["neighbours"] = std::string(data::neighbouringName(c.neighbours));
    s["epsilon"] = c.epsilon;
    if (c.experiment == LabExperiment::Ranges) {
        Json list = Json::array();
        for (const auto &st : c.strategies)
            list.push_back(strategyJson(st));
        s["strategies"] = list;
        s["post"] = {{"clip_nonnegative", c.post.clipNonNegative},
                     {"round", c.post.round},
                     {"isotonic_prefix", c.post.isotonicPrefix}};
        s["workload"] = c.workload;
    }
    if (c.experiment == LabExperiment::Inference) {
        s["projection"] = c.projection;
        s["branching"] = c.branching;
    }
    if (c.experiment == LabExperiment::Quantile)
        s["q"] = c.q;
    if (c.experiment == LabExperiment::SmoothSensitivity)
        s["delta"] = c.delta;
    if (c.experiment == LabExperiment::Bmi && c.dataset != "slides")
        s["cutoff"] = c.cutoff;
    s["repetitions"] = c.repetitions;
    s["seed"] = seed;
    return s;
}

bool labNeedsTable(const LabConfig &config)
{
    if (config.experiment == LabExperiment::Stability)
        return false;
    return !(config.experiment == LabExperiment::Bmi && config.dataset == "slides");
}

Result<Json> runStrategiesLab(const LabConfig &config, const data::Table *table, std::uint64_t seed,
                              const LabProgress &progress)
{
    if (labNeedsTable(config)) {
        if (!table)
            return configError("dataset: this experiment reads a table");
        if (!table->isPublic())
            return makeError(
                ErrorCode::Unsupported,
                "the strategies lab reads true answers to score accuracy, so it runs only on public data "
                "(an embedded dataset or a CSV whose metadata says \"public\": true); '"
                    + table->name() + "' is not declared public");
    }
    // Door (b) of core/data/rows.h: the rows of a public table, or none (no experiment reads them).
    std::optional<data::Rows> rows;
    if (table && table->isPublic())
        rows = *data::publicRows(*table, "the strategies lab");
    Json doc;
    doc["format"] = "pbx-simulation";
    doc["version"] = 1;
    doc["simulation"] = "strategies-" + std::string(labExperimentName(config.experiment));
    doc["settings"] = labSettingsJson(config, seed);
    Result<Json> body = Json::object();
    switch (config.experiment) {
    case LabExperiment::Bmi:
        body = runBmi(config, rows ? &*rows : nullptr, seed);
        break;
    case LabExperiment::Ranges:
        body = runRanges(config, *rows, seed, progress);
        break;
    case LabExperiment::Inference:
        body = runInference(config, *rows, seed, progress);
        break;
    case LabExperiment::Quantile:
        body = runQuantile(config, *rows);
        break;
    case LabExperiment::SmoothSensitivity:
        body = runSmoothSensitivity(config, *rows, progress);
        break;
    case LabExperiment::Stability:
        body = runStability(config);
        break;
    }
    if (!body)
        return body.error();
    for (auto it = body->begin(); it != body->end(); ++it)
        doc[it.key()] = it.value();
    doc["note"] = kNote;
    report(progress, 1.0, "done");
    return doc;
}

} // namespace pbx::strategies
