// SPDX-License-Identifier: MIT
// ERMG (Cummings, Krehbiel, Lai & Tantipongpipat 2018: a private ERM black box re-run on a growing
// database) with a teaching box: L2-regularised logistic regression released by output perturbation
// (Chaudhuri, Monteleoni & Sarwate 2011, §3) with Gaussian noise under zCDP (Bun & Steinke 2016,
// Prop. 1.6). The minimiser is found by Newton's method to a gradient-norm tolerance, and the
// tolerance is paid for in the sensitivity. Derivations: docs/growing-databases.md, "ERMG".
#pragma once

#include "core/data/rows.h"
#include "core/data/table.h"
#include "core/util/result.h"

#include <Eigen/Dense>

#include <cstdint>
#include <random>

namespace pbx::growing {

/// Rows x_i ∈ ℝ^d with ‖x_i‖₂ ≤ 1 and labels y_i ∈ {−1, +1}.
struct ErmData
{
    Eigen::MatrixXd features; ///< rows × d
    Eigen::VectorXd labels;   ///< ±1
};

/// The regularised empirical risk (1/t)Σ ln(1 + e^{−y_i⟨θ, x_i⟩}) + (λ/2)‖θ‖² over the given rows.
double logisticRisk(const Eigen::VectorXd &theta, const Eigen::Ref<const Eigen::MatrixXd> &x,
                    const Eigen::Ref<const Eigen::VectorXd> &y, double lambda);

struct LogisticFit
{
    Eigen::VectorXd theta;
    double gradientNorm = 0.0; ///< ‖∇‖ at θ (computed), ≤ tol/2
    int iterations = 0;
};

/// Newton's method with backtracking from `start` (or 0) until the computed ‖∇‖ ≤ tol/2: the exact
/// gradient is then ≤ tol (the summation error at t ≤ 2^31 rows is far below tol/2 for tol ≥ 10⁻¹⁰),
/// which is what ermSensitivity charges for. Valid: λ > 0, 10⁻¹⁰ ≤ tol ≤ 10⁻², at least one row.
/// Errors: INVALID_CONFIG ("erm.lambda", "erm.tol"); ResourceLimit when 100 iterations do not reach tol.
Result<LogisticFit> fitLogistic(const Eigen::Ref<const Eigen::MatrixXd> &x,
                                const Eigen::Ref<const Eigen::VectorXd> &y, double lambda, double tol,
                                const Eigen::VectorXd *start = nullptr);

/// Replace-one ℓ2 sensitivity of the released minimiser: 2/(tλ) (exact minimiser, loss 1-Lipschitz,
/// ‖x‖ ≤ 1, λ-strongly convex objective: CMS11 Cor. 8) plus 2·tol/λ (‖θ̃ − θ*‖ ≤ ‖∇L(θ̃)‖/λ for each
/// of the two neighbours). Rounded up. Precondition: t ≥ 1, λ > 0, tol ≥ 0.
double ermSensitivity(std::uint64_t t, double lambda, double tol);

/// The Gaussian noise σ = Δ/√(2ρ) that makes one release ρ-zCDP (per coordinate, θ + N(0, σ²I)).
/// Rounded up. CPS (λ = 0.01, tol = 10⁻¹⁰, ρ = 0.024356): BBImprover a = 0.1 → σ = 90.6 at t = 1000
/// and 20.2 at t = 28,155; BBScheduler zcdp-equalised γ = 1 → 1.046 in every epoch.
double ermNoiseScale(std::uint64_t t, double lambda, double tol, double rho);

/// Excess empirical risk of noisy releases θ + N(0, σ²I) over θ on the given rows: mean and median over
/// `draws` draws (simulation only: seeded std::normal_distribution, never a release).
struct ExcessRisk
{
    double mean = 0.0;
    double median = 0.0;
};
ExcessRisk excessRisk(const Eigen::VectorXd &theta, double sigma, const Eigen::Ref<const Eigen::MatrixXd> &x,
                      const Eigen::Ref<const Eigen::VectorXd> &y, double lambda, int draws,
                      std::mt19937_64 &rng);

} // namespace pbx::growing
