// SPDX-License-Identifier: MIT
// Per-epoch privacy and failure schedules whose sums never exceed the budget, whatever the
// horizon (Cummings et al. 2018, BBScheduler: "the sum converges to ε"; the four proven schedules
// of docs/growing-databases.md, "Per-epoch schedules"). Every weight is rounded DOWN from its exact
// series term, so the exact sum of the parameters actually used is ≤ the budget; the reported
// cumulative is rounded UP and capped at the budget (both are upper bounds of the true spend).
#pragma once

#include "core/growing/stream_model.h"

#include <cstdint>
#include <string_view>

namespace pbx::growing {

enum class ScheduleKind {
    Geometric,     ///< pure: ε_i = ε(1−r)r^i, r = 1/(1+γ)  (ε_i·t_i constant)
    Polynomial,    ///< pure: ε_i = 6ε/(π²(i+1)²)           (ε_i·t_i eventually grows)
    ZcdpEqualised, ///< zCDP: ρ_i = ρ(1−r²)r^{2i}            (√ρ_i·t_i constant)
    ZcdpGeometric, ///< zCDP: ρ_i = ρ(1−r)r^i
};

std::string_view
scheduleKindName(ScheduleKind kind); ///< "geometric", "polynomial", "zcdp-equalised", "zcdp-geometric"
/// Errors: INVALID_SCHEDULE naming `field` for any other text.
Result<ScheduleKind> parseScheduleKind(std::string_view text, std::string_view field = "schedule.kind");
inline bool scheduleIsZcdp(ScheduleKind kind)
{
    return kind == ScheduleKind::ZcdpEqualised || kind == ScheduleKind::ZcdpGeometric;
}

/// w_0, w_1, … ≥ 0 with Σ_i w_i ≤ 1 for every prefix and in the limit: each w_i is ≤ its exact series
/// term (1−r)r^i or 6/(π²(i+1)²). Geometric terms come from a recurrence rounded down at every step
/// (w_{i+1} = w_i·r rounded down), so the bound holds for any horizon without trusting pow(); terms
/// below the smallest normal double are returned as 0 (spending nothing is always safe).
class WeightSequence
{
public:
    /// (1−r)r^i. Valid: 0 < r < 1 (a double; the series is taken for that exact value).
    static WeightSequence geometric(double ratio);
    /// 6/(π²(i+1)²) with π rounded up.
    static WeightSequence polynomial();
    /// The next weight (w_index), then advances.
    double next();
    std::uint64_t index() const { return m_index; }

private:
    bool m_polynomial = false;
    double m_ratio = 0.0;
    double m_current = 0.0; ///< geometric: the next weight to return
    double m_sixOverPi2 = 0.0;
    std::uint64_t m_index = 0;
};

/// One epoch's parameters from a PrivacySchedule.
struct EpochPrivacy
{
    std::uint64_t index = 0;
    double weight = 0.0; ///< w_i (≤ the exact series term)
    double epsilon = 0.0; ///< the ε the pure black box runs at: ε·w_i (pure), √(2ρ_i) (zCDP), rounded down
    double rho = 0.0;     ///< zCDP kinds: ρ·w_i rounded down; 0 for pure kinds
    double cumulative = 0.0; ///< Σ of ε_i (pure) or ρ_i (zCDP) so far, rounded up, capped at the budget
    double beta = 0.0;       ///< β_i = β·(1−r)r^i (geometric and zCDP kinds) or 6β/(π²(i+1)²)
};

/// The per-epoch schedule of BBScheduler, independent of the epoch boundaries (so a horizon of 10⁶
/// epochs can be checked without 10⁶ integer boundaries).
class PrivacySchedule
{
public:
    /// Errors: INVALID_GAMMA (γ not finite in (0, 1000], or so small that 1/(1+γ) rounds to 1),
    /// INVALID_BUDGET (validate, or the approx conversion), INVALID_SCHEDULE ("schedule.kind":
    /// geometric/polynomial need a pure budget, zcdp-* a zcdp or approx budget), INVALID_BETA.
    static Result<PrivacySchedule> create(ScheduleKind kind, double gamma, const Budget &budget, double beta);

    /// The next epoch's parameters.
    EpochPrivacy next();
    /// The reserved total: ε (pure kinds) or ρ (zCDP kinds; for an approx budget, its converted ρ).
    double total() const { return m_total; }
    double cumulative() const { return m_cumulative; }
    ScheduleKind kind() const { return m_kind; }

private:
    ScheduleKind m_kind = ScheduleKind::Geometric;
    double m_total = 0.0;
    double m_beta = 0.0;
    double m_cumulative = 0.0;
    WeightSequence m_privacyWeights;
    WeightSequence m_failureWeights;
};

/// Errors: INVALID_GAMMA naming `field` unless γ is finite with 0 < γ ≤ 1000 and 1/(1+γ) < 1 in
/// double precision.
Result<void> checkGamma(double gamma, std::string_view field = "schedule.gamma");

} // namespace pbx::growing
