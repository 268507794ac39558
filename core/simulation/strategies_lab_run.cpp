// SPDX-License-Identifier: MIT
#include "core/simulation/strategies_lab_run.h"

#include "core/strategies/bmi_example.h"
#include "core/strategies/constrained_inference.h"
#include "core/strategies/histogram.h"
#include "core/strategies/quantiles.h"
#include "core/strategies/selection.h"
#include "core/strategies/stability.h"
#include "core/strategies/tree_strategy.h"
#include "core/util/parameter_checks.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>

namespace pbx::strategies {

namespace {

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
    PBX_TRY(index, numericColumn(table, config.column));
    PBX_TRY(bounds, columnBounds(table, index, config));
    PBX_TRY(edges, unitEdges(bounds.first, bounds.second));
    PBX_TRY(counts, countHistogram(table, {config.column, edges}));
    Domain d{{}, bounds.first, bounds.second};
    for (const auto c : counts.counts)
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

Result<BmiLabResult> runBmi(const LabConfig &config, const data::Rows *table, std::uint64_t seed)
{
    BmiCells cells = bmiSlideCells();
    BmiLabResult out;
    if (config.dataset == "slides") {
        out.rows = bmiSlideRows();
        for (const auto &row : out.rows)
            out.rowBmi.push_back(std::round(bodyMassIndex(row) * 100.0) / 100.0);
    } else {
        PBX_TRY(census, bmiCensusCells(*table, config.cutoff));
        cells = census;
        out.cutoff = config.cutoff;
    }
    PBX_TRY(sim, simulateBmi(cells, config.epsilon, config.neighbours, config.repetitions, seed));
    out.cells = cells;
    out.answers = sim.answers;
    out.binWidth = 3.0 * sim.methods[0].predicted / 30.0; // simulateBmi's bins
    out.methods = std::move(sim.methods);
    out.violationProbability = sim.violationProbability;
    if (config.dataset == "slides")
        out.violationProbabilityExact
            = 0.5
              * std::exp(-3.0 * config.epsilon
                         / (config.neighbours == data::Neighbouring::Replace ? 2.0 : 1.0));
    return out;
}

/// The ranges experiment's workload: the explicit ranges or a named workload over k cells.
Result<std::vector<Range>> rangesWorkload(const LabConfig &config, std::size_t k)
{
    if (config.workload == "explicit") {
        PBX_RETURN_IF_ERROR(checkRanges(config.ranges, k));
        return config.ranges;
    }
    return namedWorkload(config.workload, k);
}

Result<RangesLabResult> runRanges(const LabConfig &config, const data::Rows &table, std::uint64_t seed,
                                  const LabProgress &progress)
{
    PBX_TRY(domain, orderedDomain(table, config));
    const std::size_t k = domain.leaves.size();
    PBX_TRY(workload, rangesWorkload(config, k));
    std::vector<RangeStrategy> strategies = config.strategies;
    if (strategies.empty())
        strategies = {{RangeStrategyKind::Identity},
                      {RangeStrategyKind::Tree, 2, true, true},
                      {RangeStrategyKind::Haar},
                      {RangeStrategyKind::AllRanges}};
    RangesLabResult out;
    std::vector<RangePrediction> predictions;
    for (std::size_t s = 0; s < strategies.size(); ++s) {
        PBX_TRY(p, predictRangeErrors(strategies[s], k, workload, config.epsilon, config.neighbours));
        predictions.push_back(p);
        RangeStrategyResult r{strategies[s], p, std::nullopt};
        const bool measurable = strategies[s].kind != RangeStrategyKind::AllRanges || k <= 512;
        if (measurable) {
            const auto stage = "measuring " + strategies[s].label();
            const double base = static_cast<double>(s) / static_cast<double>(strategies.size());
            const double width = 1.0 / static_cast<double>(strategies.size());
            PBX_TRY(m,
                    measureRangeErrors(strategies[s], domain.leaves, workload, config.epsilon,
                                       config.neighbours, config.post, config.repetitions, seed + 7919u * s,
                                       [&](double f) { return report(progress, base + width * f, stage); }));
            r.measured = std::move(m);
        }
        out.results.push_back(std::move(r));
    }
    out.column = config.column;
    out.lo = domain.lo;
    out.hi = domain.hi;
    out.cells = k;
    out.emptyCells = static_cast<std::size_t>(std::count(domain.leaves.begin(), domain.leaves.end(), 0.0));
    out.workloadSize = workload.size();
    out.recommended = recommendedStrategy(predictions);
    return out;
}

/// The vector a projection is scored against: the leaves (non-negativity), the tree's node counts,
/// the sorted leaves, or their prefix sums.
std::vector<double> projectedTruth(const std::string &projection, const std::optional<TreeShape> &tree,
                                   const std::vector<double> &leaves)
{
    std::vector<double> truth;
    if (projection == "nonnegative")
        truth = leaves;
    else if (projection == "tree-consistency")
        truth = treeNodeCounts(*tree, leaves);
    else if (projection == "isotonic-sorted") {
        truth = leaves;
        std::sort(truth.begin(), truth.end());
    } else { // isotonic-prefix
        truth.assign(leaves.size(), 0.0);
        double running = 0.0;
        for (std::size_t i = 0; i < leaves.size(); ++i)
            truth[i] = running += leaves[i];
    }
    return truth;
}

Result<InferenceLabResult> runInference(const LabConfig &config, const data::Rows &table, std::uint64_t seed,
                                        const LabProgress &progress)
{
    PBX_TRY(domain, orderedDomain(table, config));
    const std::size_t k = domain.leaves.size();
    const bool replace = config.neighbours == data::Neighbouring::Replace;
    std::mt19937_64 rng(seed);
    std::optional<TreeShape> tree;
    if (config.projection == "tree-consistency" || config.projection == "isotonic-prefix") {
        PBX_TRY(shape, TreeShape::create(k, config.branching, true));
        tree = shape;
    }
    const std::vector<double> truth = projectedTruth(config.projection, tree, domain.leaves);
    double sumBefore = 0, sumAfter = 0, sumMoved = 0;
    int worse = 0, violations = 0;
    // The decomposition of the first runs, one by one, and the first run's vectors.
    constexpr int kShownRuns = 40;
    InferenceLabResult out;
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
            auto nodes = treeNodeCounts(*tree, domain.leaves);
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
            out.firstRuns.push_back({before, after, moved});
        if (run == 0)
            out.example = InferenceExample{truth, noisy, projected};
        if (after > before * (1.0 + 1e-12) + 1e-9)
            ++worse;
        if (moved > 1e-18 * (1.0 + before))
            ++violations;
    }
    const double n = config.repetitions;
    out.projection = config.projection;
    out.vectorSize = truth.size();
    out.runs = config.repetitions;
    out.sseBefore = sumBefore / n;
    out.sseAfter = sumAfter / n;
    out.meanDistanceMoved = sumMoved / n;
    out.runsWorse = worse;
    out.runsOutsideConstraints = violations;
    if (tree && config.projection == "tree-consistency") {
        const double v = 2.0 * scale * scale;
        out.predicted
            = std::pair{v * static_cast<double>(tree->nodeCount()), v * static_cast<double>(tree->padded)};
    }
    return out;
}

Result<QuantileLabResult> runQuantile(const LabConfig &config, const data::Rows &table)
{
    PBX_TRY(index, numericColumn(table, config.column));
    PBX_TRY(bounds, columnBounds(table, index, config));
    auto values = columnValues(table, index);
    PBX_TRY(d, continuousQuantileDistribution(values, config.q, config.epsilon, bounds.first, bounds.second));
    auto sorted = values;
    for (auto &v : sorted)
        v = std::clamp(v, bounds.first, bounds.second);
    std::sort(sorted.begin(), sorted.end());
    const auto rank
        = static_cast<std::size_t>(std::max(1.0, std::ceil(config.q * static_cast<double>(sorted.size()))));
    const double truth = sorted[rank - 1];
    QuantileLabResult out;
    out.column = config.column;
    out.lo = bounds.first;
    out.hi = bounds.second;
    out.q = config.q;
    out.rows = sorted.size();
    out.trueQuantile = truth;
    out.expectedAbsoluteError = expectedAbsoluteError(d, truth);
    out.expectedRankError = expectedRankError(d, config.q);
    const bool integerBounds = bounds.first == std::floor(bounds.first)
                               && bounds.second == std::floor(bounds.second)
                               && bounds.second - bounds.first < static_cast<double>(kMaxCells);
    if (integerBounds) {
        QuantileGrid grid;
        for (double v = bounds.first; v <= bounds.second; v += 1.0)
            grid.candidates.push_back(v);
        PBX_TRY(g, gridQuantileDistribution(values, config.q, config.epsilon, grid.candidates));
        grid.utilities = g.utilities;
        grid.probabilities = g.probabilities;
        for (const double p : g.probabilities)
            grid.log10Probabilities.push_back(p > 0.0 ? std::optional(std::log10(p)) : std::nullopt);
        grid.rankErrorBound95 = quantileRankErrorBound(config.epsilon, grid.candidates.size(), 0.05);
        out.grid = std::move(grid);
    }
    return out;
}

Result<SmoothSensitivityLabResult> runSmoothSensitivity(const LabConfig &config, const data::Rows &table,
                                                        const LabProgress &progress)
{
    PBX_TRY(index, numericColumn(table, config.column));
    PBX_TRY(bounds, columnBounds(table, index, config));
    const auto values = columnValues(table, index);
    report(progress, 0.1, "smooth sensitivity (Cauchy)");
    const double beta = smoothSensitivityBeta(config.epsilon, 2.0);
    PBX_TRY(s, medianSmoothSensitivity(values, beta, bounds.first, bounds.second));
    if (auto ok = checkDelta(config.delta, "delta:"); !ok)
        return labConfigError(ok.error().message);
    report(progress, 0.5, "smooth sensitivity (Laplace, (epsilon, delta))");
    const double betaLaplace = config.epsilon / (2.0 * std::log(2.0 / config.delta));
    PBX_TRY(sl, medianSmoothSensitivity(values, betaLaplace, bounds.first, bounds.second));
    PBX_TRY(em, continuousQuantileDistribution(values, 0.5, config.epsilon, bounds.first, bounds.second));
    auto sorted = values;
    for (auto &v : sorted)
        v = std::clamp(v, bounds.first, bounds.second);
    std::sort(sorted.begin(), sorted.end());
    const double median = sorted[(sorted.size() + 1) / 2 - 1];
    SmoothSensitivityLabResult out;
    // The curve, thinned to at most 1000 points for the chart.
    const std::size_t stride = std::max<std::size_t>(1, s.curve.size() / 1000);
    for (std::size_t k = 0; k < s.curve.size(); k += stride)
        out.curve.emplace_back(k, s.curve[k]);
    out.column = config.column;
    out.lo = bounds.first;
    out.hi = bounds.second;
    out.median = median;
    out.cauchy = {beta, s.value, s.argmax, 6.0 * s.value / config.epsilon};
    out.delta = config.delta;
    out.laplace = {betaLaplace, sl.value, sl.argmax, 2.0 * sl.value / config.epsilon};
    out.exponentialMechanismError = expectedAbsoluteError(em, median);
    return out;
}

StabilityLabResult runStability(const LabConfig &config)
{
    StabilityLabResult out;
    out.epsilon = config.epsilon;
    out.rho = config.epsilon * config.epsilon / 2.0;
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
        StabilityRow row{item.t, item.parameter, s, 0.0, 0.0};
        if (s) {
            row.epsilon = stableEpsilon(*s, config.epsilon);
            row.rho = stableRho(*s, out.rho);
        }
        out.transformations.push_back(row);
    }
    for (const double p : {0.01, 0.1, 0.5})
        out.subsampling.push_back(
            {p, *subsampledEpsilon(p, config.epsilon), subsamplingShortcut(p, config.epsilon)});
    return out;
}

