// SPDX-License-Identifier: MIT
#include "core/strategies/constrained_inference.h"

#include "core/util/try.h"

#include <algorithm>
#include <cmath>

namespace pbx::strategies {

Result<std::vector<double>> isotonicRegression(const std::vector<double> &y,
                                               const std::vector<double> &weights)
{
    if (!weights.empty() && weights.size() != y.size())
        return makeError(ErrorCode::InvalidArgument, "weights: one per value, or none");
    for (std::size_t i = 0; i < y.size(); ++i) {
        if (!std::isfinite(y[i]))
            return makeError(ErrorCode::InvalidArgument, "values: must be finite");
        if (!weights.empty() && !(weights[i] > 0.0 && std::isfinite(weights[i])))
            return makeError(ErrorCode::InvalidArgument, "weights: must be finite and > 0");
    }
    struct Block
    {
        double mean;
        double weight;
        std::size_t size;
    };
    std::vector<Block> blocks;
    blocks.reserve(y.size());
    for (std::size_t i = 0; i < y.size(); ++i) {
        blocks.push_back({y[i], weights.empty() ? 1.0 : weights[i], 1});
        // Merge while the last two blocks violate the order.
        while (blocks.size() > 1 && blocks[blocks.size() - 2].mean > blocks.back().mean) {
            const Block last = blocks.back();
            blocks.pop_back();
            Block &prev = blocks.back();
            const double w = prev.weight + last.weight;
            prev.mean = (prev.mean * prev.weight + last.mean * last.weight) / w;
            prev.weight = w;
            prev.size += last.size;
        }
    }
    std::vector<double> out;
    out.reserve(y.size());
    for (const auto &b : blocks)
        out.insert(out.end(), b.size, b.mean);
    return out;
}

std::vector<double> clipNonNegative(const std::vector<double> &y)
{
    std::vector<double> out(y);
    for (auto &v : out)
        v = std::max(0.0, v);
    return out;
}

Result<std::vector<double>> projectAnswers(const std::vector<double> &values,
                                           const std::vector<double> &variances, bool isotonic,
                                           bool nonNegative)
{
    if (!variances.empty() && variances.size() != values.size())
        return makeError(ErrorCode::InvalidArgument, "variances: one per value, or none");
    std::vector<double> out = values;
    if (isotonic) {
        std::vector<double> weights;
        for (const double v : variances) {
            if (!(v > 0.0 && std::isfinite(v)))
                return makeError(ErrorCode::InvalidArgument, "variances: must be finite and > 0");
            weights.push_back(1.0 / v);
        }
        PBX_TRY(fitted, isotonicRegression(values, weights));
        out = std::move(fitted);
    }
    for (const double v : out)
        if (!std::isfinite(v))
            return makeError(ErrorCode::InvalidArgument, "values: must be finite");
    return nonNegative ? clipNonNegative(out) : out;
}

void projectOrderedPair(double &a, double &b)
{
    if (a > b) {
        const double m = (a + b) / 2.0;
        a = m;
        b = m;
    }
}

double squaredDistance(const std::vector<double> &a, const std::vector<double> &b)
{
    double s = 0.0;
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
        s += (a[i] - b[i]) * (a[i] - b[i]);
    return s;
}

} // namespace pbx::strategies
