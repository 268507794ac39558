// SPDX-License-Identifier: MIT
// The sparse vector on growing databases (Cummings, Krehbiel, Lai & Tantipongpipat 2018, §4:
// AboveThreshold for growing databases ATG, its numeric form NATG, and Numeric Sparse NSG), on the
// COUNT scale: every comparison and every noise draw is in counts (t × the fraction), where a
// query's sensitivity is 1 at every time, so one threshold draw serves a whole round even though
// the fraction-scale sensitivity 1/t changes. The noise unit σ(t) (fraction scale) is public,
// non-increasing, with t·σ(t) non-decreasing (the paper's two monotonicity conditions); f(t) =
// 1/(tσ(t)) is then non-increasing. Privacy statements and proofs: docs/growing-databases.md,
// "Sparse vector on growing data" (the proof pattern is Dwork & Roth 2014, Thm 3.23).
#pragma once

#include "core/growing/stream_model.h"

#include <cstdint>
#include <optional>
#include <random>
#include <vector>

namespace pbx::growing {

/// Multipliers of the noise scales (Dwork & Roth's 2:4 ratio for threshold:query, and 3 for the
/// numeric answer): threshold Lap(λ_T·s·σ(s)), query Lap(λ_Q·t·σ(t)), numeric Lap(λ_N·t·σ(t))
/// (all counts).
inline constexpr double kThresholdMultiplier = 1.0;
inline constexpr double kQueryMultiplier = 2.0;
inline constexpr double kNumericMultiplier = 3.0;

/// σ(t) = σ_n (n/t)^p on the fraction scale. p = 0: constant fraction noise; p = 1: constant count
/// noise. Both monotonicity conditions hold for every p ∈ [0, 1].
struct NoiseUnit
{
    std::uint64_t startSize = 1000; ///< n
    double sigmaN = 0.002;          ///< σ_n > 0 (fraction scale)
    double exponent = 0.5;          ///< p ∈ [0, 1]

    /// σ(t), t ≥ n.
    double sigma(double t) const;
    /// f(t) = 1/(tσ(t)) = (t/n)^{p−1}/(nσ_n), rounded up (it is a privacy loss). f(n) = 1/(nσ_n).
    double f(double t) const;
};

/// Errors (named field): INVALID_START_SIZE; INVALID_NOISE_FUNCTION (σ_n not finite > 0);
/// INVALID_NOISE_EXPONENT (p ∉ [0, 1]).
Result<void> validate(const NoiseUnit &unit);

/// ATG's privacy loss for a round started at s that halts (⊤) at t_h: f(s) + f(t_h); a round with no
/// ⊤ costs f(s). Whatever happens, ATG is 2f(s)-DP. Test vectors (σ_n = 0.002, n = 1000, p = ½):
/// (1000, 1000) → 1.0, (1000, 10⁵) → 0.55, (1000, 10⁶) → 0.5158. Rounded up.
double atgLoss(const NoiseUnit &unit, std::uint64_t roundStart, std::optional<std::uint64_t> haltTime);

/// NATG adds the numeric answer's Laplace loss 1/(λ_N t_h σ(t_h)): f(s) + (4/3)f(t_h). Rounded up.
double natgLoss(const NoiseUnit &unit, std::uint64_t roundStart, std::optional<std::uint64_t> haltTime);

/// The cap on NSG's hard (⊤) answers, mandatory for its privacy.
struct HardQueryCap
{
    bool timeCap = true; ///< true: H(t) = ⌊c_0(1 + H_t − H_n)⌋ (H_t harmonic numbers); false: constant c
    double c = 10.0;     ///< c_0 > 0 (time cap) or c ≥ 1 (constant)