/// The exact selection probabilities of both mechanisms on a public categorical column's true
/// counts, with what each pick costs and the count-gap bound (docs/selection.md).
Result<SelectionLabResult> runSelection(const LabConfig &config, const data::Rows &table)
{
    const auto index = table.columnIndex(config.column);
    if (!index)
        return makeError(ErrorCode::NotFound, "column: no column '" + config.column + "' in " + table.name());
    const auto &info = table.columnInfo(*index);
    if (info.type != data::ColumnType::Categorical || info.domainFromData || info.categories.size() < 2)
        return labConfigError("column: '" + config.column
                              + "' is not a categorical column with at least two declared categories");
    PBX_TRY(counts, countHistogram(table, {config.column, {}}));
    SelectionLabResult out;
    out.column = config.column;
    out.labels = counts.labels;
    out.counts.assign(counts.counts.begin(), counts.counts.end());
    const std::int64_t best = *std::max_element(out.counts.begin(), out.counts.end());
    for (const auto m : {SelectionMechanism::Exponential, SelectionMechanism::ReportNoisyMax}) {
        SelectionMechanismRow row;
        row.mechanism = m;
        row.eta = selectionEta(config.epsilon, config.neighbours);
        PBX_TRY(p, selectionProbabilities(m, out.counts, row.eta));
        row.probabilities = std::move(p);
        const double e2 = config.epsilon * config.epsilon;
        row.zcdpRho = m == SelectionMechanism::Exponential ? e2 / 8.0 : e2 / 2.0;
        row.gapBound95 = selectionGapBound(m, row.eta, 0.05, out.counts.size(), 1);
        for (std::size_t j = 0; j < out.counts.size(); ++j)
            row.expectedGap += row.probabilities[j] * static_cast<double>(best - out.counts[j]);
        out.mechanisms.push_back(std::move(row));
    }
    return out;
}

