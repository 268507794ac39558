// SPDX-License-Identifier: MIT
#include "core/strategies/quantiles.h"

#include "core/mechanisms/discrete_samplers.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pbx::strategies {

namespace {

/// Values must be finite. An empty sample is allowed (every candidate then has utility 0): refusing
/// it would reveal that no row matched.
Result<void> checkSample(const std::vector<double> &x)
{
    for (const double v : x)
        if (!std::isfinite(v))
            return strategyError(kInvalidConfig, "values must be finite");
    return {};
}

Result<void> checkInterval(double lo, double hi)
{
    if (!std::isfinite(lo) || !std::isfinite(hi) || !(lo < hi))
        return strategyError(kInvalidBounds, "bounds: need finite lo < hi");
    return {};
}

Result<void> checkGrid(const std::vector<double> &grid)
{
    if (grid.empty())
        return strategyError(kInvalidBounds, "grid: at least one candidate");
    for (std::size_t i = 0; i < grid.size(); ++i)
        if (!std::isfinite(grid[i]) || (i > 0 && !(grid[i] > grid[i - 1])))
            return strategyError(kInvalidBounds, "grid: candidates must be finite and strictly increasing");
    return {};
}

std::vector<double> gridUtilities(std::vector<double> x, double q, const std::vector<double> &grid)
{
    std::sort(x.begin(), x.end());
    const double qn = q * static_cast<double>(x.size());
    std::vector<double> u(grid.size());
    for (std::size_t i = 0; i < grid.size(); ++i) {
        const double below = static_cast<double>(std::lower_bound(x.begin(), x.end(), grid[i]) - x.begin());
        const double upto = static_cast<double>(std::upper_bound(x.begin(), x.end(), grid[i]) - x.begin());
        u[i] = -std::max({0.0, below - qn, qn - upto});
    }
    return u;
}

std::vector<double> normalisedExp(std::vector<double> logw)
{
    const double top = *std::max_element(logw.begin(), logw.end());
    double sum = 0.0;
    for (auto &v : logw) {
        v = std::exp(v - top);
        sum += v;
    }
    for (auto &v : logw)
        v /= sum;
    return logw;
}

} // namespace

Result<void> checkQuantile(double q)
{
    if (!(q > 0.0 && q < 1.0))
        return strategyError(kInvalidQuantile, "q must lie strictly between 0 and 1");
    return {};
}

Result<QuantileIntervals> continuousQuantileDistribution(std::vector<double> x, double q, double epsilon,
                                                         double lo, double hi)
{
    PBX_RETURN_IF_ERROR(checkStrategyEpsilon(epsilon));
    PBX_RETURN_IF_ERROR(checkQuantile(q));
    PBX_RETURN_IF_ERROR(checkInterval(lo, hi));
    PBX_RETURN_IF_ERROR(checkSample(x));
    for (auto &v : x)
        v = std::clamp(v, lo, hi);
    std::sort(x.begin(), x.end());
    const std::size_t n = x.size();
    QuantileIntervals d;
    d.points.reserve(n + 2);
    d.points.push_back(lo);
    d.points.insert(d.points.end(), x.begin(), x.end());
    d.points.push_back(hi);
    const double qn = q * static_cast<double>(n);
    std::vector<double> logw(n + 1);
    for (std::size_t i = 0; i <= n; ++i) {
        const double length = d.points[i + 1] - d.points[i];
        logw[i] = length > 0.0 ? std::log(length) - epsilon * std::fabs(static_cast<double>(i) - qn) / 2.0
                               : -std::numeric_limits<double>::infinity();
    }
    d.probabilities = normalisedExp(std::move(logw));
    return d;
}

double expectedAbsoluteError(const QuantileIntervals &d, double truth)
{
    double e = 0.0;
    for (std::size_t i = 0; i < d.probabilities.size(); ++i) {
        const double p = d.probabilities[i];
        if (p == 0.0)
            continue;
        const double a = d.points[i], b = d.points[i + 1];
        double v;
        if (b <= truth)
            v = truth - (a + b) / 2.0;
        else if (a >= truth)
            v = (a + b) / 2.0 - truth;
        else
            v = ((truth - a) * (truth - a) + (b - truth) * (b - truth)) / (2.0 * (b - a));
        e += p * v;
    }
    return e;
}

double expectedRankError(const QuantileIntervals &d, double q)
{
    const double qn = q * static_cast<double>(d.probabilities.size() - 1);
    double e = 0.0;
    for (std::size_t i = 0; i < d.probabilities.size(); ++i)
        e += d.probabilities[i] * std::fabs(static_cast<double>(i) - qn);
    return e;
}

