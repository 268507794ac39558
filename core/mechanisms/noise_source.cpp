// SPDX-License-Identifier: MIT
#include "core/mechanisms/noise_source.h"

#include <array>
#include <cmath>

namespace pbx::mechanisms {

NoiseSource NoiseSource::seeded(std::uint64_t seed, std::uint64_t eventIndex)
{
    std::seed_seq seq{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                      static_cast<std::uint32_t>(eventIndex),
                      static_cast<std::uint32_t>(eventIndex >> 32), 0x70627825u};
    return NoiseSource(seq);
}

NoiseSource NoiseSource::fromOperatingSystem()
{
    std::random_device device;
    std::array<std::uint32_t, 8> words{};
    for (auto &w : words)
        w = device();
    std::seed_seq seq(words.begin(), words.end());
    return NoiseSource(seq);
}

double NoiseSource::uniformOpen()
{
    // 52 random bits plus half a step: bits + ½ needs 53 significant bits, so it is exact and the
    // result lies in [2⁻⁵³, 1 − 2⁻⁵³]; 0 and 1 are both impossible. (With 53 bits, bits + ½ would
    // round up to 2⁵³ at the top and return exactly 1.)
    const std::uint64_t bits = m_engine() >> 12;
    return (static_cast<double>(bits) + 0.5) * 0x1.0p-52;
}

double NoiseSource::laplace(double scale)
{
    const double u = uniformOpen() - 0.5; // in (−½, ½), never exactly 0 or ±½
    const double magnitude = -scale * std::log1p(-2.0 * std::fabs(u));
    return u < 0.0 ? -magnitude : magnitude;
}

double NoiseSource::exponential(double rate)
{
    return -std::log(uniformOpen()) / rate;
}

double NoiseSource::gaussian(double sigma)
{
    if (m_spareNormal) {
        const double z = *m_spareNormal;
        m_spareNormal.reset();
        return sigma * z;
    }
    double u = 0.0, v = 0.0, s = 0.0;
    do {
        u = 2.0 * uniformOpen() - 1.0;
        v = 2.0 * uniformOpen() - 1.0;
        s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    const double factor = std::sqrt(-2.0 * std::log(s) / s);
    m_spareNormal = v * factor;
    return sigma * u * factor;
}

} // namespace pbx::mechanisms
