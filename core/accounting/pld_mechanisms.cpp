// SPDX-License-Identifier: MIT
#include "core/accounting/pld_mechanisms.h"

#include "core/math/directed_rounding.h"
#include "core/math/log_space.h"
#include "core/math/normal.h"
#include "core/privacy/analytic_gaussian.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pbx::accounting {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kLogMassTruncation = -50.0;

// log(1 + (e^l − 1)/q) for l > log(1 − q): the un-subsampled loss behind a subsampled loss l.
double unsampledFromRemove(double l, double q)
{
    if (l > 30.0)
        return l - std::log(q) + std::log1p((q - 1.0) * std::exp(-l));
    return std::log1p(std::expm1(l) / q);
}

// Indices are kept within ±2^52 so that i·d, i ± 1 and the casts below are exact and finite;
// callers check the range first (pldGridBins), this clamp only keeps a bad input from looping
// (a non-finite x once made the correction loops below run forever).
constexpr double kMaxGridIndex = 4503599627370496.0; // 2^52

double clampedQuotient(double x, double d)
{
    const double r = x / d;
    if (std::isnan(r))
        return 0.0;
    return std::clamp(r, -kMaxGridIndex, kMaxGridIndex);
}

// The smallest i with i·d ≥ x (grid losses are formed as i·d in double arithmetic).
std::int64_t ceilIndex(double x, double d)
{
    const double r = clampedQuotient(x, d);
    auto i = static_cast<std::int64_t>(std::ceil(r));
    if (std::fabs(r) >= kMaxGridIndex)
        return i;
    while (static_cast<double>(i - 1) * d >= x)
        --i;
    while (static_cast<double>(i) * d < x)
        ++i;
    return i;
}

std::int64_t floorIndex(double x, double d)
{
    const double r = clampedQuotient(x, d);
    auto i = static_cast<std::int64_t>(std::floor(r));
    if (std::fabs(r) >= kMaxGridIndex)
        return i;
    while (static_cast<double>(i + 1) * d <= x)
        ++i;
    while (static_cast<double>(i) * d > x)
        --i;
    return i;
}
} // namespace

AdditiveNoiseLoss::AdditiveNoiseLoss(NoiseKind kind, double noiseParameter, double sensitivity,
                                     double samplingRate, PldDirection direction)
    : m_kind(kind), m_param(noiseParameter), m_sens(sensitivity), m_q(samplingRate), m_dir(direction)
{
    if (m_kind == NoiseKind::Gaussian) {
        const double tail = m_param * math::normalQuantile(0.5 * std::exp(kLogMassTruncation)); // < 0
        double xLo = tail, xHi = -tail;
        if (m_dir != PldDirection::Remove)
            xHi += m_sens;
        if (m_dir != PldDirection::Add)
            xLo -= m_sens;
        m_epsUpper = loss(xLo);
        m_epsLower = loss(xHi);
    } else {
        const double e0 = m_sens / m_param;
        if (m_q == 1.0) {
            m_epsUpper = e0;
            m_epsLower = -e0;
        } else if (m_dir == PldDirection::Add) {
            m_epsUpper = -std::log(1.0 - m_q + m_q * std::exp(-e0));
            m_epsLower = -std::log(1.0 - m_q + m_q * std::exp(e0));
        } else {
            m_epsUpper = std::log(1.0 - m_q + m_q * std::exp(e0));
            m_epsLower = std::log(1.0 - m_q + m_q * std::exp(-e0));
        }
    }
}

double AdditiveNoiseLoss::noiseCdf(double x) const
{
    if (m_kind == NoiseKind::Gaussian)
        return math::normalCdf(x / m_param);
    return x < 0.0 ? 0.5 * std::exp(x / m_param) : 1.0 - 0.5 * std::exp(-x / m_param);
}

double AdditiveNoiseLoss::noiseLogCdf(double x) const
{
    if (m_kind == NoiseKind::Gaussian)
        return math::normalLogCdf(x / m_param);
    return x < 0.0 ? std::log(0.5) + x / m_param : std::log1p(-0.5 * std::exp(-x / m_param));
}

