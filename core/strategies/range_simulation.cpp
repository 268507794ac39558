// SPDX-License-Identifier: MIT
#include "core/strategies/range_simulation.h"

#include "core/strategies/constrained_inference.h"
#include "core/strategies/haar_strategy.h"
#include "core/strategies/tree_strategy.h"

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

} // namespace

Result<MeasuredRangeError> measureRangeErrors(const RangeStrategy &strategy,
                                              const std::vector<double> &leaves,
                                              const std::vector<Range> &workload, double epsilon,
                                              data::Neighbouring neighbours, const RangePostProcessing &post,
                                              int runs, std::uint64_t seed, const RangeProgress &progress)
{
    if (auto ok = checkStrategyEpsilon(epsilon); !ok)
        return ok.error();
    const std::size_t k = leaves.size();
    if (k == 0 || k > kMaxDomain)
        return strategyError(kInvalidBounds, "the ordered domain must have between 1 and 65,536 cells");
    if (auto ok = checkRanges(workload, k); !ok)
        return ok.error();
    if (runs < 2)
        return strategyError(kInvalidConfig, "repetitions: at least 2");
    if (strategy.kind == RangeStrategyKind::AllRanges && k > 512)
        return strategyError(kDomainTooLarge, "measuring the all-ranges strategy is limited to k <= 512");
    std::mt19937_64 rng(seed);
    const double q = static_cast<double>(workload.size());
    double sum = 0.0, sumSq = 0.0;

    // Strategy-specific set-up, done once.
    std::optional<TreeShape> tree;
    std::optional<HaarShape> haar;
    std::vector<double> trueNodes, trueCoefficients, haarNoiseScale;
    std::vector<std::vector<std::size_t>> canonical;
    double scale = 0.0;
    switch (strategy.kind) {
    case RangeStrategyKind::Identity:
        scale = (neighbours == data::Neighbouring::AddRemove ? 1.0 : 2.0) / epsilon;
        break;
    case RangeStrategyKind::AllRanges:
        scale = static_cast<double>(allRangesSensitivityL1(k, neighbours)) / epsilon;
        break;
    case RangeStrategyKind::Tree: {
        auto shape = TreeShape::create(k, strategy.branching, strategy.root);
        if (!shape)
            return shape.error();
        if (strategy.consistency && !strategy.root && shape->padded > kMaxDenseDomain)
            return strategyError(kDomainTooLarge, "least squares without the root needs K <= 4096");
        tree = *shape;
        trueNodes = treeNodeCounts(*tree, leaves);
        scale = static_cast<double>(tree->sensitivityL1(neighbours)) / epsilon;
        if (!strategy.consistency)
            for (const auto &r : workload)
                canonical.push_back(canonicalNodes(*tree, r));
        break;
    }
    case RangeStrategyKind::Haar: {
        auto shape = HaarShape::create(k);
        if (!shape)
            return shape.error();
        haar = *shape;
        trueCoefficients = haarForward(*haar, leaves);
        const auto weights = haarWeights(*haar);
        const double delta = static_cast<double>(haar->sensitivityL1(neighbours));
        for (const double w : weights)
            haarNoiseScale.push_back(delta / (epsilon * w));
        break;
    }
    }

    // Per length: how many ranges of the workload have it, and the running sums over runs.
    std::vector<double> lengthCount(k, 0.0), lengthSum(k, 0.0), lengthSumSq(k, 0.0), lengthSse(k, 0.0);
    for (const auto &r : workload)
        lengthCount[r.last - r.first] += 1.0;
    for (int run = 0; run < runs; ++run) {
        if (progress && run % 64 == 0 && !progress(static_cast<double>(run) / runs))
            return makeError(ErrorCode::Cancelled, "cancelled");
        double sse = 0.0;
        std::fill(lengthSse.begin(), lengthSse.end(), 0.0);
        switch (strategy.kind) {
        case RangeStrategyKind::Identity: {
            std::vector<double> est(leaves);
            for (auto &v : est)
                v += laplace(rng, scale);
            sse = workloadSse(est, leaves, workload, post, lengthSse);
            break;
        }
        case RangeStrategyKind::AllRanges:
            // Each range is measured directly with independent noise; post-processing does not apply.
            for (std::size_t r = 0; r < workload.size(); ++r) {
                const double d = laplace(rng, scale);
                sse += d * d;
                lengthSse[workload[r].last - workload[r].first] += d * d;
            }
            break;
        case RangeStrategyKind::Tree: {
            std::vector<double> noisy(trueNodes);
            const std::size_t first = strategy.root ? 0 : 1;
            for (std::size_t i = first; i < noisy.size(); ++i)
                noisy[i] += laplace(rng, scale);
            if (strategy.consistency) {
                std::vector<double> est;
                if (strategy.root) {
                    const auto fitted = hayConsistentTree(*tree, noisy);
                    const std::size_t offset = tree->levelOffset(tree->height);
                    est.assign(fitted.begin() + static_cast<std::ptrdiff_t>(offset), fitted.end());
                } else {
                    auto fitted = leastSquaresLeaves(*tree, noisy);
                    if (!fitted)
                        return fitted.error();
                    est.assign(fitted->data(), fitted->data() + fitted->size());
                }
                sse = workloadSse(est, leaves, workload, post, lengthSse);
            } else {
                if (post.clipNonNegative)
                    noisy = clipNonNegative(noisy);
                if (post.round)
                    for (auto &v : noisy)
                        v = std::round(v);
                for (std::size_t r = 0; r < workload.size(); ++r) {
                    double d = 0.0;
                    for (const auto node : canonical[r])
                        d += noisy[node] - trueNodes[node];
                    sse += d * d;
                    lengthSse[workload[r].last - workload[r].first] += d * d;
                }
            }
            break;
        }
        case RangeStrategyKind::Haar: {
            std::vector<double> noisy(trueCoefficients);
            for (std::size_t i = 0; i < noisy.size(); ++i)
                noisy[i] += laplace(rng, haarNoiseScale[i]);
            sse = workloadSse(haarInverse(*haar, noisy), leaves, workload, post, lengthSse);
            break;
        }
        }
        const double avg = sse / q;
        sum += avg;
        sumSq += avg * avg;
        for (std::size_t L = 0; L < k; ++L)
            if (lengthCount[L] > 0.0) {
                const double a = lengthSse[L] / lengthCount[L];
                lengthSum[L] += a;
                lengthSumSq[L] += a * a;
            }
    }
    if (progress)
        progress(1.0);
    MeasuredRangeError out;
    out.runs = runs;
    out.average = sum / runs;
    const double var = std::max(0.0, (sumSq - sum * sum / runs) / (runs - 1));
    out.standardError = std::sqrt(var / runs);
    out.byLength.assign(k, 0.0);
    out.byLengthStandardError.assign(k, 0.0);
    for (std::size_t L = 0; L < k; ++L)
        if (lengthCount[L] > 0.0) {
            out.byLength[L] = lengthSum[L] / runs;
            const double v
                = std::max(0.0, (lengthSumSq[L] - lengthSum[L] * lengthSum[L] / runs) / (runs - 1));
            out.byLengthStandardError[L] = std::sqrt(v / runs);
        }
    return out;
}

} // namespace pbx::strategies
