// SPDX-License-Identifier: MIT
#include "core/growing/stream_model.h"

#include "core/data/predicate.h"
#include "core/growing/growing_error.h"
#include "core/math/directed_rounding.h"
#include "core/privacy/cks_conversion.h"
#include "core/privacy/zcdp_conversion.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace pbx::growing {

namespace {
bool finitePositive(double x)
{
    return x > 0.0 && std::isfinite(x);
}
} // namespace

Result<void> checkStartSize(std::uint64_t n, std::string_view field)
{
    if (n < 1 || n > kMaxTime)
        return growingError(kInvalidStartSize, field, "must be an integer with 1 <= n <= 2^53");
    return {};
}

Result<void> checkBeta(double beta, std::string_view field)
{
    if (!(beta > 0.0 && beta < 1.0))
        return growingError(kInvalidBeta, field, "must be a number with 0 < beta < 1");
    return {};
}

Result<void> checkQueryWeights(std::span<const double> weights, std::string_view field)
{
    for (std::size_t i = 0; i < weights.size(); ++i)
        if (!(weights[i] >= 0.0 && weights[i] <= 1.0))
            return growingError(kInvalidQuery, field,
                                "weight " + std::to_string(i) + " must be a finite number in [0, 1]");
    return {};
}

std::string_view budgetKindName(BudgetKind kind)
{
    switch (kind) {
    case BudgetKind::Pure:
        return "pure";
    case BudgetKind::Zcdp:
        return "zcdp";
    case BudgetKind::Approx:
        return "approx";
    }
    return "pure";
}

Result<void> validate(const Budget &budget)
{
    switch (budget.kind) {
    case BudgetKind::Pure:
        if (!finitePositive(budget.epsilon))
            return growingError(kInvalidBudget, "budget.epsilon", "must be a finite number > 0");
        break;
    case BudgetKind::Zcdp:
        if (!finitePositive(budget.rho))
            return growingError(kInvalidBudget, "budget.rho", "must be a finite number > 0");
        break;
    case BudgetKind::Approx:
        if (!finitePositive(budget.epsilon))
            return growingError(kInvalidBudget, "budget.epsilon", "must be a finite number > 0");
        if (!(budget.delta > 0.0 && budget.delta < 1.0))
            return growingError(kInvalidBudget, "budget.delta", "must be a number with 0 < delta < 1");
        break;
    }
    return {};
}

Result<double> zcdpBudget(const Budget &budget)
{
    PBX_RETURN_IF_ERROR(validate(budget));
    if (budget.kind == BudgetKind::Pure)
        return growingError(kInvalidBudget, "budget.kind", "a pure budget has no zCDP parameter");
    if (budget.kind == BudgetKind::Zcdp)
        return budget.rho;
    if (budget.conversion == ZcdpConversion::Simple) {
        auto rho = privacy::rhoFromEpsilon(budget.epsilon, budget.delta);
        if (!rho)
            return growingError(kInvalidBudget, "budget", rho.error().message);
        return *rho;
    }
    // CKS: ε(ρ) is increasing in ρ; keep the invariant ε(lo) ≤ target (the conversion rounds up,
    // so every accepted lo really meets the target).
    double lo = 0.0;
    double hi = budget.epsilon;
    for (;;) {
        auto e = privacy::epsilonFromRhoCks(hi, budget.delta);
        if (!e)
            return growingError(kInvalidBudget, "budget", e.error().message);
        if (*e > budget.epsilon)
            break;
        lo = hi;
        hi *= 2.0;
        if (!std::isfinite(hi))
            return growingError(kInvalidBudget, "budget.epsilon", "too large");
    }
    for (int iteration = 0; iteration < 200 && hi - lo > 1e-16 * hi; ++iteration) {
        const double mid = 0.5 * (lo + hi);
        auto e = privacy::epsilonFromRhoCks(mid, budget.delta);
        if (!e)
            return growingError(kInvalidBudget, "budget", e.error().message);
        (*e <= budget.epsilon ? lo : hi) = mid;
    }
    if (!(lo > 0.0))
        return growingError(kInvalidBudget, "budget", "the (epsilon, delta) target allows no zCDP budget");
    return lo;
}

Result<double> approxEpsilonOf(const Budget &budget, double rho)
{
    if (budget.kind != BudgetKind::Approx)
        return growingError(kInvalidBudget, "budget.kind",
                            "only an approx budget has an (epsilon, delta) target");
    if (!(rho >= 0.0) || !std::isfinite(rho))
        return growingError(kInvalidBudget, "rho", "must be a finite number >= 0");
    if (rho == 0.0)
        return 0.0;
    auto e = budget.conversion == ZcdpConversion::Cks ? privacy::epsilonFromRhoCks(rho, budget.delta)
                                                      : privacy::epsilonFromRho(rho, budget.delta);
    if (!e)
        return growingError(kInvalidBudget, "budget", e.error().message);
    return *e;
}

std::string_view blackBoxKindName(BlackBoxKind kind)
{
    switch (kind) {
    case BlackBoxKind::LaplaceK:
        return "laplace-k";
    case BlackBoxKind::NoisyHistogram:
        return "noisy-histogram";
    case BlackBoxKind::SmallDb:
        return "smalldb";
    }
    return "laplace-k";
}

