// SPDX-License-Identifier: MIT
#include "core/strategies/bmi_example.h"

#include "core/strategies/constrained_inference.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

namespace pbx::strategies {

std::vector<BmiRow> bmiSlideRows()
{
    return {{'M', 74, 210}, {'F', 63, 190}, {'F', 69, 160}, {'M', 63, 180}, {'M', 79, 250}};
}

double bodyMassIndex(const BmiRow &row)
{
    return 703.0 * row.weightPounds / (row.heightInches * row.heightInches);
}

std::array<double, 4> bmiAnswers(const BmiCells &c)
{
    return {c[0], c[0] + c[1], c[2], c[2] + c[3]};
}

BmiCells bmiSlideCells()
{
    BmiCells cells{};
    for (const auto &row : bmiSlideRows()) {
        const std::size_t base = row.sex == 'M' ? 0 : 2;
        cells[base + (bodyMassIndex(row) < 25.0 ? 0 : 1)] += 1.0;
    }
    return cells;
}

Result<BmiCells> bmiCensusCells(const data::Rows &table, double cutoff)
{
    if (!std::isfinite(cutoff))
        return strategyError(kInvalidBounds, "cutoff: must be a finite, public number");
    const auto wage = table.columnIndex("wage");
    const auto ethnicity = table.columnIndex("ethnicity");
    if (!wage || !ethnicity || table.columnInfo(*wage).type != data::ColumnType::Numeric
        || table.columnInfo(*ethnicity).type != data::ColumnType::Categorical)
        return makeError(
            ErrorCode::NotFound,
            "dataset: the census analogue needs a numeric 'wage' and a categorical 'ethnicity' column");
    const auto &categories = table.columnInfo(*ethnicity).categories;
    const auto afam = std::find(categories.begin(), categories.end(), "afam");
    const auto cauc = std::find(categories.begin(), categories.end(), "cauc");
    if (afam == categories.end() || cauc == categories.end())
        return makeError(ErrorCode::NotFound, "ethnicity: needs the categories afam and cauc");
    const auto afamCode = static_cast<std::int32_t>(afam - categories.begin());
    const auto caucCode = static_cast<std::int32_t>(cauc - categories.begin());
    BmiCells cells{};
    const auto w = table.numeric(*wage);
    const auto e = table.codes(*ethnicity);
    for (std::size_t r = 0; r < table.rowCount(); ++r) {
        std::size_t base;
        if (e[r] == afamCode)
            base = 0;
        else if (e[r] == caucCode)
            base = 2;
        else
            continue;
        cells[base + (w[r] < cutoff ? 0 : 1)] += 1.0;
    }
    return cells;
}

Result<BmiSimulation> simulateBmi(const BmiCells &cells, double epsilon, data::Neighbouring neighbours,
                                  int runs, std::uint64_t seed)
{
    PBX_RETURN_IF_ERROR(checkStrategyEpsilon(epsilon));
    if (runs < 2)
        return strategyError(kInvalidConfig, "repetitions: at least 2");
    const bool replace = neighbours == data::Neighbouring::Replace;
    BmiSimulation out;
    out.cells = cells;
    out.answers = bmiAnswers(cells);
    // Alg. 1: four ε/4 Laplace counts, each of sensitivity 1 under both relations.
    const double alg1 = 4.0 / epsilon;
    // The 4-vector's ℓ1 sensitivity: 2 (add/remove), 4 (replace).
    const double alg1Delta = (replace ? 4.0 : 2.0) / epsilon;
    // Alg. 2: the cells' ℓ1 sensitivity: 1 (add/remove), 2 (replace).
    const double alg2 = (replace ? 2.0 : 1.0) / epsilon;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    out.methods = {
        {"Algorithm 1: each answer + Lap(4/eps)", alg1, 4.0 * 2.0 * alg1 * alg1, 0, 0, {}},
        {"Algorithm 1 calibrated to the vector's sensitivity",
         alg1Delta,
         4.0 * 2.0 * alg1Delta * alg1Delta,
         0,
         0,
         {}},
        {"Algorithm 2: disjoint cells, sums by post-processing", alg2, 12.0 * alg2 * alg2, 0, 0, {}},
        {"Algorithm 2, cells clipped at 0", alg2, nan, 0, 0, {}},
        {"Algorithm 2, order projection of (q1, q1+q2) and (q3, q3+q4)", alg2, nan, 0, 0, {}},
    };
    std::mt19937_64 rng(seed);
    std::exponential_distribution<double> ex(1.0);
    auto lap = [&](double b) { return b * (ex(rng) - ex(rng)); };
    const auto truth = out.answers;
    std::vector<double> sum(5, 0.0), sumSq(5, 0.0);
    std::vector<std::vector<double>> perRun(5);
    int violations = 0;
    auto sse = [&](const std::array<double, 4> &a) {
        double s = 0.0;
        for (std::size_t i = 0; i < 4; ++i)
            s += (a[i] - truth[i]) * (a[i] - truth[i]);
        return s;
    };
    for (int run = 0; run < runs; ++run) {
        std::array<double, 5> err{};
        std::array<double, 4> a1{}, a1d{};
        for (std::size_t i = 0; i < 4; ++i) {
            a1[i] = truth[i] + lap(alg1);
            a1d[i] = truth[i] + lap(alg1Delta);
        }
        err[0] = sse(a1);
        err[1] = sse(a1d);
        BmiCells noisy{};
        for (std::size_t i = 0; i < 4; ++i)
            noisy[i] = cells[i] + lap(alg2);
        const auto a2 = bmiAnswers(noisy);
        err[2] = sse(a2);
        if (a2[0] > a2[1])
            ++violations;
        BmiCells clipped{};
        for (std::size_t i = 0; i < 4; ++i)
            clipped[i] = std::max(0.0, noisy[i]);
        err[3] = sse(bmiAnswers(clipped));
        auto ordered = a2;
        projectOrderedPair(ordered[0], ordered[1]);
        projectOrderedPair(ordered[2], ordered[3]);
        err[4] = sse(ordered);
        for (std::size_t m = 0; m < 5; ++m) {
            sum[m] += err[m];
            sumSq[m] += err[m] * err[m];
            perRun[m].push_back(err[m]);
        }
    }
    const double n = runs;
    // One shared histogram range for the lab's chart: up to 3× Algorithm 1's predicted total.
    const double top = 3.0 * out.methods[0].predicted;
    for (std::size_t m = 0; m < 5; ++m) {
        auto &r = out.methods[m];
        r.measured = sum[m] / n;
        r.standardError = std::sqrt(std::max(0.0, (sumSq[m] - sum[m] * sum[m] / n) / (n - 1.0)) / n);
        r.histogram.assign(30, 0.0);
        for (const double v : perRun[m]) {
            const auto bin = static_cast<std::size_t>(std::min(29.0, std::floor(v / top * 30.0)));
            r.histogram[bin] += 1.0 / n;
        }
    }
    out.violationProbability = violations / n;
    return out;
}

} // namespace pbx::strategies
