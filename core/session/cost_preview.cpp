// SPDX-License-Identifier: MIT
#include "core/session/cost_preview.h"

#include "core/mechanisms/discrete_mechanisms.h"
#include "core/session/mechanism_choice.h"
#include "core/session/release/query_shape.h"
#include "core/session/release/release_common.h"
#include "core/session/source_support.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pbx::session {

namespace {

/// The charge releaseOnce would make for a one-channel query (count: integer Δ, exact discrete
/// noise; sum: the same on a power-of-two grid).
Result<double> singleReleaseCharge(bool laplace, const Channel &channel, const AccuracyTarget &target)
{
    using mechanisms::DiscreteNoiseKind;
    const auto kind = laplace ? DiscreteNoiseKind::Laplace : DiscreteNoiseKind::Gaussian;
    if (channel.quantity == "count") {
        PBX_TRY(noise,
                mechanisms::DiscreteNoiseMechanism::forAbsoluteError(
                    kind, target.error, target.beta(), static_cast<std::uint64_t>(channel.sensitivity)));
        return noise.cost();
    }
    PBX_TRY(grid, mechanisms::GridMechanism::forAbsoluteError(kind, target.error, target.beta(),
                                                              channel.sensitivity));
    return grid.noise().cost();
}

} // namespace

Result<CostPreview> previewCost(const Session &session, const QueryRequest &request)
{
    if (request.strategy())
        return makeError(
            ErrorCode::Unsupported,
            "histogram, quantile, derived and workload requests show their cost in their own dialog");
    PBX_RETURN_IF_ERROR(checkTargetAndCap(request));
    PBX_TRY(query, data::CompiledQuery::compile(request.query, session.table()));
    const auto &settings = session.settings();
    PBX_TRY(method, releaseMethodFor(request, settings));
    const ReleaseMethod mechanism = method;
    // As Session::ask refuses it: no row count declared, no release (and no cost to show).
    PBX_TRY(publicRows, releaseRowCount(session.source()));

    CostPreview preview;
    preview.mechanism = std::string(releaseMethodName(mechanism));
    preview.kind = chargeKindFor(mechanism, settings.filter);
    preview.remaining = session.filter().remainingFor(preview.kind);
    if (isSingleRelease(mechanism)) {
        // Zero statistics: only the channels' sensitivities are read, which are public.
        const auto shape = QueryShape::of(request.query.aggregate, query.bounds(), data::QueryStatistics{},
                                          settings.neighbours, static_cast<double>(publicRows));
        PBX_TRY(charge,
                singleReleaseCharge(usesLaplaceNoise(mechanism), shape.channels().front(), request.target));
        preview.exact = charge;
        preview.atMost = charge;
    } else {
        double cap = preview.remaining;
        if (request.maxCost)
            cap = std::min(cap, *request.maxCost);
        if (request.plannedQueries > 0)
            cap = std::min(cap, preview.remaining / static_cast<double>(request.plannedQueries));
        if (!std::isfinite(cap)) // as Ask refuses it
            return makeError(ErrorCode::InvalidArgument, detail::noBudgetToCapReason(preview.kind));
        preview.atMost = std::max(cap, 0.0);
    }
    preview.shareOfRemaining = preview.remaining > 0.0 ? preview.atMost / preview.remaining
                                                       : std::numeric_limits<double>::infinity();
    return preview;
}

} // namespace pbx::session
