// SPDX-License-Identifier: MIT
// SmallDB (Blum, Ligett & Roth 2008; Dwork & Roth 2014, §4.1 and Thm 4.5) by exact enumeration, the
// black box of SmallDBG (Cummings, Krehbiel, Lai & Tantipongpipat 2018: BBScheduler with SmallDB).
// The range is every multiset of m universe elements, |R| = C(N+m−1, m); the output y is drawn with
// probability ∝ exp(−ε·t·maxerr(y)/2), maxerr(y) = max_q |q(x) − q(y)| over counting queries (the
// utility −maxerr has sensitivity 1/t on a t-row database). The draw is exact (no floating-point
// softmax, which leaks: Ilvento 2020): integer log-weights and the exact Bernoulli(exp(−γ)) sampler.
// Derivations (enumeration size, the integer weights): docs/growing-databases.md, "SmallDB".
#pragma once

#include "core/data/rows.h"
#include "core/data/table.h"
#include "core/mechanisms/random_bits.h"
#include "core/util/result.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pbx::growing {

/// Largest enumerated range |R|: beyond it the run is refused with SMALLDB_TOO_LARGE (memory 8 bytes per
/// candidate; an approximate sampler such as MCMC would void the privacy proof).
inline constexpr std::uint64_t kSmallDbMaxRange = 5'000'000;
/// Largest database a SmallDB run accepts (t·m and the integer weights stay exact in 64/128 bits).
inline constexpr std::uint64_t kSmallDbMaxRows = std::uint64_t{1} << 40;

/// |R| = C(N+m−1, m), the number of multisets of size m over N elements; saturates at UINT64_MAX.
/// N = 16: m = 6 → 54,264; m = 8 → 490,314; m = 10 → 3,268,760.
std::uint64_t smallDbRangeSize(std::size_t universe, std::size_t m);

/// SmallDB over a universe of N cells and counting queries given as 0/1 masks over the cells.
class SmallDb
{
public:
    /// Valid: 2 ≤ N ≤ 2^16, 1 ≤ m ≤ 255, 1 ≤ |Q| ≤ 4096 queries each of N entries in {0, 1}.
    /// Errors: INVALID_BLACK_BOX naming `field` ("black_box.m", "black_box.queries", …);
    /// SMALLDB_TOO_LARGE (ResourceLimit) when C(N+m−1, m) > 5·10⁶.
    static Result<SmallDb> create(std::size_t universe, std::vector<std::vector<std::uint8_t>> queries,
                                  std::size_t m, std::string_view field = "black_box");

    std::size_t universe() const { return m_universe; }
    std::size_t size() const { return m_m; } ///< m
    std::size_t queryCount() const { return m_queries.size(); }
    std::uint64_t rangeSize() const { return m_rangeSize; }

    /// min over R of maxerr(y) (fraction scale) for the database with these cell counts (N entries,
    /// their sum t ≥ 1): the best any output can do. CPS1988 (region × smsa × parttime, 28 marginal
    /// cells, t = 28,155): m = 8 → 0.0896, m = 6 → 0.1122. Errors: INVALID_BLACK_BOX (wrong length,
    /// t = 0 or t > 2^40).
    Result<double> bestMaxError(std::span<const std::uint64_t> cellCounts) const;

    /// One ε-DP draw (exact exponential mechanism): the output multiset as counts per cell (sum m).
    /// The weight of y is exp(−γ(y)), γ(y) = ⌈E·D(y)/(2m)⌉·2^−32 with D(y) = max_q |m·C_q − t·Y_q|
    /// (C_q, Y_q the query's counts in x and y: D/(m t) = maxerr, and D moves by ≤ m between neighbours)
    /// and E = ⌊(ε − 2^−30)·2^32⌋, so neighbouring databases change each γ by ≤ ε/2 − 2^−32 and the
    /// draw is ε-DP (Dwork & Roth 2014, Thm 3.10). Valid: 2^−20 ≤ ε ≤ 2^20. Errors: INVALID_BUDGET
    /// ("epsilon"); as bestMaxError; the source's error (Io).
    Result<std::vector<std::uint32_t>> sample(std::span<const std::uint64_t> cellCounts, double epsilon,
                                              mechanisms::RandomBits &bits) const;

    /// The answers q(y) = Y_q/m of every query on an output multiset (fraction scale).
    std::vector<double> answers(std::span<const std::uint32_t> output) const;

private:
    /// Calls visit(index, D(y)) for every candidate in the order of combinations with replacement
    /// (a_1 ≤ … ≤ a_m, lexicographic); stops early when visit returns false.
    template<typename Visit>
    void enumerate(std::span<const std::uint64_t> cellCounts, Visit visit) const;
    Result<std::uint64_t> checkCounts(std::span<const std::uint64_t> cellCounts) const;

    std::size_t m_universe = 0;
    std::size_t m_m = 0;
    std::uint64_t m_rangeSize = 0;
    std::vector<std::vector<std::uint8_t>> m_queries;  ///< [q][cell]
    std::vector<std::vector<std::uint32_t>> m_columns; ///< [cell]: the queries containing the cell
};

} // namespace pbx::growing
