// SPDX-License-Identifier: MIT
#include "core/session/strategies/strategy_transform.h"

#include "core/privacy/amplification.h"
#include "core/strategies/strategy_error.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pbx::session {

Result<unsigned> requestStability(const StrategyRequestSpec &spec, data::Neighbouring neighbours)
{
    if (!(spec.subsample > 0.0 && spec.subsample <= 1.0))
        return makeError(ErrorCode::InvalidArgument, "subsample: the rate p must be in (0, 1]");
    const bool replace = neighbours == data::Neighbouring::Replace;
    if (replace && spec.subsample < 1.0)
        return strategies::strategyError(
            strategies::kNeighboursMismatch,
            "subsample: Poisson subsampling is amplified for add/remove neighbours; under replace-one "
            "it needs fixed-size sampling without replacement, which sessions do not offer");
    if (!spec.transform)
        return 1u;
    if (replace)
        return strategies::strategyError(strategies::kNeighboursMismatch,
                                         "transform: stability is defined for add/remove neighbours; "
                                         "start the session with add-remove to declare a transformation");
    auto s = strategies::transformationStability(spec.transform->kind, spec.transform->parameter);
    if (!s)
        return makeError(s.error().code, "transform: " + s.error().message);
    if (!s->has_value())
        return strategies::strategyError(
            strategies::kInvalidConfig, "transform: a self-join without truncation has unbounded stability "
                                        "(a row joins every row of its key); use self-join-truncated with m");
    return std::max(1u, **s);
}

Result<double> transformedCharge(const StrategyRequestSpec &spec, unsigned s, double epsilon)
{
    const double stable = strategies::stableEpsilon(std::max(1u, s), epsilon);
    if (spec.subsample >= 1.0)
        return stable;
    PBX_TRY(amplified, privacy::amplifyBySubsampling({stable, 0.0}, spec.subsample));
    return amplified.epsilon;
}

double baseEpsilonWithin(const StrategyRequestSpec &spec, unsigned s, double cap)
{
    if (s <= 1 && spec.subsample >= 1.0)
        return cap; // the charge is the base ε itself
    double stable = cap;
    if (spec.subsample < 1.0)
        stable = std::log1p(std::expm1(cap) / spec.subsample);
    // Rounded down (a relative 1e-12 below), so the forward charge, rounded up, stays within cap.
    return stable / static_cast<double>(std::max(1u, s)) * (1.0 - 1e-12);
}

Result<void> poissonSample(double rate, std::vector<std::uint8_t> &mask, mechanisms::RandomBits &bits)
{
    if (rate >= 1.0)
        return {};
    constexpr double kDenominator = 4611686018427387904.0; // 2^62
    const auto numerator = static_cast<std::uint64_t>(std::floor(rate * kDenominator));
    for (auto &m : mask) {
        if (!m)
            continue;
        PBX_TRY(keep, bits.bernoulliRational(numerator, std::uint64_t{1} << 62));
        if (!keep)
            m = 0;
    }
    return {};
}

std::string transformNote(const StrategyRequestSpec &spec, unsigned s)
{
    std::string out;
    char buffer[64];
    if (spec.transform) {
        out += "; rows through " + std::string(strategies::transformationName(spec.transform->kind));
        const auto kind = spec.transform->kind;
        if (kind == strategies::Transformation::FlatMap)
            out += " k=" + std::to_string(spec.transform->parameter);
        else if (kind == strategies::Transformation::Truncate
                 || kind == strategies::Transformation::SelfJoinTruncated)
            out += " m=" + std::to_string(spec.transform->parameter);
        out += " (stability " + std::to_string(s) + ": the charge is " + std::to_string(s) + "·ε)";
    }
    if (spec.subsample < 1.0) {
        std::snprintf(buffer, sizeof buffer, "%g", spec.subsample);
        out += std::string("; Poisson sample at p = ") + buffer
               + " (charged ln(1 + p(e^(sε) − 1)); the values are the sample's, divide counts by p to scale up)";
    }
    return out;
}

} // namespace pbx::session
