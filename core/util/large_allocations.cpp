// SPDX-License-Identifier: MIT
// Replaces the global operator new / delete of the programs that link it (pbx, pbx-cli and the
// benchmarks; CMake's pbx_large_allocations object library): an allocation of at least
// kLargeAllocationBytes is aligned to a 2 MiB huge page and advised MADV_HUGEPAGE, so that Linux's
// transparent huge pages (in their default "madvise" mode) back it with 2 MiB pages. The PLD's
// megabin vectors and FFT buffers are otherwise faulted in 4 KiB at a time: at interval 1e-5 a
// composition allocates and touches some 100 MB of fresh memory, and the page faults were about a
// sixth of its time (docs/composition-strategies.md, "Side by side with the peers"). Nothing
// else changes: every other allocation is std::malloc's, every block is released by std::free,
// and where transparent huge pages are off (or not Linux) the advice is simply not taken.
#include <cstddef>
#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace {

constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;
/// From 4 MiB up: the rounding to whole huge pages then wastes at most a third of the block.
constexpr std::size_t kLargeAllocationBytes = std::size_t{4} << 20;

void *allocate(std::size_t bytes) noexcept
{
    if (bytes >= kLargeAllocationBytes) {
        const std::size_t rounded = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
        if (rounded >= bytes) { // no overflow
            if (void *p = std::aligned_alloc(kHugePageBytes, rounded)) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
                ::madvise(p, rounded, MADV_HUGEPAGE); // advice only: a failure changes nothing
#endif
                return p;
            }
        }
    }
    return std::malloc(bytes == 0 ? 1 : bytes);
}

/// operator new's contract: retry through the new-handler, else throw std::bad_alloc.
void *allocateOrThrow(std::size_t bytes)
{
    for (;;) {
        if (void *p = allocate(bytes))
            return p;
        std::new_handler handler = std::get_new_handler();
        if (!handler)
            throw std::bad_alloc();
        handler();
    }
}

} // namespace

void *operator new(std::size_t bytes)
{
    return allocateOrThrow(bytes);
}

void *operator new[](std::size_t bytes)
{
    return allocateOrThrow(bytes);
}

void *operator new(std::size_t bytes, const std::nothrow_t &) noexcept
{
    try {
        return allocateOrThrow(bytes);
    } catch (...) {
        return nullptr;
    }
}

void *operator new[](std::size_t bytes, const std::nothrow_t &) noexcept
{
    try {
        return allocateOrThrow(bytes);
    } catch (...) {
        return nullptr;
    }
}

void operator delete(void *p) noexcept
{
    std::free(p);
}

void operator delete[](void *p) noexcept
{
    std::free(p);
}

void operator delete(void *p, std::size_t) noexcept
{
    std::free(p);
}

void operator delete[](void *p, std::size_t) noexcept
{
    std::free(p);
}

void operator delete(void *p, const std::nothrow_t &) noexcept
{
    std::free(p);
}

void operator delete[](void *p, const std::nothrow_t &) noexcept
{
    std::free(p);
}
