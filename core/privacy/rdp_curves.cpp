// SPDX-License-Identifier: MIT
#include "core/privacy/rdp_curves.h"

#include "core/math/directed_rounding.h"
#include "core/math/log_space.h"
#include "core/math/normal.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pbx::privacy {

std::vector<double> defaultRdpOrders()
{
    std::vector<double> orders;
    orders.reserve(156);
    for (int x = 1; x < 100; ++x)
        orders.push_back(1.0 + x / 10.0);
    for (int a = 11; a < 64; ++a)
        orders.push_back(a);
    for (double a : {128.0, 256.0, 512.0, 1024.0})
        orders.push_back(a);
    return orders;
}

double rdpGaussian(double sigma, double sensitivity, double alpha)
{
    if (std::isinf(alpha))
        return math::kPosInf;
    const double z = sigma / sensitivity;
    return alpha / (2.0 * z * z);
}

double rdpLaplace(double epsilon0, double alpha)
{
    if (std::isinf(alpha))
        return epsilon0;
    if (alpha == 1.0)
        return epsilon0 + std::expm1(-epsilon0);
    const double c = std::expm1((1.0 - 2.0 * alpha) * epsilon0) / (2.0 * alpha - 1.0);
    const double v = (alpha - 1.0) * c;
    const double ratio = v == 0.0 ? 1.0 : std::log1p(v) / v;
    return epsilon0 + c * ratio;
}

double rdpPureDp(double epsilon, double alpha)
{
    if (epsilon == 0.0)
        return 0.0;
    if (std::isinf(alpha))
        return epsilon;
    const double num = std::log1p(std::exp(-epsilon));
    const double den = std::log1p(std::exp(-(2.0 * alpha - 1.0) * epsilon));
    const double value = epsilon - (num - den) / (alpha - 1.0);
    // The closed form is ≤ ε; guard rounding and also use the zCDP bound αε²/2 if smaller.
    return std::min({value, epsilon, 0.5 * alpha * epsilon * epsilon});
}

namespace {

/// ln(q₁e^{αa} + q₂e^{α(a+η)})/(α − 1) for one end point a ∈ (−η, 0), in log space.
double boundedRangeAt(double eta, double alpha, double a)
{
    const double logDen = a + std::log(std::expm1(eta)); // ln(e^{a+η} − e^a)
    const double logQ1 = std::log(std::expm1(a + eta)) - logDen;
    const double logQ2 = std::log(-std::expm1(a)) - logDen;
    return math::logAdd(logQ1 + alpha * a, logQ2 + alpha * (a + eta)) / (alpha - 1.0);
}

} // namespace

double rdpBoundedRange(double eta, double alpha)
{
    if (!(eta > 0.0))
        return 0.0;
    if (std::isinf(alpha))
        return eta;
    const double cap = std::min(0.5 * alpha * eta * eta / 4.0, rdpPureDp(eta, alpha));
    if (eta > 700.0) // expm1(η) overflows; the pure bound is then the answer
        return cap;
    // Grid over the interior of [−η, 0] (both end points give 0), then a golden-section search
    // around the best grid point (the objective is smooth and unimodal there).
    constexpr int kGrid = 4000;
    double best = 0.0;
    int bestAt = 1;
    for (int i = 1; i < kGrid; ++i) {
        const double v = boundedRangeAt(eta, alpha, -eta + eta * i / kGrid);
        if (v > best) {
            best = v;
            bestAt = i;
        }
    }
    double lo = -eta + eta * (bestAt - 1) / kGrid, hi = -eta + eta * (bestAt + 1) / kGrid;
    const double phi = (std::sqrt(5.0) - 1.0) / 2.0;
    double x1 = hi - phi * (hi - lo), x2 = lo + phi * (hi - lo);
    double f1 = boundedRangeAt(eta, alpha, x1), f2 = boundedRangeAt(eta, alpha, x2);
    for (int it = 0; it < 80; ++it) {
        if (f1 < f2) {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + phi * (hi - lo);
            f2 = boundedRangeAt(eta, alpha, x2);
        } else {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - phi * (hi - lo);
            f1 = boundedRangeAt(eta, alpha, x1);
        }
    }
    best = std::max({best, f1, f2});
    // A grid or search maximum can only undershoot the supremum: round up by 1e-9 relative.
    return std::min(best * (1.0 + 1e-9), cap);
}

double rdpZcdp(double rho, double alpha, double xi)
{
    if (std::isinf(alpha))
        return rho > 0.0 ? math::kPosInf : xi;
    return xi + rho * alpha;
}

