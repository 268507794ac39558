// SPDX-License-Identifier: MIT
// BBImprover (Cummings, Krehbiel, Lai & Tantipongpipat 2018, §3.2: "accuracy that improves as data
// accumulate"): re-run the static black box at every time t ≥ n (or every m-th time) with a per-run
// zCDP parameter ρ_t = ρ/(Z_a(n)·t^{1+a}) that sums to at most ρ over an unbounded horizon, analysed
// with zCDP composition as the paper does. Its bound shrinks like t^{-(1-a)/2} but starts far worse
// than BBScheduler's; the crossover time is computed here. Derivations: docs/growing-databases.md.
#pragma once

#include "core/growing/bb_scheduler.h"
#include "core/growing/stream_model.h"

#include <cstdint>
#include <optional>

namespace pbx::growing {

struct ImproverConfig
{
    std::uint64_t startSize = 1000; ///< n ≥ 1
    double decay = 0.1;             ///< a ∈ (0, 1): the per-step ρ_t decays like t^{-(1+a)}
    std::uint64_t every = 1;        ///< m ≥ 1: run at t = n, n+m, n+2m, … (1 = every arrival)
    Budget budget;                  ///< zcdp or approx (a pure budget is refused: its accuracy worsens)
    double beta = 0.05;
    BlackBox box;
};

/// Errors (named field): INVALID_START_SIZE, INVALID_DECAY ("schedule.a" not in (0, 1)),
/// INVALID_CONFIG ("schedule.every" < 1), INVALID_BUDGET, INVALID_SCHEDULE ("budget.kind" pure: a
/// pure per-step schedule ε_t ∝ t^{-(1+a)} makes ε_t·t shrink, so accuracy would get worse),
/// INVALID_BETA, INVALID_BLACK_BOX.
Result<void> validate(const ImproverConfig &config);

/// One run of the black box.
struct ImproverStep
{
    std::uint64_t t = 0;        ///< the run's time (the database has t rows)
    double rho = 0.0;           ///< ρ charged for the run, rounded down from m·ρ_{t+m−1}
    double epsilon = 0.0;       ///< the pure box's ε = √(2ρ), rounded down
    double beta = 0.0;          ///< failure probability m·β·n/((t+m−1)(t+m))
    double alphaBlackBox = 0.0; ///< α(ε, t, β)
    double staleness = 0.0;     ///< (m−1)/(t+m−1): answers of the next m−1 times come from this run
    double bound = 0.0;         ///< α + staleness
};

class BBImprover
{
public:
    /// Errors: as validate().
    static Result<BBImprover> create(const ImproverConfig &config);
    /// The run at time t (t ≥ n; for m > 1 the caller uses t = n + jm). Never fails for t ≤ 2^53.
    ImproverStep step(std::uint64_t t) const;
    /// Z_a(n) = n^{-(1+a)} + n^{-a}/a ≥ Σ_{t≥n} t^{-(1+a)} (first term plus the integral of the
    /// rest), rounded up. Z_{0.1}(1000) = 5.012374.
    double normaliser() const { return m_z; }
    /// ρ reserved for the whole stream.
    double total() const { return m_rho; }
    /// An upper bound, capped at ρ, of the exact Σ_{s=n}^{T} ρ_s of every run up to time T:
    /// ρ/Z·(n^{-(1+a)} + (n^{-a} − T^{-a})/a), rounded up.
    double cumulative(std::uint64_t horizon) const;
    const ImproverConfig &config() const { return m_config; }

private:
    ImproverConfig m_config;
    double m_exponent = 1.1; ///< 1 + a as a double; a is taken as m_exponent − 1 (exact)
    double m_z = 0.0;
    double m_rho = 0.0;
    /// ρ_t = ρ/(Z t^{1+a}) rounded down.
    double rhoAt(double t) const;
};

/// The first time t (scanning t ← ⌊1.01 t⌋ + 1 from n up to `limit`) at which BBImprover's bound is
/// below BBScheduler's bound for the epoch containing t (full epochs); nullopt if none up to
/// `limit`. The scheduler uses `scheduler` as given (e.g. zcdp-equalised with its optimal γ).
/// Errors: as the two validates; EPOCH_OVERFLOW.
Result<std::optional<std::uint64_t>> improverCrossover(const ImproverConfig &improver,
                                                       const SchedulerConfig &scheduler, std::uint64_t limit);

} // namespace pbx::growing
