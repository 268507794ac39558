// SPDX-License-Identifier: MIT
// Directed rounding for budget arithmetic. Charges are rounded up and budgets/remainders down,
// so floating-point error can never make a filter accept an overspend (docs/accuracy-first.md §6.2).
#pragma once

#include <cmath>
#include <limits>

namespace pbx::math {

/// Exact error of a + b (Knuth's TwoSum): a + b == s + err exactly, with s = fl(a + b).
inline double twoSumError(double a, double b, double s)
{
    const double bb = s - a;
    return (a - (s - bb)) + (b - bb);
}

/// a + b rounded towards +∞ (the smallest double ≥ the exact sum). Finite inputs only.
inline double addRoundUp(double a, double b)
{
    const double s = a + b;
    if (!std::isfinite(s))
        return s;
    return twoSumError(a, b, s) > 0.0 ? std::nextafter(s, std::numeric_limits<double>::infinity()) : s;
}

/// a − b rounded towards −∞ (the largest double ≤ the exact difference). Finite inputs only.
inline double subtractRoundDown(double a, double b)
{
    const double s = a - b;
    if (!std::isfinite(s))
        return s;
    return twoSumError(a, -b, s) < 0.0 ? std::nextafter(s, -std::numeric_limits<double>::infinity()) : s;
}

/// a·b rounded towards +∞ (finite a, b): one fused multiply-add tells the sign of the rounding error.
inline double multiplyRoundUp(double a, double b)
{
    const double p = a * b;
    return std::fma(a, b, -p) > 0.0 ? std::nextafter(p, std::numeric_limits<double>::infinity()) : p;
}

/// a·b rounded towards −∞ (finite a, b ≥ 0); 0 when the product is below the normal range, where
/// fma's error term can round to 0 and hide its sign.
inline double multiplyRoundDown(double a, double b)
{
    const double p = a * b;
    if (std::fabs(p) < std::numeric_limits<double>::min())
        return 0.0;
    return std::fma(a, b, -p) < 0.0 ? std::nextafter(p, -std::numeric_limits<double>::infinity()) : p;
}

/// a/b rounded towards +∞ (finite a, b > 0).
inline double divideRoundUp(double a, double b)
{
    const double q = a / b;
    return std::fma(-q, b, a) > 0.0 ? std::nextafter(q, std::numeric_limits<double>::infinity()) : q;
}

/// a/b rounded towards −∞ (finite a, b > 0).
inline double divideRoundDown(double a, double b)
{
    const double q = a / b;
    return std::fma(-q, b, a) < 0.0 ? std::nextafter(q, -std::numeric_limits<double>::infinity()) : q;
}

/// Moves x up by `ulps` units in the last place. Used on computed costs (ε, ρ) whose few
/// floating-point operations each err by at most half an ulp, so the result is an upper bound.
inline double nudgeUp(double x, int ulps = 4)
{
    for (int i = 0; i < ulps; ++i)
        x = std::nextafter(x, std::numeric_limits<double>::infinity());
    return x;
}

/// Moves x down by `ulps` units in the last place (for computed budgets and noise-free bounds).
inline double nudgeDown(double x, int ulps = 4)
{
    for (int i = 0; i < ulps; ++i)
        x = std::nextafter(x, -std::numeric_limits<double>::infinity());
    return x;
}

} // namespace pbx::math
