// SPDX-License-Identifier: MIT
#include "core/session/planned_cap.h"

#include "core/math/directed_rounding.h"
#include "core/session/mechanism_choice.h"

#include <cmath>

namespace pbx::session {

std::optional<double> plannedCap(const filters::PrivacyFilter &filter, const QueryRequest &request,
                                 std::size_t plannedQueries)
{
    // A growing stream's per-epoch charges are fixed by its schedule: no cap applies.
    if (request.maxCost || plannedQueries == 0 || request.growing())
        return std::nullopt;
    const ReleaseMethod mechanism = request.mechanism.value_or(
        defaultMechanism(filter.kind(), request.query.aggregate, request.target.kind));
    if (isSingleRelease(mechanism))
        return std::nullopt;
    // The unified filter routes Brownian noise reduction to the side that accounts it more
    // cheaply; each side is then capped at its own remaining/k (ReleaseContext::plannedQueries).
    if (mechanism == ReleaseMethod::Brownian && filter.kind() == filters::FilterKind::Unified)
        return std::nullopt;
    const double remaining = filter.remainingFor(chargeKindFor(mechanism, filter.kind()));
    if (!(remaining > 0.0) || !std::isfinite(remaining)) // nothing left, or no budget (an odometer)
        return std::nullopt;
    const double cap = math::nudgeDown(remaining / static_cast<double>(plannedQueries), 1);
    return cap > 0.0 ? std::optional<double>(cap) : std::nullopt;
}

QueryRequest withPlannedCap(QueryRequest request, const filters::PrivacyFilter &filter,
                            std::size_t plannedQueries)
{
    if (auto cap = plannedCap(filter, request, plannedQueries))
        request.maxCost = *cap;
    if (!request.maxCost)
        request.plannedQueries = plannedQueries;
    return request;
}

} // namespace pbx::session
