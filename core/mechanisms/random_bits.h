// SPDX-License-Identifier: MIT
// Sources of uniform random bits for the exact discrete samplers: the operating system's CSPRNG
// for real releases, and a seeded, reproducible stream for teaching and tests.
#pragma once

#include "core/util/result.h"

#include <array>
#include <cstdint>
#include <random>

namespace pbx::mechanisms {

/// An abstract source of independent, uniformly distributed 64-bit words, plus the exact integer
/// draws built on it (no modulo bias, no floating point).
///
/// Failure is sticky: once a source fails (OsRandomBits: getrandom(2) reported an error), failed()
/// is true, error() says why, nextU64() returns 0 from then on, and every checked draw here and
/// every sampler in discrete_samplers.h returns that error instead of a value. A source never
/// falls back to a weaker generator. Not thread-safe: use one source per thread.
class RandomBits
{
public:
    virtual ~RandomBits() = default;

    /// 64 independent uniform bits. Returns 0 once the source has failed (check failed()).
    virtual std::uint64_t nextU64() = 0;

    /// True for SeededRandomBits (reproducible, NOT for real releases); false for OsRandomBits.
    virtual bool isReproducible() const = 0;

    /// True once the source has failed; stays true.
    bool failed() const { return m_failed; }
    /// Why the source failed (meaningful only when failed()).
    const Error &error() const { return m_error; }

    /// A uniform integer in {0, …, n−1}: draws bit_width(n−1) bits and rejects values ≥ n
    /// (expected < 2 draws; exactly uniform). Valid: n ≥ 1.
    /// Errors: InvalidArgument for n = 0; the source's error (Io) if it has failed.
    Result<std::uint64_t> uniformBelow(std::uint64_t n);

    /// Bernoulli(numerator/denominator), exactly: true iff uniformBelow(denominator) < numerator.
    /// Valid: denominator ≥ 1, numerator ≤ denominator. Errors: InvalidArgument otherwise; the
    /// source's error if it has failed.
    Result<bool> bernoulliRational(std::uint64_t numerator, std::uint64_t denominator);

    /// uniformBelow without checks, for the samplers' inner loops. Precondition: n ≥ 1. The caller
    /// must test failed() before using any result (a failed source yields 0 here).
    std::uint64_t uniformBelowUnchecked(std::uint64_t n);

protected:
    RandomBits() = default;
    RandomBits(const RandomBits &) = default;
    RandomBits(RandomBits &&) = default;
    RandomBits &operator=(const RandomBits &) = default;
    RandomBits &operator=(RandomBits &&) = default;

    /// Marks the source as failed (sticky). For implementations, including test doubles.
    void fail(Error error);

private:
    Error m_error;
    bool m_failed = false;
};

/// The operating system's CSPRNG through getrandom(2) (Linux ≥ 3.17, glibc ≥ 2.25), flags 0: it
/// blocks only until the kernel's pool is first initialised, then never. Reads are buffered
/// (256 bytes), partial reads are completed and EINTR is retried; any other failure makes the
/// source fail with ErrorCode::Io (sticky, see RandomBits). The buffer is wiped on destruction.
/// Use this for every release that leaves the machine.
class OsRandomBits final : public RandomBits
{
public:
    /// Opens the source and fills the first buffer, so a missing or broken getrandom(2) is
    /// reported here. Errors: Io ("getrandom failed: <strerror>").
    static Result<OsRandomBits> open();

    OsRandomBits(OsRandomBits &&other) noexcept;
    OsRandomBits &operator=(OsRandomBits &&other) noexcept;
    OsRandomBits(const OsRandomBits &) = delete;
    OsRandomBits &operator=(const OsRandomBits &) = delete;
    ~OsRandomBits() override;

    std::uint64_t nextU64() override;
    bool isReproducible() const override { return false; }

private:
    OsRandomBits() = default;
    bool refill();

    static constexpr std::size_t kWords = 32; // 256 bytes: one uninterruptible getrandom call
    std::array<std::uint64_t, kWords> m_buffer{};
    std::size_t m_next = kWords;
};

/// A reproducible stream: std::mt19937_64 seeded through std::seed_seq from
/// (seed, streamIndex, a fixed tag). Both are fully specified by the C++ standard, so the stream
/// is identical on every conforming implementation. It is predictable from the seed and NOT
/// cryptographically secure: for teaching, demonstrations and tests only, never for releases
/// that leave the machine. Never fails.
class SeededRandomBits final : public RandomBits
{
public:
    /// The stream for (seed, streamIndex); e.g. streamIndex = ledger event index, so each event
    /// of a seeded session replays the same noise.
    SeededRandomBits(std::uint64_t seed, std::uint64_t streamIndex);

    std::uint64_t nextU64() override { return m_engine(); }
    bool isReproducible() const override { return true; }

private:
    std::mt19937_64 m_engine;
};

} // namespace pbx::mechanisms
