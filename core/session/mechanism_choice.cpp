// SPDX-License-Identifier: MIT
#include "core/session/mechanism_choice.h"

#include <string>

namespace pbx::session {

using filters::ChargeKind;
using filters::FilterKind;

namespace {
constexpr ReleaseMethod kMechanisms[]
    = {ReleaseMethod::Laplace,          ReleaseMethod::Gaussian,  ReleaseMethod::DoublingLaplace,
       ReleaseMethod::DoublingGaussian, ReleaseMethod::LaplaceNr, ReleaseMethod::Brownian};

/// Which filters can account which mechanisms: pure ε goes everywhere (zCDP filters take it as
/// ε²/2); ρ needs a zCDP system; pure ex-post loss needs a pure-ε or ex-post system; Brownian
/// noise reduction needs the ex-post system (with a boundary) or the brownian-zcdp filter. The odp
/// filter takes what has an (E, δ)-ODP guarantee: pure ε by Lemma 3 (Hartmann et al. 2023), ex-post
/// noise reduction because ex-post privacy implies ODP (docs/output-dp.md §1); not ρ. The rdp filter
/// takes what has a Rényi curve fixed before it runs: pure ε, ρ, and Brownian noise reduction step
/// by step (each step a Gaussian mechanism given the past); the advanced filter only pure ε; the
/// odometer predictable ε and ρ (single releases and doubling), not noise reduction.
bool accounts(ReleaseMethod m, FilterKind f)
{
    switch (m) {
    case ReleaseMethod::Laplace:
    case ReleaseMethod::DoublingLaplace:
        return true;
    case ReleaseMethod::Gaussian:
    case ReleaseMethod::DoublingGaussian:
        return f == FilterKind::Zcdp || f == FilterKind::Unified || f == FilterKind::BrownianZcdp
               || f == FilterKind::Rdp || f == FilterKind::Odometer;
    case ReleaseMethod::LaplaceNr:
        return f == FilterKind::Basic || f == FilterKind::ExPost || f == FilterKind::Unified
               || f == FilterKind::Odp;
    case ReleaseMethod::Brownian:
        return f == FilterKind::ExPost || f == FilterKind::Unified || f == FilterKind::BrownianZcdp
               || f == FilterKind::Odp || f == FilterKind::Rdp;
    }
    return false;
}

/// Why `filter` cannot account `m`, for the filters whose reason is not obvious from its name.
std::string refusalReason(ReleaseMethod m, FilterKind filter)
{
    switch (filter) {
    case FilterKind::Odp:
        return ": a ρ (zCDP) charge has no ODP cost, and the odp filter composes (E, δ) costs (Hartmann et "
               "al. 2023, Theorem 7)";
    case FilterKind::Rdp:
        return ": no Rényi bound of stopped Laplace noise reduction is known before it runs (its loss depends "
               "on the level it stops at, Ligett et al. 2017; a reduction step is not an RDP mechanism of its "
               "increment); Brownian noise reduction is accepted";
    case FilterKind::Advanced:
        return m == ReleaseMethod::LaplaceNr
                   ? ": it needs each mechanism's ε before it runs (Whitehouse et al. 2023), and Laplace noise "
                     "reduction's loss depends on the level it stops at"
                   : ": it composes ε-DP mechanisms (Whitehouse et al. 2023), and a Gaussian release is "
                     "ρ-zCDP, not ε-DP";
    case FilterKind::Odometer:
        return ": an odometer adds costs fixed before each release's noise is drawn, and noise reduction's "
               "loss depends on the level it stops at; use doubling (doubling-gaussian or doubling-laplace)";
    default:
        return "";
    }
}

std::string acceptingFilters(ReleaseMethod m)
{
    std::string names;
    for (FilterKind f : {FilterKind::Basic, FilterKind::Zcdp, FilterKind::ExPost, FilterKind::Unified,
                         FilterKind::BrownianZcdp, FilterKind::Odp, FilterKind::Rdp, FilterKind::Advanced,
                         FilterKind::Odometer})
        if (accounts(m, f))
            names += (names.empty() ? "" : ", ") + std::string(filters::filterKindName(f));
    return names;
}
} // namespace

std::string_view releaseMethodName(ReleaseMethod kind)
{
    switch (kind) {
    case ReleaseMethod::Laplace:
        return "laplace";
    case ReleaseMethod::Gaussian:
        return "gaussian";
    case ReleaseMethod::DoublingLaplace:
        return "doubling-laplace";
    case ReleaseMethod::DoublingGaussian:
        return "doubling-gaussian";
    case ReleaseMethod::LaplaceNr:
        return "laplace-nr";
    case ReleaseMethod::Brownian:
        return "brownian";
    }
    return "laplace";
}

Result<ReleaseMethod> parseReleaseMethod(std::string_view text)
{
    for (ReleaseMethod k : kMechanisms)
        if (releaseMethodName(k) == text)
            return k;
    return makeError(
        ErrorCode::InvalidArgument,
        "unknown mechanism '" + std::string(text)
            + "' (expected brownian, laplace-nr, doubling-laplace, doubling-gaussian, laplace or gaussian)");
}

bool isSingleRelease(ReleaseMethod kind)
{
    return kind == ReleaseMethod::Laplace || kind == ReleaseMethod::Gaussian;
}

bool isNoiseReduction(ReleaseMethod kind)
{
    return kind == ReleaseMethod::LaplaceNr || kind == ReleaseMethod::Brownian;
}

bool usesLaplaceNoise(ReleaseMethod kind)
{
    return kind == ReleaseMethod::Laplace || kind == ReleaseMethod::DoublingLaplace
           || kind == ReleaseMethod::LaplaceNr;
}

ChargeKind chargeKindFor(ReleaseMethod mechanism, FilterKind filter)
{
    switch (mechanism) {
    case ReleaseMethod::Laplace:
    case ReleaseMethod::DoublingLaplace:
        return ChargeKind::PureEpsilon;
    case ReleaseMethod::Gaussian:
    case ReleaseMethod::DoublingGaussian:
        return ChargeKind::Rho;
    case ReleaseMethod::LaplaceNr:
        return ChargeKind::ExPost;
    case ReleaseMethod::Brownian:
        return filter == FilterKind::BrownianZcdp || filter == FilterKind::Rdp ? ChargeKind::Rho
                                                                               : ChargeKind::ExPost;
    }
    return ChargeKind::PureEpsilon;
}

Result<void> checkMechanism(ReleaseMethod mechanism, FilterKind filter, data::Aggregate aggregate,
                            TargetKind target)
{
    const std::string name(releaseMethodName(mechanism));
    if (isSingleRelease(mechanism) && (target == TargetKind::Relative || aggregate == data::Aggregate::Mean))
        return makeError(ErrorCode::InvalidArgument,
                         "mechanism: '" + name
                             + "' is a single calibrated release; a relative target or a "
                               "mean needs a stopping rule (noise reduction or doubling)");
    if (!accounts(mechanism, filter))
        return makeError(ErrorCode::InvalidArgument,
                         "mechanism: the " + std::string(filters::filterKindName(filter))
                             + " filter cannot account '" + name + "' (filters that can: "
                             + acceptingFilters(mechanism) + ")" + refusalReason(mechanism, filter));
    return {};
}

ReleaseMethod defaultMechanism(FilterKind filter, data::Aggregate aggregate, TargetKind target)
{
    const bool pure = filter == FilterKind::Basic || filter == FilterKind::ExPost || filter == FilterKind::Odp
                      || filter == FilterKind::Advanced;
    if (aggregate != data::Aggregate::Mean && target == TargetKind::Absolute)
        return pure ? ReleaseMethod::Laplace : ReleaseMethod::Gaussian;
    switch (filter) {
    case FilterKind::Basic:
    case FilterKind::ExPost:
    case FilterKind::Odp:
        return ReleaseMethod::LaplaceNr;
    case FilterKind::Zcdp:
    case FilterKind::Odometer:
        return ReleaseMethod::DoublingGaussian;
    case FilterKind::Unified:
    case FilterKind::BrownianZcdp:
    case FilterKind::Rdp:
        return ReleaseMethod::Brownian;
    case FilterKind::Advanced:
        return ReleaseMethod::DoublingLaplace;
    }
    return ReleaseMethod::DoublingGaussian;
}

} // namespace pbx::session
