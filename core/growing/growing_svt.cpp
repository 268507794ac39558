// SPDX-License-Identifier: MIT
#include "core/growing/growing_svt.h"

#include "core/growing/growing_error.h"
#include "core/growing/privacy_schedule.h"
#include "core/math/directed_rounding.h"
#include "core/util/try.h"

#include <boost/math/special_functions/digamma.hpp>

#include <algorithm>
#include <cmath>

namespace pbx::growing {

double NoiseUnit::sigma(double t) const
{
    return sigmaN * std::pow(double(startSize) / t, exponent);
}

double NoiseUnit::f(double t) const
{
    // (t/n)^{p−1}/(nσ_n): pow errs < 1 ulp, so a few ulps up give an upper bound.
    const double base = math::divideRoundUp(1.0, math::multiplyRoundDown(double(startSize), sigmaN));
    const double growth = math::nudgeUp(std::pow(t / double(startSize), exponent - 1.0));
    return math::nudgeUp(math::multiplyRoundUp(base, growth));
}

Result<void> validate(const NoiseUnit &unit)
{
    if (auto ok = checkStartSize(unit.startSize, "stream.start_size"); !ok)
        return ok;
    if (!(unit.sigmaN > 0.0 && std::isfinite(unit.sigmaN)))
        return growingError(kInvalidNoiseUnit, "sigma_n", "must be a finite number > 0");
    if (!(unit.exponent >= 0.0 && unit.exponent <= 1.0))
        return growingError(kInvalidNoiseExponent, "p", "must be a number with 0 <= p <= 1");
    return {};
}

double atgLoss(const NoiseUnit &unit, std::uint64_t roundStart, std::optional<std::uint64_t> haltTime)
{
    const double start = unit.f(double(roundStart)) / kThresholdMultiplier;
    if (!haltTime)
        return start;
    return math::addRoundUp(start, math::divideRoundUp(2.0 * unit.f(double(*haltTime)), kQueryMultiplier));
}

double natgLoss(const NoiseUnit &unit, std::uint64_t roundStart, std::optional<std::uint64_t> haltTime)
{
    if (!haltTime)
        return atgLoss(unit, roundStart, haltTime);
    return math::addRoundUp(atgLoss(unit, roundStart, haltTime),
                            math::divideRoundUp(unit.f(double(*haltTime)), kNumericMultiplier));
}

std::uint64_t HardQueryCap::at(std::uint64_t n, std::uint64_t t) const
{
    if (!timeCap)
        return static_cast<std::uint64_t>(std::floor(c));
    if (t <= n)
        return static_cast<std::uint64_t>(std::floor(c));
    // H_t − H_n = ψ(t+1) − ψ(n+1); nudged down before the floor so a cap never exceeds c_0(1 + H_t − H_n).
    const double harmonic = boost::math::digamma(double(t) + 1.0) - boost::math::digamma(double(n) + 1.0);
    return static_cast<std::uint64_t>(std::floor(math::nudgeDown(c * (1.0 + harmonic), 8)));
}

Result<void> validate(const HardQueryCap &cap, double exponent, std::string_view field)
{
    if (!std::isfinite(cap.c) || (cap.timeCap ? !(cap.c > 0.0) : !(cap.c >= 1.0)))
        return growingError(kInvalidCap, field,
                            cap.timeCap ? "c0 must be a finite number > 0"
                                        : "c must be a finite number >= 1");
    if (cap.timeCap && !(exponent < 1.0))
        return growingError(kInvalidNoiseExponent, "p",
                            "a growing cap needs p < 1 (with p = 1 only a constant cap is private)");
    return {};
}

double nsgRealisedLoss(const NoiseUnit &unit, const std::vector<std::uint64_t> &hardTimes)
{
    double sum = 0.0;
    for (const auto e : hardTimes)
        sum = math::addRoundUp(sum, unit.f(double(e)));
    return math::addRoundUp(unit.f(double(unit.startSize)),
                            math::nudgeUp(math::divideRoundUp(7.0 * sum, 3.0)));
}

double nsgRealisedRho(const NoiseUnit &unit, const std::vector<std::uint64_t> &roundStarts)
{
    double sum = 0.0;
    for (const auto s : roundStarts) {
        const double f = unit.f(double(s));
        sum = math::addRoundUp(sum, math::multiplyRoundUp(f, f));
    }
    return math::nudgeUp(math::divideRoundUp(math::multiplyRoundUp(49.0, sum), 18.0));
}

namespace {
/// The multiplier of f(n) in the pure worst case: 1 + (7/3)c, or 1 + (7/3)c_0(2−p)/(1−p). Rounded up.
double worstCaseFactor(const HardQueryCap &cap, double p)
{
    const double count = cap.timeCap ? math::divideRoundUp(math::multiplyRoundUp(cap.c, 2.0 - p), 1.0 - p)
                                     : std::floor(cap.c);
    return math::nudgeUp(1.0 + math::divideRoundUp(math::multiplyRoundUp(7.0, count), 3.0));
}
/// B of the zCDP worst case: 1 + c_0(3−2p)/(2(1−p)) or 1 + c. Rounded up.
double zcdpFactor(const HardQueryCap &cap, double p)
{
    const double count
        = cap.timeCap ? math::divideRoundUp(math::multiplyRoundUp(cap.c, 3.0 - 2.0 * p), 2.0 * (1.0 - p))
                      : std::floor(cap.c);
    return math::nudgeUp(1.0 + count);
}
} // namespace

double nsgWorstCaseEpsilon(const NoiseUnit &unit, const HardQueryCap &cap)
{
    return math::multiplyRoundUp(unit.f(double(unit.startSize)), worstCaseFactor(cap, unit.exponent));
}

double nsgWorstCaseRho(const NoiseUnit &unit, const HardQueryCap &cap)
{
    const double fn = unit.f(double(unit.startSize));
    return math::nudgeUp(math::multiplyRoundUp(
        math::divideRoundUp(49.0 * math::multiplyRoundUp(fn, fn), 18.0), zcdpFactor(cap, unit.exponent)));
}

Result<double> nsgSigmaForBudget(std::uint64_t n, double exponent, const HardQueryCap &cap,
                                 const Budget &budget)
{
    PBX_RETURN_IF_ERROR(checkStartSize(n, "stream.start_size"));
    if (!(exponent >= 0.0 && exponent <= 1.0))
        return growingError(kInvalidNoiseExponent, "p", "must be a number with 0 <= p <= 1");
    PBX_RETURN_IF_ERROR(validate(cap, exponent));
    PBX_RETURN_IF_ERROR(validate(budget));
    double sigma = 0.0;
    double allowed = 0.0;
    if (!isZcdp(budget)) {
        allowed = budget.epsilon;
        sigma = math::divideRoundUp(worstCaseFactor(cap, exponent),
                                    math::multiplyRoundDown(double(n), budget.epsilon));
    } else {
        PBX_TRY(rho, zcdpBudget(budget));
        allowed = rho;
        const double root
            = math::nudgeUp(std::sqrt(math::divideRoundUp(zcdpFactor(cap, exponent), 2.0 * rho)));
        sigma = math::divideRoundUp(math::divideRoundUp(math::multiplyRoundUp(7.0, root), 3.0), double(n));
    }
    // The worst case is itself rounded up: add noise until the reported worst case fits the budget,
    // so no report ever shows more than was allowed.
    for (int step = 0; step < 64; ++step) {
        const NoiseUnit unit{n, sigma, exponent};
        const double worst = isZcdp(budget) ? nsgWorstCaseRho(unit, cap) : nsgWorstCaseEpsilon(unit, cap);
        if (worst <= allowed)
            return sigma;
        sigma = math::nudgeUp(sigma, 4);
    }
    return growingError(kInvalidBudget, "budget", "no noise unit meets this budget in double precision");
}

double naiveFractionScaleLoss(const NoiseUnit &unit, std::uint64_t roundStart, std::uint64_t haltTime)
{
    const double s = double(roundStart);
    const double t = double(haltTime);
    return (1.0 / s) / unit.sigma(s) + (1.0 / s + 1.0 / t) / (2.0 * unit.sigma(t));
}

double simulationLaplace(std::mt19937_64 &rng, double scale)
{
    // u uniform in (−½, ½), never exactly ±½: x = −b·sgn(u)·ln(1 − 2|u|).
    const double u = (double(rng() >> 11) + 0.5) * 0x1.0p-53 - 0.5;
    return -scale * std::copysign(std::log1p(-2.0 * std::fabs(u)), u);
}

Result<GrowingSparseVector> GrowingSparseVector::create(const NoiseUnit &unit, const HardQueryCap &cap)
{
    PBX_RETURN_IF_ERROR(validate(unit));
    PBX_RETURN_IF_ERROR(validate(cap, unit.exponent));
    GrowingSparseVector v;
    v.m_unit = unit;
    v.m_cap = cap;
    v.m_lastTime = unit.startSize;
    return v;
}

Result<GrowingSparseVector::Answer> GrowingSparseVector::query(std::uint64_t t, double fraction,
                                                               double threshold, std::mt19937_64 &rng,
                                                               std::optional<double> release)
{
    if (release && !(*release >= 0.0 && *release <= 1.0))
        return growingError(kInvalidQuery, "query", "the released answer must be a fraction in [0, 1]");
    if (t < m_lastTime)
        return growingError(kTimeNotMonotone, "time",
                            "query at t = " + std::to_string(t)
                                + " after one at t = " + std::to_string(m_lastTime));
    if (!(fraction >= 0.0 && fraction <= 1.0))
        return growingError(kInvalidQuery, "query", "the answer must be a fraction in [0, 1]");
    if (!(threshold >= 0.0 && threshold <= 1.0))
        return growingError(kInvalidThreshold, "threshold", "must be a finite number in [0, 1]");
    m_lastTime = t;
    Answer a;
    if (m_hardTimes.size() >= m_cap.at(m_unit.startSize, t))
        return a; // the cap binds: nothing about the data is released
    const double time = double(t);
    const double countNoise = time * m_unit.sigma(time); // Lap scales on the count scale
    if (!m_roundThreshold) { // a round opens at its first query: ρ ~ Lap(λ_T s σ(s))
        m_roundThreshold = simulationLaplace(rng, kThresholdMultiplier * countNoise);
        m_roundStarts.push_back(t);
    }
    a.answered = true;
    const double nu = simulationLaplace(rng, kQueryMultiplier * countNoise);
    if (toCountScale(fraction, time) + nu >= toCountScale(threshold, time) + *m_roundThreshold) {
        a.hard = true;
        a.numeric
            = release.value_or(fraction) + simulationLaplace(rng, kNumericMultiplier * m_unit.sigma(time));
        m_hardTimes.push_back(t);
        m_roundThreshold.reset(); // the next round draws a fresh threshold
    }
    return a;
}

} // namespace pbx::growing
