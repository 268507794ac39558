// SPDX-License-Identifier: MIT
// ℓ2-regularised logistic regression for output perturbation (Chaudhuri, Monteleoni & Sarwate
// 2011, Algorithm 1; Hartmann, Bindschaedler, Bentkamp & West, PoPETs 2023, Algorithm 4 and
// Theorem 16), with an optimiser whose iteration count does not depend on the data
// (docs/output-dp.md).
#pragma once

#include "core/util/result.h"

#include <Eigen/Dense>

#include <cstdint>

namespace pbx::odp {

/// Rows x_i ∈ ℝ^d with ‖x_i‖₂ ≤ 1 for every POSSIBLE record (a public bound), labels y_i ∈ {−1, +1}.
struct LabelledRows
{
    Eigen::MatrixXd x; ///< n × d
    Eigen::VectorXd y; ///< n
};

/// Errors (InvalidArgument): empty, mismatched sizes, a label not ±1, a row with norm > 1 + 1e-12,
/// non-finite entries. `what` names the part ("train", "test").
Result<void> validateRows(const LabelledRows &rows, const char *what);

/// Data-independent gradient-descent length T = ⌈2 ln(L/(Λ g)) / (−ln(1 − Λ/L))⌉ with
/// L = Λ + ¼·rowsOverNormaliser: from θ = 0 it reaches ‖∇J‖ ≤ g on every dataset
/// (e.g. Λ = 0.01, g = 1e-12, ratio 1: T = 1576). Valid: Λ > 0, 0 < g, ratio > 0.
std::int64_t gradientDescentSteps(double lambda, double gradientTolerance, double rowsOverNormaliser);

struct LogisticFit
{
    Eigen::VectorXd theta;
    double gradientNorm = 0.0;
    std::int64_t steps = 0;
};

/// θ* = argmin (1/n₀) Σ ln(1 + e^{−y_i θ·x_i}) + (Λ/2)‖θ‖² by exactly gradientDescentSteps(...)
/// steps of gradient descent from 0 with step 1/L. n₀ = normaliser (0: the row count, for
/// replace-one; a public constant for add/remove). Errors: InvalidArgument (Λ ≤ 0 or non-finite,
/// "lambda"; g ≤ 0; rows).
Result<LogisticFit> fitLogistic(const LabelledRows &train, double lambda, double gradientTolerance = 1e-12,
                                double normaliser = 0.0);

/// (1/m) Σ |σ(θ·x) − (y+1)/2|, in [0, 1] (the test error of Hartmann et al.'s Algorithm 5).
double meanAbsoluteError(const Eigen::VectorXd &theta, const LabelledRows &test);

} // namespace pbx::odp