namespace {

double logErfc(double x)
{
    return std::log(2.0) + math::normalLogCdf(-x * std::sqrt(2.0));
}

// log A_α for integer α ≥ 2 (exact binomial expansion, log-sum-exp). log C(α, i) is updated
// incrementally (log C(α,i) = log C(α,i−1) + log((α−i+1)/i)), one log per term.
double logAInteger(double q, double z, int alpha)
{
    const double logQ = std::log(q);
    const double log1mQ = std::log1p(-q);
    const double twoZ2 = 2.0 * z * z;
    double logA = math::kNegInf;
    double logCoef = 0.0;
    for (int i = 0; i <= alpha; ++i) {
        if (i > 0)
            logCoef += std::log(static_cast<double>(alpha - i + 1) / i);
        const double s = logCoef + i * logQ + (alpha - i) * log1mQ + (double(i) * i - i) / twoZ2;
        logA = math::logAdd(logA, s);
    }
    return logA;
}

// A signed number held as (sign, log|x|).
struct SignedLog
{
    int sign = 0;
    double logAbs = math::kNegInf;

    void add(int s, double logTerm)
    {
        if (s == 0 || logTerm == math::kNegInf)
            return;
        if (sign == 0) {
            sign = s;
            logAbs = logTerm;
        } else if (sign == s) {
            logAbs = math::logAdd(logAbs, logTerm);
        } else if (logAbs > logTerm) {
            logAbs = math::logSub(logAbs, logTerm);
        } else if (logAbs < logTerm) {
            logAbs = math::logSub(logTerm, logAbs);
            sign = s;
        } else {
            sign = 0;
            logAbs = math::kNegInf;
        }
    }
};

// log A_α for fractional α (MTZ19 §3.3). Returns +∞ when the series does not converge.
double logAFractional(double q, double z, double alpha, FractionalOrderMethod method)
{
    const double z0 = z * z * std::log(1.0 / q - 1.0) + 0.5;
    const double logQ = std::log(q);
    const double log1mQ = std::log1p(-q);
    const double twoZ2 = 2.0 * z * z;
    const double sqrt2Z = std::sqrt(2.0) * z;
    constexpr int kMaxTerms = 1000;

    if (method == FractionalOrderMethod::AbsoluteSeries) {
        double logA0 = math::kNegInf, logA1 = math::kNegInf;
        double last0 = math::kNegInf, last1 = math::kNegInf;
        for (int i = 0; i < kMaxTerms; ++i) {
            const double logCoef = math::logAbsBinomial(alpha, i, nullptr);
            const double j = alpha - i;
            const double logT0 = logCoef + i * logQ + j * log1mQ;
            const double logT1 = logCoef + j * logQ + i * log1mQ;
            const double logE0 = std::log(0.5) + logErfc((i - z0) / sqrt2Z);
            const double logE1 = std::log(0.5) + logErfc((z0 - j) / sqrt2Z);
            const double s0 = logT0 + (double(i) * i - i) / twoZ2 + logE0;
            const double s1 = logT1 + (j * j - j) / twoZ2 + logE1;
            logA0 = math::logAdd(logA0, s0);
            logA1 = math::logAdd(logA1, s1);
            const double total = math::logAdd(logA0, logA1);
            if (s0 < last0 && s1 < last1 && std::max(s0, s1) < total - 30.0)
                return total;
            last0 = s0;
            last1 = s1;
        }
        return math::kPosInf;
    }

    // Signed series. For i > α + 1 the coefficients alternate in sign and the combined terms
    // T_i = sign_i·(e^{s0} + e^{s1}) decrease in magnitude (F_i = |T_i|), so the remainder after
    // term N has the sign of T_{N+1} and |R_N| ≤ F_{N+1} (Leibniz); when F is also convex,
    // F_{N+1}/2 ≤ |R_N| ≤ F_{N+1} − F_{N+2}/2. Both give upper bounds on A_α.
    // Generalised binomial |C(α,i)| and its sign, updated term by term: C(α,i) = C(α,i−1)(α−i+1)/i.
    double runLogCoef = 0.0;
    int runSign = 1;
    int runIndex = 0;
    auto coefficient = [&](int i, int *sign) {
        if (i != runIndex) {
            if (i != runIndex + 1)
                return math::logAbsBinomial(alpha, i, sign);
            const double factor = (alpha - i + 1.0) / i;
            runLogCoef += std::log(std::fabs(factor));
            if (factor < 0.0)
                runSign = -runSign;
            runIndex = i;
        }
        *sign = runSign;
        return runLogCoef;
    };
    auto combined = [&](int i, int *sign) {
        const double logCoef = coefficient(i, sign);
        const double j = alpha - i;
        const double s0 = logCoef + i * logQ + j * log1mQ + (double(i) * i - i) / twoZ2 + std::log(0.5)
                          + logErfc((i - z0) / sqrt2Z);
        const double s1 = logCoef + j * logQ + i * log1mQ + (j * j - j) / twoZ2 + std::log(0.5)
                          + logErfc((z0 - j) / sqrt2Z);
        return math::logAdd(s0, s1);
    };
    SignedLog a;
    constexpr int kSignedTerms = 4000;
    double lastLogF = math::kPosInf, prevLogF = math::kPosInf;
    for (int i = 0; i < kSignedTerms; ++i) {
        int sign = 1;
        const double logF = combined(i, &sign);
        a.add(sign, logF);
        const bool alternating = i > alpha + 2.0;
        if (alternating && a.sign > 0 && logF < lastLogF && logF < a.logAbs - 36.0)
            return math::logAdd(a.logAbs, logF); // |R_i| ≤ F_{i+1} ≤ F_i
        prevLogF = lastLogF;
        lastLogF = logF;
    }
    if (a.sign <= 0)
        return math::kPosInf;
    // Not converged to machine precision: bound the alternating tail.
    int sign1 = 1, sign2 = 1;
    const double logF1 = combined(kSignedTerms, &sign1);
    const double logF2 = combined(kSignedTerms + 1, &sign2);
    if (!(logF1 < lastLogF && logF2 < logF1 && sign1 == -sign2))
        return math::kPosInf; // not a clean alternating tail: no certificate
    const double f0 = std::exp(prevLogF - a.logAbs), f1 = std::exp(lastLogF - a.logAbs);
    const double g1 = std::exp(logF1 - a.logAbs), g2 = std::exp(logF2 - a.logAbs);
    const bool convex = (f0 - f1) >= (f1 - g1) && (f1 - g1) >= (g1 - g2);
    double factor; // A = e^{a.logAbs}·(1 + correction)
    if (sign1 > 0)
        factor = 1.0 + (convex ? g1 - 0.5 * g2 : g1);
    else
        factor = 1.0 - (convex ? 0.5 * g1 : 0.0);
    return a.logAbs + std::log(factor);
}

} // namespace

