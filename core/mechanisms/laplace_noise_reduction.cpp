// SPDX-License-Identifier: MIT
#include "core/mechanisms/laplace_noise_reduction.h"

#include "core/math/directed_rounding.h"
#include "core/util/parameter_checks.h"

#include <algorithm>
#include <cmath>

namespace pbx::mechanisms {

namespace {

/// The Laplace rate 1/b = ε/Δ1, rounded down: the noise drawn at this rate is at least as wide
/// as Lap(Δ1/ε), so its privacy loss is at most ε.
double rateOf(double epsilon, double sensitivity)
{
    return math::nudgeDown(epsilon / sensitivity, 1);
}

/// Lap(1/rate): a fair sign times Exp(rate).
double laplaceWithRate(double rate, NoiseSource &noise)
{
    const bool negative = noise.uniformOpen() < 0.5;
    const double magnitude = noise.exponential(rate);
    return negative ? -magnitude : magnitude;
}

/// The forward step in rate units (docs/accuracy-first.md §2.2); see the header for the derivation.
double forwardStep(double eta1, double rate1, double rate2, NoiseSource &noise)
{
    const double gap = rate2 - rate1; // a correctly rounded difference of two doubles
    if (!(gap > 0.0))
        return eta1; // the rounded levels coincide: the stay probability is exactly 1
    const double a = std::fabs(eta1);
    const double sign = eta1 < 0.0 ? -1.0 : 1.0;
    const double decay = std::exp(-gap * a); // e^{−(e2−e1)a}; underflow to 0 is harmless
    const double stay = (rate1 / rate2) * decay;
    if (noise.uniformOpen() < stay)
        return eta1;

    // The three pieces of ∝ exp(−e2|u| − e1|a − u|), each normalised by e^{−e1·a}.
    const double sum = rate1 + rate2;
    const double m1 = 1.0 / sum;
    const double m2 = -std::expm1(-gap * a) / gap;
    const double m3 = decay / sum;
    const double pick = noise.uniformOpen() * (m1 + m2 + m3);
    double u = 0.0;
    if (pick < m1) {
        u = -noise.exponential(sum);
    } else if (pick < m1 + m2) {
        // Exp(gap) truncated to [0, a], by inversion: u = −ln(1 + V·(e^{−gap·a} − 1))/gap.
        const double v = noise.uniformOpen();
        u = std::clamp(-std::log1p(v * std::expm1(-gap * a)) / gap, 0.0, a);
    } else {
        u = a + noise.exponential(sum);
    }
    return sign * u;
}
} // namespace

Result<std::vector<double>> laplaceNoiseReductionBackward(const std::vector<double> &epsilons,
                                                          double sensitivity, NoiseSource &noise)
{
    if (epsilons.empty())
        return makeError(ErrorCode::InvalidArgument, "the ε grid of a Laplace noise reduction is empty");
    PBX_RETURN_IF_ERROR(checkSensitivity(sensitivity));
    for (std::size_t k = 0; k < epsilons.size(); ++k) {
        PBX_RETURN_IF_ERROR(checkPositive(epsilons[k], "every ε on the grid"));
        if (k > 0 && !(epsilons[k] > epsilons[k - 1]))
            return makeError(ErrorCode::InvalidArgument, "the ε grid must be strictly increasing");
    }
    const std::size_t count = epsilons.size();
    std::vector<double> eta(count);
    double nextRate = rateOf(epsilons[count - 1], sensitivity);
    eta[count - 1] = laplaceWithRate(nextRate, noise);
    for (std::size_t k = count - 1; k-- > 0;) {
        const double rate = rateOf(epsilons[k], sensitivity);
        const double ratio = rate / nextRate;
        const double lazy = ratio * ratio; // P(η_k = η_{k+1}) = (ε_k/ε_{k+1})²
        eta[k] = noise.uniformOpen() < lazy ? eta[k + 1] : eta[k + 1] + laplaceWithRate(rate, noise);
        nextRate = rate;
    }
    return eta;
}

Result<double> laplaceNoiseReductionForwardStep(double currentNoise, double currentEpsilon,
                                                double nextEpsilon, double sensitivity, NoiseSource &noise)
{
    if (!std::isfinite(currentNoise))
        return makeError(ErrorCode::InvalidArgument, "the current Laplace noise must be finite");
    if (!isPositiveFinite(currentEpsilon) || !isPositiveFinite(nextEpsilon))
        return makeError(ErrorCode::InvalidArgument, "ε levels must be finite numbers > 0");
    if (!(nextEpsilon > currentEpsilon))
        return makeError(ErrorCode::InvalidArgument,
                         "noise reduction needs an ε strictly above the current one");
    PBX_RETURN_IF_ERROR(checkSensitivity(sensitivity));
    return forwardStep(currentNoise, rateOf(currentEpsilon, sensitivity), rateOf(nextEpsilon, sensitivity),
                       noise);
}

Result<LaplaceNoiseReduction> LaplaceNoiseReduction::start(double epsilon, double sensitivity,
                                                           NoiseSource &noise, std::size_t dimension)
{
    PBX_RETURN_IF_ERROR(checkEpsilon(epsilon, "ε", Zero::Excluded));
    PBX_RETURN_IF_ERROR(checkSensitivity(sensitivity));
    if (dimension == 0)
        return makeError(ErrorCode::InvalidArgument, "a Laplace noise reduction needs dimension ≥ 1");
    const double rate = rateOf(epsilon, sensitivity);
    std::vector<double> eta(dimension);
    for (double &x : eta)
        x = laplaceWithRate(rate, noise);
    return LaplaceNoiseReduction(std::move(eta), epsilon, sensitivity, 1);
}

Result<LaplaceNoiseReduction> LaplaceNoiseReduction::resume(std::vector<double> currentNoise, double epsilon,
                                                            double sensitivity, int steps)
{
    if (currentNoise.empty())
        return makeError(ErrorCode::InvalidArgument, "a Laplace noise reduction needs dimension ≥ 1");
    for (double x : currentNoise)
        if (!std::isfinite(x))
            return makeError(ErrorCode::InvalidArgument, "the saved Laplace noise must be finite");
    PBX_RETURN_IF_ERROR(checkEpsilon(epsilon, "ε", Zero::Excluded));
    PBX_RETURN_IF_ERROR(checkSensitivity(sensitivity));
    if (steps < 1)
        return makeError(ErrorCode::InvalidArgument, "a saved Laplace noise reduction has at least one step");
    return LaplaceNoiseReduction(std::move(currentNoise), epsilon, sensitivity, steps);
}

Result<void> LaplaceNoiseReduction::reduceTo(double nextEpsilon, NoiseSource &noise)
{
    PBX_RETURN_IF_ERROR(checkEpsilon(nextEpsilon, "ε", Zero::Excluded));
    if (!(nextEpsilon > m_epsilon))
        return makeError(ErrorCode::InvalidArgument,
                         "noise reduction needs an ε strictly above the current one");
    const double rate1 = rateOf(m_epsilon, m_sensitivity);
    const double rate2 = rateOf(nextEpsilon, m_sensitivity);
    for (double &x : m_noise)
        x = forwardStep(x, rate1, rate2, noise);
    m_epsilon = nextEpsilon;
    ++m_steps;
    return {};
}

double LaplaceNoiseReduction::scale() const
{
    // The scale actually drawn at, 1/rate with the rate rounded down, itself rounded up.
    return math::nudgeUp(1.0 / rateOf(m_epsilon, m_sensitivity), 1);
}

Result<double> LaplaceNoiseReduction::release(double exactValue) const
{
    if (m_noise.size() != 1)
        return makeError(ErrorCode::InvalidArgument,
                         "a scalar release needs a one-dimensional Laplace noise reduction");
    return exactValue + m_noise.front();
}

Result<std::vector<double>> LaplaceNoiseReduction::releaseVector(const std::vector<double> &exactValue) const
{
    if (exactValue.size() != m_noise.size())
        return makeError(ErrorCode::InvalidArgument,
                         "the query's dimension differs from the noise reduction's");
    std::vector<double> y(exactValue.size());
    for (std::size_t i = 0; i < y.size(); ++i)
        y[i] = exactValue[i] + m_noise[i];
    return y;
}

} // namespace pbx::mechanisms
