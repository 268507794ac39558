// SPDX-License-Identifier: MIT
// Which mechanism answers a request, which filters can account it, and what it charges them.
#pragma once

#include "core/data/query.h"
#include "core/filters/privacy_filter.h"
#include "core/session/accuracy_target.h"

#include <string_view>

namespace pbx::session {

enum class ReleaseMethod {
    Laplace,          ///< one Laplace release calibrated to an absolute target (pure ε)
    Gaussian,         ///< one Gaussian release calibrated to an absolute target (ρ)
    DoublingLaplace,  ///< fresh Laplace noise per level, every level paid (pure ε)
    DoublingGaussian, ///< fresh Gaussian noise per level, every level paid (ρ)
    LaplaceNr,        ///< Laplace noise reduction: pays its last level, ex-post (pure)
    Brownian,         ///< Brownian noise reduction: ρ = Δ²/(2T_stop), or ex-post with a boundary
};

/// "laplace", "gaussian", "doubling-laplace", "doubling-gaussian", "laplace-nr", "brownian".
std::string_view releaseMethodName(ReleaseMethod kind);
Result<ReleaseMethod> parseReleaseMethod(std::string_view text);

/// One release calibrated to the target (no stopping rule): only for absolute count/sum targets.
bool isSingleRelease(ReleaseMethod kind);
bool isNoiseReduction(ReleaseMethod kind);
/// Laplace-family noise (Laplace, doubling-laplace, laplace-nr) versus Gaussian/Brownian noise.
bool usesLaplaceNoise(ReleaseMethod kind);

/// The kind of charge `mechanism` makes in `filter`: pure ε for Laplace and Laplace doubling, ρ
/// for Gaussian and Gaussian doubling, ex-post for Laplace noise reduction, and for Brownian
/// noise reduction ρ in the brownian-zcdp filter (docs/accuracy-first.md §4.4) or ex-post with a
/// boundary in the ex-post filter (§3.3, §4.2). In the unified filter a Brownian run is routed at
/// release time to the side that accounts it more cheaply (ρ on the zCDP side, or ex-post); this
/// returns the ex-post kind for it, and the event records the side that paid.
filters::ChargeKind chargeKindFor(ReleaseMethod mechanism, filters::FilterKind filter);

/// Errors (InvalidArgument, naming the filters that would accept it) when `filter` cannot account
/// `mechanism` — e.g. Laplace noise reduction is not zCDP (§4.4) — or when a single release is
/// asked for a relative target or a mean, which need a stopping rule.
Result<void> checkMechanism(ReleaseMethod mechanism, filters::FilterKind filter, data::Aggregate aggregate,
                            TargetKind target);

/// The default for a request: a single calibrated release for absolute count/sum targets
/// (Laplace in pure-ε filters, Gaussian otherwise); otherwise noise reduction where the filter
/// admits it (Laplace noise reduction in the basic and ex-post filters, Brownian in the unified
/// and brownian-zcdp filters) and Gaussian doubling in the plain zCDP filter.
ReleaseMethod defaultMechanism(filters::FilterKind filter, data::Aggregate aggregate, TargetKind target);

} // namespace pbx::session
