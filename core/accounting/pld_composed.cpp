// SPDX-License-Identifier: MIT
#include "core/accounting/pld_composed.h"

#include "core/math/directed_rounding.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace pbx::accounting {

namespace {

constexpr double kUnitDouble = 0x1p-53;
constexpr double kUnitLongDouble = 0x1p-64;

/// γ_n = n·u/(1 − n·u), u = 2⁻⁵³ (Higham 2002, §3.1): a sum of non-negative products whose
/// summation tree is n deep, computed in double, lies within a factor 1 ± γ_n of the exact sum.
double composedGamma(double n)
{
    const double nu = n * kUnitDouble;
    return nu / (1.0 - nu);
}

constexpr std::size_t kBlock = 64; ///< products per block: four partial sums of 16

/// Σ y[j]·f[j], j < n: each block of 64 by four partial sums (depth 16 + 2, and the product's
/// rounding), the block sums by a binary counter (pairwise: depth ≤ 2⌈log₂ blocks⌉ + 1). With
/// every term ≥ 0 the result is within γ_{2⌈log₂ blocks⌉ + 21} relative of the exact sum.
double dotProduct(const double *y, const double *f, std::size_t n)
{
    double level[64];
    std::uint64_t occupied = 0;
    for (std::size_t start = 0; start < n; start += kBlock) {
        const std::size_t end = std::min(n, start + kBlock);
        double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
        std::size_t j = start;
        for (; j + 4 <= end; j += 4) {
            s0 += y[j] * f[j];
            s1 += y[j + 1] * f[j + 1];
            s2 += y[j + 2] * f[j + 2];
            s3 += y[j + 3] * f[j + 3];
        }
        for (; j < end; ++j)
            s0 += y[j] * f[j];
        double carry = (s0 + s1) + (s2 + s3);
        int k = 0;
        for (; occupied >> k & 1U; ++k) {
            carry = level[k] + carry;
            occupied &= ~(std::uint64_t{1} << k);
        }
        level[k] = carry;
        occupied |= std::uint64_t{1} << k;
    }
    double total = 0.0;
    for (int k = 0; k < 64; ++k)
        if (occupied >> k & 1U)
            total += level[k];
    return total;
}

} // namespace

std::optional<ComposedPmfQuery> ComposedPmfQuery::make(const PldPmf &x, const PldPmf &y)
{
    if (!x.pessimistic || !y.pessimistic || x.interval != y.interval || x.probs.empty() || y.probs.empty())
        return std::nullopt;
    const auto nx = static_cast<std::int64_t>(x.probs.size());
    const auto ny = static_cast<std::int64_t>(y.probs.size());
    ComposedPmfQuery q;
    q.m_interval = x.interval;
    q.m_yLower = y.lowerIndex;
    q.m_fTop = x.lowerIndex + nx - 1;
    q.m_tMax = x.lowerIndex + y.lowerIndex + nx + ny - 2;
    // F_P(t) at t ≥ 0 reads F_X from X's top down to t − Y's highest index: rows 0 … m_tMax of
    // the table when the composition's lowest loss is at most one step (else t = 0 would read
    // below it). A composition whose losses all lie below ε = d has δ(ε ≥ d) = p_∞: not worth it.
    if (x.lowerIndex + y.lowerIndex > 1 || q.m_tMax < 1)
        return std::nullopt;
    q.m_ny = static_cast<std::size_t>(ny);
    if (std::any_of(y.probs.begin(), y.probs.end(), [](double p) { return p < 0.0; })) {
        q.m_yClipped.resize(q.m_ny);
        for (std::size_t j = 0; j < q.m_ny; ++j)
            q.m_yClipped[j] = std::max(y.probs[j], 0.0);
        q.m_y = q.m_yClipped.data();
    } else {
        q.m_y = y.probs.data();
    }
    // F(s) = F(s + 1) + (1 − e^{−d})·V(s + 1), V(s) = x_s + e^{−d}·V(s + 1), V = Σ_{i ≥ s} x_i e^{(s − i)d}:
    // sums of non-negative terms in long double (pmfDeltasForEpsilons' recurrence).
    const long double decay = std::exp(-static_cast<long double>(x.interval));
    const long double gain = -std::expm1(-static_cast<long double>(x.interval));
    const std::int64_t rows = q.m_tMax + 1;
    q.m_f.resize(static_cast<std::size_t>(rows));
    long double f = 0.0L;
    long double v = std::max(x.probs.back(), 0.0);
    q.m_f[0] = 0.0;
    const std::int64_t inside = std::min(rows, nx); // rows with an X bin
    for (std::int64_t r = 1; r < inside; ++r) {
        f += gain * v;
        v = static_cast<long double>(std::max(x.probs[static_cast<std::size_t>(nx - 1 - r)], 0.0))
            + decay * v;
        q.m_f[static_cast<std::size_t>(r)] = static_cast<double>(f);
    }
    for (std::int64_t r = std::max<std::int64_t>(inside, 1); r < rows; ++r) { // below X: V decays
        f += gain * v;
        v *= decay;
        q.m_f[static_cast<std::size_t>(r)] = static_cast<double>(f);
    }
    q.m_infinity = std::min(1.0, x.infinityMass + y.infinityMass - x.infinityMass * y.infinityMass);
    // The dot product's γ (its blocks at most ⌈ny/64⌉), the recurrence (≤ 8·rows·2⁻⁶⁴), the
    // table's rounding to double and p_∞'s (a few ulps).
    const double blocks = std::ceil(static_cast<double>(ny) / static_cast<double>(kBlock));
    q.m_relError = composedGamma(2.0 * std::ceil(std::log2(std::max(blocks, 1.0))) + 21.0)
                   + 8.0 * static_cast<double>(rows) * kUnitLongDouble + 8.0 * kUnitDouble;
    return q;
}

