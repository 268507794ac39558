// SPDX-License-Identifier: MIT
#include "core/growing/smalldb.h"

#include "core/growing/growing_error.h"
#include "core/growing/stream_model.h"
#include "core/mechanisms/discrete_samplers.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace pbx::growing {

namespace {

__extension__ typedef unsigned __int128 Wide;

constexpr std::uint64_t kGrid = std::uint64_t{1} << 32;     ///< γ is kept in units of 2^−32
constexpr std::uint64_t kGammaCap = std::uint64_t{1} << 61; ///< min(γ, cap) keeps the sensitivity

} // namespace

std::uint64_t smallDbRangeSize(std::size_t universe, std::size_t m)
{
    // C(N+m−1, m) = Π_{i=1..m} (N−1+i)/i; each partial product is itself a binomial coefficient, so
    // the division is exact.
    if (universe == 0)
        return m == 0 ? 1 : 0;
    Wide value = 1;
    for (std::size_t i = 1; i <= m; ++i) {
        value = value * Wide(universe - 1 + i) / Wide(i);
        if (value > Wide(std::numeric_limits<std::uint64_t>::max()) / Wide(universe + m))
            return std::numeric_limits<std::uint64_t>::max();
    }
    return static_cast<std::uint64_t>(value);
}

Result<SmallDb> SmallDb::create(std::size_t universe, std::vector<std::vector<std::uint8_t>> queries,
                                std::size_t m, std::string_view field)
{
    const std::string f(field);
    if (universe < 2 || universe > 65536)
        return growingError(kInvalidBlackBox, f + ".universe", "SmallDB needs 2 <= N <= 65536 cells");
    if (m < 1 || m > 255)
        return growingError(kInvalidBlackBox, f + ".m", "must be an integer from 1 to 255");
    if (queries.empty() || queries.size() > 4096)
        return growingError(kInvalidBlackBox, f + ".queries", "needs 1 to 4096 counting queries");
    for (std::size_t q = 0; q < queries.size(); ++q) {
        if (queries[q].size() != universe)
            return growingError(kInvalidBlackBox, f + ".queries[" + std::to_string(q) + "]",
                                "needs one entry per universe cell");
        if (std::any_of(queries[q].begin(), queries[q].end(), [](std::uint8_t v) { return v > 1; }))
            return growingError(kInvalidBlackBox, f + ".queries[" + std::to_string(q) + "]",
                                "a counting query has entries in {0, 1}");
    }
    const std::uint64_t range = smallDbRangeSize(universe, m);
    if (range > kSmallDbMaxRange)
        return growingError(kSmallDbTooLarge, f + ".m",
                            "C(N+m-1, m) = "
                                + (range == std::numeric_limits<std::uint64_t>::max()
                                       ? std::string("more than 2^64")
                                       : std::to_string(range))
                                + " candidate databases exceed the enumeration limit of 5000000");
    SmallDb db;
    db.m_universe = universe;
    db.m_m = m;
    db.m_rangeSize = range;
    db.m_columns.assign(universe, {});
    for (std::size_t q = 0; q < queries.size(); ++q)
        for (std::size_t j = 0; j < universe; ++j)
            if (queries[q][j])
                db.m_columns[j].push_back(static_cast<std::uint32_t>(q));
    db.m_queries = std::move(queries);
    return db;
}

Result<std::uint64_t> SmallDb::checkCounts(std::span<const std::uint64_t> cellCounts) const
{
    if (cellCounts.size() != m_universe)
        return growingError(kInvalidBlackBox, "cell_counts", "needs one count per universe cell");
    std::uint64_t t = 0;
    for (const auto c : cellCounts) {
        if (c > kSmallDbMaxRows)
            return growingError(kInvalidBlackBox, "cell_counts", "more than 2^40 rows");
        t += c;
    }
    if (t == 0 || t > kSmallDbMaxRows)
        return growingError(kInvalidBlackBox, "cell_counts", "needs 1 to 2^40 rows");
    return t;
}