Result<QuantileGridDistribution> gridQuantileDistribution(std::vector<double> x, double q, double epsilon,
                                                          const std::vector<double> &grid)
{
    PBX_RETURN_IF_ERROR(checkStrategyEpsilon(epsilon));
    PBX_RETURN_IF_ERROR(checkQuantile(q));
    PBX_RETURN_IF_ERROR(checkGrid(grid));
    PBX_RETURN_IF_ERROR(checkSample(x));
    QuantileGridDistribution d;
    d.utilities = gridUtilities(std::move(x), q, grid);
    std::vector<double> logw(d.utilities.size());
    for (std::size_t i = 0; i < logw.size(); ++i)
        logw[i] = epsilon * d.utilities[i] / 2.0;
    d.probabilities = normalisedExp(std::move(logw));
    return d;
}

Result<std::size_t> sampleGridQuantile(std::vector<double> x, double q, double epsilon,
                                       const std::vector<double> &grid, mechanisms::RandomBits &bits)
{
    PBX_RETURN_IF_ERROR(checkStrategyEpsilon(epsilon));
    if (epsilon < std::ldexp(1.0, -20))
        return strategyError(kInvalidEpsilon,
                             "epsilon below 2^-20 is too small for the exact quantile sampler");
    PBX_TRY(d, gridQuantileDistribution(std::move(x), q, epsilon, grid));
    // γ(y) on the grid 2^-32, rounded up. Values are capped at 2^29 (weight e^{-2^29}): min(γ, C) is
    // 1-Lipschitz in γ, so the cap keeps the sensitivity bound.
    constexpr double kGrid = 4294967296.0; // 2^32
    const double epsilonUsed = epsilon - std::ldexp(1.0, -30);
    std::vector<std::uint64_t> gamma(grid.size());
    const double cap = std::ldexp(1.0, 61);
    for (std::size_t i = 0; i < grid.size(); ++i) {
        const double g = std::ceil(epsilonUsed * std::fabs(d.utilities[i]) / 2.0 * kGrid);
        gamma[i] = static_cast<std::uint64_t>(std::min(g, cap));
    }
    const std::uint64_t least = *std::min_element(gamma.begin(), gamma.end());
    for (;;) {
        PBX_TRY(pick, bits.uniformBelow(grid.size()));
        const std::uint64_t num = gamma[pick] - least;
        if (num == 0)
            return static_cast<std::size_t>(pick);
        PBX_TRY(accept, mechanisms::sampleBernoulliExp(bits, num, static_cast<std::uint64_t>(kGrid)));
        if (accept)
            return static_cast<std::size_t>(pick);
    }
}

double quantileRankErrorBound(double epsilon, std::size_t gridSize, double beta)
{
    return 2.0 / epsilon * std::log(static_cast<double>(gridSize) / beta);
}

Result<SmoothSensitivity> medianSmoothSensitivity(std::vector<double> x, double beta, double lo, double hi)
{
    PBX_RETURN_IF_ERROR(checkInterval(lo, hi));
    PBX_RETURN_IF_ERROR(checkSample(x));
    if (!(beta > 0.0) || !std::isfinite(beta))
        return strategyError(kInvalidConfig, "beta must be finite and > 0");
    const std::size_t n = x.size();
    std::vector<double> y(n + 2);
    y[0] = lo;
    y[n + 1] = hi;
    for (std::size_t i = 0; i < n; ++i)
        y[i + 1] = std::clamp(x[i], lo, hi);
    std::sort(y.begin() + 1, y.end() - 1);
    const std::size_t m = (n + 1) / 2;
    SmoothSensitivity s;
    for (std::size_t k = 0; k <= n + 1; ++k) {
        const double damp = std::exp(-static_cast<double>(k) * beta);
        if (damp * (hi - lo) <= s.value && k > 0)
            break; // later terms cannot exceed the running maximum
        double a = 0.0;
        for (std::size_t t = 0; t <= k + 1; ++t) {
            const std::size_t top = std::min(m + t, n + 1);
            const std::size_t bottom = m + t >= k + 1 ? m + t - k - 1 : 0;
            a = std::max(a, y[top] - y[bottom]);
        }
        const double v = damp * a;
        s.curve.push_back(v);
        if (v > s.value) {
            s.value = v;
            s.argmax = k;
        }
    }
    return s;
}

} // namespace pbx::strategies
