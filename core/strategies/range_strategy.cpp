// SPDX-License-Identifier: MIT
#include "core/strategies/range_strategy.h"

#include "core/strategies/haar_strategy.h"
#include "core/strategies/tree_strategy.h"
#include "core/util/try.h"

#include <algorithm>

namespace pbx::strategies {

std::string_view rangeStrategyKindName(RangeStrategyKind kind)
{
    switch (kind) {
    case RangeStrategyKind::Identity:
        return "identity";
    case RangeStrategyKind::AllRanges:
        return "all-ranges";
    case RangeStrategyKind::Tree:
        return "tree";
    case RangeStrategyKind::Haar:
        return "haar";
    }
    return "identity";
}

Result<RangeStrategyKind> parseRangeStrategyKind(std::string_view text)
{
    for (const auto k : {RangeStrategyKind::Identity, RangeStrategyKind::AllRanges, RangeStrategyKind::Tree,
                         RangeStrategyKind::Haar})
        if (rangeStrategyKindName(k) == text)
            return k;
    return strategyError(kInvalidConfig,
                         "strategies[].kind: expected identity, all-ranges, tree or haar, got '"
                             + std::string(text) + "'");
}

std::string RangeStrategy::label() const
{
    if (kind != RangeStrategyKind::Tree)
        return std::string(rangeStrategyKindName(kind));
    std::string s = "tree b=" + std::to_string(branching);
    if (!root)
        s += " no root";
    if (consistency)
        s += " + LS";
    return s;
}

Result<std::vector<double>> rangeVariances(const RangeStrategy &strategy, std::size_t k,
                                           const std::vector<Range> &workload, double epsilon,
                                           data::Neighbouring neighbours)
{
    PBX_RETURN_IF_ERROR(checkStrategyEpsilon(epsilon));
    if (k == 0 || k > kMaxDomain)
        return strategyError(kInvalidBounds, "the ordered domain must have between 1 and 65,536 cells");
    PBX_RETURN_IF_ERROR(checkRanges(workload, k));
    std::vector<double> out(workload.size());
    switch (strategy.kind) {
    case RangeStrategyKind::Identity: {
        const double delta = neighbours == data::Neighbouring::AddRemove ? 1.0 : 2.0;
        const double unit = 2.0 * delta * delta / (epsilon * epsilon);
        for (std::size_t r = 0; r < workload.size(); ++r)
            out[r] = unit * static_cast<double>(workload[r].length());
        return out;
    }
    case RangeStrategyKind::AllRanges: {
        const double delta = static_cast<double>(allRangesSensitivityL1(k, neighbours));
        std::fill(out.begin(), out.end(), 2.0 * delta * delta / (epsilon * epsilon));
        return out;
    }
    case RangeStrategyKind::Haar: {
        PBX_TRY(shape, HaarShape::create(k));
        const double scale = static_cast<double>(shape.sensitivityL1(neighbours)) / epsilon;
        for (std::size_t r = 0; r < workload.size(); ++r)
            out[r] = haarRangeVarianceUnit(shape, workload[r]) * scale * scale;
        return out;
    }
    case RangeStrategyKind::Tree: {
        PBX_TRY(shape, TreeShape::create(k, strategy.branching, strategy.root));
        const double scale = static_cast<double>(shape.sensitivityL1(neighbours)) / epsilon;
        const double nodeVariance = 2.0 * scale * scale;
        if (!strategy.consistency) {
            for (std::size_t r = 0; r < workload.size(); ++r)
                out[r] = nodeVariance * static_cast<double>(canonicalNodes(shape, workload[r]).size());
            return out;
        }
        PBX_TRY(cov, treeLeafCovariance(shape));
        // 2-D prefix sums: Σ_{a,b ∈ [i, j]} C[a, b] in O(1) per range.
        const auto K = cov.rows();
        Eigen::MatrixXd P = Eigen::MatrixXd::Zero(K + 1, K + 1);
        for (Eigen::Index a = 0; a < K; ++a)
            for (Eigen::Index b = 0; b < K; ++b)
                P(a + 1, b + 1) = (cov)(a, b) + P(a, b + 1) + P(a + 1, b) - P(a, b);
        for (std::size_t r = 0; r < workload.size(); ++r) {
            const auto i = static_cast<Eigen::Index>(workload[r].first);
            const auto j = static_cast<Eigen::Index>(workload[r].last) + 1;
            out[r] = nodeVariance * (P(j, j) - P(i, j) - P(j, i) + P(i, i));
        }
        return out;
    }
    }
    return strategyError(kInvalidConfig, "unknown strategy");
}

Result<RangePrediction> predictRangeErrors(const RangeStrategy &strategy, std::size_t k,
                                           const std::vector<Range> &workload, double epsilon,
                                           data::Neighbouring neighbours)
{
    PBX_TRY(variances, rangeVariances(strategy, k, workload, epsilon, neighbours));
    RangePrediction p;
    p.strategy = strategy;
    switch (strategy.kind) {
    case RangeStrategyKind::Identity:
        p.sensitivityL1 = neighbours == data::Neighbouring::AddRemove ? 1 : 2;
        p.padded = k;
        break;
    case RangeStrategyKind::AllRanges:
        p.sensitivityL1 = static_cast<std::size_t>(allRangesSensitivityL1(k, neighbours));
        p.padded = k;
        break;
    case RangeStrategyKind::Haar: {
        const auto shape = HaarShape::create(k);
        p.sensitivityL1 = shape->sensitivityL1(neighbours);
        p.padded = shape->padded;
        break;
    }
    case RangeStrategyKind::Tree: {
        const auto shape = TreeShape::create(k, strategy.branching, strategy.root);
        p.sensitivityL1 = shape->sensitivityL1(neighbours);
        p.padded = shape->padded;
        break;
    }
    }
    for (const double v : variances) {
        p.total += v;
        p.max = std::max(p.max, v);
    }
    p.average = p.total / static_cast<double>(variances.size());
    // By length over the whole domain (at most k(k+1)/2 ranges; skipped beyond 2^22).
    if (k * (k + 1) / 2 <= kMaxWorkload) {
        auto all = allRanges(k);
        PBX_TRY(byRange, rangeVariances(strategy, k, *all, epsilon, neighbours));
        p.byLength.assign(k, 0.0);
        for (std::size_t r = 0; r < all->size(); ++r)
            p.byLength[(*all)[r].length() - 1] += byRange[r];
        for (std::size_t L = 1; L <= k; ++L)
            p.byLength[L - 1] /= static_cast<double>(k - L + 1);
    }
    return p;
}

std::size_t recommendedStrategy(const std::vector<RangePrediction> &predictions)
{
    std::size_t best = 0;
    for (std::size_t i = 1; i < predictions.size(); ++i)
        if (predictions[i].average < predictions[best].average)
            best = i;
    return best;
}

} // namespace pbx::strategies
