// SPDX-License-Identifier: MIT
// The growing-database model (Cummings, Krehbiel, Lai & Tantipongpipat, "Differential privacy for
// growing databases", NeurIPS 2018, §2): a stream of databases x_n, x_{n+1}, … where x_t has
// exactly t rows (time = size), linear queries answered as fractions (sensitivity 1/t) or counts
// (sensitivity 1), replace-one neighbouring streams, budgets (pure ε, ρ-zCDP, or an (ε, δ) target
// met through zCDP), and the static "black box" mechanisms the schedulers re-run, each described
// by its accuracy function α(ε, t, β). Derivations: docs/growing-databases.md.
#pragma once

#include "core/data/rows.h"
#include "core/data/table.h"
#include "core/privacy/zcdp_conversion.h"
#include "core/util/result.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pbx::growing {

/// Largest start size and time the model accepts (2^53: every time is an exact double).
inline constexpr std::uint64_t kMaxTime = std::uint64_t{1} << 53;

/// INVALID_START_SIZE unless 1 ≤ n ≤ 2^53. `field` names the input (e.g. "stream.start_size").
Result<void> checkStartSize(std::uint64_t n, std::string_view field = "start_size");

/// INVALID_BETA unless 0 < β < 1.
Result<void> checkBeta(double beta, std::string_view field = "beta");

/// A query answer moved between the two scales of the model: the fraction q(x_t) ∈ [0, 1]
/// (sensitivity 1/t under replace-one) and the count t·q(x_t) (sensitivity 1 at every time).
/// Noise on the growing sparse vector is drawn on the count scale (docs/growing-databases.md, "Two
/// scales").
inline double toCountScale(double fraction, double t)
{
    return fraction * t;
}
inline double toFractionScale(double count, double t)
{
    return count / t;
}

/// INVALID_QUERY unless every weight of a linear query is finite and in [0, 1] (weights in [−1, 1]
/// would double every sensitivity and staleness bound). `field` names the input.
Result<void> checkQueryWeights(std::span<const double> weights, std::string_view field = "query");

// ---------------------------------------------------------------------------------------------
// Budgets
// ---------------------------------------------------------------------------------------------

enum class BudgetKind {
    Pure,   ///< ε-DP for the whole (unbounded) stream
    Zcdp,   ///< ρ-zCDP for the whole stream
    Approx, ///< an (ε, δ) target, met by the largest ρ whose conversion gives ≤ ε at δ
};
using privacy::ZcdpConversion; ///< how an Approx budget converts ρ to (ε, δ)

struct Budget
{
    BudgetKind kind = BudgetKind::Pure;
    double epsilon = 1.0; ///< Pure and Approx: ε > 0 (nats)
    double rho = 0.0;     ///< Zcdp: ρ > 0
    double delta = 1e-6;  ///< Approx: 0 < δ < 1
    ZcdpConversion conversion = ZcdpConversion::Cks;
};

std::string_view budgetKindName(BudgetKind kind); ///< "pure", "zcdp", "approx"

/// INVALID_BUDGET naming the field ("budget.epsilon", "budget.rho", "budget.delta") when a value
/// is outside its range: ε, ρ finite and > 0; 0 < δ < 1.
Result<void> validate(const Budget &budget);

/// True for the kinds accounted in zCDP (Zcdp and Approx).
inline bool isZcdp(const Budget &budget)
{
    return budget.kind != BudgetKind::Pure;
}

/// The ρ a zCDP or approx budget allows: ρ itself, or the largest ρ whose conversion gives at most
/// ε at δ (CKS: bisection on privacy::epsilonFromRhoCks, which rounds up; simple: the closed form
/// of privacy::rhoFromEpsilon, rounded down). E.g. (ε, δ) = (1, 10⁻⁶): CKS ρ = 0.024356, simple
/// ρ = 0.017469. Errors: INVALID_BUDGET (as validate, or a pure budget).
Result<double> zcdpBudget(const Budget &budget);

/// The ε at the budget's δ that a spend of `rho` converts to, by the budget's conversion (CKS or
/// simple; both round up): how an approx budget reports a realised ρ in its own (ε, δ) unit.
/// Errors: INVALID_BUDGET for a budget that is not approx, or ρ < 0.
Result<double> approxEpsilonOf(const Budget &budget, double rho);

// ---------------------------------------------------------------------------------------------
// Black boxes (the paper's Definition of a (p, g)-black box, in the form documented in
// docs/growing-databases.md, "Black boxes")
// ---------------------------------------------------------------------------------------------