double BlackBox::alpha(double epsilon, double t, double beta) const
{
    switch (kind) {
    case BlackBoxKind::LaplaceK: {
        const double k = double(queries);
        return k / (epsilon * t) * std::log(k / beta);
    }
    case BlackBoxKind::NoisyHistogram:
        return 2.0 * double(cellsPerQuery) / (epsilon * t) * std::log(double(universe) / beta);
    case BlackBoxKind::SmallDb:
        return std::cbrt(
            (16.0 * std::log(double(universe)) * std::log(double(queries)) + 4.0 * std::log(1.0 / beta))
            / (epsilon * t));
    }
    return INFINITY;
}

Result<void> validate(const BlackBox &box)
{
    constexpr std::size_t kMaxUniverse = std::size_t{1} << 24;
    switch (box.kind) {
    case BlackBoxKind::LaplaceK:
        if (box.queries < 1 || box.queries > 1000000)
            return growingError(kInvalidBlackBox, "black_box.queries", "laplace-k needs 1 to 10^6 queries");
        break;
    case BlackBoxKind::NoisyHistogram:
        if (box.universe < 2 || box.universe > kMaxUniverse)
            return growingError(kInvalidBlackBox, "black_box.universe", "needs 2 <= N <= 2^24 cells");
        if (box.cellsPerQuery < 1 || box.cellsPerQuery > box.universe)
            return growingError(kInvalidBlackBox, "black_box.cells_per_query", "needs 1 <= c <= N");
        break;
    case BlackBoxKind::SmallDb:
        if (box.universe < 2 || box.universe > kMaxUniverse)
            return growingError(kInvalidBlackBox, "black_box.universe", "needs 2 <= N <= 2^24 cells");
        if (box.queries < 2)
            return growingError(kInvalidBlackBox, "black_box.queries", "smalldb needs at least 2 queries");
        break;
    }
    return {};
}

double laplaceKScale(std::size_t k, double epsilon, double t)
{
    // Two divisions, each rounded up: the result is never below the exact k/(εt).
    return math::divideRoundUp(math::divideRoundUp(double(k), epsilon), t);
}

Result<void> checkArrivalOrder(const data::Table &table, std::string_view order, std::string_view field)
{
    if (order == "random")
        return {};
    constexpr std::string_view kSorted = "sorted:";
    if (!order.starts_with(kSorted))
        return growingError(kInvalidConfig, field, "expected \"random\" or \"sorted:<predicate>\"");
    auto predicate = data::Predicate::compile(order.substr(kSorted.size()), table);
    if (!predicate)
        return makeError(predicate.error().code, std::string(kInvalidConfig) + ": " + std::string(field)
                                                     + ": " + predicate.error().message);
    return {};
}

Result<std::vector<int>> declaredUniverseMap(const data::Table &table, std::size_t column,
                                             const std::vector<std::string> &labels, std::string_view code,
                                             std::string_view field)
{
    const auto &info = table.columnInfo(column);
    if (info.domainFromData)
        return growingError(code, field,
                            "column '" + info.name
                                + "': its categories were inferred from the data; declare them in metadata");
    std::vector<int> map(info.categories.size(), -1);
    for (std::size_t c = 0; c < info.categories.size(); ++c) {
        for (std::size_t v = 0; v < labels.size(); ++v)
            if (info.categories[c] == labels[v])
                map[c] = int(v);
        if (map[c] < 0) {
            std::string known;
            for (const auto &l : labels)
                known += (known.empty() ? "" : ", ") + l;
            return growingError(code, field,
                                "column '" + info.name + "' declares the category '" + info.categories[c]
                                    + "', which is outside the universe (" + known + ")");
        }
    }
    return map;
}

Result<std::vector<std::uint32_t>> arrivalOrder(const data::Rows &table, std::string_view order,
                                                std::uint64_t seed, std::string_view field)
{
    PBX_RETURN_IF_ERROR(checkArrivalOrder(table.table(), order, field));
    const std::size_t rows = table.rowCount();
    std::vector<std::uint32_t> result(rows);
    for (std::size_t i = 0; i < rows; ++i)
        result[i] = static_cast<std::uint32_t>(i);
    std::mt19937_64 rng(seed);
    std::shuffle(result.begin(), result.end(), rng);
    if (order == "random")
        return result;
    auto predicate
        = data::Predicate::compile(order.substr(std::string_view("sorted:").size()), table.table());
    std::vector<std::uint8_t> mask;
    predicate->evaluate(table, mask);
    // Non-matching rows first: a query on the predicate then sees its count frozen, then rising.
    std::stable_partition(result.begin(), result.end(), [&](std::uint32_t row) { return mask[row] == 0; });
    return result;
}

PrefixCounts::PrefixCounts(const std::vector<std::vector<std::uint8_t>> &masks,
                           std::span<const std::uint32_t> order)
    : m_queries(masks.size()), m_length(order.size()), m_counts(masks.size() * (order.size() + 1), 0)
{
    for (std::size_t j = 0; j < m_queries; ++j) {
        std::uint32_t *row = &m_counts[j * (m_length + 1)];
        for (std::size_t t = 0; t < m_length; ++t)
            row[t + 1] = row[t] + masks[j][order[t]];
    }
}

} // namespace pbx::growing
