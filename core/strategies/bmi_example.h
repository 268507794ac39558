// SPDX-License-Identifier: MIT
// The lecture's BMI example: four counts (#males with BMI < 25, #males, #females with BMI < 25,
// #females) released by Algorithm 1 (each count with Lap(4/ε), sequential composition), by the
// same release calibrated to the vector's ℓ1 sensitivity 2, and by Algorithm 2 (the four disjoint
// cells with Lap(1/ε), parallel composition, sums by post-processing). Derivations and the error
// totals 128/ε², 32/ε², 12/ε² (replace-one: 128/ε², 48/ε²): docs/strategies-inference.md,
// "The BMI example".
#pragma once

#include "core/data/rows.h"
#include "core/data/table.h"
#include "core/strategies/strategy_error.h"
#include "core/util/result.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace pbx::strategies {

/// A row of the slides' table: sex ('M' or 'F'), height in inches, weight in pounds.
struct BmiRow
{
    char sex = 'M';
    double heightInches = 0.0;
    double weightPounds = 0.0;
};

/// The five rows of the slides.
std::vector<BmiRow> bmiSlideRows();
/// BMI = 703·w/h² (h in inches, w in pounds): the stability-1 row map (s, h, w) → (s, bmi).
double bodyMassIndex(const BmiRow &row);

/// The four disjoint cells (M & low, M & high, F & low, F & high), "low" = BMI < 25 (or, in the
/// census analogue, wage below a public cut-off). ≥ 25 goes to "high" (the slides' "> 25" would drop
/// a BMI of exactly 25 from both cells).
using BmiCells = std::array<double, 4>;
/// The four answers (M & low, M, F & low, F) from the cells.
std::array<double, 4> bmiAnswers(const BmiCells &cells);
/// The cells of the slides' table.
BmiCells bmiSlideCells();
/// The census analogue: ethnicity afam/cauc for sex, weekly wage < `cutoff` for BMI < 25. The
/// cut-off must be public (a fixed number, never the data's median, which is private).
/// Errors: NotFound (no wage or ethnicity column, or no afam/cauc category); INVALID_BOUNDS (cut-off
/// not finite).
Result<BmiCells> bmiCensusCells(const data::Rows &table, double cutoff = 500.0);

/// One release method's predicted and measured total squared error over the four answers.
struct BmiMethodResult
{
    std::string name;
    double laplaceScale = 0.0; ///< noise scale per measured count
    double predicted = 0.0;    ///< exact expected total squared error (NaN when there is no closed form)
    double measured = 0.0;     ///< Monte Carlo mean
    double standardError = 0.0;
    std::vector<double>
        histogram; ///< share of runs per bin: 30 bins over [0, 3·(Alg. 1 predicted)], the last one open
};

struct BmiSimulation
{
    BmiCells cells{};
    std::array<double, 4> answers{};
    std::vector<BmiMethodResult>
        methods; ///< Alg. 1, Alg. 1 with Δ₁, Alg. 2, Alg. 2 + clip, Alg. 2 + order projection
    double violationProbability = 0.0; ///< measured P[Alg. 2 gives q̃₁ > q̃₁ + q̃₂]
};

/// Monte Carlo of the five releases (continuous Laplace from a seeded generator; simulation mode).
/// Errors: INVALID_EPSILON; INVALID_CONFIG for runs < 2.
Result<BmiSimulation> simulateBmi(const BmiCells &cells, double epsilon, data::Neighbouring neighbours,
                                  int runs, std::uint64_t seed);

} // namespace pbx::strategies