enum class BlackBoxKind {
    /// k linear queries registered before the run, each q(x_t) + Lap(k/(εt)) on the fraction
    /// scale (ℓ1 sensitivity of the k-vector ≤ k/t): α = (k/(εt))·ln(k/β) (union bound over k
    /// Laplace tails, Dwork & Roth 2014, Thm 3.8).
    LaplaceK,
    /// Every cell count of a universe of N cells + Lap(2/ε) (replace-one ℓ1 sensitivity 2),
    /// divided by t; a counting query covering ≤ c cells has α = (2c/(εt))·ln(N/β).
    NoisyHistogram,
    /// SmallDB (Blum, Ligett & Roth 2008; Dwork & Roth 2014, Thm 4.5):
    /// α = ((16 ln N · ln|Q| + 4 ln(1/β))/(εt))^{1/3}.
    SmallDb,
};

std::string_view blackBoxKindName(BlackBoxKind kind); ///< "laplace-k", "noisy-histogram", "smalldb"

struct BlackBox
{
    BlackBoxKind kind = BlackBoxKind::LaplaceK;
    std::size_t queries = 1;       ///< LaplaceK: k; SmallDb: |Q| (≥ 2)
    std::size_t universe = 0;      ///< NoisyHistogram, SmallDb: N ≥ 2
    std::size_t cellsPerQuery = 1; ///< NoisyHistogram: c, the cells a query covers (1 ≤ c ≤ N)

    /// α(ε, t, β): with probability ≥ 1 − β every query of the class is answered within α on the
    /// fraction scale by one ε-DP run on t rows. Non-increasing in ε and t. Precondition: a valid
    /// box, ε > 0, t ≥ 1, 0 < β < 1. An accuracy claim, not a privacy one: ordinary rounding.
    double alpha(double epsilon, double t, double beta) const;
};

/// INVALID_BLACK_BOX naming the field: LaplaceK needs 1 ≤ k ≤ 10⁶; NoisyHistogram 2 ≤ N ≤ 2^24
/// and 1 ≤ c ≤ N; SmallDb 2 ≤ N ≤ 2^24 and |Q| ≥ 2.
Result<void> validate(const BlackBox &box);

/// The Laplace scale (fraction scale) of the LaplaceK box at (ε, t): k/(εt), rounded up so the run
/// never has less noise than its ε accounts for. Precondition: k ≥ 1, ε > 0, t ≥ 1.
double laplaceKScale(std::size_t k, double epsilon, double t);

// ---------------------------------------------------------------------------------------------
// Arrival orders over a table's rows (simulation: the rows of a public table arrive one per step)
// ---------------------------------------------------------------------------------------------

/// The order in which a table's rows arrive. "random": a seeded uniform permutation.
/// "sorted:<predicate>": the rows NOT matching the predicate first, then the matching ones (each
/// group in seeded random order) — a teaching order that makes staleness visible for that
/// predicate's count. Errors: INVALID_CONFIG naming `field` for an unknown order, the predicate's
/// parse error otherwise; NotFound for an unknown column.
Result<std::vector<std::uint32_t>> arrivalOrder(const data::Rows &table, std::string_view order,
                                                std::uint64_t seed, std::string_view field = "stream.order");
/// arrivalOrder's errors from the schema alone (no row is read): what a check before a session's
/// charge may use.
Result<void> checkArrivalOrder(const data::Table &table, std::string_view order,
                               std::string_view field = "stream.order");

/// How a categorical column's codes map onto a universe attribute's values (`labels`, in value
/// order), from the declared dictionary alone, so that no row can fall outside the universe and no
/// refusal depends on a row: code c ↦ the index of its label in `labels`.
/// Errors (`code` naming `field`): the column's categories were inferred from the data, or it
/// declares a category that is not among `labels`.
Result<std::vector<int>> declaredUniverseMap(const data::Table &table, std::size_t column,
                                             const std::vector<std::string> &labels, std::string_view code,
                                             std::string_view field);

/// Running counts of counting queries along an arrival order: count(j, t) = the number of the
/// first t arriving rows matching predicate j, for 0 ≤ t ≤ T.
class PrefixCounts
{
public:
    /// `masks[j][row]` ∈ {0, 1}; `order` lists row indices. Precondition: masks sized to the table.
    PrefixCounts(const std::vector<std::vector<std::uint8_t>> &masks, std::span<const std::uint32_t> order);
    std::size_t queries() const { return m_queries; }
    std::size_t length() const { return m_length; }
    /// count(j, t), 0 ≤ t ≤ length().
    std::uint32_t count(std::size_t j, std::size_t t) const { return m_counts[j * (m_length + 1) + t]; }
    /// The fraction q_j(x_t) = count(j, t)/t, 1 ≤ t ≤ length().
    double fraction(std::size_t j, std::size_t t) const { return double(count(j, t)) / double(t); }

private:
    std::size_t m_queries = 0;
    std::size_t m_length = 0;
    std::vector<std::uint32_t> m_counts;
};

} // namespace pbx::growing
