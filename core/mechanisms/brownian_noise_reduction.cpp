// SPDX-License-Identifier: MIT
#include "core/mechanisms/brownian_noise_reduction.h"

#include "core/math/directed_rounding.h"
#include "core/util/parameter_checks.h"

#include <cmath>

namespace pbx::mechanisms {

Result<BrownianNoiseReduction> BrownianNoiseReduction::start(std::size_t dimension, double initialTime,
                                                             NoiseSource &noise)
{
    if (dimension == 0)
        return makeError(ErrorCode::InvalidArgument, "a Brownian path needs dimension ≥ 1");
    PBX_RETURN_IF_ERROR(checkPositive(initialTime, "the Brownian start time (a variance)"));
    const double sigma = std::sqrt(initialTime);
    std::vector<double> b(dimension);
    for (double &x : b)
        x = noise.gaussian(sigma);
    return BrownianNoiseReduction(std::move(b), initialTime, 1);
}

Result<BrownianNoiseReduction> BrownianNoiseReduction::resume(std::vector<double> currentNoise,
                                                              double currentTime, int steps)
{
    if (currentNoise.empty())
        return makeError(ErrorCode::InvalidArgument, "a Brownian path needs dimension ≥ 1");
    for (double x : currentNoise)
        if (!std::isfinite(x))
            return makeError(ErrorCode::InvalidArgument, "the saved Brownian noise must be finite");
    PBX_RETURN_IF_ERROR(checkPositive(currentTime, "the saved Brownian time (a variance)"));
    if (steps < 1)
        return makeError(ErrorCode::InvalidArgument, "a saved Brownian path has at least one step");
    return BrownianNoiseReduction(std::move(currentNoise), currentTime, steps);
}

Result<void> BrownianNoiseReduction::reduceTo(double nextTime, NoiseSource &noise)
{
    PBX_RETURN_IF_ERROR(checkPositive(nextTime, "the next Brownian time (a variance)"));
    if (!(nextTime < m_time))
        return makeError(ErrorCode::InvalidArgument,
                         "noise reduction needs a time strictly below the current one");
    const double q = nextTime / m_time;
    const double oneMinusQ = (m_time - nextTime) / m_time; // see the header: accurate as q → 1
    const double bridgeSigma = std::sqrt(nextTime * oneMinusQ);
    for (double &b : m_noise) {
        const double z = bridgeSigma > 0.0 ? noise.gaussian(bridgeSigma) : 0.0;
        b = q * b + z;
    }
    m_time = nextTime;
    ++m_steps;
    return {};
}

double BrownianNoiseReduction::standardDeviation() const
{
    return math::nudgeUp(std::sqrt(m_time), 1);
}

Result<double> BrownianNoiseReduction::release(double exactValue) const
{
    if (m_noise.size() != 1)
        return makeError(ErrorCode::InvalidArgument,
                         "a scalar release needs a one-dimensional Brownian path");
    return exactValue + m_noise.front();
}

Result<std::vector<double>> BrownianNoiseReduction::releaseVector(const std::vector<double> &exactValue) const
{
    if (exactValue.size() != m_noise.size())
        return makeError(ErrorCode::InvalidArgument,
                         "the query's dimension differs from the Brownian path's");
    std::vector<double> y(exactValue.size());
    for (std::size_t i = 0; i < y.size(); ++i)
        y[i] = exactValue[i] + m_noise[i];
    return y;
}

Result<double> brownianRho(double sensitivity, double time)
{
    PBX_RETURN_IF_ERROR(checkSensitivity(sensitivity, "the sensitivity", Zero::Allowed));
    PBX_RETURN_IF_ERROR(checkPositive(time, "the Brownian time (a variance)"));
    // Three rounded operations (square, product, quotient): an upper bound after the nudge.
    return math::nudgeUp(sensitivity * sensitivity / (2.0 * time));
}

Result<double> brownianStepRho(double sensitivity, double currentTime, double nextTime)
{
    PBX_RETURN_IF_ERROR(checkSensitivity(sensitivity, "the sensitivity", Zero::Allowed));
    if (!isPositiveFinite(currentTime) || !isPositiveFinite(nextTime))
        return makeError(ErrorCode::InvalidArgument, "Brownian times (variances) must be finite numbers > 0");
    if (!(nextTime < currentTime))
        return makeError(ErrorCode::InvalidArgument,
                         "noise reduction needs a time strictly below the current one");
    // (Δ²/2)(1/T_{k+1} − 1/T_k) = Δ²·(1 − q)/(2·T_{k+1}) with 1 − q = (T_k − T_{k+1})/T_k: no
    // difference of reciprocals, each operation rounded once, then nudged up.
    const double oneMinusQ = (currentTime - nextTime) / currentTime;
    return math::nudgeUp(sensitivity * sensitivity * oneMinusQ / (2.0 * nextTime), 6);
}

Result<double> brownianTotalRho(double sensitivity, double stopTime)
{
    return brownianRho(sensitivity, stopTime);
}

Result<double> brownianTimeForRho(double sensitivity, double rho)
{
    PBX_RETURN_IF_ERROR(checkSensitivity(sensitivity));
    PBX_RETURN_IF_ERROR(checkRho(rho, "ρ", Zero::Excluded));
    const double t = math::nudgeUp(sensitivity * sensitivity / (2.0 * rho));
    if (!std::isfinite(t))
        return makeError(ErrorCode::InvalidArgument, "ρ is too small: the time would overflow");
    return t;
}

Result<double> brownianPrivacyLoss(const std::vector<double> &difference, const std::vector<double> &noise,
                                   double time)
{
    if (difference.empty() || difference.size() != noise.size())
        return makeError(ErrorCode::InvalidArgument,
                         "the difference f(x) − f(x') and the noise need the same non-zero dimension");
    PBX_RETURN_IF_ERROR(checkPositive(time, "the Brownian time (a variance)"));
    double normSquared = 0.0;
    double inner = 0.0;
    for (std::size_t i = 0; i < noise.size(); ++i) {
        normSquared += difference[i] * difference[i];
        inner += difference[i] * noise[i];
    }
    return (0.5 * normSquared + inner) / time;
}

} // namespace pbx::mechanisms