double AdditiveNoiseLoss::muUpperCdf(double x) const
{
    if (m_dir == PldDirection::Add)
        return noiseCdf(x);
    if (m_q == 1.0)
        return noiseCdf(x + m_sens);
    return (1.0 - m_q) * noiseCdf(x) + m_q * noiseCdf(x + m_sens);
}

double AdditiveNoiseLoss::muLowerLogCdf(double x) const
{
    if (m_dir == PldDirection::Remove)
        return noiseLogCdf(x);
    if (m_q == 1.0)
        return noiseLogCdf(x - m_sens);
    return math::logAdd(std::log1p(-m_q) + noiseLogCdf(x), std::log(m_q) + noiseLogCdf(x - m_sens));
}

double AdditiveNoiseLoss::lossWithoutSampling(double x) const
{
    if (m_kind == NoiseKind::Gaussian) {
        const double s2 = m_param * m_param;
        return m_dir == PldDirection::Add ? m_sens * (0.5 * m_sens - x) / s2
                                          : m_sens * (-0.5 * m_sens - x) / s2;
    }
    return m_dir == PldDirection::Add ? (std::fabs(x - m_sens) - std::fabs(x)) / m_param
                                      : (std::fabs(x) - std::fabs(x + m_sens)) / m_param;
}

double AdditiveNoiseLoss::loss(double x) const
{
    if (m_dir == PldDirection::Replace) { // Gaussian: log μ(x±C)/μ(x) = ∓u − h
        const double s2 = m_param * m_param;
        const double u = x * m_sens / s2;
        if (m_q == 1.0)
            return -2.0 * u;
        const double h = 0.5 * m_sens * m_sens / s2;
        const double logQ = std::log(m_q), logKeep = std::log1p(-m_q);
        return math::logAdd(logQ - u - h, logKeep) - math::logAdd(logQ + u - h, logKeep);
    }
    const double l0 = lossWithoutSampling(x);
    if (m_q == 1.0)
        return l0;
    if (m_dir == PldDirection::Add)
        return -math::logAExpBPlusC(m_q, -l0, 1.0 - m_q);
    return math::logAExpBPlusC(m_q, l0, 1.0 - m_q);
}

double AdditiveNoiseLoss::inverseLossWithoutSampling(double l) const
{
    if (m_kind == NoiseKind::Gaussian) {
        const double s2 = m_param * m_param;
        return m_dir == PldDirection::Add ? 0.5 * m_sens - l * s2 / m_sens : -0.5 * m_sens - l * s2 / m_sens;
    }
    const double e0 = m_sens / m_param;
    if (l > e0)
        return -kInf;
    if (l <= -e0)
        return kInf;
    if (m_dir == PldDirection::Add)
        return 0.5 * (m_sens - l * m_param);
    return l == e0 ? -m_sens : -0.5 * (l * m_param + m_sens);
}

double AdditiveNoiseLoss::inverseLoss(double l) const
{
    if (m_dir == PldDirection::Replace) {
        // ℓ = log(a/t + b) − log(a·t + b), t = e^{xC/σ²}, a = q·e^{−C²/(2σ²)}, b = 1 − q; so
        // e^ℓ·a·t² + b(e^ℓ − 1)·t − a = 0 and t is its positive root (stable form per sign).
        const long double s2 = static_cast<long double>(m_param) * m_param;
        const long double c = m_sens;
        if (m_q == 1.0)
            return static_cast<double>(-static_cast<long double>(l) * s2 / (2.0L * c));
        const long double logA = std::log(static_cast<long double>(m_q)) - 0.5L * c * c / s2;
        const long double b = 1.0L - static_cast<long double>(m_q);
        const long double el = std::exp(static_cast<long double>(l));
        const long double a = std::exp(logA);
        const long double bigB = b * std::expm1(static_cast<long double>(l));
        const long double root = std::sqrt(bigB * bigB + 4.0L * el * a * a);
        const long double logT = bigB >= 0.0L ? std::log(2.0L) + logA - std::log(bigB + root)
                                              : std::log(root - bigB) - std::log(2.0L * el) - logA;
        return static_cast<double>(logT * s2 / c);
    }
    if (m_q == 1.0)
        return inverseLossWithoutSampling(l);
    if (m_dir == PldDirection::Remove) {
        if (l <= std::log1p(-m_q))
            return kInf;
        return inverseLossWithoutSampling(unsampledFromRemove(l, m_q));
    }
    if (l >= -std::log1p(-m_q))
        return -kInf;
    // Add: loss = −log(1 − q + q e^{−ℓ₀}) ⇒ ℓ₀ = −log(1 + (e^{−l} − 1)/q).
    return inverseLossWithoutSampling(-unsampledFromRemove(-l, m_q));
}

