// SPDX-License-Identifier: MIT
// A session's append-only ledger as an accounting ledger, so every composition strategy can
// account for what the session actually released.
#pragma once

#include "core/accounting/event.h"
#include "core/data/sensitivity.h"
#include "core/session/ledger_event.h"
#include "core/util/result.h"

#include <cstddef>
#include <vector>

namespace pbx::session {
class Session;
}

namespace pbx::accounting {

/// Converts released session events to privacy events, in ledger order, under `neighbours`:
///
/// - "laplace", "doubling-laplace": every release (scale b, charged ε) is one Laplace event with
///   b and sensitivity Δ = ε·b (ε = Δ/b, Dwork et al. 2006);
/// - "gaussian", "doubling-gaussian": every release (σ, charged ρ) is one Gaussian event with σ
///   and Δ = σ·√(2ρ) (ρ = Δ²/(2σ²), Bun & Steinke 2016 Prop. 1.6). Every doubling level was
///   released and paid for, so each is its own event;
/// - "brownian" (Brownian noise reduction): the releases of one quantity are the successive
///   levels of one reduction; the whole reduction is ONE Gaussian event with the last σ, since
///   its ρ telescopes to Δ²/(2σ_stop²), that of a single Gaussian release (docs/accuracy-first.md
///   §4.4). Here Δ = σ₁·√(2ρ₁) from the first release when the reduction was charged in ρ
///   (an ex-post charge E(T) says nothing about Δ: Unsupported; ledgerFromSession uses the
///   query's Δ instead);
/// - "laplace-nr" (Laplace noise reduction): one PureDp event per quantity with ε = Δ/b_stop, the
///   ex-post loss at the level where it stopped (Ligett et al. 2017), flagged `expost`: only basic
///   composition applies to it. Δ = ε₁·b₁ from the first release.
///
/// - strategy requests (an event with a StrategyRecord): one pure ε event of the charged cost; a
///   mode's picks one event of `count` picks at the ε per pick, "bounded-range" for the
///   exponential mechanism (its zCDP and RDP charges are the bounded-range ones), pure for
///   report-noisy-max;
///
/// - output-DP mechanisms (an event with an OdpRecord, released): one ex-post event with the
///   settled ε = E(cell) (E* when settled at the worst case) and the mechanism's δ (PureDp, or
///   ApproxDp when δ > 0), flagged `outputDp`: the ODP filter composes settled costs by their sum
///   (Hartmann et al. 2023, Theorem 7), so basic composition counts them and every other
///   strategy says why it does not apply (accounting::requireExAnte).
///
/// A release's cost is what it would cost alone (a noise reduction's level: ε_k or ρ_k), so the
/// first release of a reduction carries its whole charge whether later charges were recorded as
/// levels or as increments.
///
/// Every release counts, whatever the event's status; a refused request released nothing and
/// contributes nothing. The recovered Δ
/// carries the upward rounding of the charged cost, so it is never below the true sensitivity.
/// `origin`, if not null, receives for every produced privacy event the index of the ledger
/// event it came from. Errors: Unsupported for an unknown mechanism name; InvalidArgument
/// (naming the event) for a release with a non-positive or non-finite scale or cost.
Result<Ledger> ledgerFromEvents(const std::vector<session::LedgerEvent> &events,
                                data::Neighbouring neighbours, std::vector<std::size_t> *origin = nullptr);

/// ledgerFromEvents over the session's ledger, with the session's neighbouring relation; the Δ
/// of a Brownian noise reduction is the query's own (count, clipped sum or centred sum under the
/// relation, data/sensitivity.h), so it is right whichever filter charged it (ρ, or ex-post
/// through a boundary, whose charges say nothing about Δ).
Result<Ledger> ledgerFromSession(const session::Session &session, std::vector<std::size_t> *origin = nullptr);

} // namespace pbx::accounting
