// SPDX-License-Identifier: MIT
#include "core/growing/lab_monte_carlo.h"

#include "core/growing/growing_svt.h"

#include <algorithm>
#include <cmath>

namespace pbx::growing {

std::uint64_t labOrderSeed(std::uint64_t seed, int rep)
{
    std::seed_seq s{std::uint32_t(seed), std::uint32_t(seed >> 32), std::uint32_t(rep), 0x67726f77u};
    std::uint32_t words[2];
    s.generate(words, words + 2);
    return (std::uint64_t(words[0]) << 32) | words[1];
}

std::uint64_t labNoiseSeed(std::uint64_t seed, int rep)
{
    if (rep == 0)
        return seed;
    std::seed_seq s{std::uint32_t(seed), std::uint32_t(seed >> 32), std::uint32_t(rep), 0x6e6f6973u};
    std::uint32_t words[2];
    s.generate(words, words + 2);
    return (std::uint64_t(words[0]) << 32) | words[1];
}

Result<void> reportLabProgress(const LabProgress &progress, int rep, int repetitions, std::size_t step,
                               std::size_t steps, std::optional<double> runError)
{
    if (!progress)
        return {};
    const bool last = step + 1 == steps;
    const LabProgressStep report{rep + int(last), repetitions, std::uint64_t(rep) * steps + step + 1,
                                 std::uint64_t(repetitions) * steps, last ? runError : std::nullopt};
    if (!progress(report))
        return makeError(ErrorCode::Cancelled, "the growing-database simulation was cancelled");
    return {};
}

double heldRunWorstError(const PrefixCounts &counts, std::size_t queries, std::uint64_t start,
                         std::uint64_t stop, double scale, std::mt19937_64 &noise)
{
    double worst = 0.0;
    for (std::size_t j = 0; j < queries; ++j) {
        const double answer = counts.fraction(j, start) + simulationLaplace(noise, scale);
        for (std::uint64_t u = start; u <= stop; ++u)
            worst = std::max(worst, std::fabs(counts.fraction(j, u) - answer));
    }
    return worst;
}

double labQuantile(std::vector<double> sample, double q)
{
    std::sort(sample.begin(), sample.end());
    const double pos = q * double(sample.size() - 1);
    const std::size_t i = static_cast<std::size_t>(pos);
    const double frac = pos - double(i);
    return i + 1 < sample.size() ? sample[i] * (1.0 - frac) + sample[i + 1] * frac : sample[i];
}

} // namespace pbx::growing
