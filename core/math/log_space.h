// SPDX-License-Identifier: MIT
// Log-space arithmetic used by the Rényi and privacy-loss accountants: sums and differences of
// numbers held as their natural logarithms, without overflow or catastrophic cancellation.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

namespace pbx::math {

inline constexpr double kNegInf = -std::numeric_limits<double>::infinity();
inline constexpr double kPosInf = std::numeric_limits<double>::infinity();

/// log(e^a + e^b). Either argument may be −∞ (the logarithm of 0) or +∞ (the result is +∞, not
/// the NaN of ∞ − ∞). Exact up to rounding.
inline double logAdd(double a, double b)
{
    if (a == kNegInf)
        return b;
    if (b == kNegInf)
        return a;
    if (a == kPosInf || b == kPosInf)
        return kPosInf;
    const double hi = std::max(a, b);
    const double lo = std::min(a, b);
    return hi + std::log1p(std::exp(lo - hi));
}

/// log(e^a − e^b) for a ≥ b; returns −∞ when a == b and NaN when a < b (caller's error).
inline double logSub(double a, double b)
{
    if (b == kNegInf)
        return a;
    if (a < b)
        return std::numeric_limits<double>::quiet_NaN();
    if (a == b)
        return kNegInf;
    const double d = b - a; // < 0
    // log(1 − e^d): use log(−expm1(d)) near 0 and log1p(−e^d) far from it (Mächler 2012).
    return a + (d > -0.6931471805599453 ? std::log(-std::expm1(d)) : std::log1p(-std::exp(d)));
}

/// log(1 − e^x) for x ≤ 0 (Mächler's log1mexp). −∞ at x = 0.
inline double log1mExp(double x)
{
    if (x == 0.0)
        return kNegInf;
    return x > -0.6931471805599453 ? std::log(-std::expm1(x)) : std::log1p(-std::exp(x));
}

/// log(a·e^b + c) for a > 0, c ≥ 0 (used for subsampled privacy losses). Avoids overflow of e^b.
inline double logAExpBPlusC(double a, double b, double c)
{
    if (c == 0.0)
        return std::log(a) + b;
    return logAdd(std::log(a) + b, std::log(c));
}

/// log of the generalised binomial coefficient |C(α, i)| for real α > 0 and integer i ≥ 0,
/// with its sign in *sign (C(α, i) is negative when i > α + 1 and i − ⌈α⌉ is odd, etc.).
/// Computed as lgamma(α+1) − lgamma(i+1) − lgamma(α−i+1) with the sign of Γ(α−i+1) tracked.
inline double logAbsBinomial(double alpha, int i, int *sign)
{
    int s = 1;
    const double x = alpha - i + 1.0;
    double lg;
    if (x > 0.0) {
        lg = std::lgamma(x);
    } else if (x == std::floor(x)) {
        // Γ has a pole: 1/Γ = 0, so the coefficient is exactly 0 (integer α, i > α).
        if (sign)
            *sign = 0;
        return kNegInf;
    } else {
        // Γ(x) for x < 0 has sign (−1)^{⌈−x⌉}; lgamma returns log|Γ(x)|.
        lg = std::lgamma(x);
        const long n = static_cast<long>(std::ceil(-x));
        s = (n % 2 == 0) ? 1 : -1;
    }
    if (sign)
        *sign = s;
    return std::lgamma(alpha + 1.0) - std::lgamma(i + 1.0) - lg;
}

} // namespace pbx::math