double AdditiveNoiseLoss::delta(double epsilon) const
{
    if (m_q == 1.0 && m_kind == NoiseKind::Gaussian)
        return privacy::gaussianDelta((m_dir == PldDirection::Replace ? 2.0 : 1.0) * m_sens / m_param,
                                      epsilon);
    if (m_q == 1.0 && m_kind == NoiseKind::Laplace) {
        const double e0 = m_sens / m_param;
        if (epsilon >= e0)
            return 0.0;
        if (epsilon <= -e0)
            return -std::expm1(epsilon);
        return -std::expm1(0.5 * (epsilon - e0));
    }
    const double x = inverseLoss(epsilon);
    if (x == -kInf)
        return 0.0;
    if (x == kInf)
        return -std::expm1(epsilon);
    const double d = muUpperCdf(x) - std::exp(epsilon + muLowerLogCdf(x));
    return std::clamp(d, 0.0, 1.0);
}

bool AdditiveNoiseLoss::hasComplement() const
{
    return m_kind == NoiseKind::Gaussian && m_q == 1.0;
}

double AdditiveNoiseLoss::deltaComplement(double epsilon) const
{
    // Unsampled Gaussian: Y ~ N(μ²/2, μ²) under P and −Y has the same law under Q, so
    // E[(e^{ε−Y} − 1)₊] = e^ε·δ(−ε).
    return std::exp(epsilon) * delta(-epsilon);
}

double AdditiveNoiseLoss::survival(double t) const
{
    const double x = inverseLoss(t);
    if (x == -kInf)
        return 0.0;
    if (x == kInf)
        return 1.0;
    return std::clamp(muUpperCdf(x), 0.0, 1.0);
}

double pldGridBins(const AdditiveNoiseLoss &lossModel, double d)
{
    const double lo = lossModel.epsilonLower() / d;
    const double hi = lossModel.epsilonUpper() / d;
    if (!std::isfinite(lo) || !std::isfinite(hi))
        return kInf;
    return std::ceil(hi) - std::floor(lo) + 2.0;
}

