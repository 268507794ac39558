// SPDX-License-Identifier: MIT
// A random source that fails after a given number of words: a getrandom failure in the middle of
// a draw or a request, to check that failures surface as errors and are recorded.
#pragma once

#include "core/mechanisms/random_bits.h"

#include <cstdint>

namespace pbx::test {

class FailingBits final : public mechanisms::RandomBits
{
public:
    /// Gives `words` words of a seeded stream (seed `seed`), then fails with ErrorCode::Io.
    explicit FailingBits(std::uint64_t words, std::uint64_t seed = 7) : m_left(words), m_inner(seed, 0) {}
    std::uint64_t nextU64() override
    {
        if (m_left == 0) {
            fail(makeError(ErrorCode::Io, "simulated getrandom failure"));
            return 0;
        }
        --m_left;
        return m_inner.nextU64();
    }
    bool isReproducible() const override { return true; }

private:
    std::uint64_t m_left;
    mechanisms::SeededRandomBits m_inner;
};

} // namespace pbx::test
