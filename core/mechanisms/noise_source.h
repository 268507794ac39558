// SPDX-License-Identifier: MIT
// Uniform, Laplace and Gaussian draws for the continuous mechanisms.
#pragma once

#include "core/mechanisms/random_bits.h"
#include "core/util/result.h"

#include <cstdint>
#include <memory>
#include <optional>

namespace pbx::mechanisms {

/// A stream of random numbers for one ledger event.
///
/// Seeded mode derives the stream from (seed, event index) alone (SeededRandomBits), so a session
/// replays the same story and a reopened session continues exactly as an uninterrupted one would;
/// it is predictable, for teaching and tests, not for real releases. Unseeded mode draws every bit
/// from the operating system's CSPRNG (OsRandomBits, getrandom(2)). The exact discrete samplers
/// take bits() directly; laplace() and gaussian() are continuous floating-point noise, open in
/// principle to Mironov's (2012) least-significant-bit attack (docs/security-model.md).
class NoiseSource
{
public:
    /// Seeded, reproducible stream for event `eventIndex` of a session seeded with `seed`.
    static NoiseSource seeded(std::uint64_t seed, std::uint64_t eventIndex);
    /// Bits from the operating system's CSPRNG. Errors: Io when getrandom(2) fails (no weak
    /// fallback). Once open, getrandom with a ≤ 256-byte buffer does not fail (getrandom(2)).
    static Result<NoiseSource> fromOperatingSystem();
    /// A stream over any source of bits (tests use one that fails on demand). Valid: bits set.
    static NoiseSource withBits(std::unique_ptr<RandomBits> bits) { return NoiseSource(std::move(bits)); }

    /// The underlying bits, for the exact discrete samplers.
    RandomBits &bits() { return *m_bits; }
    bool isReproducible() const { return m_bits->isReproducible(); }

    /// Uniform draw in the open interval (0, 1): 52 random bits, in [2⁻⁵³, 1 − 2⁻⁵³].
    double uniformOpen();
    /// Laplace(0, scale) by inversion. Valid: scale > 0.
    double laplace(double scale);
    /// Normal(0, sigma²) by the Marsaglia polar method. Valid: sigma > 0. NaN once the source has
    /// failed (bits().failed()); callers must check.
    double gaussian(double sigma);
    /// Exponential draw with the given rate (mean 1/rate) by inversion, −ln(U)/rate with U from
    /// uniformOpen(), so the result is finite and ≥ 0. Valid: rate > 0 finite. Used by the Laplace
    /// noise-reduction samplers (docs/accuracy-first.md §2.1–2.2).
    double exponential(double rate);

private:
    explicit NoiseSource(std::unique_ptr<RandomBits> bits) : m_bits(std::move(bits)) {}
    std::unique_ptr<RandomBits> m_bits;
    std::optional<double> m_spareNormal;
};

} // namespace pbx::mechanisms