PldPmf connectTheDots(const AdditiveNoiseLoss &lossModel, double d)
{
    PldPmf pmf;
    pmf.interval = d;
    pmf.pessimistic = true;
    const std::int64_t lo = floorIndex(lossModel.epsilonLower(), d);
    const std::int64_t hi = ceilIndex(lossModel.epsilonUpper(), d);
    const auto n = static_cast<std::size_t>(hi - lo + 1);
    pmf.lowerIndex = lo;
    const auto epsilonAt
        = [&](std::size_t i) { return static_cast<double>(lo + static_cast<std::int64_t>(i)) * d; };
    // Below ε = 0, δ(ε) ≈ 1 − e^ε and its second differences cancel catastrophically. The part
    // 1 − e^ε has exactly zero second difference in the formula below (and contributes e^{ℓ₀} to
    // the first mass), so where the complement c(ε) = δ(ε) − (1 − e^ε) = e^ε·δ(−ε) is available
    // (unsampled Gaussian, whose PLD is symmetric) the masses of the points whose three
    // neighbours lie below 0 are computed from c: same exact value, no cancellation. δ(−ε) is δ
    // at the mirror grid point, evaluated once for both uses.
    std::size_t negative = 0; // grid points below ε = 0 (their c is used when ≥ 2 of them)
    if (lossModel.hasComplement())
        while (negative < n && epsilonAt(negative) < 0.0)
            ++negative;
    if (negative < 2)
        negative = 0;
    std::vector<double> mirror; // δ(k·d), k = 1 … −lo
    if (negative > 0) {
        mirror.resize(static_cast<std::size_t>(-lo) + 1);
        for (std::size_t k = 1; k < mirror.size(); ++k)
            mirror[k] = lossModel.delta(static_cast<double>(k) * d);
    }
    const auto rawDelta = [&](std::size_t i) {
        const std::int64_t k = lo + static_cast<std::int64_t>(i);
        return k >= 1 && k < static_cast<std::int64_t>(mirror.size()) ? mirror[static_cast<std::size_t>(k)]
                                                                      : lossModel.delta(epsilonAt(i));
    };
    const auto complementAt = [&](std::size_t i) {
        return std::exp(epsilonAt(i))
               * mirror[static_cast<std::size_t>(-(lo + static_cast<std::int64_t>(i)))];
    };
    // δ at the grid points, made non-increasing (round-off wiggles removed: a running minimum),
    // one point at a time, the last three kept: each mass needs only its point's and its
    // neighbours' δ. Masses computed from c need no δ, so the chain starts a few points before
    // the first mass that does (far below, δ ≈ 1 − e^ε falls by far more than its round-off).
    const std::size_t chainStart = negative > 0 ? negative - std::min<std::size_t>(negative, 34) : 0;
    std::size_t next = chainStart;
    double previous = 0.0;
    double ring[3] = {0.0, 0.0, 0.0};
    const auto deltaAt = [&](std::size_t i) {
        for (; next <= i; ++next) {
            double value = rawDelta(next);
            if (next > chainStart && value > previous)
                value = previous;
            previous = value;
            ring[next % 3] = value;
        }
        return ring[i % 3];
    };
    if (n == 1) {
        const double delta0 = deltaAt(0);
        pmf.infinityMass = delta0;
        pmf.probs.assign(1, 1.0 - delta0);
        return pmf;
    }
    const double em1 = std::expm1(d); // e^d − 1
    const double ed = std::exp(d);
    pmf.probs.reserve(n);
    double cm = 0.0, c0 = 0.0, cp = 0.0; // c at i − 1, i, i + 1 (points below 0 only)
    if (negative > 0) {
        c0 = complementAt(0);
        cp = complementAt(1);
        pmf.probs.push_back(-c0 + (cp - c0) / em1);
    } else {
        const double d0 = deltaAt(0);
        const double d1 = deltaAt(1);
        pmf.probs.push_back(1.0 - d0 + (d1 - d0) / em1);
    }
    for (std::size_t i = 1; i + 1 < n; ++i) {
        if (i + 1 < negative) {
            cm = c0;
            c0 = cp;
            cp = complementAt(i + 1);
            pmf.probs.push_back(((cp - c0) - ed * (c0 - cm)) / em1);
        } else {
            const double dp = deltaAt(i + 1);
            const double d0 = deltaAt(i);
            const double dm = deltaAt(i - 1);
            pmf.probs.push_back(((dp - d0) - ed * (d0 - dm)) / em1);
        }
    }
    const double top = deltaAt(n - 1);
    pmf.probs.push_back((top - deltaAt(n - 2)) / std::expm1(-d));
    pmf.infinityMass = top;
    // Negative masses are round-off of the δ differences; clipping them only raises δ (safe for
    // the upper bound). The mass added is the ℓ1 change, recorded for the lower bound.
    long double clipped = 0.0L;
    for (double &p : pmf.probs) {
        if (!(p > 0.0)) {
            if (p < 0.0)
                clipped -= p;
            p = 0.0;
        }
    }
    pmf.errorL1 = math::nudgeUp(static_cast<double>(clipped) * (1.0 + 1e-12), 2);
    return pmf;
}

