// SPDX-License-Identifier: MIT
// How a request is answered: a single calibrated release (absolute count/sum), the doubling
// baseline, or noise reduction. Each charges the filter before it draws noise and decides when to
// stop from released values only (docs/accuracy-first.md §6.1 rules 1 and 2).
#pragma once

#include "core/filters/privacy_filter.h"
#include "core/mechanisms/noise_source.h"
#include "core/session/mechanism_choice.h"
#include "core/session/release/query_shape.h"

#include <optional>

namespace pbx::session {

struct ReleaseContext
{
    QueryShape shape; ///< channels with their private exact values
    filters::PrivacyFilter &filter;
    mechanisms::NoiseSource &noiseSource;
    ReleaseMethod mechanism = ReleaseMethod::Gaussian;
    /// n for the ex-post δ of the n-th Brownian noise reduction accounted ex-post in this
    /// session: δ_n = δ_e·6/(π²n²), so Σ_n δ_n ≤ δ_e however many there are.
    std::size_t expostDeltaIndex = 1;
    /// Requests still to come (0: not planned): caps every side at remaining/plannedQueries.
    std::size_t plannedQueries = 0;
};

/// The outcome fields of a ledger event.
struct ReleaseOutcome
{
    EventStatus status = EventStatus::Refused;
    EventMechanism mechanism = EventMechanism::None;
    std::string reason;
    std::string accounting; ///< how the cost was accounted, e.g. the ex-post boundary
    double answer = 0.0;
    double errorBound = 0.0;
    bool targetMet = false;
    filters::ChargeKind costKind = filters::ChargeKind::PureEpsilon;
    double cost = 0.0;      ///< total charged, in costKind's unit
    double costDelta = 0.0; ///< ex-post δ charged
    std::vector<Attempt> attempts;
};

/// The ledger event recording `outcome` as the answer to `request` (every field of the outcome
/// carried over; index and spend-after are set when the session appends it).
LedgerEvent ledgerEventFor(QueryRequest request, ReleaseOutcome outcome);

/// One release calibrated to an absolute target ±a at confidence 1 − β (count or sum):
/// Laplace b = a/ln(1/β) or Gaussian σ = a/Φ⁻¹(1−β/2) (docs/accuracy-first.md §5.1), charged before
/// sampling. Refused, with the filter's reason, when the cost does not fit or exceeds `maxCost`.
ReleaseOutcome releaseOnce(const ReleaseContext &context, const AccuracyTarget &target,
                           std::optional<double> maxCost);

/// The doubling baseline (Ligett et al. 2017 §2.3 "naive"; docs/accuracy-first.md §2.3, §5.2–5.3).
///
/// Rule. The per-query cap C is min(maxCost, what the filter can still pay in this mechanism's
/// unit). Levels j = 0..K−1 cost c_j = c_top·r^{K−1−j}, with r = ½ for Laplace (the scale halves,
/// ε doubles) and r = ¼ for Gaussian (σ halves, ρ quadruples) and c_top = (1 − r)·C, so Σ c_j < C:
/// the whole plan always fits. K is the largest number of levels (≤ 40) whose noisiest level could
/// still certify the largest possible answer; every level uses confidence 1 − β/K. At each level
/// fresh independent noise is drawn after its cost is charged; the answer is accepted as soon as
/// the released values alone prove the target (absolute: half-width w ≤ a; relative: |y| − w > 0
/// and w ≤ α(|y| − w), which on the event |noise| ≤ w gives |y − c| ≤ w ≤ α|c|). A count or sum
/// whose noisy value is too small for even the least noisy level to certify is abandoned early,
/// which is post-processing and free.
///
/// Guarantee. Every attempt is paid for, so privacy is the sum of the charged costs (composition
/// enforced by the filter). Accuracy: by a union bound over the K levels, with probability ≥ 1 − β
/// every attempt's interval holds at once, so an accepted answer meets the target with probability
/// ≥ 1 − β however the stopping level was reached.
///
/// Mean: m̂ = m₀ + Ŝ/Ĉ clipped to [L, U], m₀ = (L+U)/2, from a noisy sum Ŝ of the centred clipped
/// values and a noisy count Ĉ released together at each level. If |Ŝ − S| ≤ w_S and |Ĉ − C| ≤ w_C
/// and Ĉ > w_C, then C > 0 and |m̂ − m| = |e_S − (S/C)e_C|/Ĉ ≤ (w_S + h·w_C)/Ĉ with h = (U−L)/2,
/// since |S/C| ≤ h; clipping to [L, U] only shrinks the error.
ReleaseOutcome releaseByDoubling(const ReleaseContext &context, const AccuracyTarget &target,
                                 std::optional<double> maxCost);

/// Noise reduction (Laplace: Koufogiannis et al., Ligett et al. 2017; Brownian: Whitehouse et al.
/// 2022): one correlated noise path per channel, released noisiest first, paying only for the
/// least noisy value released (docs/accuracy-first.md §1.2).
///
/// Plan. As for doubling, but the top level costs the whole cap C and levels grow by a factor
/// 1/0.8 in noise scale (ε ×1.25; ρ ×1.5625): K ≤ 120 levels fixed before the first release, each
/// accepted at confidence 1 − β/K, with the same acceptance and early-abandonment rules.
///
/// Accounting, one charge per level before its values are drawn (predictable):
/// - laplace-nr: the ex-post loss increment ε_k − ε_{k−1}, pure (§2.1, §4.2);
/// - brownian in the brownian-zcdp filter: the ρ increment (Δ²/2)(1/T_k − 1/T_{k−1}), which
///   telescopes to Δ²/(2T_stop) (§4.4: each bridge step is a Gaussian mechanism given the past);
/// - brownian in the ex-post or unified filter: a normal-mixture boundary fixed before the first
///   release, the loss increment E(T_k) − E(T_{k−1}), and its δ_n with the first charge (§3.3).
/// The total charged equals the loss at the stopping level (rounded up).
ReleaseOutcome releaseByNoiseReduction(const ReleaseContext &context, const AccuracyTarget &target,
                                       std::optional<double> maxCost);

} // namespace pbx::session
