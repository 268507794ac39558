// SPDX-License-Identifier: MIT
// PMWG, private multiplicative weights for growing databases (Cummings, Krehbiel, Lai &
// Tantipongpipat 2018, §4.2): a public histogram x̂ over a finite universe, moved towards the uniform
// distribution on every arrival (so the potential KL(x_t ‖ x̂) grows by at most ln N/(t+1) per row),
// answered for free on easy queries and corrected by a multiplicative-weights step (Dwork & Roth 2014,
// Thm 4.10) on the hard ones, which the growing sparse vector (NSG, growing_svt.h) finds with a
// mandatory time cap on hard queries. Only the sparse vector reads the data. Our constants and the
// proofs: docs/growing-databases.md, "PMWG".
#pragma once

#include "core/data/rows.h"
#include "core/data/table.h"
#include "core/growing/growing_svt.h"
#include "core/growing/stream_model.h"

#include <cstdint>
#include <random>
#include <span>
#include <string_view>
#include <vector>

namespace pbx::growing {

/// A finite universe over CPS1988 with public cut points (never data quantiles):
/// "small" = region(4) × ethnicity(2) × smsa(2) × parttime(2) × education band(5: 0–8, 9–11, 12,
/// 13–15, 16–20), N = 160; "full" = small × experience band(5: −8…4, 5–14, 15–24, 25–34, 35–64) × wage
/// band(6: weekly wage clipped to [0, 5000]: <250, 250–399, 400–599, 600–849, 850–1199, ≥1200), N = 4800.
struct Universe
{
    std::string name;
    std::vector<std::size_t> sizes;      ///< attribute sizes, most significant first
    std::size_t cells = 0;               ///< N
    std::vector<std::uint32_t> rowCells; ///< the cell of every table row (empty without a table)
};

/// N of a named universe without reading data. Errors: INVALID_UNIVERSE naming `field`.
Result<Universe> universeShape(std::string_view name, std::string_view field = "pmwg.universe");
/// The counting query "attribute a_j has value v_j for every j" as a vector in {0, 1}^N.
std::vector<double> conjunctionQuery(const Universe &universe,
                                     std::span<const std::pair<std::size_t, std::size_t>> terms);

/// The multiplicative-weights step of Dwork & Roth 2014 (Thm 4.10): with r = q if the released value
/// v < ⟨q, x̂⟩, else 1 − q, x̂_j ← x̂_j e^{−η r_j}, renormalised. Test vector: x̂ = (¼,¼,¼,¼),
/// q = (1,1,0,0), v = 0.8, η = 0.25 → (0.281088250443, …, 0.218911749557, …).
void multiplicativeWeightsUpdate(std::vector<double> &histogram, std::span<const double> query,
                                 double released, double eta);

/// The uniform update for m arrivals at time t: x̂ ← (t x̂ + m u)/(t + m), u = uniform. Equal to m
/// single-row steps. Data-independent (no privacy cost).
void uniformUpdate(std::vector<double> &histogram, std::uint64_t t, std::uint64_t m);

enum class PmwgMode {
    Theory,    ///< T = 3α/4, η = α/4, c_0 = 16 ln N/α²: the accuracy proof's constants
    Practical, ///< user constants (defaults c_0 = 40, T = 0.05, η = 0.3): accuracy measured, not guaranteed
};

struct PmwgConfig
{
    std::uint64_t startSize = 14000;
    std::size_t universeSize = 160;
    PmwgMode mode = PmwgMode::Practical;
    double alpha = 0.1;          ///< theory mode: target accuracy, 0 < α < 1
    double exponent = 0.5;       ///< p ∈ [0, 1): σ(t) = σ_n (n/t)^p
    double c0 = 40.0;            ///< practical: the cap's c_0 ≥ 1
    double threshold = 0.05;     ///< practical: T ∈ (0, 1)
    double eta = 0.3;            ///< practical: η ∈ (0, 1]
    Budget budget;               ///< pure ε or zCDP/approx
    bool uniformArrivals = true; ///< false only as a labelled, not-private-as-analysed demonstration