    /// The number of hard answers allowed by time t ≥ n. Rounded down.
    std::uint64_t at(std::uint64_t n, std::uint64_t t) const;
};

/// Errors: INVALID_CAP naming `field` (c not finite, c_0 ≤ 0 or c < 1); INVALID_NOISE_EXPONENT when a
/// time cap meets p = 1 (f is then constant and the sum of a growing cap diverges).
Result<void> validate(const HardQueryCap &cap, double exponent, std::string_view field = "cap");

/// NSG's loss for a transcript whose hard answers came at times e_1 ≤ … ≤ e_K:
/// f(n) + (7/3)Σ f(e_i) (rounded up) — "privacy charged at the hard-query times".
double nsgRealisedLoss(const NoiseUnit &unit, const std::vector<std::uint64_t> &hardTimes);

/// NSG's realised zCDP cost for a transcript whose rounds opened at s_1 ≤ s_2 ≤ …: each round is
/// (7/3)f(s_i)-DP as a whole (its halting time is ≥ s_i and f is non-increasing), hence
/// ((7/3)f(s_i))²/2-zCDP (Bun & Steinke 2016, Prop. 1.4), and its parameter is fixed by the public
/// start s_i, so zCDP composition of the rounds gives (49/18)Σ f(s_i)² (rounded up). Every round
/// opened is charged, including one still open (no ⊤ yet). Always ≤ nsgWorstCaseRho for a
/// transcript that respects the cap (docs/growing-databases.md, "NSG").
double nsgRealisedRho(const NoiseUnit &unit, const std::vector<std::uint64_t> &roundStarts);

/// NSG's worst case over all transcripts (pure ε): constant cap c: f(n)(1 + (7/3)c); time cap c_0
/// with p < 1: f(n)(1 + (7/3)c_0(2−p)/(1−p)). Rounded up. Precondition: valid unit and cap.
double nsgWorstCaseEpsilon(const NoiseUnit &unit, const HardQueryCap &cap);

/// NSG's worst case in zCDP (each round is (7/3)f(s_i)-DP, hence its square over 2 zCDP):
/// ρ ≤ (49/18) f(n)² B with B = 1 + c_0(3−2p)/(2(1−p)) (time cap) or B = 1 + c (constant cap).
double nsgWorstCaseRho(const NoiseUnit &unit, const HardQueryCap &cap);

/// The σ_n that makes the worst case equal the budget: (1 + (7/3)·c_0(2−p)/(1−p))/(nε) (pure) or
/// (7/3)√(B/(2ρ))/n (zCDP); rounded up (more noise is always safe). NSG, c_0 = 10, p = ½, n = 1000,
/// ε = 1 → 0.071. Errors: INVALID_BUDGET, INVALID_CAP, INVALID_NOISE_EXPONENT, INVALID_START_SIZE.
Result<double> nsgSigmaForBudget(std::uint64_t n, double exponent, const HardQueryCap &cap,
                                 const Budget &budget);

/// COUNTER-EXAMPLE, not a mechanism: the true worst-case loss of the naive fraction-scale design
/// (threshold Lap(σ(s)), query Lap(2σ(t)) on fractions, many ⊥ answers at s then ⊤ at t), which
/// claims f(s) + f(t) but loses (1/s)/σ(s) + (1/s + 1/t)/(2σ(t)) — e.g. 3.025 instead of 0.55 at
/// (s, t) = (10³, 10⁵), σ_n = 0.002, p = ½. Shown by the lab to explain why the count scale is used.
double naiveFractionScaleLoss(const NoiseUnit &unit, std::uint64_t roundStart, std::uint64_t haltTime);

/// NSG in simulation mode (continuous Laplace from a seeded std::mt19937_64: teaching and tests only,
/// never a release): NATG rounds back to back, a fresh threshold at the first query of each round,
/// and the mandatory cap — when it binds, nothing more is answered until it grows.
class GrowingSparseVector
{
public:
    struct Answer
    {
        bool answered = false;         ///< false: the cap binds (the caller answers from public state)
        bool hard = false;             ///< ⊤
        std::optional<double> numeric; ///< hard: q(x_t) + Lap(λ_N σ(t)) on the fraction scale
    };

    /// Errors: as validate(NoiseUnit) and validate(HardQueryCap).
    static Result<GrowingSparseVector> create(const NoiseUnit &unit, const HardQueryCap &cap);

    /// One query at time t with true answer `fraction` = q(x_t) ∈ [0, 1] and public threshold
    /// T(t) ∈ [0, 1]: ⊤ iff t·q + ν ≥ t·T + ρ (counts). On ⊤ the numeric answer is `release` + Lap(λ_N σ(t))
    /// (default: `fraction`); `release` must itself be a fraction-scale query value with sensitivity
    /// 1/t (PMWG releases q(x_t) while testing |q(x_t) − q(x̂)|). Errors: TIME_NOT_MONOTONE (t below the
    /// last query's time or below n), INVALID_QUERY (fraction or release not in [0, 1]), INVALID_THRESHOLD.
    Result<Answer> query(std::uint64_t t, double fraction, double threshold, std::mt19937_64 &rng,
                         std::optional<double> release = std::nullopt);

    std::size_t hardCount() const { return m_hardTimes.size(); }
    const std::vector<std::uint64_t> &hardTimes() const { return m_hardTimes; }
    /// f(n) + (7/3)Σ f(e_i) of the transcript so far.
    double realisedLoss() const { return nsgRealisedLoss(m_unit, m_hardTimes); }
    double worstCaseLoss() const { return nsgWorstCaseEpsilon(m_unit, m_cap); }
    /// The times at which the rounds so far opened (their threshold draws), s_1 ≤ s_2 ≤ ….
    const std::vector<std::uint64_t> &roundStarts() const { return m_roundStarts; }
    /// (49/18)Σ f(s_i)² of the transcript so far (zCDP).
    double realisedRho() const { return nsgRealisedRho(m_unit, m_roundStarts); }
    std::uint64_t capAt(std::uint64_t t) const { return m_cap.at(m_unit.startSize, t); }
    const NoiseUnit &unit() const { return m_unit; }

private:
    NoiseUnit m_unit;
    HardQueryCap m_cap;
    std::optional<double> m_roundThreshold; ///< ρ (counts) of the open round
    std::uint64_t m_lastTime = 0;
    std::vector<std::uint64_t> m_hardTimes;
    std::vector<std::uint64_t> m_roundStarts;
};

/// Laplace(0, b) by inversion from a std::mt19937_64 (simulation only).
double simulationLaplace(std::mt19937_64 &rng, double scale);

} // namespace pbx::growing
