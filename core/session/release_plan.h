// SPDX-License-Identifier: MIT
// How a request is answered: a single calibrated release (absolute count/sum), or the doubling
// baseline (relative targets, and every mean, whose error bar depends on the noisy count).
#pragma once

#include "core/data/query.h"
#include "core/data/sensitivity.h"
#include "core/filters/privacy_filter.h"
#include "core/mechanisms/additive_noise.h"
#include "core/session/ledger_event.h"

namespace pbx::session {

/// Everything a release needs. `exact` is private: only mechanisms read it, never a stopping
/// rule (accuracy-first.md §8.1 rule 2).
struct ReleaseContext
{
    const data::CompiledQuery &query;
    data::QueryStatistics exact;
    data::Neighbours neighbours;
    mechanisms::NoiseKind noise;
    filters::PrivacyFilter &filter;
    mechanisms::NoiseSource &noiseSource;
    /// The dataset's row count, treated as public metadata (it is shown to every user). Used
    /// only to bound the largest possible answer when choosing the noisiest doubling level.
    double publicRowCount = 0.0;
};

/// The outcome fields of a ledger event (status, mechanism, answer, cost, attempts, reason).
struct ReleaseOutcome
{
    EventStatus status = EventStatus::Refused;
    std::string mechanism;
    std::string reason;
    double answer = 0.0;
    double errorBound = 0.0;
    bool targetMet = false;
    double cost = 0.0;
    std::vector<Attempt> attempts;
};

/// One release calibrated to an absolute target ±a at confidence 1 − β (count or sum):
/// Laplace b = a/ln(1/β) or Gaussian σ = a/Φ⁻¹(1−β/2) (accuracy-first.md §7.1), charged to the
/// filter before sampling. Refused, with the filter's reason, when the cost does not fit the
/// remaining budget or exceeds `maxCost`.
ReleaseOutcome releaseOnce(const ReleaseContext &context, const AccuracyTarget &target,
                           std::optional<double> maxCost);

/// The doubling baseline (Ligett et al. 2017 §2.3 "naive"; accuracy-first.md §2.3, §7.2–7.3).
///
/// Rule. The per-query cap C is min(maxCost, remaining budget). Levels j = 0..K−1 cost
/// c_j = c_top·r^{K−1−j}, with r = ½ for Laplace (the scale halves, ε doubles) and r = ¼ for
/// Gaussian (σ halves, ρ quadruples) and c_top = (1 − r)·C, so Σ c_j < C: the whole plan always
/// fits. K is the largest number of levels (≤ 40) whose noisiest level could still certify the
/// largest possible answer; every level uses confidence 1 − β/K. At each level, fresh independent
/// noise is drawn and charged; the answer is accepted as soon as the released values alone prove
/// the target (absolute: half-width w ≤ a; relative: |y| − w > 0 and w ≤ α(|y| − w), which on the
/// event |noise| ≤ w gives |y − c| ≤ w ≤ α|c|). A count or sum whose noisy value is so small that
/// even the least noisy level could not certify it (|y| + w_j < w_top(1+α)/α) is abandoned early,
/// which is post-processing and free.
///
/// Guarantee. Every attempt is paid for, so privacy is the sum of the charged costs (basic or
/// zCDP composition, enforced by the filter). Accuracy: by a union bound over the K levels, with
/// probability ≥ 1 − β every attempt's interval holds at once, so an accepted answer meets the
/// target with probability ≥ 1 − β however the stopping level was reached.
///
/// Mean: the estimator is m̂ = m_0 + Ŝ/Ĉ, clipped to [L, U], where m_0 = (L+U)/2, Ŝ a noisy
/// sum of the centred clipped values and Ĉ a noisy count, both released at each level with the
/// level's cost split to minimise the bound. If |Ŝ − S| ≤ w_S and |Ĉ − C| ≤ w_C (each at β/(2K))
/// and Ĉ > w_C, then C > 0 and |m̂ − m| = |e_S − (S/C)e_C|/Ĉ ≤ (w_S + h·w_C)/Ĉ with h = (U−L)/2,
/// since |S/C| ≤ h; clipping to [L, U] only shrinks the error.
ReleaseOutcome releaseByDoubling(const ReleaseContext &context, const AccuracyTarget &target,
                                 std::optional<double> maxCost);

} // namespace pbx::session
