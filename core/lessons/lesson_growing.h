// SPDX-License-Identifier: MIT
// Lesson placeholders about growing databases (Cummings, Krehbiel, Lai & Tantipongpipat,
// "Differential privacy for growing databases", NeurIPS 2018; docs/growing-databases.md), all
// computed by core/growing from fixed public configurations, so a lesson writes no number itself.
//
//   growing.epoch.I.F      epoch I (0 ≤ I ≤ 40) of the worked plan: n = 1000, γ = 1, pure ε = 1,
//                          geometric schedule, Laplace box with k = 10 counting queries, β = 0.05
//                          (planEpochs); F one of start, end, epsilon, cumulative, alpha,
//                          staleness, bound
//   growing.budget         the worked plan's ε (1)
//   growing.optimal_gamma  the γ minimising the worked plan's worst epoch bound (optimalGamma)
//   growing.staleness.O    O = random or sorted: the median over 100 seeded runs of the largest
//                          error in the last epoch, BBScheduler as above but k = 1 (region ==
//                          "south") on the step session's table (public) to its last row, the rows
//                          arriving in random order or with region == "south" last; seeded by the
//                          session's seed (runGrowingLab). Needs a session on a public table.
//   growing.atg.S.T        ATG's loss f(s) + f(t_h) of a round started at s that halts at t_h = T,
//                          σ(t) = 0.002 (1000/t)^½, n = 1000 (atgLoss)
//   growing.naive.S.T      the naive fraction-scale design's true loss at the same (s, t_h), noise
//                          unit and n (naiveFractionScaleLoss)
#pragma once

#include "core/growing/bb_scheduler.h"
#include "core/growing/growing_svt.h"
#include "core/session/session.h"
#include "core/util/result.h"

#include <cstdint>
#include <string>

namespace pbx::lessons {

/// The worked plan every growing.epoch.*, growing.budget and growing.optimal_gamma value is
/// computed from: BBScheduler, n = 1000, γ = 1, pure ε = 1, geometric schedule, the Laplace box
/// with k = 10 counting queries, β = 0.05 (docs/growing-databases.md). A step raising the growing
/// lab sets the lab to it (LessonRunner), so its read-out shows these values.
growing::SchedulerConfig growingWorkedPlan();
/// The horizon (last t) a step sets the growing lab to: the lessons' answers name it.
inline constexpr std::uint64_t kGrowingLessonHorizon = 1'000'000;
/// The noise unit of growing.atg.* and growing.naive.*: σ(t) = 0.002 (1000/t)^½, n = 1000.
growing::NoiseUnit growingAtgUnit();

/// True when `name` is in the growing.* vocabulary (whatever its fields).
bool isGrowingPlaceholder(const std::string &name);

/// Checks a growing.* placeholder's shape. Errors: a message naming the problem (unknown field,
/// an epoch index out of 0..40, times not integers with 1000 ≤ S ≤ T ≤ 10¹², staleness without a
/// session).
Result<void> checkGrowingPlaceholder(const std::string &name, bool hasSession);

/// The value of a growing.* placeholder. `session` may be null except for growing.staleness.*.
/// Errors: NotFound naming the placeholder (no session, a table that is not public, the core's errors).
Result<double> growingValue(const std::string &name, const session::Session *session);

/// True for the growing.* values that are privacy losses (rounded up when shown).
bool growingIsPrivacyLoss(const std::string &name);

} // namespace pbx::lessons
