// SPDX-License-Identifier: MIT
// Statistics shared by the sampling tests: integer histograms, a χ² goodness-of-fit test with
// pooled tails, Clopper–Pearson intervals, and independent reference pmfs (long double, direct
// summation) so the tests never check the library against itself.
#pragma once

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/chi_squared.hpp>

#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <vector>

namespace pbx::test {

/// Counts of integer outcomes.
using Histogram = std::map<std::int64_t, std::uint64_t>;

/// Discrete Laplace pmf with scale t: tanh(1/(2t))·e^{−|y|/t}.
inline long double laplacePmf(long double t, std::int64_t y)
{
    return std::tanh(0.5L / t) * std::exp(-std::fabs(static_cast<long double>(y)) / t);
}

/// Discrete Gaussian normaliser Σ_z e^{−z²/(2σ²)} by direct summation over |z| ≤ 40σ + 40.
inline long double gaussianNormaliserDirect(long double s2)
{
    const long double sigma = std::sqrt(s2);
    const auto reach = static_cast<std::int64_t>(40.0L * sigma + 40.0L);
    long double sum = 1.0L;
    for (std::int64_t z = reach; z >= 1; --z) // small terms first
        sum += 2.0L * std::exp(-static_cast<long double>(z) * z / (2.0L * s2));
    return sum;
}

struct ChiSquareResult
{
    double statistic = 0.0;
    int degreesOfFreedom = 0;
    double critical = 0.0; ///< upper-α quantile of χ²(df)
};

/// χ² goodness of fit of `counts` (n draws) against `pmf` on ℤ. Outcomes in [−radius, radius] are
/// grouped left to right into bins of expected count ≥ minExpected; the mass and counts beyond
/// ±radius go to the outermost bins (their mass is 1 − Σ_{|y| ≤ radius} pmf, split evenly: the
/// pmfs here are symmetric). df = bins − 1; critical value from Boost.Math at level alpha.
inline ChiSquareResult chiSquareTest(const Histogram &counts, std::uint64_t n,
                                     const std::function<long double(std::int64_t)> &pmf, std::int64_t radius,
                                     double alpha, double minExpected = 25.0)
{
    std::vector<long double> probs;
    long double inside = 0.0L;
    for (std::int64_t y = -radius; y <= radius; ++y) {
        probs.push_back(pmf(y));
        inside += probs.back();
    }
    const long double tailMass = std::max(0.0L, (1.0L - inside) / 2.0L);
    std::uint64_t below = 0, above = 0;
    for (const auto &[y, c] : counts) {
        if (y < -radius)
            below += c;
        else if (y > radius)
            above += c;
    }
    auto countAt = [&](std::int64_t y) -> std::uint64_t {
        auto it = counts.find(y);
        return it == counts.end() ? 0 : it->second;
    };
    std::vector<long double> expected;
    std::vector<long double> observed;
    long double e = tailMass * n;
    long double o = static_cast<long double>(below);
    for (std::int64_t y = -radius; y <= radius; ++y) {
        e += probs[static_cast<std::size_t>(y + radius)] * n;
        o += countAt(y);
        if (e >= minExpected) {
            expected.push_back(e);
            observed.push_back(o);
            e = 0.0L;
            o = 0.0L;
        }
    }
    e += tailMass * n;
    o += above;
    if (expected.empty() || e >= minExpected) {
        expected.push_back(e);
        observed.push_back(o);
    } else {
        expected.back() += e;
        observed.back() += o;
    }
    ChiSquareResult r;
    long double stat = 0.0L;
    for (std::size_t i = 0; i < expected.size(); ++i)
        stat += (observed[i] - expected[i]) * (observed[i] - expected[i]) / expected[i];
    r.statistic = static_cast<double>(stat);
    r.degreesOfFreedom = static_cast<int>(expected.size()) - 1;
    if (r.degreesOfFreedom >= 1) {
        boost::math::chi_squared_distribution<double> dist(r.degreesOfFreedom);
        r.critical = boost::math::quantile(boost::math::complement(dist, alpha));
    }
    return r;
}

/// Smallest radius R with n·pmf(y) < cutoff for all |y| > R (pmf decreasing in |y|).
inline std::int64_t radiusFor(const std::function<long double(std::int64_t)> &pmf, std::uint64_t n,
                              long double cutoff = 0.01L)
{
    std::int64_t r = 0;
    while (pmf(r + 1) * n >= cutoff)
        ++r;
    return r;
}

struct Interval
{
    double lo = 0.0;
    double hi = 1.0;
};

/// Two-sided Clopper–Pearson interval for a binomial proportion k/n at confidence 1 − alpha.
inline Interval clopperPearson(std::uint64_t k, std::uint64_t n, double alpha)
{
    using boost::math::binomial_distribution;
    Interval iv;
    iv.lo = binomial_distribution<double>::find_lower_bound_on_p(static_cast<double>(n),
                                                                 static_cast<double>(k), alpha / 2);
    iv.hi = binomial_distribution<double>::find_upper_bound_on_p(static_cast<double>(n),
                                                                 static_cast<double>(k), alpha / 2);
    return iv;
}

} // namespace pbx::test
