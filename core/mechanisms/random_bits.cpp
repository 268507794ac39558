// SPDX-License-Identifier: MIT
#include "core/mechanisms/random_bits.h"

#include <bit>
#include <cerrno>
#include <cstring>
#include <string>

#include <string.h> // explicit_bzero (glibc ≥ 2.25)
#include <sys/random.h>

namespace pbx::mechanisms {

// ---- RandomBits ---------------------------------------------------------------------------

void RandomBits::fail(Error error)
{
    if (m_failed)
        return; // keep the first cause
    m_error = std::move(error);
    m_failed = true;
}

std::uint64_t RandomBits::uniformBelowUnchecked(std::uint64_t n)
{
    if (n <= 1)
        return 0;
    // Draw exactly bit_width(n − 1) bits and reject values ≥ n: each accepted value has the same
    // probability 2^-w, so the result is exactly uniform; acceptance probability n / 2^w > 1/2.
    const std::uint64_t max = n - 1;
    const int width = std::bit_width(max);
    const std::uint64_t mask = width == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
    for (;;) {
        const std::uint64_t x = nextU64() & mask;
        if (x <= max || m_failed) // a failed source yields 0, which is accepted: no endless loop
            return x;
    }
}

Result<std::uint64_t> RandomBits::uniformBelow(std::uint64_t n)
{
    if (n == 0)
        return makeError(ErrorCode::InvalidArgument, "uniformBelow: n must be at least 1");
    const std::uint64_t x = uniformBelowUnchecked(n);
    if (m_failed)
        return m_error;
    return x;
}

Result<bool> RandomBits::bernoulliRational(std::uint64_t numerator, std::uint64_t denominator)
{
    if (denominator == 0 || numerator > denominator)
        return makeError(ErrorCode::InvalidArgument,
                         "bernoulliRational: need 0 ≤ numerator ≤ denominator and denominator ≥ 1");
    const bool b = uniformBelowUnchecked(denominator) < numerator;
    if (m_failed)
        return m_error;
    return b;
}

// ---- OsRandomBits -------------------------------------------------------------------------

Result<OsRandomBits> OsRandomBits::open()
{
    OsRandomBits bits;
    if (!bits.refill())
        return bits.error();
    return Result<OsRandomBits>(std::move(bits));
}

OsRandomBits::OsRandomBits(OsRandomBits &&other) noexcept
    : RandomBits(std::move(other)), m_buffer(other.m_buffer), m_next(other.m_next)
{
    explicit_bzero(other.m_buffer.data(), sizeof(other.m_buffer));
    other.m_next = kWords;
}

OsRandomBits &OsRandomBits::operator=(OsRandomBits &&other) noexcept
{
    if (this != &other) {
        RandomBits::operator=(std::move(other));
        m_buffer = other.m_buffer;
        m_next = other.m_next;
        explicit_bzero(other.m_buffer.data(), sizeof(other.m_buffer));
        other.m_next = kWords;
    }
    return *this;
}

OsRandomBits::~OsRandomBits()
{
    explicit_bzero(m_buffer.data(), sizeof(m_buffer));
}

bool OsRandomBits::refill()
{
    auto *bytes = reinterpret_cast<unsigned char *>(m_buffer.data());
    std::size_t filled = 0;
    while (filled < sizeof(m_buffer)) {
        const ssize_t got = ::getrandom(bytes + filled, sizeof(m_buffer) - filled, 0);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            const int code = errno;
            explicit_bzero(m_buffer.data(), sizeof(m_buffer));
            fail(makeError(ErrorCode::Io,
                           std::string("getrandom failed: ") + std::strerror(code)
                               + " (no fallback to a weaker generator; the release was not made)"));
            return false;
        }
        filled += static_cast<std::size_t>(got);
    }
    m_next = 0;
    return true;
}

std::uint64_t OsRandomBits::nextU64()
{
    if (failed())
        return 0;
    if (m_next == kWords && !refill())
        return 0;
    const std::uint64_t word = m_buffer[m_next];
    m_buffer[m_next] = 0; // a word is used once and not kept around
    ++m_next;
    return word;
}

// ---- SeededRandomBits ---------------------------------------------------------------------

namespace {
std::mt19937_64 seededEngine(std::uint64_t seed, std::uint64_t streamIndex)
{
    // The tag ("pbxd") keeps these streams distinct from NoiseSource's continuous streams.
    std::seed_seq seq{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                      static_cast<std::uint32_t>(streamIndex), static_cast<std::uint32_t>(streamIndex >> 32),
                      0x70627864u};
    return std::mt19937_64(seq);
}
} // namespace

SeededRandomBits::SeededRandomBits(std::uint64_t seed, std::uint64_t streamIndex)
    : m_engine(seededEngine(seed, streamIndex))
{}

} // namespace pbx::mechanisms
