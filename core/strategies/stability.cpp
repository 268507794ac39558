// SPDX-License-Identifier: MIT
#include "core/strategies/stability.h"

#include "core/privacy/amplification.h"
#include "core/strategies/strategy_error.h"
#include "core/util/try.h"

#include <cmath>

namespace pbx::strategies {

namespace {

double roundUp(double x)
{
    return std::nextafter(x, INFINITY);
}

constexpr Transformation kAll[]
    = {Transformation::RowMap,           Transformation::Filter,   Transformation::FlatMap,
       Transformation::GroupBy,          Transformation::Truncate, Transformation::SelfJoin,
       Transformation::SelfJoinTruncated};

} // namespace

std::string_view transformationName(Transformation t)
{
    switch (t) {
    case Transformation::RowMap:
        return "row-map";
    case Transformation::Filter:
        return "filter";
    case Transformation::FlatMap:
        return "flat-map";
    case Transformation::GroupBy:
        return "group-by";
    case Transformation::Truncate:
        return "truncate";
    case Transformation::SelfJoin:
        return "self-join";
    case Transformation::SelfJoinTruncated:
        return "self-join-truncated";
    }
    return "row-map";
}

Result<Transformation> parseTransformation(std::string_view text)
{
    for (const auto t : kAll)
        if (transformationName(t) == text)
            return t;
    return strategyError(kInvalidConfig, "transformation: unknown '" + std::string(text) + "'");
}

Result<std::optional<unsigned>> transformationStability(Transformation t, unsigned parameter)
{
    const bool needsParameter = t == Transformation::FlatMap || t == Transformation::Truncate
                                || t == Transformation::SelfJoinTruncated;
    if (needsParameter && parameter == 0)
        return strategyError(kInvalidConfig, "transformation parameter (k or m) must be >= 1");
    switch (t) {
    case Transformation::RowMap:
    case Transformation::Filter:
        return std::optional<unsigned>(1u);
    case Transformation::FlatMap:
        return std::optional<unsigned>(parameter);
    case Transformation::GroupBy:
    case Transformation::Truncate:
        return std::optional<unsigned>(2u);
    case Transformation::SelfJoin:
        return std::optional<unsigned>();
    case Transformation::SelfJoinTruncated:
        return std::optional<unsigned>(2u * (parameter - 1u));
    }
    return std::optional<unsigned>();
}

double stableEpsilon(unsigned s, double epsilon)
{
    const double v = static_cast<double>(s) * epsilon;
    return s <= 1 ? v : roundUp(v);
}

double stableRho(unsigned s, double rho)
{
    const double v = static_cast<double>(s) * static_cast<double>(s) * rho;
    return s <= 1 ? v : roundUp(v);
}

ApproxCost stableApproxDp(unsigned s, double epsilon, double delta)
{
    if (s <= 1)
        return {epsilon, delta};
    const double sd = static_cast<double>(s);
    return {roundUp(sd * epsilon), std::min(1.0, roundUp(sd * std::exp((sd - 1.0) * epsilon) * delta))};
}

Result<double> subsampledEpsilon(double rate, double epsilon)
{
    PBX_TRY(r, privacy::amplifyBySubsampling({epsilon, 0.0}, rate));
    return r.epsilon;
}

std::optional<double> subsamplingShortcut(double rate, double epsilon)
{
    if (!(epsilon <= 1.0))
        return std::nullopt;
    return 2.0 * rate * epsilon;
}

} // namespace pbx::strategies
