// SPDX-License-Identifier: MIT
// The hierarchical b-ary tree strategy for range queries (Hay, Rastogi, Miklau & Suciu 2010,
// "Boosting the accuracy of differentially private histograms through consistency", PVLDB 3,
// §4–5; Qardaji, Yang & Li 2013, "Understanding hierarchical methods for differentially private
// histograms", PVLDB 6): node counts at every level, canonical range answers, and Hay et al.'s
// two-pass least-squares consistency. Derivations: docs/strategies-inference.md, "Trees".
#pragma once

#include "core/strategies/range_workload.h"
#include "core/util/result.h"

#include <Eigen/Dense>

#include <cstddef>
#include <vector>

namespace pbx::strategies {

/// Largest padded domain K = b^h: 2^20.
inline constexpr std::size_t kMaxPaddedDomain = std::size_t{1} << 20;
/// Largest K for which a dense (AᵀA)^{−1} is formed: 4096.
inline constexpr std::size_t kMaxDenseDomain = 4096;

/// A complete b-ary tree over k cells padded to K = b^h leaves, h = max(1, ⌈log_b k⌉). Levels
/// 0 (root) … h (leaves); node j of level ℓ covers leaves [j·b^{h−ℓ}, (j+1)·b^{h−ℓ} − 1]. Nodes are
/// stored level by level (root first). With `root` false the root is not measured.
struct TreeShape
{
    std::size_t k = 0;
    std::size_t branching = 2;
    std::size_t height = 1;
    std::size_t padded = 2; ///< K
    bool root = true;

    /// Errors: INVALID_BOUNDS (k = 0 or k > 2^16), INVALID_BRANCHING (b < 2 or b > max(k, 2)),
    /// DOMAIN_TOO_LARGE (K > 2^20).
    static Result<TreeShape> create(std::size_t k, std::size_t branching, bool root = true);

    std::size_t nodeCount() const;                      ///< all nodes, root included
    std::size_t levelOffset(std::size_t level) const;   ///< index of the level's first node
    std::size_t levelWidth(std::size_t level) const;    ///< b^level
    std::size_t leavesPerNode(std::size_t level) const; ///< b^{h−level}
    std::size_t measuredLevels() const { return root ? height + 1 : height; }
    /// ℓ1 sensitivity of the measured node vector: h + 1 with the root, h without (add/remove);
    /// 2h under replace (the root total does not move).
    std::size_t sensitivityL1(data::Neighbouring neighbours) const;
};

/// Node counts from the k leaf counts (padding cells are 0), level by level.
std::vector<double> treeNodeCounts(const TreeShape &shape, const std::vector<double> &leaves);

/// The canonical decomposition of a range: the fewest nodes whose leaves tile [first, last]
/// (Hay et al. 2010 §4). At most 2(b − 1)h nodes. Uses the root only when shape.root.
std::vector<std::size_t> canonicalNodes(const TreeShape &shape, Range range);

/// Hay et al.'s two-pass algorithm (Hay et al. 2010, Thm 3): the least-squares consistent node
/// counts for noisy counts of every node (root included) with equal variances, in O(#nodes).
/// Pass 1 (bottom-up, height i, leaves i = 1): z = ỹ at a leaf, else
/// z = (b^i − b^{i−1})/(b^i − 1)·ỹ + (b^{i−1} − 1)/(b^i − 1)·Σ z(children);
/// pass 2 (top-down): ȳ(root) = z(root), ȳ(v) = z(v) + (ȳ(parent) − Σ_{siblings w} z(w))/b.
/// Precondition: noisy.size() == shape.nodeCount() and shape.root.
std::vector<double> hayConsistentTree(const TreeShape &shape, const std::vector<double> &noisy);

/// The least-squares leaf estimate for a tree measured without its root (general OLS through
/// the normal equations, Cholesky by Eigen). Errors: DOMAIN_TOO_LARGE for K > 4096.
Result<Eigen::VectorXd> leastSquaresLeaves(const TreeShape &shape, const std::vector<double> &noisy);

/// (AᵀA)^{−1} for the tree's node-by-leaf 0/1 matrix A: the covariance of the OLS leaf estimate
/// divided by the node variance (Li et al. 2010, matrix mechanism, Prop. 3).
/// Errors: DOMAIN_TOO_LARGE for K > 4096.
Result<Eigen::MatrixXd> treeLeafCovariance(const TreeShape &shape);

} // namespace pbx::strategies
