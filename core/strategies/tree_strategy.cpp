// SPDX-License-Identifier: MIT
#include "core/strategies/tree_strategy.h"

#include "core/util/try.h"

#include <algorithm>
#include <cmath>

namespace pbx::strategies {

Result<TreeShape> TreeShape::create(std::size_t k, std::size_t branching, bool root)
{
    if (k == 0 || k > kMaxDomain)
        return strategyError(kInvalidBounds, "the ordered domain must have between 1 and 65,536 cells");
    if (branching < 2 || branching > std::max<std::size_t>(k, 2))
        return strategyError(kInvalidBranching,
                             "branching must lie in 2…" + std::to_string(std::max<std::size_t>(k, 2)));
    TreeShape s;
    s.k = k;
    s.branching = branching;
    s.root = root;
    s.height = 1;
    s.padded = branching;
    while (s.padded < k) {
        if (s.padded > kMaxPaddedDomain / branching)
            return strategyError(kDomainTooLarge, "the padded domain b^h exceeds 2^20");
        s.padded *= branching;
        ++s.height;
    }
    if (s.padded > kMaxPaddedDomain)
        return strategyError(kDomainTooLarge, "the padded domain b^h exceeds 2^20");
    return s;
}

std::size_t TreeShape::levelWidth(std::size_t level) const
{
    std::size_t w = 1;
    for (std::size_t i = 0; i < level; ++i)
        w *= branching;
    return w;
}

std::size_t TreeShape::levelOffset(std::size_t level) const
{
    std::size_t offset = 0;
    for (std::size_t i = 0; i < level; ++i)
        offset += levelWidth(i);
    return offset;
}

std::size_t TreeShape::nodeCount() const
{
    return levelOffset(height + 1);
}

std::size_t TreeShape::leavesPerNode(std::size_t level) const
{
    return levelWidth(height - level);
}

std::size_t TreeShape::sensitivityL1(data::Neighbouring neighbours) const
{
    if (neighbours == data::Neighbouring::Replace)
        return 2 * height;
    return root ? height + 1 : height;
}

std::vector<double> treeNodeCounts(const TreeShape &shape, const std::vector<double> &leaves)
{
    std::vector<double> nodes(shape.nodeCount(), 0.0);
    const std::size_t leafOffset = shape.levelOffset(shape.height);
    for (std::size_t i = 0; i < leaves.size() && i < shape.padded; ++i)
        nodes[leafOffset + i] = leaves[i];
    for (std::size_t level = shape.height; level-- > 0;) {
        const std::size_t offset = shape.levelOffset(level), childOffset = shape.levelOffset(level + 1);
        for (std::size_t j = 0; j < shape.levelWidth(level); ++j) {
            double sum = 0.0;
            for (std::size_t c = 0; c < shape.branching; ++c)
                sum += nodes[childOffset + j * shape.branching + c];
            nodes[offset + j] = sum;
        }
    }
    return nodes;
}

namespace {

void decompose(const TreeShape &shape, std::size_t level, std::size_t j, Range range,
               std::vector<std::size_t> &out)
{
    const std::size_t span = shape.leavesPerNode(level);
    const std::size_t lo = j * span, hi = lo + span - 1;
    if (hi < range.first || lo > range.last)
        return;
    if (range.first <= lo && hi <= range.last && (level > 0 || shape.root)) {
        out.push_back(shape.levelOffset(level) + j);
        return;
    }
    for (std::size_t c = 0; c < shape.branching; ++c)
        decompose(shape, level + 1, j * shape.branching + c, range, out);
}

} // namespace

std::vector<std::size_t> canonicalNodes(const TreeShape &shape, Range range)
{
    std::vector<std::size_t> out;
    decompose(shape, 0, 0, range, out);
    return out;
}

std::vector<double> hayConsistentTree(const TreeShape &shape, const std::vector<double> &noisy)
{
    const std::size_t b = shape.branching;
    const double bd = static_cast<double>(b);
    std::vector<double> z = noisy;
    // Pass 1, bottom-up: height i = h − level + 1.
    for (std::size_t level = shape.height; level-- > 0;) {
        const double i = static_cast<double>(shape.height - level + 1);
        const double bi = std::pow(bd, i), bi1 = std::pow(bd, i - 1.0);
        const double own = (bi - bi1) / (bi - 1.0), children = (bi1 - 1.0) / (bi - 1.0);
        const std::size_t offset = shape.levelOffset(level), childOffset = shape.levelOffset(level + 1);
        for (std::size_t j = 0; j < shape.levelWidth(level); ++j) {
            double sum = 0.0;
            for (std::size_t c = 0; c < b; ++c)
                sum += z[childOffset + j * b + c];
            z[offset + j] = own * noisy[offset + j] + children * sum;
        }
    }
    // Pass 2, top-down.
    std::vector<double> out(z.size());
    out[0] = z[0];
    for (std::size_t level = 0; level < shape.height; ++level) {
        const std::size_t offset = shape.levelOffset(level), childOffset = shape.levelOffset(level + 1);
        for (std::size_t j = 0; j < shape.levelWidth(level); ++j) {
            double sum = 0.0;
            for (std::size_t c = 0; c < b; ++c)
                sum += z[childOffset + j * b + c];
            const double share = (out[offset + j] - sum) / bd;
            for (std::size_t c = 0; c < b; ++c)
                out[childOffset + j * b + c] = z[childOffset + j * b + c] + share;
        }
    }
    return out;
}

namespace {

/// AᵀA[l, l′] = number of measured levels at which l and l′ share a node.
Result<Eigen::MatrixXd> normalMatrix(const TreeShape &shape)
{
    if (shape.padded > kMaxDenseDomain)
        return strategyError(kDomainTooLarge,
                             "a dense (A^T A)^-1 for K = " + std::to_string(shape.padded)
                                 + " > 4096 leaves: use the two-pass algorithm and sampled ranges instead");
    const auto K = static_cast<Eigen::Index>(shape.padded);
    Eigen::MatrixXd m = Eigen::MatrixXd::Zero(K, K);
    for (std::size_t level = shape.root ? 0 : 1; level <= shape.height; ++level) {
        const auto span = static_cast<Eigen::Index>(shape.leavesPerNode(level));
        for (Eigen::Index start = 0; start < K; start += span)
            m.block(start, start, span, span).array() += 1.0;
    }
    return m;
}

} // namespace

Result<Eigen::VectorXd> leastSquaresLeaves(const TreeShape &shape, const std::vector<double> &noisy)
{
    PBX_TRY(m, normalMatrix(shape));
    const auto K = static_cast<Eigen::Index>(shape.padded);
    Eigen::VectorXd rhs = Eigen::VectorXd::Zero(K);
    for (std::size_t level = shape.root ? 0 : 1; level <= shape.height; ++level) {
        const auto span = static_cast<Eigen::Index>(shape.leavesPerNode(level));
        const std::size_t offset = shape.levelOffset(level);
        for (Eigen::Index start = 0, j = 0; start < K; start += span, ++j)
            rhs.segment(start, span).array() += noisy[offset + static_cast<std::size_t>(j)];
    }
    return Eigen::VectorXd(m.llt().solve(rhs));
}

Result<Eigen::MatrixXd> treeLeafCovariance(const TreeShape &shape)
{
    PBX_TRY(m, normalMatrix(shape));
    const auto K = m.rows();
    return Eigen::MatrixXd(m.llt().solve(Eigen::MatrixXd::Identity(K, K)));
}

} // namespace pbx::strategies
