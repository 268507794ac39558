// SPDX-License-Identifier: MIT
#include "core/strategies/range_simulation.h"

#include "core/strategies/constrained_inference.h"
#include "core/strategies/haar_strategy.h"
#include "core/strategies/tree_strategy.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>

namespace pbx::strategies {

namespace {

double laplace(std::mt19937_64 &rng, double scale)
{
    std::exponential_distribution<double> e(1.0);
    return scale * (e(rng) - e(rng));
}

/// Squared errors of the workload's answers from a leaf estimate (length ≥ k).
/// Adds each range's squared error to `lengthSse[L − 1]` as well.
double workloadSse(const std::vector<double> &estimate, const std::vector<double> &truth,
                   const std::vector<Range> &workload, const RangePostProcessing &post,
                   std::vector<double> &lengthSse)
{
    const std::size_t k = truth.size();
    std::vector<double> est(estimate.begin(), estimate.begin() + static_cast<std::ptrdiff_t>(k));
    if (post.clipNonNegative)
        est = clipNonNegative(est);
    if (post.round)
        for (auto &v : est)
            v = std::round(v);
    std::vector<double> prefix(k + 1, 0.0), truePrefix(k + 1, 0.0);
    for (std::size_t i = 0; i < k; ++i) {
        prefix[i + 1] = prefix[i] + est[i];
        truePrefix[i + 1] = truePrefix[i] + truth[i];
    }
    if (post.isotonicPrefix) {
        std::vector<double> p(prefix.begin() + 1, prefix.end());
        auto fitted = isotonicRegression(p);
        std::copy(fitted->begin(), fitted->end(), prefix.begin() + 1);
    }
    double sse = 0.0;
    for (const auto &r : workload) {
        const double d
            = (prefix[r.last + 1] - prefix[r.first]) - (truePrefix[r.last + 1] - truePrefix[r.first]);
        sse += d * d;
        lengthSse[r.last - r.first] += d * d;
    }
    return sse;
}

/// What one strategy needs on every run, computed once: the true values it measures and the
/// noise scale(s) that give ε-DP under `neighbours`.
struct RunSetup
{
    std::optional<TreeShape> tree;
    std::optional<HaarShape> haar;
    std::vector<double> trueNodes, trueCoefficients, haarNoiseScale;
    std::vector<std::vector<std::size_t>> canonical; ///< per range: its tree's canonical nodes
    double scale = 0.0;                              ///< Laplace b (identity, all ranges, tree)
};

Result<RunSetup> prepareRuns(const RangeStrategy &strategy, const std::vector<double> &leaves,
                             const std::vector<Range> &workload, double epsilon,
                             data::Neighbouring neighbours)
{
    const std::size_t k = leaves.size();
    RunSetup setup;
    switch (strategy.kind) {
    case RangeStrategyKind::Identity:
        setup.scale = (neighbours == data::Neighbouring::AddRemove ? 1.0 : 2.0) / epsilon;
        break;
    case RangeStrategyKind::AllRanges:
        setup.scale = static_cast<double>(allRangesSensitivityL1(k, neighbours)) / epsilon;
        break;
    case RangeStrategyKind::Tree: {
        PBX_TRY(shape, TreeShape::create(k, strategy.branching, strategy.root));
        if (strategy.consistency && !strategy.root && shape.padded > kMaxDenseDomain)
            return strategyError(kDomainTooLarge, "least squares without the root needs K <= 4096");
        setup.tree = shape;
        setup.trueNodes = treeNodeCounts(shape, leaves);
        setup.scale = static_cast<double>(shape.sensitivityL1(neighbours)) / epsilon;
        if (!strategy.consistency)
            for (const auto &r : workload)
                setup.canonical.push_back(canonicalNodes(shape, r));
        break;
    }
    case RangeStrategyKind::Haar: {
        PBX_TRY(shape, HaarShape::create(k));
        setup.haar = shape;
        setup.trueCoefficients = haarForward(shape, leaves);
        const double delta = static_cast<double>(shape.sensitivityL1(neighbours));
        for (const double w : haarWeights(shape))
            setup.haarNoiseScale.push_back(delta / (epsilon * w));
        break;
    }
    }
    return setup;
}

/// One run of the tree strategy: noisy node counts, then consistency or canonical sums.
Result<double> treeRunSse(const RangeStrategy &strategy, const RunSetup &setup,
                          const std::vector<double> &leaves, const std::vector<Range> &workload,
                          const RangePostProcessing &post, std::mt19937_64 &rng,
                          std::vector<double> &lengthSse)
{
    std::vector<double> noisy(setup.trueNodes);
    const std::size_t first = strategy.root ? 0 : 1;
    for (std::size_t i = first; i < noisy.size(); ++i)
        noisy[i] += laplace(rng, setup.scale);
    if (strategy.consistency) {
        std::vector<double> est;
        if (strategy.root) {
            const auto fitted = hayConsistentTree(*setup.tree, noisy);
            const std::size_t offset = setup.tree->levelOffset(setup.tree->height);
            est.assign(fitted.begin() + static_cast<std::ptrdiff_t>(offset), fitted.end());
        } else {
            PBX_TRY(fitted, leastSquaresLeaves(*setup.tree, noisy));
            est.assign(fitted.data(), fitted.data() + fitted.size());
        }
        return workloadSse(est, leaves, workload, post, lengthSse);
    }
    if (post.clipNonNegative)
        noisy = clipNonNegative(noisy);
    if (post.round)
        for (auto &v : noisy)
            v = std::round(v);
    double sse = 0.0;
    for (std::size_t r = 0; r < workload.size(); ++r) {
        double d = 0.0;
        for (const auto node : setup.canonical[r])
            d += noisy[node] - setup.trueNodes[node];
        sse += d * d;
        lengthSse[workload[r].last - workload[r].first] += d * d;
    }
    return sse;
}

/// One run of any strategy: the workload's summed squared error, and per length in `lengthSse`.
Result<double> runSse(const RangeStrategy &strategy, const RunSetup &setup, const std::vector<double> &leaves,
                      const std::vector<Range> &workload, const RangePostProcessing &post,
                      std::mt19937_64 &rng, std::vector<double> &lengthSse)
{
    switch (strategy.kind) {
    case RangeStrategyKind::Identity: {
        std::vector<double> est(leaves);
        for (auto &v : est)
            v += laplace(rng, setup.scale);
        return workloadSse(est, leaves, workload, post, lengthSse);
    }
    case RangeStrategyKind::AllRanges: {
        // Each range is measured directly with independent noise; post-processing does not apply.
        double sse = 0.0;
        for (std::size_t r = 0; r < workload.size(); ++r) {
            const double d = laplace(rng, setup.scale);
            sse += d * d;
            lengthSse[workload[r].last - workload[r].first] += d * d;
        }
        return sse;
    }
    case RangeStrategyKind::Tree:
        return treeRunSse(strategy, setup, leaves, workload, post, rng, lengthSse);
    case RangeStrategyKind::Haar: {
        std::vector<double> noisy(setup.trueCoefficients);
        for (std::size_t i = 0; i < noisy.size(); ++i)
            noisy[i] += laplace(rng, setup.haarNoiseScale[i]);
        return workloadSse(haarInverse(*setup.haar, noisy), leaves, workload, post, lengthSse);
    }
    }
    return 0.0;
}

/// Running sums of a per-run average, and its mean and standard error at the end.
struct RunningMean
{
    double sum = 0.0, sumSq = 0.0;
    void add(double x)
    {
        sum += x;
        sumSq += x * x;
    }
    double mean(int runs) const { return sum / runs; }
    double standardError(int runs) const
    {
        const double var = std::max(0.0, (sumSq - sum * sum / runs) / (runs - 1));
        return std::sqrt(var / runs);
    }
};

Result<void> checkMeasurement(const RangeStrategy &strategy, std::size_t k,
                              const std::vector<Range> &workload, double epsilon, int runs)
{
    PBX_RETURN_IF_ERROR(checkStrategyEpsilon(epsilon));
    if (k == 0 || k > kMaxDomain)
        return strategyError(kInvalidBounds, "the ordered domain must have between 1 and 65,536 cells");
    PBX_RETURN_IF_ERROR(checkRanges(workload, k));
    if (runs < 2)
        return strategyError(kInvalidConfig, "repetitions: at least 2");
    if (strategy.kind == RangeStrategyKind::AllRanges && k > 512)
        return strategyError(kDomainTooLarge, "measuring the all-ranges strategy is limited to k <= 512");
    return {};
}

} // namespace

Result<MeasuredRangeError> measureRangeErrors(const RangeStrategy &strategy,
                                              const std::vector<double> &leaves,
                                              const std::vector<Range> &workload, double epsilon,
                                              data::Neighbouring neighbours, const RangePostProcessing &post,
                                              int runs, std::uint64_t seed, const RangeProgress &progress)
{
    const std::size_t k = leaves.size();
    PBX_RETURN_IF_ERROR(checkMeasurement(strategy, k, workload, epsilon, runs));
    std::mt19937_64 rng(seed);
    PBX_TRY(setup, prepareRuns(strategy, leaves, workload, epsilon, neighbours));

    // Per length: how many ranges of the workload have it, and the running sums over runs.
    const double q = static_cast<double>(workload.size());
    RunningMean overall;
    std::vector<RunningMean> byLength(k);
    std::vector<double> lengthCount(k, 0.0), lengthSse(k, 0.0);
    for (const auto &r : workload)
        lengthCount[r.last - r.first] += 1.0;
    for (int run = 0; run < runs; ++run) {
        if (progress && run % 64 == 0 && !progress(static_cast<double>(run) / runs))
            return makeError(ErrorCode::Cancelled, "cancelled");
        std::fill(lengthSse.begin(), lengthSse.end(), 0.0);
        PBX_TRY(sse, runSse(strategy, setup, leaves, workload, post, rng, lengthSse));
        overall.add(sse / q);
        for (std::size_t L = 0; L < k; ++L)
            if (lengthCount[L] > 0.0)
                byLength[L].add(lengthSse[L] / lengthCount[L]);
    }
    if (progress)
        progress(1.0);
    MeasuredRangeError out;
    out.runs = runs;
    out.average = overall.mean(runs);
    out.standardError = overall.standardError(runs);
    out.byLength.assign(k, 0.0);
    out.byLengthStandardError.assign(k, 0.0);
    for (std::size_t L = 0; L < k; ++L)
        if (lengthCount[L] > 0.0) {
            out.byLength[L] = byLength[L].mean(runs);
            out.byLengthStandardError[L] = byLength[L].standardError(runs);
        }
    return out;
}

} // namespace pbx::strategies
