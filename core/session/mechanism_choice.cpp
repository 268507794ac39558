// SPDX-License-Identifier: MIT
#include "core/session/mechanism_choice.h"

#include <string>

namespace pbx::session {

using filters::ChargeKind;
using filters::FilterKind;

namespace {
constexpr MechanismKind kMechanisms[] = {MechanismKind::Laplace,          MechanismKind::Gaussian,
                                         MechanismKind::DoublingLaplace,  MechanismKind::DoublingGaussian,
                                         MechanismKind::LaplaceNr,        MechanismKind::Brownian};

/// Which filters can account which mechanisms: pure ε goes everywhere (zCDP filters take it as
/// ε²/2); ρ needs a zCDP system; pure ex-post loss needs a pure-ε or ex-post system; Brownian
/// noise reduction needs the ex-post system (with a boundary) or the brownian-zcdp filter.
bool accounts(MechanismKind m, FilterKind f)
{
    switch (m) {
    case MechanismKind::Laplace:
    case MechanismKind::DoublingLaplace: return true;
    case MechanismKind::Gaussian:
    case MechanismKind::DoublingGaussian:
        return f == FilterKind::Zcdp || f == FilterKind::Unified || f == FilterKind::BrownianZcdp;
    case MechanismKind::LaplaceNr: return f == FilterKind::Basic || f == FilterKind::ExPost || f == FilterKind::Unified;
    case MechanismKind::Brownian:
        return f == FilterKind::ExPost || f == FilterKind::Unified || f == FilterKind::BrownianZcdp;
    }
    return false;
}

std::string acceptingFilters(MechanismKind m)
{
    std::string names;
    for (FilterKind f : {FilterKind::Basic, FilterKind::Zcdp, FilterKind::ExPost, FilterKind::Unified,
                         FilterKind::BrownianZcdp})
        if (accounts(m, f))
            names += (names.empty() ? "" : ", ") + std::string(filters::filterKindName(f));
    return names;
}
} // namespace

std::string_view mechanismKindName(MechanismKind kind)
{
    switch (kind) {
    case MechanismKind::Laplace: return "laplace";
    case MechanismKind::Gaussian: return "gaussian";
    case MechanismKind::DoublingLaplace: return "doubling-laplace";
    case MechanismKind::DoublingGaussian: return "doubling-gaussian";
    case MechanismKind::LaplaceNr: return "laplace-nr";
    case MechanismKind::Brownian: return "brownian";
    }
    return "laplace";
}

Result<MechanismKind> parseMechanismKind(std::string_view text)
{
    for (MechanismKind k : kMechanisms)
        if (mechanismKindName(k) == text)
            return k;
    return makeError(ErrorCode::InvalidArgument,
                     "unknown mechanism '" + std::string(text)
                         + "' (expected brownian, laplace-nr, doubling-laplace, doubling-gaussian, laplace or gaussian)");
}

bool isSingleRelease(MechanismKind kind)
{
    return kind == MechanismKind::Laplace || kind == MechanismKind::Gaussian;
}

bool isNoiseReduction(MechanismKind kind)
{
    return kind == MechanismKind::LaplaceNr || kind == MechanismKind::Brownian;
}

bool usesLaplaceNoise(MechanismKind kind)
{
    return kind == MechanismKind::Laplace || kind == MechanismKind::DoublingLaplace
           || kind == MechanismKind::LaplaceNr;
}

ChargeKind chargeKindFor(MechanismKind mechanism, FilterKind filter)
{
    switch (mechanism) {
    case MechanismKind::Laplace:
    case MechanismKind::DoublingLaplace: return ChargeKind::PureEpsilon;
    case MechanismKind::Gaussian:
    case MechanismKind::DoublingGaussian: return ChargeKind::Rho;
    case MechanismKind::LaplaceNr: return ChargeKind::ExPost;
    case MechanismKind::Brownian: return filter == FilterKind::BrownianZcdp ? ChargeKind::Rho : ChargeKind::ExPost;
    }
    return ChargeKind::PureEpsilon;
}

Result<void> checkMechanism(MechanismKind mechanism, FilterKind filter, data::Aggregate aggregate,
                            TargetKind target)
{
    const std::string name(mechanismKindName(mechanism));
    if (isSingleRelease(mechanism) && (target == TargetKind::Relative || aggregate == data::Aggregate::Mean))
        return makeError(ErrorCode::InvalidArgument,
                         "mechanism: '" + name + "' is a single calibrated release; a relative target or a "
                                                 "mean needs a stopping rule (noise reduction or doubling)");
    if (!accounts(mechanism, filter))
        return makeError(ErrorCode::InvalidArgument,
                         "mechanism: the " + std::string(filters::filterKindName(filter)) + " filter cannot account '"
                             + name + "' (filters that can: " + acceptingFilters(mechanism) + ")");
    return {};
}

MechanismKind defaultMechanism(FilterKind filter, data::Aggregate aggregate, TargetKind target)
{
    const bool pure = filter == FilterKind::Basic || filter == FilterKind::ExPost;
    if (aggregate != data::Aggregate::Mean && target == TargetKind::Absolute)
        return pure ? MechanismKind::Laplace : MechanismKind::Gaussian;
    switch (filter) {
    case FilterKind::Basic:
    case FilterKind::ExPost: return MechanismKind::LaplaceNr;
    case FilterKind::Zcdp: return MechanismKind::DoublingGaussian;
    case FilterKind::Unified:
    case FilterKind::BrownianZcdp: return MechanismKind::Brownian;
    }
    return MechanismKind::DoublingGaussian;
}

} // namespace pbx::session