double ComposedPmfQuery::deltaAt(std::int64_t t) const
{
    ++m_evaluations;
    // F_P(t) = Σ_j y_j F_X(t − yLower − j), F_X(s) at row r = top − s; rows ≤ 0 hold 0.
    const std::int64_t r0 = m_fTop - t + m_yLower;
    const std::int64_t first = std::max<std::int64_t>(0, 1 - r0);
    const auto ny = static_cast<std::int64_t>(m_ny);
    double sum = 0.0;
    if (first < ny)
        sum = dotProduct(m_y + first, m_f.data() + (r0 + first), static_cast<std::size_t>(ny - first));
    const double total = m_infinity + sum;
    if (!(total > 0.0)) // no loss above t and no p_∞: exactly 0, as pmfDeltaForEpsilon says
        return 0.0;
    return std::min(1.0, math::nudgeUp(total * (1.0 + m_relError), 2));
}

std::optional<double> ComposedPmfQuery::deltaForEpsilon(double epsilon) const
{
    if (!(epsilon >= 0.0) || !std::isfinite(epsilon))
        return std::nullopt;
    const double d = m_interval;
    // The grid point t with ℓ_{t−1} < ε ≤ ℓ_t, the losses computed as PldPmf::lossAt does.
    auto t = static_cast<std::int64_t>(std::ceil(epsilon / d));
    while (static_cast<double>(t) * d < epsilon)
        ++t;
    while (t > 0 && static_cast<double>(t - 1) * d >= epsilon)
        --t;
    if (t > m_tMax)
        return deltaAt(m_tMax); // no finite loss above ε: p_∞
    if (t == 0)
        return deltaAt(0);
    // On [ℓ_{t−1}, ℓ_t] δ(ε) = λ·δ(ℓ_{t−1}) + (1 − λ)·δ(ℓ_t) with λ = (1 − e^{ε − ℓ_t})/(1 − e^{−d}):
    // λ rounded up and the larger end taken as the upper one, the combination bounds δ(ε) above.
    const double upper = deltaAt(t - 1);
    const double lower = deltaAt(t);
    const double lambda = std::min(
        1.0, math::nudgeUp(-std::expm1(epsilon - static_cast<double>(t) * d) / -std::expm1(-d), 4));
    const double delta = lower + std::max(0.0, upper - lower) * std::max(lambda, 0.0);
    return std::min(1.0, math::nudgeUp(delta, 2));
}

std::optional<double> ComposedPmfQuery::epsilonForDelta(double delta) const
{
    if (m_infinity > delta)
        return std::numeric_limits<double>::infinity();
    double upperValue = deltaAt(0);
    if (upperValue <= delta)
        return 0.0;
    double lowerValue = deltaAt(m_tMax);
    if (lowerValue > delta)
        return std::nullopt; // p_∞ ≤ δ, but not with its rounding: compose and ask the PMF
    // δ̂(lo) > δ ≥ δ̂(hi); each δ̂ is an upper bound, so ℓ_hi certifies δ and the answer lies on
    // the piece [ℓ_{hi−1}, ℓ_hi] or (when rounding made δ̂ non-monotone) at or above the true one.
    std::int64_t lo = 0;
    std::int64_t hi = m_tMax;
    while (hi - lo > 1) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        const double value = deltaAt(mid);
        if (value <= delta) {
            hi = mid;
            lowerValue = value;
        } else {
            lo = mid;
            upperValue = value;
        }
    }
    // On the piece δ is affine in e^ε: the interpolant of the two upper bounds lies above it, so
    // its solution e^{ε − ℓ_hi} = 1 − r·(1 − e^{−d}) certifies δ; r rounded down moves ε up.
    const double d = m_interval;
    const double r
        = std::clamp(math::nudgeDown((delta - lowerValue) / (upperValue - lowerValue), 4), 0.0, 1.0);
    const double answer = static_cast<double>(hi) * d + std::log1p(r * std::expm1(-d));
    if (!(answer > 0.0))
        return 0.0;
    // As pmfEpsilonForDelta rounds its upper bounds.
    return math::nudgeUp(answer + 1e-12 * std::fabs(answer), 2);
}

} // namespace pbx::accounting
