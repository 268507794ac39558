// SPDX-License-Identifier: MIT
// What a request will cost, said before it is asked: computed from public facts only (the
// query's column, bounds and neighbouring relation, the public row count, the target and the
// filter's state), never from the data, so previewing is free.
#pragma once

#include "core/session/session.h"

#include <optional>
#include <string>

namespace pbx::session {

struct CostPreview
{
    std::string mechanism; ///< the release method that would answer ("laplace", "brownian", …)
    filters::ChargeKind kind = filters::ChargeKind::PureEpsilon; ///< the unit charged
    /// A single calibrated release: its exact charge (the filter is charged exactly this).
    std::optional<double> exact;
    /// The most the request can be charged: `exact`, or for doubling and noise reduction the
    /// per-query cap (the plan always fits under it; what it actually charges depends on the
    /// answer, which the preview does not read).
    double atMost = 0.0;
    double remaining = 0.0; ///< what the filter can still pay in `kind`'s unit
    /// atMost / remaining, in [0, ∞): +∞ when nothing remains. A share > 1 will be refused.
    double shareOfRemaining = 0.0;
};

/// Previews the cost of `request` in `session` (count, sum and mean requests; see Session::ask).
/// Reads no data: the query is compiled for its column and bounds, the shape gets only
/// sensitivities (QueryShape::of with zero statistics), and the single-release charge is the one
/// releaseOnce calibrates (Laplace b = a/ln(1/β), Gaussian σ = a/Φ⁻¹(1−β/2), on the exact discrete
/// mechanisms of Canonne, Kamath & Steinke 2020). The doubling/noise-reduction bound is
/// min(maxCost, remaining, remaining/plannedQueries) (perQueryCap in release_common.h).
/// Errors: as Session::ask before anything is spent (invalid target, unknown column, bad
/// predicate, a mechanism the filter cannot account, no declared row count: releaseRowCount);
/// Unsupported for histogram, quantile,
/// derived and workload requests (their cost is shown by their own dialog).
Result<CostPreview> previewCost(const Session &session, const QueryRequest &request);

} // namespace pbx::session
