// SPDX-License-Identifier: MIT
#include "core/strategies/haar_strategy.h"

#include <algorithm>

namespace pbx::strategies {

Result<HaarShape> HaarShape::create(std::size_t k)
{
    if (k == 0 || k > kMaxDomain)
        return strategyError(kInvalidBounds, "the ordered domain must have between 1 and 65,536 cells");
    HaarShape s;
    s.k = k;
    s.height = 1;
    s.padded = 2;
    while (s.padded < k) {
        s.padded *= 2;
        ++s.height;
    }
    return s;
}

std::vector<double> haarForward(const HaarShape &shape, const std::vector<double> &leaves)
{
    const std::size_t K = shape.padded;
    std::vector<double> x(K, 0.0);
    std::copy_n(leaves.begin(), std::min(leaves.size(), K), x.begin());
    // Prefix sums give every node's half sums in O(1).
    std::vector<double> prefix(K + 1, 0.0);
    for (std::size_t i = 0; i < K; ++i)
        prefix[i + 1] = prefix[i] + x[i];
    std::vector<double> c(K, 0.0);
    c[0] = prefix[K] / static_cast<double>(K);
    std::size_t index = 1;
    for (std::size_t width = K; width >= 2; width /= 2) {
        const std::size_t half = width / 2;
        for (std::size_t start = 0; start < K; start += width) {
            const double left = (prefix[start + half] - prefix[start]) / static_cast<double>(half);
            const double right = (prefix[start + width] - prefix[start + half]) / static_cast<double>(half);
            c[index++] = (left - right) / 2.0;
        }
    }
    return c;
}

std::vector<double> haarInverse(const HaarShape &shape, const std::vector<double> &c)
{
    const std::size_t K = shape.padded;
    std::vector<double> x(K, c[0]);
    std::size_t index = 1;
    for (std::size_t width = K; width >= 2; width /= 2) {
        const std::size_t half = width / 2;
        for (std::size_t start = 0; start < K; start += width) {
            const double v = c[index++];
            for (std::size_t l = start; l < start + half; ++l)
                x[l] += v;
            for (std::size_t l = start + half; l < start + width; ++l)
                x[l] -= v;
        }
    }
    return x;
}

std::vector<double> haarWeights(const HaarShape &shape)
{
    const std::size_t K = shape.padded;
    std::vector<double> w(K, static_cast<double>(K));
    std::size_t index = 1;
    for (std::size_t width = K; width >= 2; width /= 2)
        for (std::size_t start = 0; start < K; start += width)
            w[index++] = static_cast<double>(width);
    return w;
}

double haarRangeVarianceUnit(const HaarShape &shape, Range range)
{
    const std::size_t K = shape.padded;
    auto overlap = [&](std::size_t lo, std::size_t hi) -> double {
        const std::size_t a = std::max(lo, range.first), b = std::min(hi, range.last);
        return a > b ? 0.0 : static_cast<double>(b - a + 1);
    };
    const double L = static_cast<double>(range.length());
    const double Kd = static_cast<double>(K);
    double sum = 2.0 * L * L / (Kd * Kd);
    // Only nodes cut by the range contribute; walk the two boundary paths level by level.
    for (std::size_t width = K; width >= 2; width /= 2) {
        const std::size_t half = width / 2;
        const std::size_t firstNode = range.first / width, lastNode = range.last / width;
        for (std::size_t node : {firstNode, lastNode}) {
            const std::size_t start = node * width;
            const double alpha = overlap(start, start + half - 1) - overlap(start + half, start + width - 1);
            sum += 2.0 * alpha * alpha / (static_cast<double>(width) * static_cast<double>(width));
            if (firstNode == lastNode)
                break;
        }
    }
    return sum;
}

} // namespace pbx::strategies
