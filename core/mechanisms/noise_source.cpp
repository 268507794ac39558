// SPDX-License-Identifier: MIT
#include "core/mechanisms/noise_source.h"

#include "core/util/try.h"

#include <cmath>

namespace pbx::mechanisms {

NoiseSource NoiseSource::seeded(std::uint64_t seed, std::uint64_t eventIndex)
{
    return NoiseSource(std::make_unique<SeededRandomBits>(seed, eventIndex));
}

Result<NoiseSource> NoiseSource::fromOperatingSystem()
{
    PBX_TRY(bits, OsRandomBits::open());
    return NoiseSource(std::make_unique<OsRandomBits>(std::move(bits)));
}

double NoiseSource::uniformOpen()
{
    // 52 random bits plus half a step: bits + ½ needs 53 significant bits, so it is exact and the
    // result lies in [2⁻⁵³, 1 − 2⁻⁵³]; 0 and 1 are both impossible. (With 53 bits, bits + ½ would
    // round up to 2⁵³ at the top and return exactly 1.)
    const std::uint64_t bits = m_bits->nextU64() >> 12;
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
        if (m_bits->failed()) // zero bits forever would never leave the loop; callers check failed()
            return std::nan("");
    } while (s >= 1.0 || s == 0.0);
    const double factor = std::sqrt(-2.0 * std::log(s) / s);
    m_spareNormal = v * factor;
    return sigma * u * factor;
}

} // namespace pbx::mechanisms
