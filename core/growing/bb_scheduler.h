// SPDX-License-Identifier: MIT
// BBScheduler (Cummings, Krehbiel, Lai & Tantipongpipat 2018, §3.1: "fixed accuracy as data
// accumulate"): re-run a static ε-DP black box at the epoch starts t_i = n(1+γ)^i with shrinking
// per-epoch privacy, answer every query of epoch i from that run (post-processing), and pay for the
// age of the answer with the staleness lemma (their Lemma on |q(x_t) − q(x_{t_i})|). The total never
// exceeds the budget, whatever the horizon. Derivations and test vectors: docs/growing-databases.md.
#pragma once

#include "core/growing/privacy_schedule.h"
#include "core/growing/stream_model.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace pbx::growing {

/// The next epoch boundary: t_{i+1} = max(t_i + 1, ⌈n(1+γ)^{i+1}⌉), the power computed as
/// n·exp((i+1)·log1p γ) and the ceiling taken of v − 10⁻¹²·v (so a boundary that is an integer up to
/// rounding is not pushed one step late). The max keeps epochs non-empty when nγ < 1.
/// Test vectors: n = 1000, γ = 1 → 2000, 4000, …; n = 10, γ = 0.05 → 11, 12.
/// Errors: EPOCH_OVERFLOW when the boundary would exceed 2^53.
Result<std::uint64_t> nextEpochStart(std::uint64_t n, double gamma, std::uint64_t epochIndex,
                                     std::uint64_t current);

/// Staleness of epoch i's answers at time t (t_i ≤ t): for a linear query with weights in [0, 1],
/// |q(x_t) − q(x_{t_i})| ≤ ((t − t_i)/t)·max(q(x_{t_i}), 1 − q(x_{t_i})) ≤ (t − t_i)/t (the
/// paper's staleness lemma, constants derived in docs/growing-databases.md). This returns the
/// data-free bound (t − t_i)/t; with `answerAtStart` the sharper one.
double staleness(std::uint64_t epochStart, std::uint64_t t,
                 std::optional<double> answerAtStart = std::nullopt);

/// The worst staleness over an epoch whose last time is `last`: 1 − t_i/last (0 when last = t_i).
/// Always < γ/(1+γ) for a full epoch.
double epochStaleness(std::uint64_t epochStart, std::uint64_t last);

struct SchedulerConfig
{
    std::uint64_t startSize = 1000; ///< n ≥ 1
    double gamma = 1.0;             ///< γ ∈ (0, 1000]
    Budget budget;
    ScheduleKind schedule = ScheduleKind::Geometric;
    double beta = 0.05; ///< total failure probability of the accuracy claim
    BlackBox box;
};

/// All checks of BBScheduler's inputs. Errors (named field): INVALID_START_SIZE, INVALID_GAMMA,
/// INVALID_BUDGET, INVALID_SCHEDULE (wrong budget kind for the schedule), INVALID_BETA,
/// INVALID_BLACK_BOX.
Result<void> validate(const SchedulerConfig &config);

/// One planned epoch.
struct EpochPlan
{
    EpochPrivacy privacy;       ///< ε_i (the box's ε), ρ_i (zCDP kinds), cumulative, β_i
    std::uint64_t start = 0;    ///< t_i
    std::uint64_t next = 0;     ///< t_{i+1}
    std::uint64_t last = 0;     ///< the last time answered from this epoch: t_{i+1} − 1, or the horizon
    double alphaBlackBox = 0.0; ///< α(ε_i, t_i, β_i); ∞ when ε_i underflowed to 0
    double staleness = 0.0;     ///< epochStaleness(t_i, last)
    double bound = 0.0; ///< α_i + s_i: with prob ≥ 1 − Σβ_i every answer of the epoch is within it
};

/// Plans epochs one by one (the run itself belongs to the caller: it spends privacy.epsilon or
/// privacy.rho on x_{start}).
class BBScheduler
{
public:
    /// Errors: as validate().
    static Result<BBScheduler> create(const SchedulerConfig &config);
    /// The next epoch; `horizon` (optional) truncates its last time. Errors: EPOCH_OVERFLOW.
    Result<EpochPlan> nextEpoch(std::optional<std::uint64_t> horizon = std::nullopt);
    const SchedulerConfig &config() const { return m_config; }
    /// ε (pure kinds) or ρ (zCDP kinds) reserved for the whole stream.
    double total() const { return m_schedule.total(); }

private:
    SchedulerConfig m_config;
    PrivacySchedule m_schedule;
    std::uint64_t m_start = 0;
    std::uint64_t m_epoch = 0;
};

/// Every epoch whose start is ≤ `end` (at least one), the last truncated at `end`.
/// Errors: as validate(); INVALID_CONFIG ("stream.end") when end < n; EPOCH_OVERFLOW.
Result<std::vector<EpochPlan>> planEpochs(const SchedulerConfig &config, std::uint64_t end);

/// The γ minimising the worst epoch bound α_i + s_i over the epochs starting at or before `end`
/// (full epochs, i.e. not truncated), on a grid of `points` values of log γ in [log lo, log hi].
/// Defaults: the grid of docs/growing-databases.md (0.005 … 4, 4,000 points). For Laplace-k, n = 1000,
/// ε = 1, β = 0.05, geometric, horizon = n: k = 1 → γ* ≈ 0.090 (bound 0.1482), k = 10 → 0.377 (0.5141).
struct GammaChoice
{
    double gamma = 0.0;
    double worstBound = 0.0;
};
Result<GammaChoice> optimalGamma(SchedulerConfig config, std::uint64_t end, double lo = 0.005,
                                 double hi = 4.0, int points = 4000);

} // namespace pbx::growing
