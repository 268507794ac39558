// SPDX-License-Identifier: MIT
// Range-query workloads over an ordered domain of k cells and their sensitivities under both
// neighbouring relations (Li, Hay, Rastogi, Miklau & McGregor 2010, "Optimizing linear counting
// queries under differential privacy", PODS, §3: a workload W has Δ_p = max column p-norm).
// Derivations: docs/strategies-inference.md, "Sensitivity of workloads".
#pragma once

#include "core/strategies/strategy_error.h"
#include "core/util/result.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pbx::strategies {

/// The range q_{ij} = x_i + … + x_j of cells i ≤ j (0-based, inclusive).
struct Range
{
    std::size_t first = 0;
    std::size_t last = 0;
    std::size_t length() const { return last - first + 1; }
    friend bool operator==(const Range &, const Range &) = default;
};

/// Largest ordered domain (k): 2^16, as for histograms.
inline constexpr std::size_t kMaxDomain = std::size_t{1} << 16;
/// Largest workload (number of ranges) the simulations evaluate: 2^22.
inline constexpr std::size_t kMaxWorkload = std::size_t{1} << 22;

/// All k(k+1)/2 ranges, ordered by first then last. Errors: INVALID_BOUNDS (k = 0 or k > 2^16),
/// DOMAIN_TOO_LARGE (more than kMaxWorkload ranges).
Result<std::vector<Range>> allRanges(std::size_t k);
/// The k prefixes [0, j]. Errors: INVALID_BOUNDS.
Result<std::vector<Range>> prefixRanges(std::size_t k);
/// The k − L + 1 ranges of length L. Errors: INVALID_BOUNDS (L = 0 or L > k).
Result<std::vector<Range>> rangesOfLength(std::size_t k, std::size_t length);
/// Parses "all-ranges", "prefixes" or "ranges-of-length:<L>" into ranges over k cells.
/// Errors: INVALID_CONFIG for another word; as the builders.
Result<std::vector<Range>> namedWorkload(std::string_view name, std::size_t k);
/// Checks explicit ranges against k. Errors: INVALID_CONFIG ("ranges[i]: …").
Result<void> checkRanges(const std::vector<Range> &ranges, std::size_t k);

/// ℓ1 sensitivity of the all-ranges workload: max_j (j+1)(k−j) = ⌊(k+1)/2⌋·⌈(k+1)/2⌉ under
/// add/remove, and the same under replace for k ≥ 3 (the pair maximum is s(k+1−s) with
/// s = (j+1) + (k−j′), maximised at the same s; docs/strategies-inference.md). k ≤ 2: replace
/// gives max(k, …) computed directly.
std::uint64_t allRangesSensitivityL1(std::size_t k, data::Neighbouring neighbours);

/// ℓ1 sensitivity of the prefix workload: k (add/remove), k − 1 (replace).
std::uint64_t prefixSensitivityL1(std::size_t k, data::Neighbouring neighbours);

/// ℓ1 and ℓ2 sensitivity of an explicit range workload, by columns (add/remove: max_j ‖W_{:,j}‖;
/// replace: max_{j≠j′} ‖W_{:,j} − W_{:,j′}‖). Cost O(k²·|W|/64); for |W|·k ≤ 2^26.
/// Errors: DOMAIN_TOO_LARGE beyond that.
struct WorkloadSensitivity
{
    double l1 = 0.0;
    double l2 = 0.0;
};
Result<WorkloadSensitivity> workloadSensitivity(const std::vector<Range> &ranges, std::size_t k,
                                                data::Neighbouring neighbours);

} // namespace pbx::strategies