    /// Theory-mode constants filled in (c_0, T, η); practical mode unchanged.
    PmwgConfig resolved() const;
};

/// Errors (named field): INVALID_START_SIZE, INVALID_UNIVERSE (N ∉ [2, 2^24]), INVALID_ALPHA,
/// INVALID_NOISE_EXPONENT (p ∉ [0, 1)), INVALID_CAP (c_0 < 1 or not finite), INVALID_THRESHOLD,
/// INVALID_LEARNING_RATE, INVALID_BUDGET.
Result<void> validate(const PmwgConfig &config);

/// PMWG in simulation mode (seeded noise: teaching and tests only).
class Pmwg
{
public:
    struct Answer
    {
        double value = 0.0; ///< the released answer (fraction scale)
        bool hard = false;
        bool capped = false; ///< the cap bound: answered from x̂ without touching the data
    };

    /// σ_n is set so the worst case equals the budget (nsgSigmaForBudget). Errors: as validate().
    static Result<Pmwg> create(const PmwgConfig &config);
    /// m rows arrived (t → t + m): the uniform update (if enabled).
    void arrive(std::uint64_t m);
    /// A query q ∈ [0, 1]^N at the current time; `truth` is the true histogram x_t (fractions), read
    /// only by the sparse vector. Errors: INVALID_QUERY (wrong length or weights outside [0, 1]).
    Result<Answer> query(std::span<const double> q, std::span<const double> truth, std::mt19937_64 &rng);

    std::uint64_t time() const { return m_t; }
    const std::vector<double> &publicHistogram() const { return m_histogram; }
    const std::vector<std::uint64_t> &hardTimes() const { return m_svt.hardTimes(); }
    std::uint64_t capAt(std::uint64_t t) const { return m_svt.capAt(t); }
    double sigmaN() const { return m_svt.unit().sigmaN; }
    /// The pure ex-post loss f(n) + (7/3)Σ f(e_i) of the transcript so far (valid for every budget kind).
    double realisedEpsilon() const { return m_svt.realisedLoss(); }
    /// The zCDP cost of the rounds opened so far, (49/18)Σ f(s_i)² (nsgRealisedRho).
    double realisedRho() const { return m_svt.realisedRho(); }
    /// The realised privacy in the budget's unit: ε for a pure budget, ρ for zcdp and approx budgets
    /// (comparable with worstCase() and with the reserved total).
    double realised() const { return isZcdp(m_config.budget) ? realisedRho() : realisedEpsilon(); }
    /// The worst case over all transcripts in the budget's unit (ε, or ρ for zCDP budgets).
    double worstCase() const;
    const PmwgConfig &config() const { return m_config; }

private:
    PmwgConfig m_config;
    GrowingSparseVector m_svt;
    std::vector<double> m_histogram;
    std::uint64_t m_t = 0;
};

} // namespace pbx::growing

namespace pbx::growing {

/// One simulated PMWG stream over a public table (simulation mode: true answers are read to score
/// and, inside the sparse vector only, to decide hardness).
struct PmwgRun
{
    struct Hard
    {
        std::uint64_t time = 0;
        std::size_t query = 0; ///< index among all queries asked
    };
    struct Checkpoint
    {
        std::uint64_t time = 0;
        std::uint64_t cap = 0; ///< H(t)
        std::size_t hard = 0;  ///< hard queries so far
    };
    double sigmaN = 0.0;
    std::vector<Hard> hardQueries;
    std::vector<Checkpoint> checkpoints;
    std::size_t queries = 0;
    double realisedEpsilon = 0.0; ///< f(n) + (7/3)Σ f(e_i)
    double realisedRho = 0.0;     ///< (49/18)Σ f(s_i)² over the rounds opened
    double realised = 0.0;        ///< in the budget's unit (ε, or ρ for zcdp and approx budgets)
    double worstCase = 0.0;       ///< in the budget's unit
    double meanAbsError = 0.0, q95AbsError = 0.0, maxAbsError = 0.0;
    double laplaceBaselineMeanError = 0.0; ///< Lap(K/(εt)) per query, basic composition over all K queries
    double finalDivergence = 0.0;          ///< KL(x_t ‖ x̂) at the end (diagnostic)
};

/// The rows of `table` arrive in `order` (arrivalOrder); the first n form x_n; at `checkpoints`
/// evenly spaced times from n to `end` the stream advances and `perCheckpoint` random 2- or 3-way
/// conjunction queries are asked. Errors: as Pmwg::create, arrivalOrder; INVALID_CONFIG ("stream.end",
/// "pmwg.checkpoints"); ROW_OUTSIDE_UNIVERSE.
Result<PmwgRun> simulatePmwg(const PmwgConfig &config, const Universe &universe, const data::Rows &table,
                             std::string_view order, std::uint64_t end, int checkpoints, int perCheckpoint,
                             std::uint64_t seed);

} // namespace pbx::growing
