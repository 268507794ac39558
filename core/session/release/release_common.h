// SPDX-License-Identifier: MIT
// Small pieces shared by the doubling and noise-reduction releases.
#pragma once

#include "core/mechanisms/discrete_mechanisms.h"
#include "core/session/release/release_plan.h"

#include <string>

namespace pbx::session::detail {

/// "ε", "ρ" or "ex-post ε": how a charge kind is named in messages.
std::string unitSymbol(filters::ChargeKind kind);

/// "±40 at 95 % confidence" or "±5 % at 95 % confidence".
std::string targetText(const AccuracyTarget &target);

/// The per-query cap: min(maxCost, what the filter can still pay in this unit, and that divided
/// by context.plannedQueries when set).
double perQueryCap(const ReleaseContext &context, filters::ChargeKind kind, std::optional<double> maxCost);

/// Why a stopping rule (doubling, noise reduction) cannot run without a per-query maximum: the
/// session has no budget to divide (an odometer). Ask's refusal and the cost preview's.
std::string noBudgetToCapReason(filters::ChargeKind kind);

/// Why a plan could not start: no budget left, or the cap cannot certify any answer.
std::string cannotStartReason(const ReleaseContext &context, filters::ChargeKind kind, double cap,
                              std::optional<double> maxCost, const AccuracyTarget &target);

/// What `budget` (ε for Laplace, ρ for Gaussian) can buy for a one-channel query (a count or a
/// clipped sum) in a single release at the target's confidence: ", but with ρ = 6.1e-05 left, this
/// count can be answered to ±612 at 95 % confidence". The half-width is the one the mechanism that
/// forCost(budget) builds would certify (DiscreteNoiseMechanism / GridMechanism::halfWidth), so
/// the statement is never optimistic. Empty when the query has several channels (a mean), the
/// budget is not positive, or no mechanism fits (then nothing honest can be said).
std::string affordableAccuracyText(mechanisms::DiscreteNoiseKind kind, double budget, const QueryShape &shape,
                                   const AccuracyTarget &target);

/// Completes an attempt from its released values (estimate, error bar, acceptance), appends it to
/// `out` and says whether the plan stops here: the target is met, or the answer is too small for
/// the least noisy level to certify (early abandonment, with the reason set).
bool recordAttempt(ReleaseOutcome &out, Attempt attempt, const std::vector<double> &halfWidths,
                   const QueryShape &shape, const AccuracyTarget &target, double leastNoisyNumerator);

/// A level was charged but its noise could not be drawn (the random source failed): the charge
/// stands, so the attempt is recorded with its cost and the level's noise scales (one per
/// channel, for audits), every value NaN and no error bar; the event's reason says so. The
/// ledger and the filter then agree, and Session::restore re-charges the same amount.
void recordChargedWithoutRelease(ReleaseOutcome &out, Attempt attempt, const QueryShape &shape,
                                 const std::vector<double> &scales, const Error &error);

/// Fills status/answer/error bar from the last attempt once a plan has run.
void finishFromAttempts(ReleaseOutcome &out, double cap, filters::ChargeKind kind);

} // namespace pbx::session::detail
