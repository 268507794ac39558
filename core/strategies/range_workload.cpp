// SPDX-License-Identifier: MIT
#include "core/strategies/range_workload.h"

#include "core/util/try.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace pbx::strategies {

namespace {

Result<void> checkDomain(std::size_t k)
{
    if (k == 0 || k > kMaxDomain)
        return strategyError(kInvalidBounds, "the ordered domain must have between 1 and 65,536 cells");
    return {};
}

} // namespace

Result<std::vector<Range>> allRanges(std::size_t k)
{
    PBX_RETURN_IF_ERROR(checkDomain(k));
    if (k * (k + 1) / 2 > kMaxWorkload)
        return strategyError(kDomainTooLarge,
                             "all ranges of " + std::to_string(k)
                                 + " cells are more than 4,194,304 queries: use sampled ranges");
    std::vector<Range> out;
    out.reserve(k * (k + 1) / 2);
    for (std::size_t i = 0; i < k; ++i)
        for (std::size_t j = i; j < k; ++j)
            out.push_back({i, j});
    return out;
}

Result<std::vector<Range>> prefixRanges(std::size_t k)
{
    PBX_RETURN_IF_ERROR(checkDomain(k));
    std::vector<Range> out;
    for (std::size_t j = 0; j < k; ++j)
        out.push_back({0, j});
    return out;
}

Result<std::vector<Range>> rangesOfLength(std::size_t k, std::size_t length)
{
    PBX_RETURN_IF_ERROR(checkDomain(k));
    if (length == 0 || length > k)
        return strategyError(kInvalidBounds, "range length must lie in 1…" + std::to_string(k));
    std::vector<Range> out;
    for (std::size_t i = 0; i + length <= k; ++i)
        out.push_back({i, i + length - 1});
    return out;
}

Result<std::vector<Range>> namedWorkload(std::string_view name, std::size_t k)
{
    if (name == "all-ranges")
        return allRanges(k);
    if (name == "prefixes")
        return prefixRanges(k);
    constexpr std::string_view prefix = "ranges-of-length:";
    if (name.starts_with(prefix)) {
        const auto digits = name.substr(prefix.size());
        std::size_t length = 0;
        const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), length);
        if (ec != std::errc() || end != digits.data() + digits.size())
            return strategyError(kInvalidConfig, "workload: expected ranges-of-length:<L> with an integer L");
        return rangesOfLength(k, length);
    }
    return strategyError(kInvalidConfig,
                         "workload: expected all-ranges, prefixes, ranges-of-length:<L> or explicit, got '"
                             + std::string(name) + "'");
}

Result<void> checkRanges(const std::vector<Range> &ranges, std::size_t k)
{
    if (ranges.empty())
        return strategyError(kInvalidConfig, "ranges: at least one range");
    if (ranges.size() > kMaxWorkload)
        return strategyError(kDomainTooLarge, "ranges: more than 4,194,304 queries");
    for (std::size_t r = 0; r < ranges.size(); ++r)
        if (ranges[r].first > ranges[r].last || ranges[r].last >= k)
            return strategyError(kInvalidConfig, "ranges[" + std::to_string(r)
                                                     + "]: need 0 <= first <= last < " + std::to_string(k));
    return {};
}

std::uint64_t allRangesSensitivityL1(std::size_t k, data::Neighbouring neighbours)
{
    const std::uint64_t n = k;
    const std::uint64_t addRemove = ((n + 1) / 2) * ((n + 2) / 2);
    if (neighbours == data::Neighbouring::AddRemove || k >= 3)
        return addRemove;
    // k = 1: a replaced row stays in the only cell; k = 2: cells 0 and 1 differ in ranges [0,0], [1,1].
    return k == 1 ? 0 : 2;
}

std::uint64_t prefixSensitivityL1(std::size_t k, data::Neighbouring neighbours)
{
    return neighbours == data::Neighbouring::AddRemove ? k : (k == 0 ? 0 : k - 1);
}

Result<WorkloadSensitivity> workloadSensitivity(const std::vector<Range> &ranges, std::size_t k,
                                                data::Neighbouring neighbours)
{
    PBX_RETURN_IF_ERROR(checkRanges(ranges, k));
    if (static_cast<double>(ranges.size()) * static_cast<double>(k) > 67108864.0)
        return strategyError(kDomainTooLarge,
                             "the workload matrix is too large for an exact column-norm computation");
    // Column j of W counts the ranges containing j; for a pair j < j′ the difference counts the
    // ranges containing exactly one of them. Entries are 0/1, so ℓ1 = count and ℓ2 = √count.
    std::vector<std::uint64_t> contains(k, 0);
    for (const auto &r : ranges)
        for (std::size_t j = r.first; j <= r.last; ++j)
            ++contains[j];
    double best = 0.0;
    if (neighbours == data::Neighbouring::AddRemove) {
        best = static_cast<double>(*std::max_element(contains.begin(), contains.end()));
        return WorkloadSensitivity{best, std::sqrt(best)};
    }
    // both(j, j′) = #ranges with first ≤ j and last ≥ j′: a 2-D count.
    for (std::size_t j = 0; j < k; ++j) {
        std::vector<std::uint64_t> both(k, 0); // both[j′] for j′ ≥ j
        for (const auto &r : ranges)
            if (r.first <= j && r.last >= j)
                ++both[r.last];
        // suffix sums: ranges containing j and reaching at least j′
        std::uint64_t running = 0;
        for (std::size_t jp = k; jp-- > j + 1;) {
            running += both[jp];
            const double exactlyOne = static_cast<double>(contains[j] + contains[jp] - 2 * running);
            best = std::max(best, exactlyOne);
        }
    }
    return WorkloadSensitivity{best, std::sqrt(best)};
}

} // namespace pbx::strategies