template<typename Visit>
void SmallDb::enumerate(std::span<const std::uint64_t> cellCounts, Visit visit) const
{
    const std::size_t Q = m_queries.size();
    std::uint64_t t = 0;
    for (const auto c : cellCounts)
        t += c;
    // m·C_q on the count scale of x; Y_q the query's count in the candidate (all exact integers:
    // m·C_q ≤ 255·2^40 and t·Y_q ≤ 2^40·255).
    std::vector<std::int64_t> scaledTruth(Q, 0);
    for (std::size_t q = 0; q < Q; ++q) {
        std::uint64_t c = 0;
        for (std::size_t j = 0; j < m_universe; ++j)
            c += m_queries[q][j] * cellCounts[j];
        scaledTruth[q] = std::int64_t(m_m) * std::int64_t(c);
    }
    std::vector<std::int64_t> y(Q, 0);
    std::vector<std::size_t> a(m_m, 0); // a_1 ≤ … ≤ a_m, all 0 at first
    for (const auto q : m_columns[0])
        y[q] += std::int64_t(m_m);
    const std::int64_t T = std::int64_t(t);
    std::uint64_t index = 0;
    for (;;) {
        std::int64_t worst = 0;
        for (std::size_t q = 0; q < Q; ++q)
            worst = std::max(worst, std::abs(scaledTruth[q] - T * y[q]));
        if (!visit(index, std::uint64_t(worst)))
            return;
        ++index;
        // Next multiset: the rightmost position that can grow grows, and every later one copies it.
        std::size_t i = m_m;
        while (i > 0 && a[i - 1] == m_universe - 1)
            --i;
        if (i == 0)
            return;
        const std::size_t next = a[i - 1] + 1;
        for (std::size_t k = i - 1; k < m_m; ++k) {
            for (const auto q : m_columns[a[k]])
                --y[q];
            a[k] = next;
            for (const auto q : m_columns[next])
                ++y[q];
        }
    }
}

Result<double> SmallDb::bestMaxError(std::span<const std::uint64_t> cellCounts) const
{
    PBX_TRY(t, checkCounts(cellCounts));
    std::uint64_t best = std::numeric_limits<std::uint64_t>::max();
    enumerate(cellCounts, [&](std::uint64_t, std::uint64_t d) {
        best = std::min(best, d);
        return true;
    });
    return double(best) / (double(m_m) * double(t));
}

Result<std::vector<std::uint32_t>> SmallDb::sample(std::span<const std::uint64_t> cellCounts, double epsilon,
                                                   mechanisms::RandomBits &bits) const
{
    PBX_RETURN_IF_ERROR(checkCounts(cellCounts));
    if (!(epsilon >= std::ldexp(1.0, -20) && epsilon <= std::ldexp(1.0, 20)))
        return growingError(kInvalidBudget, "epsilon",
                            "the exact SmallDB sampler needs 2^-20 <= epsilon <= 2^20 (got "
                                + std::to_string(epsilon) + ")");
    // E = ⌊(ε − 2^−30)·2^32⌋: the 2^−30 pays for rounding each γ up to the 2^−32 grid.
    const std::uint64_t E
        = static_cast<std::uint64_t>(std::floor((epsilon - std::ldexp(1.0, -30)) * double(kGrid)));
    const Wide twoM = Wide(2 * m_m);
    std::vector<std::uint64_t> gamma(m_rangeSize);
    std::uint64_t least = std::numeric_limits<std::uint64_t>::max();
    enumerate(cellCounts, [&](std::uint64_t index, std::uint64_t d) {
        const Wide g = (Wide(E) * Wide(d) + twoM - 1) / twoM; // ⌈E·D/(2m)⌉, exact
        gamma[index] = g > Wide(kGammaCap) ? kGammaCap : static_cast<std::uint64_t>(g);
        least = std::min(least, gamma[index]);
        return true;
    });
    // Rejection from the uniform proposal: accept y with probability exp(−(γ(y) − min γ)), exactly.
    // Subtracting min γ changes no ratio between candidates; expected tries ≤ |R|.
    std::uint64_t chosen = 0;
    for (;;) {
        PBX_TRY(pick, bits.uniformBelow(m_rangeSize));
        const std::uint64_t num = gamma[pick] - least;
        if (num == 0) {
            chosen = pick;
            break;
        }
        PBX_TRY(accept, mechanisms::sampleBernoulliExp(bits, num, kGrid));
        if (accept) {
            chosen = pick;
            break;
        }
    }
    // Decode the chosen index by enumerating again (data-independent order).
    std::vector<std::uint32_t> output(m_universe, 0);
    std::vector<std::size_t> a(m_m, 0);
    std::uint64_t index = 0;
    for (; index < chosen; ++index) {
        std::size_t i = m_m;
        while (i > 0 && a[i - 1] == m_universe - 1)
            --i;
        const std::size_t next = a[i - 1] + 1;
        for (std::size_t k = i - 1; k < m_m; ++k)
            a[k] = next;
    }
    for (const auto j : a)
        ++output[j];
    return output;
}

std::vector<double> SmallDb::answers(std::span<const std::uint32_t> output) const
{
    std::vector<double> result(m_queries.size(), 0.0);
    for (std::size_t q = 0; q < m_queries.size(); ++q) {
        std::uint64_t c = 0;
        for (std::size_t j = 0; j < m_universe && j < output.size(); ++j)
            c += m_queries[q][j] * output[j];
        result[q] = double(c) / double(m_m);
    }
    return result;
}

} // namespace pbx::growing
