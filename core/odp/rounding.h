// SPDX-License-Identifier: MIT
// Products and quotients rounded up or down (one fused multiply-add tells the sign of the
// rounding error), so ε and δ computed here are never under-reported.
#pragma once

#include <cmath>
#include <limits>

namespace pbx::odp {

/// a·b rounded up (finite a, b).
inline double multiplyRoundUp(double a, double b)
{
    const double p = a * b;
    return std::fma(a, b, -p) > 0.0 ? std::nextafter(p, std::numeric_limits<double>::infinity()) : p;
}

/// a/b rounded up (finite a, b > 0).
inline double divideRoundUp(double a, double b)
{
    const double q = a / b;
    return std::fma(-q, b, a) > 0.0 ? std::nextafter(q, std::numeric_limits<double>::infinity()) : q;
}

/// a/b rounded down (finite a, b > 0).
inline double divideRoundDown(double a, double b)
{
    const double q = a / b;
    return std::fma(-q, b, a) < 0.0 ? std::nextafter(q, -std::numeric_limits<double>::infinity()) : q;
}

} // namespace pbx::odp
