// SPDX-License-Identifier: MIT
// Small statistics helpers for the noise-reduction Monte Carlo tests: Kolmogorov–Smirnov
// statistics, the Laplace CDF, and binomial standard errors.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace pbx::test {

/// CDF of Lap(0, b).
inline double laplaceCdf(double x, double b)
{
    return x < 0.0 ? 0.5 * std::exp(x / b) : 1.0 - 0.5 * std::exp(-x / b);
}

/// One-sample KS statistic D = sup |F_n − F| for a continuous CDF F. Sorts a copy.
template<typename Cdf>
double ksStatistic(std::vector<double> samples, Cdf cdf)
{
    std::sort(samples.begin(), samples.end());
    const double n = static_cast<double>(samples.size());
    double d = 0.0;
    for (std::size_t i = 0; i < samples.size(); ++i) {
        const double f = cdf(samples[i]);
        d = std::max({d, f - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - f});
    }
    return d;
}

/// Two-sample KS statistic D = sup |F_n − G_m| (ties handled by advancing both samples).
inline double ksTwoSample(std::vector<double> a, std::vector<double> b)
{
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    const double n = static_cast<double>(a.size());
    const double m = static_cast<double>(b.size());
    std::size_t i = 0, j = 0;
    double d = 0.0;
    while (i < a.size() && j < b.size()) {
        const double x = std::min(a[i], b[j]);
        while (i < a.size() && a[i] <= x)
            ++i;
        while (j < b.size() && b[j] <= x)
            ++j;
        d = std::max(d, std::fabs(static_cast<double>(i) / n - static_cast<double>(j) / m));
    }
    return d;
}

/// KS critical values: 1.63/√n is the 1 % level of the one-sample test (1.36/√n is 5 %);
/// the two-sample analogue scales with √((n+m)/(nm)).
inline double ksCritical1Percent(std::size_t n)
{
    return 1.63 / std::sqrt(static_cast<double>(n));
}
inline double ksTwoSampleCritical1Percent(std::size_t n, std::size_t m)
{
    const double nn = static_cast<double>(n), mm = static_cast<double>(m);
    return 1.63 * std::sqrt((nn + mm) / (nn * mm));
}

/// Standard error of a binomial proportion p estimated from n trials.
inline double binomialStandardError(double p, std::size_t n)
{
    return std::sqrt(p * (1.0 - p) / static_cast<double>(n));
}

} // namespace pbx::test