PldPmf privacyBuckets(const AdditiveNoiseLoss &lossModel, double d)
{
    PldPmf pmf;
    pmf.interval = d;
    pmf.pessimistic = false;
    const std::int64_t lo = floorIndex(lossModel.epsilonLower(), d);
    const std::int64_t hi = floorIndex(lossModel.epsilonUpper(), d);
    const auto n = static_cast<std::size_t>(hi - lo + 1);
    pmf.lowerIndex = lo;
    pmf.probs.assign(n, 0.0);
    double above = lossModel.survival(static_cast<double>(hi) * d);
    pmf.probs[n - 1] = above;
    for (std::size_t j = n - 1; j-- > 0;) {
        const double g = lossModel.survival(static_cast<double>(lo + static_cast<std::int64_t>(j)) * d);
        pmf.probs[j] = std::max(0.0, g - above);
        above = std::max(above, g);
    }
    return pmf;
}

PldPmf discretePmf(const std::vector<std::pair<double, double>> &lossMasses, double infinityMass, double d,
                   bool pessimistic)
{
    PldPmf pmf;
    pmf.interval = d;
    pmf.pessimistic = pessimistic;
    pmf.infinityMass = infinityMass;
    std::int64_t lo = std::numeric_limits<std::int64_t>::max();
    std::int64_t hi = std::numeric_limits<std::int64_t>::min();
    std::vector<std::pair<std::int64_t, double>> idx;
    for (const auto &[l, m] : lossMasses) {
        if (m <= 0.0)
            continue;
        const std::int64_t i = pessimistic ? ceilIndex(l, d) : floorIndex(l, d);
        idx.emplace_back(i, m);
        lo = std::min(lo, i);
        hi = std::max(hi, i);
    }
    if (idx.empty())
        return pmf;
    pmf.lowerIndex = lo;
    pmf.probs.assign(static_cast<std::size_t>(hi - lo + 1), 0.0);
    for (const auto &[i, m] : idx)
        pmf.probs[static_cast<std::size_t>(i - lo)] += m;
    return pmf;
}

PldPmf approxDpPmf(double epsilon, double delta, double d, bool pessimistic)
{
    // 1 − δ rounded up (pessimistic: no mass lost) or down (optimistic).
    const double keep = pessimistic ? math::addRoundUp(1.0, -delta) : math::subtractRoundDown(1.0, delta);
    if (epsilon == 0.0)
        return discretePmf({{0.0, keep}}, delta, d, pessimistic);
    // (1−δ)/(1+e^{−ε}) at +ε and (1−δ)/(1+e^{ε}) at −ε. The rounding of these masses goes to
    // the +ε bin, not to +∞: pessimistic: the −ε mass rounded down and the +ε mass = keep − it
    // rounded up (mass only moves upwards, which raises every δ(ε'); the excess is an ulp);
    // optimistic: the other way round (mass only moves down or is lost). A rounding residue at
    // +∞ would compose k-fold into k·1e-16 and swamp δ ≤ 1e-15.
    // keep/(1 + e^ε) is within 3 ulps of its exact value (exp, add, divide): nudge by 4.
    const double down = pessimistic ? math::nudgeDown(keep / (1.0 + std::exp(epsilon)), 4)
                                    : math::nudgeUp(keep / (1.0 + std::exp(epsilon)), 4);
    const double up = pessimistic ? math::addRoundUp(keep, -down) : math::subtractRoundDown(keep, down);
    const double inf = delta;
    return discretePmf({{epsilon, up}, {-epsilon, down}}, inf, d, pessimistic);
}

double approxDpPmfBins(double epsilon, double d)
{
    return 2.0 * std::ceil(epsilon / d) + 2.0;
}

PldPmf randomizedResponsePmf(double p, int k, double d, bool pessimistic)
{
    const double kd = static_cast<double>(k);
    const double same = 1.0 - p + p / kd;
    const double other = p / kd;
    const double l = std::log(kd / p - kd + 1.0);
    std::vector<std::pair<double, double>> lm{{l, same}, {-l, other}};
    if (k > 2)
        lm.emplace_back(0.0, (kd - 2.0) * p / kd);
    return discretePmf(lm, 0.0, d, pessimistic);
}

} // namespace pbx::accounting
