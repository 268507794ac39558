// SPDX-License-Identifier: MIT
#include "core/mechanisms/discrete_mechanisms.h"

#include "core/math/directed_rounding.h"
#include "core/privacy/cks_conversion.h"
#include "core/util/parameter_checks.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>

namespace pbx::mechanisms {

namespace {

// Relative safety margins on floating-point sums of positive terms. Each term is an exp() of an
// argument below ~750 computed with a few roundings, so its relative error is < 1e-12; the sums
// have a few thousand terms at most, or a stated absolute error term.
constexpr double kTailMargin = 1.0 + 1e-10;
constexpr double kNormaliserMargin = 1.0 - 1e-12;
constexpr double kDeltaMargin = 1.0 + 1e-9;
// Probabilities whose exact value lies below this are reported as this (an upper bound).
constexpr double kProbabilityFloor = 1e-300;
// Direct summation of the discrete Gaussian tail up to this σ; an integral bound above.
constexpr double kTailSumMaxSigma = 1000.0;
// Direct summation of the discrete Gaussian privacy profile up to this σ; the CKS zCDP
// conversion (valid, looser) above.
constexpr double kDeltaSumMaxSigma = 1e5;

double clampProbability(double p)
{
    if (!(p >= kProbabilityFloor))
        return kProbabilityFloor; // also catches NaN from 0/0 in deep underflow
    return std::min(p, 1.0);
}

bool isLaplace(DiscreteNoiseKind kind)
{
    return kind == DiscreteNoiseKind::Laplace;
}

// ---- tails -------------------------------------------------------------------------------------

// P(|Z| > a) for the discrete Laplace with scale t: 2e^{−a/t}/(e^{1/t} + 1).
double laplaceTailUpper(double t, double a)
{
    const double v = 2.0 * std::exp(-a / t) / (std::exp(1.0 / t) + 1.0);
    return clampProbability(math::nudgeUp(v * kTailMargin, 2));
}

// An upper bound on S(m) = Σ_{z ≥ m} e^{−z²/(2σ²)} for an integer m ≥ 1.
double gaussianTailSumUpper(double s2, double m)
{
    const double sigma = std::sqrt(s2);
    if (sigma > kTailSumMaxSigma) {
        // g is decreasing on [m, ∞): Σ_{z≥m} g(z) ≤ g(m) + ∫_m^∞ g(x) dx.
        return std::exp(-m * m / (2.0 * s2))
               + sigma * std::sqrt(std::numbers::pi / 2.0) * std::erfc(m / (sigma * std::numbers::sqrt2));
    }
    double sum = 0.0;
    for (double z = m;; z += 1.0) {
        const double g = std::exp(-z * z / (2.0 * s2));
        // For z' ≥ z the ratio g(z'+1)/g(z') = e^{−(2z'+1)/(2σ²)} ≤ r := e^{−(2z+1)/(2σ²)}, so
        // Σ_{z' ≥ z} g(z') ≤ g(z)/(1 − r).
        const double remainder = g / -std::expm1(-(2.0 * z + 1.0) / (2.0 * s2));
        if (g == 0.0 || remainder <= 1e-17 * sum) {
            sum += remainder;
            break;
        }
        sum += g;
    }
    return sum;
}

double gaussianTailUpper(double s2, double a)
{
    const double normaliserLower = discreteGaussianNormaliser(s2) * kNormaliserMargin;
    const double v = 2.0 * gaussianTailSumUpper(s2, a + 1.0) * kTailMargin / normaliserLower;
    return clampProbability(math::nudgeUp(v, 2));
}

double tailUpper(DiscreteNoiseKind kind, double parameter, double a)
{
    return isLaplace(kind) ? laplaceTailUpper(parameter, a) : gaussianTailUpper(parameter, a);
}

// ---- privacy profiles ----------------------------------------------------------------------

// δ(ε) of the discrete Laplace with scale t and integer sensitivity Δ, for ε < Δ/t.
double laplaceDeltaUpper(double t, double sensitivity, double epsilon)
{
    const double c = std::tanh(0.5 / t); // P[Z = 0]; p(y) = c·e^{−|y|/t}
    // y ≤ 0: loss Δ/t, and Σ_{y≤0} p(y) = (1 + c)/2.
    double sum = 0.5 * (1.0 + c) * -std::expm1(epsilon - sensitivity / t);
    double error = 0.5 * (1.0 + c) * 1e-14 * (1.0 + epsilon + sensitivity / t);
    // 0 < y < Δ: loss (Δ − 2y)/t, decreasing in y.
    for (double y = 1.0; y < sensitivity; y += 1.0) {
        const double loss = (sensitivity - 2.0 * y) / t;
        const double p = c * std::exp(-y / t);
        error += p * 1e-14 * (1.0 + epsilon + std::fabs(loss));
        if (loss <= epsilon)
            break;
        sum += p * -std::expm1(epsilon - loss);
    }
    return std::min(1.0, math::nudgeUp((sum + error) * kDeltaMargin, 2));
}

// δ(ε) of the discrete Gaussian with σ² = s2 and integer sensitivity Δ (CKS 2020 Thm 7) as a sum
// of positive terms over z = −y > x0 = εσ²/Δ − Δ/2.
double gaussianDeltaUpper(double s2, double sensitivity, double epsilon)
{
    const double sigma = std::sqrt(s2);
    const double normaliserLower = discreteGaussianNormaliser(s2) * kNormaliserMargin;
    const double x0 = epsilon * s2 / sensitivity - sensitivity / 2.0;
    const double reach = std::ceil(10.0 * sigma) + 2.0; // g(reach) ≤ e^{−50}
    auto g = [&](double z) { return std::exp(-z * z / (2.0 * s2)); };
    auto tailFrom = [&](double z) { // ≥ Σ_{z' ≥ z} g(z') for z ≥ 0
        return g(z) / -std::expm1(-(2.0 * z + 1.0) / (2.0 * s2));
    };
    double sum = 0.0;
    double error = 0.0;
    double z = std::floor(x0) - 1.0; // one step early: a term with loss ≤ ε is clamped to 0
    if (z < -reach) {
        error += tailFrom(reach); // Σ_{z < −reach} g(z), by symmetry
        z = -reach;
    }
    for (;; z += 1.0) {
        const double gz = g(z);
        const double loss = (sensitivity * sensitivity + 2.0 * z * sensitivity) / (2.0 * s2);
        if (loss > epsilon)
            sum += gz * -std::expm1(epsilon - loss);
        error += gz * 1e-14 * (1.0 + epsilon + std::fabs(loss));
        if (z > 0.0 && z > x0) {
            const double rest = tailFrom(z + 1.0); // bounds every later term (factor ≤ 1)
            if (gz == 0.0 || rest <= 1e-17 * sum) {
                error += rest;
                break;
            }
        }
    }
    const double delta = (sum + error) * kDeltaMargin / normaliserLower;
    return std::min(1.0, std::max(kProbabilityFloor, math::nudgeUp(delta, 2)));
}

// x ≥ numA·numB/den exactly, for a finite double x ≥ 0, 1 ≤ numA·numB < 2^82 and den ≤ 2^62:
// with x = M·2^E (M < 2^53 an integer), compare M·den·2^E with numA·numB in 128-bit integers.
bool atLeastRatio(double x, std::uint64_t numA, std::uint64_t numB, std::uint64_t den)
{
    __extension__ typedef unsigned __int128 U128;
    int exponent = 0;
    const double mantissa = std::frexp(x, &exponent); // x = mantissa·2^exponent, mantissa ∈ [½, 1)
    const auto m = static_cast<std::uint64_t>(std::ldexp(mantissa, 53));
    exponent -= 53;                            // x = m·2^exponent exactly
    U128 lhs = static_cast<U128>(m) * den;     // < 2^115
    U128 rhs = static_cast<U128>(numA) * numB; // < 2^82 here
    if (m == 0)
        return rhs == 0;
    if (exponent >= 0) {
        if (exponent >= 64 || (lhs >> (127 - exponent)) != 0)
            return true; // lhs·2^E ≥ 2^127 > rhs
        lhs <<= exponent;
    } else {
        const int shift = -exponent;
        if (shift > 127 || (rhs >> (127 - shift)) != 0)
            return false; // rhs·2^shift ≥ 2^127 > lhs
        rhs <<= shift;
    }
    return lhs >= rhs;
}

Error rangeError(DiscreteNoiseKind kind)
{
    return makeError(ErrorCode::InvalidArgument, isLaplace(kind)
                                                     ? "discrete Laplace scale out of range (0, 2^40]"
                                                     : "discrete Gaussian σ² out of range (0, 2^60]");
}

double maxParameter(DiscreteNoiseKind kind)
{
    return isLaplace(kind) ? DiscreteLaplaceSampler::kMaxScale : DiscreteGaussianSampler::kMaxVariance;
}

} // namespace

std::string_view discreteNoiseKindName(DiscreteNoiseKind kind)
{
    return isLaplace(kind) ? "discrete-laplace" : "discrete-gaussian";
}

std::string_view discreteCostUnitName(DiscreteNoiseKind kind)
{
    return isLaplace(kind) ? "epsilon" : "rho";
}

// ---- DiscreteNoiseMechanism ------------------------------------------------------------------

Result<DiscreteNoiseMechanism>
DiscreteNoiseMechanism::withParameter(DiscreteNoiseKind kind, Rational parameter, std::uint64_t sensitivity)
{
    if (sensitivity < 1 || sensitivity > kMaxSensitivity)
        return makeError(ErrorCode::InvalidArgument,
                         "integer sensitivity must be in [1, 2^20] (use GridMechanism for more)");
    PBX_TRY(reduced, makeRational(parameter.num, parameter.den));
    if (isLaplace(kind)) {
        PBX_RETURN_IF_ERROR(DiscreteLaplaceSampler::create(reduced));
    } else {
        PBX_RETURN_IF_ERROR(DiscreteGaussianSampler::create(reduced));
    }
    return DiscreteNoiseMechanism(kind, reduced, sensitivity);
}

Result<DiscreteNoiseMechanism> DiscreteNoiseMechanism::forCost(DiscreteNoiseKind kind, double cost,
                                                               std::uint64_t sensitivity,
                                                               std::uint64_t maxDenominator)
{
    PBX_RETURN_IF_ERROR(checkPositive(cost, "the privacy cost"));
    if (sensitivity < 1 || sensitivity > kMaxSensitivity)
        return makeError(ErrorCode::InvalidArgument,
                         "integer sensitivity must be in [1, 2^20] (use GridMechanism for more)");
    const double delta = static_cast<double>(sensitivity);
    // t = Δ/ε or σ² = Δ²/(2ρ), rounded up; then nudged up until the rounded-up cost fits.
    double target = isLaplace(kind) ? delta / cost : delta * delta / (2.0 * cost);
    target = math::nudgeUp(target, 4);
    for (int attempt = 0; attempt < 16; ++attempt) {
        if (!(target <= maxParameter(kind)))
            return rangeError(kind);
        PBX_TRY(r, rationalAtLeast(target, maxDenominator));
        PBX_TRY(m, withParameter(kind, r, sensitivity));
        if (m.cost() <= cost)
            return m;
        target *= 1.0 + std::ldexp(1.0, -40 + 2 * attempt);
    }
    return makeError(ErrorCode::InvalidArgument, "could not fit the cost on the rational grid");
}

Result<DiscreteNoiseMechanism> DiscreteNoiseMechanism::forAbsoluteError(DiscreteNoiseKind kind, double error,
                                                                        double beta,
                                                                        std::uint64_t sensitivity,
                                                                        std::uint64_t maxDenominator)
{
    if (!(error >= 0.0) || !(error <= 0x1p52))
        return makeError(ErrorCode::InvalidArgument, "the error bound must be in [0, 2^52]");
    PBX_RETURN_IF_ERROR(checkProbability(beta, "β", UnitInterval::Open));
    if (sensitivity < 1 || sensitivity > kMaxSensitivity)
        return makeError(ErrorCode::InvalidArgument,
                         "integer sensitivity must be in [1, 2^20] (use GridMechanism for more)");
    const double a = std::floor(error);
    auto meets = [&](double p) { return tailUpper(kind, p, a) <= beta; };

    double lo = 0x1p-30;
    double hi = maxParameter(kind);
    if (!meets(lo))
        return makeError(ErrorCode::InvalidArgument, "the accuracy target cannot be met");
    if (meets(hi)) {
        lo = hi; // even the most noise supported meets the target
    } else {
        // Largest feasible parameter by bisection in log space (the tail is monotone).
        for (int i = 0; i < 200 && hi > lo * (1.0 + 1e-13); ++i) {
            const double mid = std::sqrt(lo * hi);
            (meets(mid) ? lo : hi) = mid;
        }
    }
    auto r = rationalAtMost(lo, maxDenominator);
    if (!r)
        return r.error();
    // Guard against a floating-point flip at the boundary: step down on the grid until it holds.
    for (int i = 0; i < 64 && !meets(r->toDouble()); ++i) {
        if (r->num <= 1)
            return makeError(ErrorCode::InvalidArgument, "the accuracy target cannot be met");
        PBX_TRY(smaller, makeRational(r->num - 1, r->den));
        r = smaller;
    }
    if (!meets(r->toDouble()))
        return makeError(ErrorCode::InvalidArgument, "the accuracy target cannot be met");
    return withParameter(kind, *r, sensitivity);
}

double DiscreteNoiseMechanism::cost() const
{
    return isLaplace(m_kind) ? epsilon() : rho();
}

double DiscreteNoiseMechanism::epsilon() const
{
    if (!isLaplace(m_kind))
        return std::numeric_limits<double>::infinity();
    // Δ·d/n in long double (64-bit significand), then to double: within one ulp; nudged up.
    const long double e = static_cast<long double>(m_sensitivity) * m_parameter.den / m_parameter.num;
    return math::nudgeUp(static_cast<double>(e), 2);
}

double DiscreteNoiseMechanism::rho() const
{
    if (isLaplace(m_kind)) {
        auto r = privacy::rhoFromPureEpsilonTight(epsilon());
        return r ? *r : std::numeric_limits<double>::infinity();
    }
    const long double s = static_cast<long double>(m_sensitivity);
    const long double r = s * s * m_parameter.den / (2.0L * m_parameter.num);
    return math::nudgeUp(static_cast<double>(r), 2);
}

Result<double> DiscreteNoiseMechanism::deltaForEpsilon(double epsilon) const
{
    PBX_RETURN_IF_ERROR(checkEpsilon(epsilon));
    const double sensitivity = static_cast<double>(m_sensitivity);
    const double parameter = m_parameter.toDouble();
    if (isLaplace(m_kind)) {
        // δ(ε) = 0 exactly when ε ≥ Δ/t = Δ·d/n (an exact comparison).
        if (atLeastRatio(epsilon, m_sensitivity, m_parameter.den, m_parameter.num))
            return 0.0;
        return laplaceDeltaUpper(parameter, sensitivity, epsilon);
    }
    if (std::sqrt(parameter) > kDeltaSumMaxSigma)
        return privacy::deltaFromRhoCks(rho(), epsilon);
    return gaussianDeltaUpper(parameter, sensitivity, epsilon);
}

Result<double> DiscreteNoiseMechanism::epsilonForDelta(double delta) const
{
    PBX_RETURN_IF_ERROR(checkDelta(delta, "δ", UnitInterval::AboveZero));
    if (delta >= 1.0)
        return 0.0;
    double hi = 0.0;
    if (isLaplace(m_kind)) {
        hi = epsilon();
    } else {
        if (std::sqrt(m_parameter.toDouble()) > kDeltaSumMaxSigma)
            return privacy::epsilonFromRhoCks(rho(), delta);
        PBX_TRY(start, privacy::epsilonFromRhoCks(rho(), delta));
        hi = std::max(start, 1e-12);
        for (int i = 0; i < 64 && *deltaForEpsilon(hi) > delta; ++i)
            hi *= 2.0;
    }
    if (*deltaForEpsilon(0.0) <= delta)
        return 0.0;
    double lo = 0.0;
    for (int i = 0; i < 200 && hi - lo > 1e-9 * hi; ++i) {
        const double mid = 0.5 * (lo + hi);
        (*deltaForEpsilon(mid) <= delta ? hi : lo) = mid;
    }
    return math::nudgeUp(hi, 1);
}

double DiscreteNoiseMechanism::tailProbability(std::uint64_t a) const
{
    return tailUpper(m_kind, m_parameter.toDouble(), static_cast<double>(a));
}

Result<std::uint64_t> DiscreteNoiseMechanism::halfWidth(double beta) const
{
    PBX_RETURN_IF_ERROR(checkProbability(beta, "β", UnitInterval::Open));
    // Smallest w with tail(w) ≤ β: exponential search for a feasible w, then bisection.
    std::uint64_t hi = 1;
    while (tailProbability(hi) > beta) {
        if (hi >= (std::uint64_t{1} << 62))
            return makeError(ErrorCode::InvalidArgument, "β too small for this noise");
        hi *= 2;
    }
    if (tailProbability(0) <= beta)
        return std::uint64_t{0};
    std::uint64_t lo = 0; // infeasible
    while (hi - lo > 1) {
        const std::uint64_t mid = lo + (hi - lo) / 2;
        (tailProbability(mid) <= beta ? hi : lo) = mid;
    }
    return hi;
}

Result<std::int64_t> DiscreteNoiseMechanism::sampleNoise(RandomBits &bits) const
{
    if (isLaplace(m_kind)) {
        PBX_TRY(s, DiscreteLaplaceSampler::create(m_parameter));
        return s.sample(bits);
    }
    PBX_TRY(s, DiscreteGaussianSampler::create(m_parameter));
    return s.sample(bits);
}

Result<std::int64_t> DiscreteNoiseMechanism::release(std::int64_t exactValue, RandomBits &bits) const
{
    if (exactValue > kMaxSampleMagnitude || exactValue < -kMaxSampleMagnitude)
        return makeError(ErrorCode::InvalidArgument, "the exact value must be within ±2^62");
    PBX_TRY(z, sampleNoise(bits));
    std::int64_t out = 0;
    if (__builtin_add_overflow(exactValue, z, &out))
        return makeError(ErrorCode::Unsupported, "noisy value overflows 64 bits");
    return out;
}

// ---- GridMechanism ------------------------------------------------------------------------------

namespace {
bool isGrid(double g)
{
    int exponent = 0;
    return std::isfinite(g) && g >= 0x1p-60 && g <= 0x1p60 && std::frexp(g, &exponent) == 0.5;
}

Error gridError()
{
    return makeError(ErrorCode::InvalidArgument, "the grid must be a power of two in [2^-60, 2^60]");
}

Result<std::uint64_t> gridSensitivity(double sensitivity, double grid)
{
    PBX_RETURN_IF_ERROR(checkSensitivity(sensitivity));
    const double units = std::ceil(sensitivity / grid); // Δ/g exact for a power-of-two g
    if (!(units <= static_cast<double>(DiscreteNoiseMechanism::kMaxSensitivity)))
        return makeError(ErrorCode::InvalidArgument, "⌈Δ/grid⌉ exceeds 2^20: choose a coarser grid");
    return static_cast<std::uint64_t>(units);
}
} // namespace

Result<double> GridMechanism::defaultGrid(double sensitivity, double error)
{
    if (!(sensitivity > 0.0) || !std::isfinite(sensitivity) || !(error > 0.0) || !std::isfinite(error))
        return makeError(ErrorCode::InvalidArgument, "sensitivity and error must be finite and > 0");
    int exponent = 0;
    std::frexp(std::min(sensitivity, error) / 1024.0, &exponent);
    double g = std::ldexp(1.0, exponent - 1); // largest power of two ≤ min(Δ, a)/1024
    while (std::ceil(sensitivity / g) > static_cast<double>(DiscreteNoiseMechanism::kMaxSensitivity))
        g *= 2.0;
    if (!isGrid(g))
        return gridError();
    return g;
}

Result<std::int64_t> GridMechanism::snap(double value, double grid)
{
    if (!isGrid(grid))
        return gridError();
    if (!std::isfinite(value))
        return makeError(ErrorCode::InvalidArgument, "the query value must be finite");
    const double u = value / grid; // exact (power-of-two scaling) unless subnormal, where k = 0
    if (!(std::fabs(u) <= 0x1p52))
        return makeError(ErrorCode::InvalidArgument, "|value / grid| must be at most 2^52");
    const double whole = std::floor(u);
    const double fraction = u - whole; // exact
    return static_cast<std::int64_t>(whole) + (fraction >= 0.5 ? 1 : 0);
}

Result<GridMechanism> GridMechanism::withParameter(DiscreteNoiseKind kind, Rational parameter,
                                                   double sensitivity, double grid)
{
    if (!isGrid(grid))
        return gridError();
    PBX_TRY(units, gridSensitivity(sensitivity, grid));
    PBX_TRY(noise, DiscreteNoiseMechanism::withParameter(kind, parameter, units));
    return GridMechanism(noise, sensitivity, grid);
}

Result<GridMechanism> GridMechanism::forCost(DiscreteNoiseKind kind, double cost, double sensitivity,
                                             double grid)
{
    if (!isGrid(grid))
        return gridError();
    PBX_TRY(units, gridSensitivity(sensitivity, grid));
    PBX_TRY(noise, DiscreteNoiseMechanism::forCost(kind, cost, units));
    return GridMechanism(noise, sensitivity, grid);
}

Result<GridMechanism> GridMechanism::forAbsoluteError(DiscreteNoiseKind kind, double error, double beta,
                                                      double sensitivity, double grid)
{
    if (grid == 0.0) {
        PBX_TRY(g, defaultGrid(sensitivity, error));
        grid = g;
    }
    if (!isGrid(grid))
        return gridError();
    if (!(error >= 0.5 * grid) || !std::isfinite(error) || error / grid > 0x1p52)
        return makeError(ErrorCode::InvalidArgument,
                         "the error bound must be at least half the grid and at most 2^52 grids");
    PBX_TRY(units, gridSensitivity(sensitivity, grid));
    const double target = std::floor(error / grid - 0.5); // g/2 + g·W ≤ a
    auto noise = DiscreteNoiseMechanism::forAbsoluteError(kind, target, beta, units);
    if (!noise)
        return noise.error();
    return GridMechanism(*noise, sensitivity, grid);
}

Result<double> GridMechanism::halfWidth(double beta) const
{
    PBX_TRY(w, m_noise.halfWidth(beta));
    return m_grid * (static_cast<double>(w) + 0.5);
}

Result<double> GridMechanism::release(double exactValue, RandomBits &bits) const
{
    PBX_TRY(k, snap(exactValue, m_grid));
    PBX_TRY(z, m_noise.sampleNoise(bits));
    std::int64_t sum = 0;
    if (__builtin_add_overflow(k, z, &sum) || sum > (std::int64_t{1} << 53) || sum < -(std::int64_t{1} << 53))
        return makeError(ErrorCode::Unsupported, "noisy value leaves the exactly representable range");
    return m_grid * static_cast<double>(sum); // exact: a power of two times an integer ≤ 2^53
}

} // namespace pbx::mechanisms