double rdpSubsampledGaussian(double q, double noiseMultiplier, double alpha, FractionalOrderMethod method)
{
    if (q == 0.0)
        return 0.0;
    if (std::isinf(alpha) || noiseMultiplier == 0.0)
        return math::kPosInf;
    if (q == 1.0)
        return alpha / (2.0 * noiseMultiplier * noiseMultiplier);
    if (alpha == std::floor(alpha) && alpha < 1e6)
        return logAInteger(q, noiseMultiplier, static_cast<int>(alpha)) / (alpha - 1.0);
    double value = logAFractional(q, noiseMultiplier, alpha, method) / (alpha - 1.0);
    if (method == FractionalOrderMethod::SignedSeries) {
        // RDP is non-decreasing in α: the integer order ⌈α⌉ is always a valid bound.
        const double ceilAlpha = std::ceil(alpha);
        if (ceilAlpha < 1e6) {
            const double ceilValue
                = logAInteger(q, noiseMultiplier, static_cast<int>(ceilAlpha)) / (ceilAlpha - 1.0);
            if (!(value <= ceilValue))
                value = ceilValue;
        }
        if (!(value >= 0.0))
            value = std::max(0.0, value);
    }
    return value;
}

namespace {
// log A_α of WBK19 Thm 9 for the Gaussian (see the header), integer α ≥ 1.
double worGaussianLogMoment(double gamma, double z, long alpha)
{
    if (alpha <= 1)
        return 0.0;
    const double twoZ2 = 2.0 * z * z;
    const double eps2 = 2.0 / twoZ2;
    const double a = static_cast<double>(alpha);
    const double logGamma = std::log(gamma);
    // log(e^{ε(2)} − 1) = ε(2) + log(1 − e^{−ε(2)}).
    const double logEm1 = eps2 + std::log1p(-std::exp(-eps2));
    double logA = 0.0; // the leading 1
    logA = math::logAdd(logA, 2.0 * logGamma + math::logAbsBinomial(a, 2, nullptr)
                                  + std::min(std::log(4.0) + logEm1, std::log(2.0) + eps2));
    for (long j = 3; j <= alpha; ++j) {
        const double jd = static_cast<double>(j);
        const double term = std::log(2.0) + jd * (jd - 1.0) / twoZ2 + jd * logGamma
                            + math::logAbsBinomial(a, static_cast<int>(j), nullptr);
        logA = math::logAdd(logA, term);
    }
    return logA;
}
} // namespace

double rdpSampledWithoutReplacementGaussian(double gamma, double z, double alpha)
{
    if (gamma <= 0.0)
        return 0.0;
    if (gamma >= 1.0)
        return math::nudgeUp(alpha / (2.0 * z * z), 2);
    if (std::isinf(alpha))
        return std::numeric_limits<double>::infinity();
    const double lo = std::floor(alpha);
    const double hi = std::ceil(alpha);
    double cgf;
    if (lo == hi) {
        cgf = worGaussianLogMoment(gamma, z, static_cast<long>(lo));
    } else {
        const double t = alpha - lo;
        cgf = (1.0 - t) * worGaussianLogMoment(gamma, z, static_cast<long>(lo))
              + t * worGaussianLogMoment(gamma, z, static_cast<long>(hi));
    }
    if (!std::isfinite(cgf))
        return std::numeric_limits<double>::infinity();
    const double eps = cgf / (alpha - 1.0);
    return math::nudgeUp(eps * (1.0 + 1e-12 + 1e-15 * alpha), 2);
}

} // namespace pbx::privacy
