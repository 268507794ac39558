// SPDX-License-Identifier: MIT
// Uniform, Laplace and Gaussian draws for the continuous mechanisms.
#pragma once

#include <cstdint>
#include <optional>
#include <random>

namespace pbx::mechanisms {

/// A stream of random numbers for one ledger event.
///
/// Seeded mode derives the stream from (seed, event index) alone, so a session replays the same
/// story and a reopened session continues exactly as an uninterrupted one would; it is for
/// teaching and tests, not for real releases. Unseeded mode seeds from std::random_device.
/// Both use continuous floating-point noise, which is open to Mironov's (2012) least-significant
/// bit attack; the README's security notes say so.
class NoiseSource
{
public:
    /// Seeded, reproducible stream for event `eventIndex` of a session seeded with `seed`.
    static NoiseSource seeded(std::uint64_t seed, std::uint64_t eventIndex);
    /// Stream seeded from the operating system (std::random_device).
    static NoiseSource fromOperatingSystem();

    /// Uniform draw in the open interval (0, 1): 52 random bits, in [2⁻⁵³, 1 − 2⁻⁵³].
    double uniformOpen();
    /// Laplace(0, scale) by inversion. Valid: scale > 0.
    double laplace(double scale);
    /// Normal(0, sigma²) by the Marsaglia polar method. Valid: sigma > 0.
    double gaussian(double sigma);
    /// Exponential draw with the given rate (mean 1/rate) by inversion, −ln(U)/rate with U from
    /// uniformOpen(), so the result is finite and ≥ 0. Valid: rate > 0 finite. Used by the Laplace
    /// noise-reduction samplers (accuracy-first.md §2.1).
    double exponential(double rate);

private:
    explicit NoiseSource(std::seed_seq &seq) : m_engine(seq) {}
    std::mt19937_64 m_engine;
    std::optional<double> m_spareNormal;
};

} // namespace pbx::mechanisms
