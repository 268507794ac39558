// SPDX-License-Identifier: MIT
#include "core/session/growing/growing_exact_noise.h"

#include "core/growing/growing_error.h"
#include "core/math/directed_rounding.h"
#include "core/mechanisms/discrete_mechanisms.h"
#include "core/util/try.h"

#include <cmath>
#include <cstdio>
#include <string>

namespace pbx::session {

Result<mechanisms::Rational> countLaplaceScale(double fractionScale, std::uint64_t t)
{
    const double scale = math::multiplyRoundUp(fractionScale, double(t));
    if (!(scale > 0.0) || !(scale <= mechanisms::DiscreteLaplaceSampler::kMaxScale)) {
        char text[32];
        std::snprintf(text, sizeof text, "%.6g", scale);
        return growing::growingError(growing::kInvalidBudget, "budget",
                                     "the stream needs count-scale Laplace noise of scale "
                                         + std::string(text) + " at t = " + std::to_string(t)
                                         + ", beyond the exact sampler's 2^40; raise the budget");
    }
    return mechanisms::rationalAtLeast(scale);
}

Result<std::int64_t> discreteLaplaceDraw(const mechanisms::Rational &scale, mechanisms::RandomBits &bits)
{
    PBX_TRY(sampler, mechanisms::DiscreteLaplaceSampler::create(scale));
    return sampler.sample(bits);
}

Result<double> noisyCountFraction(std::uint64_t count, std::uint64_t t, const mechanisms::Rational &scale,
                                  mechanisms::RandomBits &bits)
{
    PBX_TRY(z, discreteLaplaceDraw(scale, bits));
    constexpr std::int64_t kExact = std::int64_t{1} << 53;
    std::int64_t noisy = 0;
    if (count > std::uint64_t(kExact) || __builtin_add_overflow(std::int64_t(count), z, &noisy)
        || noisy > kExact || noisy < -kExact)
        return makeError(ErrorCode::Unsupported, "noisy count leaves the exactly representable range");
    // One correctly rounded division of two exact doubles: a function of count + Z and t alone.
    return double(noisy) / double(t);
}

Result<double> countLaplaceBound(const mechanisms::Rational &scale, std::uint64_t t, double beta)
{
    PBX_TRY(noise, mechanisms::DiscreteNoiseMechanism::withParameter(mechanisms::DiscreteNoiseKind::Laplace,
                                                                     scale, 1));
    auto w = noise.halfWidth(beta);
    if (w)
        return math::divideRoundUp(double(*w), double(t));
    if (!(beta > 0.0 && beta < 1.0))
        return w.error();
    // β below the tail's 1e-300 floor: P(|Z| > a) ≤ e^{−⌊a⌋/s} ≤ β at a = s·ln(1/β) + 1.
    const double a
        = math::addRoundUp(math::multiplyRoundUp(scale.toDouble(), math::nudgeUp(-std::log(beta))), 1.0);
    return math::divideRoundUp(a, double(t));
}

Result<double> fractionLaplaceBound(double fractionScale, std::uint64_t t, double beta)
{
    PBX_TRY(scale, countLaplaceScale(fractionScale, t));
    return countLaplaceBound(scale, t, beta);
}

bool isCountFraction(double value, std::uint64_t t)
{
    if (!std::isfinite(value))
        return false;
    const double m = std::nearbyint(value * double(t));
    return std::fabs(m) <= 0x1p53 && m / double(t) == value;
}

Error streamNoiseFailed(const Error &error)
{
    return makeError(error.code, "the stream's noise could not be drawn (" + error.message
                                     + "); nothing was released (the filter keeps what it was charged)");
}

Result<bool> svtAbove(std::uint64_t count, std::optional<double> centre, std::int64_t nu, std::int64_t rho,
                      double tau)
{
    __extension__ typedef __int128 I128;
    constexpr int kShift = 20; // 1/kSvtGrid
    const auto onGrid = [](double x) -> Result<std::int64_t> {
        if (!(x >= 0.0 && x <= 0x1p32))
            return makeError(ErrorCode::InvalidArgument,
                             "sparse-vector centre or threshold out of [0, 2^32]");
        return mechanisms::GridMechanism::snap(x, kSvtGrid);
    };
    PBX_TRY(threshold, onGrid(tau));
    if (count > (std::uint64_t{1} << 32))
        return makeError(ErrorCode::InvalidArgument, "sparse-vector count above 2^32");
    I128 value = I128(count) << kShift;
    if (centre) {
        PBX_TRY(c, onGrid(*centre));
        value = value >= I128(c) ? value - I128(c) : I128(c) - value;
    }
    // value + ν·2^20 ≥ τ + ρ·2^20, all in units of 2^-20 count (|ν|, |ρ| ≤ 2^62: no overflow).
    return value + I128(nu) * (I128(1) << kShift) >= I128(threshold) + I128(rho) * (I128(1) << kShift);
}

} // namespace pbx::session
