// SPDX-License-Identifier: MIT
#include "core/session/release/level_noise.h"

#include "core/math/directed_rounding.h"
#include "core/math/normal.h"
#include "core/mechanisms/brownian_noise_reduction.h"
#include "core/mechanisms/noise_reduction_grid.h"
#include "core/util/parameter_checks.h"
#include "core/util/try.h"

#include <cmath>

namespace pbx::session {

LevelNoise::LevelNoise(NoiseFamily family, const QueryShape &shape,
                       std::vector<mechanisms::BrownianBoundary> boundaries)
    : m_family(family), m_shape(shape), m_boundaries(std::move(boundaries))
{
    m_shares = shape.costShares(growth());
}

Result<std::vector<ChannelLevel>> LevelNoise::level(double cost, double beta) const
{
    PBX_RETURN_IF_ERROR(checkPositive(cost, "a level's cost"));
    const auto &channels = m_shape.channels();
    const double channelBeta = beta / static_cast<double>(channels.size());
    std::vector<ChannelLevel> out(channels.size());
    for (std::size_t i = 0; i < channels.size(); ++i) {
        const double share = cost * m_shares[i];
        const double delta = channels[i].sensitivity;
        ChannelLevel &c = out[i];
        switch (m_family) {
        case NoiseFamily::Laplace:
            c.epsilon = share;
            c.scale = math::nudgeUp(delta / share, 4); // ≥ the scale any Laplace sampler draws at
            c.cost = share;
            c.halfWidth = math::nudgeUp(c.scale * -std::log(channelBeta));
            break;
        case NoiseFamily::Gaussian:
        case NoiseFamily::BrownianExPost: {
            double time = 0.0;
            if (m_family == NoiseFamily::Gaussian) {
                PBX_TRY(t, mechanisms::brownianTimeForRho(delta, share));
                time = t;
            } else {
                PBX_TRY(t, m_boundaries[i].minimumTime(share, delta));
                time = t;
            }
            c.scale = mechanisms::GeometricNoiseGrid::scaleForTime(time);
            c.time = c.scale * c.scale; // ≥ time, so the cost below stays within the share
            PBX_TRY(charged, m_family == NoiseFamily::Gaussian ? mechanisms::brownianRho(delta, c.time)
                                                               : m_boundaries[i].epsilon(c.time, delta));
            c.cost = charged;
            // −Φ⁻¹(β/2): β/2 is exact, 1 − β/2 is not (the width must not round down).
            c.halfWidth = math::nudgeUp(c.scale * -math::normalQuantile(channelBeta / 2.0));
            break;
        }
        }
    }
    return out;
}

double LevelNoise::totalCost(const std::vector<ChannelLevel> &level)
{
    double total = 0.0;
    for (const auto &c : level)
        total = math::addRoundUp(total, c.cost);
    return total;
}

double LevelNoise::widthNumerator(const std::vector<ChannelLevel> &level) const
{
    std::vector<double> widths;
    for (const auto &c : level)
        widths.push_back(c.halfWidth);
    return m_shape.widthNumerator(widths);
}

} // namespace pbx::session
