// SPDX-License-Identifier: MIT
#include "core/strategies/histogram.h"

#include "core/util/number_format.h"
#include "core/util/parameter_checks.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pbx::strategies {

namespace {} // namespace

Result<std::vector<double>> unitEdges(double lo, double hi)
{
    if (!std::isfinite(lo) || !std::isfinite(hi) || lo != std::floor(lo) || hi != std::floor(hi))
        return strategyError(kInvalidBounds, "an ordinal domain needs integer bounds lo < hi");
    if (lo >= hi)
        return strategyError(kInvalidBounds, "lower bound must be below the upper bound");
    if (hi - lo + 1.0 > static_cast<double>(kMaxCells))
        return strategyError(kInvalidBounds, "the domain has more than 65,536 values");
    std::vector<double> edges;
    for (double v = lo; v <= hi + 1.0; v += 1.0)
        edges.push_back(v);
    return edges;
}

Result<HistogramCounts> countHistogram(const data::Rows &table, const HistogramBins &bins,
                                       const data::Predicate &predicate)
{
    std::vector<std::uint8_t> mask;
    predicate.evaluate(table, mask);
    return countHistogramRows(table, bins, mask);
}

Result<std::vector<std::string>> histogramCells(const data::Table &table, const HistogramBins &bins)
{
    const auto index = table.columnIndex(bins.column);
    if (!index)
        return makeError(ErrorCode::NotFound, "column: no column '" + bins.column + "'");
    const auto &info = table.columnInfo(*index);
    if (info.type == data::ColumnType::Categorical) {
        if (!bins.edges.empty())
            return strategyError(kInvalidBounds,
                                 "bins: a categorical column takes no edges (its categories are the cells)");
        if (info.domainFromData)
            return strategyError(kInvalidBounds,
                                 "column '" + bins.column
                                     + "': its categories were inferred from the data; declare them in the "
                                       "dataset's metadata (cells must be public)");
        return info.categories;
    }
    const auto &e = bins.edges;
    if (e.size() < 2)
        return strategyError(kInvalidBounds, "bins: a numeric column needs at least two public edges");
    if (e.size() - 1 > kMaxCells)
        return strategyError(kInvalidBounds, "bins: more than 65,536 cells");
    for (std::size_t i = 0; i < e.size(); ++i) {
        if (!std::isfinite(e[i]) || (i > 0 && !(e[i] > e[i - 1])))
            return strategyError(kInvalidBounds, "bins: edges must be finite and strictly increasing");
    }
    const std::size_t m = e.size() - 1;
    std::vector<std::string> labels;
    for (std::size_t i = 0; i < m; ++i)
        labels.push_back("[" + formatSignificant(e[i]) + ", " + formatSignificant(e[i + 1])
                         + (i + 1 == m ? "]" : ")"));
    return labels;
}

Result<HistogramCounts> countHistogramRows(const data::Rows &table, const HistogramBins &bins,
                                           const std::vector<std::uint8_t> &mask)
{
    PBX_TRY(cells, histogramCells(table.table(), bins));
    if (mask.size() != table.rowCount())
        return makeError(ErrorCode::InvalidArgument, "rows: one entry per table row");
    const std::size_t index = *table.columnIndex(bins.column);
    HistogramCounts out;
    out.labels = std::move(cells);
    out.counts.assign(out.labels.size(), 0);
    if (table.columnInfo(index).type == data::ColumnType::Categorical) {
        const auto codes = table.codes(index);
        for (std::size_t r = 0; r < codes.size(); ++r)
            if (mask[r])
                ++out.counts[static_cast<std::size_t>(codes[r])];
        return out;
    }
    const auto &e = bins.edges;
    const std::size_t m = e.size() - 1;
    const auto values = table.numeric(index);
    for (std::size_t r = 0; r < values.size(); ++r) {
        if (!mask[r])
            continue;
        const double x = std::clamp(values[r], e.front(), e.back());
        // Cell i holds [e_i, e_{i+1}); the last cell also holds e_m.
        auto it = std::upper_bound(e.begin(), e.end(), x);
        std::size_t cell = static_cast<std::size_t>(it - e.begin());
        cell = cell == 0 ? 0 : std::min(cell - 1, m - 1);
        ++out.counts[cell];
    }
    return out;
}

Result<double> parallelCompositionCost(std::span<const double> addRemoveCosts, data::Neighbouring neighbours,
                                       std::span<const double> replaceCosts)
{
    if (!replaceCosts.empty() && replaceCosts.size() != addRemoveCosts.size())
        return makeError(ErrorCode::InvalidArgument, "replaceCosts: one per part, or none");
    for (const auto list : {addRemoveCosts, replaceCosts})
        for (const double c : list)
            PBX_RETURN_IF_ERROR(checkNonNegative(c, "costs:"));
    if (addRemoveCosts.empty())
        return 0.0;
    double largest = 0.0, second = 0.0;
    for (const double c : addRemoveCosts) {
        if (c > largest) {
            second = largest;
            largest = c;
        } else if (c > second) {
            second = c;
        }
    }
    if (neighbours == data::Neighbouring::AddRemove)
        return largest;
    if (replaceCosts.empty())
        return 2.0 * largest; // exact in floating point
    // The row leaves one part and enters another: the two largest distinct parts add up.
    const double pair = addRemoveCosts.size() > 1 ? largest + second : 0.0;
    const double within = *std::max_element(replaceCosts.begin(), replaceCosts.end());
    // Round the sum up by one ulp so the charge is never below the exact value.
    return std::max(std::nextafter(pair, INFINITY), within);
}

Result<HistogramPlan> planHistogram(mechanisms::DiscreteNoiseKind kind, double charge,
                                    data::Neighbouring neighbours)
{
    PBX_RETURN_IF_ERROR(
        checkStrategyEpsilon(charge, kind == mechanisms::DiscreteNoiseKind::Laplace ? "epsilon" : "rho"));
    const double perCell = neighbours == data::Neighbouring::AddRemove ? charge : charge / 2.0;
    PBX_TRY(cell, mechanisms::DiscreteNoiseMechanism::forCost(kind, perCell, 1));
    HistogramPlan plan{cell, neighbours, 0.0, 0.0};
    const double one = cell.cost();
    plan.charge = neighbours == data::Neighbouring::AddRemove ? one : 2.0 * one;
    plan.cellVariance = discreteNoiseVariance(cell);
    return plan;
}

double discreteNoiseVariance(const mechanisms::DiscreteNoiseMechanism &mechanism)
{
    const double theta = mechanism.parameter().toDouble();
    if (mechanism.kind() == mechanisms::DiscreteNoiseKind::Gaussian)
        return theta;
    const double p = std::exp(-1.0 / theta);
    const double q = -std::expm1(-1.0 / theta);
    return 2.0 * p / (q * q);
}

Result<HistogramRelease> releaseHistogram(const HistogramCounts &counts, const HistogramPlan &plan,
                                          double beta, mechanisms::RandomBits &bits)
{
    PBX_TRY(width, plan.cell.halfWidth(beta));
    HistogramRelease out;
    out.labels = counts.labels;
    out.charge = plan.charge;
    out.cellVariance = plan.cellVariance;
    out.beta = beta;
    out.halfWidth = width;
    out.noisy.reserve(counts.counts.size());
    for (const auto c : counts.counts) {
        PBX_TRY(v, plan.cell.release(c, bits));
        out.noisy.push_back(v);
    }
    return out;
}

} // namespace pbx::strategies
