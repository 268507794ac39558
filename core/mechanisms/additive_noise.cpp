// SPDX-License-Identifier: MIT
#include "core/mechanisms/additive_noise.h"

#include "core/math/directed_rounding.h"
#include "core/math/normal.h"
#include "core/util/parameter_checks.h"

#include <cmath>

namespace pbx::mechanisms {

namespace {
/// The multiplier k(β) with w = k·scale: ln(1/β) for Laplace, Φ⁻¹(1−β/2) for Gaussian.
double widthFactor(NoiseKind kind, double beta)
{
    if (!(beta > 0.0 && beta < 1.0))
        return std::nan("");
    // −Φ⁻¹(β/2), not Φ⁻¹(1 − β/2): β/2 is exact, while 1 − β/2 rounds (to 1 for β < 1e-16) and
    // its quantile could come out below the true one.
    return kind == NoiseKind::Laplace ? -std::log(beta) : -math::normalQuantile(beta / 2.0);
}
} // namespace

std::string_view noiseKindName(NoiseKind kind)
{
    return kind == NoiseKind::Laplace ? "laplace" : "gaussian";
}

std::string_view costUnitName(NoiseKind kind)
{
    return kind == NoiseKind::Laplace ? "epsilon" : "rho";
}

Result<AdditiveNoiseMechanism> AdditiveNoiseMechanism::withScale(NoiseKind kind, double scale,
                                                                 double sensitivity)
{
    PBX_RETURN_IF_ERROR(checkPositive(scale, "the noise scale"));
    PBX_RETURN_IF_ERROR(checkSensitivity(sensitivity));
    return AdditiveNoiseMechanism(kind, scale, sensitivity);
}

Result<AdditiveNoiseMechanism> AdditiveNoiseMechanism::forAbsoluteError(NoiseKind kind, double error,
                                                                        double beta, double sensitivity)
{
    PBX_RETURN_IF_ERROR(checkPositive(error, "the error target"));
    PBX_RETURN_IF_ERROR(checkProbability(beta, "the confidence", UnitInterval::Open));
    // Rounded down: less noise than the exact calibration keeps the accuracy promise.
    return withScale(kind, math::nudgeDown(error / widthFactor(kind, beta)), sensitivity);
}

Result<AdditiveNoiseMechanism> AdditiveNoiseMechanism::forCost(NoiseKind kind, double cost,
                                                               double sensitivity)
{
    PBX_RETURN_IF_ERROR(checkPositive(cost, "the privacy cost"));
    PBX_RETURN_IF_ERROR(checkSensitivity(sensitivity));
    const double scale
        = kind == NoiseKind::Laplace ? sensitivity / cost : sensitivity / std::sqrt(2.0 * cost);
    return withScale(kind, math::nudgeUp(scale), sensitivity);
}

double AdditiveNoiseMechanism::cost() const
{
    const double raw = m_kind == NoiseKind::Laplace
                           ? m_sensitivity / m_scale
                           : (m_sensitivity * m_sensitivity) / (2.0 * m_scale * m_scale);
    return math::nudgeUp(raw); // a few rounded operations: an upper bound after the nudge
}

double AdditiveNoiseMechanism::halfWidth(double beta) const
{
    return math::nudgeUp(m_scale * widthFactor(m_kind, beta));
}

double AdditiveNoiseMechanism::release(double exactValue, NoiseSource &noise) const
{
    const double z = m_kind == NoiseKind::Laplace ? noise.laplace(m_scale) : noise.gaussian(m_scale);
    return exactValue + z;
}

} // namespace pbx::mechanisms
