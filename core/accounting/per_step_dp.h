// SPDX-License-Identifier: MIT
// The per-step (ε, δ) view of a ledger: every Gaussian and zCDP event stated as an (ε, δ)-DP event
// at a per-step δ the caller chooses, so that basic, advanced and optimal composition — which
// compose (ε, δ) guarantees only — apply to ledgers with such events too. Each converted step
// carries its δ into the composition (basic: Σδ_j; advanced: Σδ_j + δ′), which is why the
// per-step δ has to be small against the total δ.
#pragma once

#include "core/accounting/event.h"
#include "core/util/result.h"

#include <cstdint>

namespace pbx::accounting {

/// ε of ONE release of the Gaussian mechanism N(0, σ²) with ℓ2-sensitivity Δ at `delta`: the
/// exact privacy profile of Balle & Wang 2018 ("Improving the Gaussian mechanism for
/// differential privacy", Thm 8),
///   δ(ε) = Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ),
/// solved for the smallest ε ≥ 0 with δ(ε) ≤ `delta` (privacy::gaussianEpsilon, bisection, the
/// upper end of the bracket). Rounded up: the target is δ·(1 − 1e-12), absorbing the ~1e-13
/// relative round-off of the evaluated δ(ε), and the result is nudged up a few ulps, so the
/// reported ε is never below the exact one. Units: σ and Δ in the query's units, ε in nats.
/// Valid: σ > 0, Δ > 0 finite, 0 < δ < 1. Errors: InvalidArgument naming "sigma",
/// "sensitivity" or "perStepDelta".
Result<double> gaussianEpsilonAtDelta(double sigma, double sensitivity, double delta);

/// ε of ONE step of a ρ-zCDP mechanism at `delta` by the conversion of Canonne, Kamath & Steinke
/// 2020 (arXiv 2004.00010, Prop. 12; privacy::epsilonFromRhoCks), rounded up.
/// Valid: ρ ≥ 0 finite, 0 < δ < 1. Errors: InvalidArgument naming "rho" or "perStepDelta".
Result<double> zcdpEpsilonAtDelta(double rho, double delta);

/// A ledger restated with every Gaussian and zCDP event replaced by an (ε, δ) event.
struct PerStepLedger
{
    Ledger ledger;                   ///< same events, order, counts, sampling and partitions
    std::int64_t convertedSteps = 0; ///< steps (counts expanded) of the converted events
    std::int64_t convertedEvents = 0;
};

/// The per-step (ε, δ) view: each Gaussian event becomes ApproxDp(gaussianEpsilonAtDelta(σ, Δ,
/// δ_step), δ_step) and each zCDP event ApproxDp(zcdpEpsilonAtDelta(ρ, δ_step), δ_step), keeping
/// its count, sampling and partition (a sampled event's (ε, δ) is then amplified by the
/// strategies as for any (ε, δ) event: Balle, Barthe & Gaboardi 2018, Thm 9/10 — so a sampled
/// step carries q·δ_step, not δ_step). Other events are unchanged. Valid: a valid ledger,
/// 0 < δ_step < 1. Errors: InvalidArgument (invalid ledger naming `events[i].field`, or
/// "perStepDelta: …").
Result<PerStepLedger> perStepLedger(const Ledger &ledger, double stepDelta);

/// True when the ledger has a Gaussian or zCDP event (one perStepLedger would convert).
bool hasNonPureEvents(const Ledger &ledger);

/// k: the steps (counts expanded) of the ledger's Gaussian and zCDP events, those perStepLedger
/// converts. 0 when there are none.
std::int64_t convertibleSteps(const Ledger &ledger);

/// The "auto" per-step δ of the comparison view and `pbx-cli compare --per-step-delta auto`:
/// δ/(2k) rounded DOWN to two significant digits, so that the k converted steps charge at most
/// half of `delta` (basic composition, Dwork & Roth 2014 Thm 3.16) and at least half is left for
/// the composition itself (advanced composition's δ′, Thm 3.20; the optimum's own δ). At least
/// 1e-15, the view's smallest per-step δ (below δ/(2k) only when that is under 1e-15). Valid: any
/// `delta` and `steps`; returns 0 (no per-step view) when steps ≤ 0 or δ ≤ 0. No errors.
double autoPerStepDelta(double delta, std::int64_t steps);

/// Σ_j count_j·δ_j of the ledger's (ε, δ) steps after amplification by sampling (approxDpPerStep),
/// rounded up: the δ the steps themselves charge to a composition (Dwork & Roth 2014, Thm 3.16
/// and 3.20). Errors: those of approxDpPerStep (Unsupported, naming `events[i]`).
Result<double> sumOfStepDeltas(const Ledger &ledger);

} // namespace pbx::accounting