template<typename Body>
Result<void> store(Result<Body> body, StrategiesLabResult &out)
{
    if (!body)
        return body.error();
    out.body = std::move(*body);
    return {};
}

} // namespace

Result<StrategiesLabResult> runStrategiesLab(const LabConfig &config, const data::Table *table,
                                             std::uint64_t seed, const LabProgress &progress)
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
    StrategiesLabResult out{config, seed, {}};
    Result<void> ok;
    switch (config.experiment) {
    case LabExperiment::Bmi:
        ok = store(runBmi(config, rows ? &*rows : nullptr, seed), out);
        break;
    case LabExperiment::Ranges:
        ok = store(runRanges(config, *rows, seed, progress), out);
        break;
    case LabExperiment::Inference:
        ok = store(runInference(config, *rows, seed, progress), out);
        break;
    case LabExperiment::Quantile:
        ok = store(runQuantile(config, *rows), out);
        break;
    case LabExperiment::SmoothSensitivity:
        ok = store(runSmoothSensitivity(config, *rows, progress), out);
        break;
    case LabExperiment::Stability:
        out.body = runStability(config);
        break;
    case LabExperiment::Selection:
        ok = store(runSelection(config, *rows), out);
        break;
    }
    if (!ok)
        return ok.error();
    report(progress, 1.0, "done");
    return out;
}

} // namespace pbx::strategies
