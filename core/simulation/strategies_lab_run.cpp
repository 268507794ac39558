// SPDX-License-Identifier: MIT
#include "core/simulation/strategies_lab_run.h"

#include "core/io/strategies_lab_json.h"
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

constexpr const char *kNote = "simulation mode: true answers are read to score accuracy, never to decide";

struct Domain
{
    std::vector<double> leaves; ///< counts per integer value lo…hi
    double lo = 0.0;
    double hi = 0.0;
};

Result<std::size_t> numericColumn(const data::Rows &table, const std::string &column)
{
    if (column.empty())
        return labConfigError("column: required for this experiment");
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
        return labConfigError(ok.error().message);
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

Result<Json> runStrategiesLab(const LabConfig &config, const data::Table *table, std::uint64_t seed,
                              const LabProgress &progress)
{
    if (labNeedsTable(config)) {
        if (!table)
            return labConfigError("dataset: this experiment reads a table");
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
