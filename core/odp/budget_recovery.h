// SPDX-License-Identifier: MIT
// Recovering budget from an unsatisfactory output (Hartmann, Bindschaedler, Bentkamp & West,
// PoPETs 2023, Algorithm 5, Theorem 17, Corollary 18): train a private logistic regression by
// output perturbation, test it privately on a disjoint split, and release it only if the noisy
// error is at most τ. Cells: {released} costs max(ε_p, Δ_test/s), {⊥} costs
// max(min(ε_p, Δ_train/s), Δ_test/s); δ = 0. Derivations in docs/output-dp.md.
#pragma once

#include "core/data/rows.h"
#include "core/data/sensitivity.h"
#include "core/data/table.h"
#include "core/mechanisms/random_bits.h"
#include "core/odp/logistic_regression.h"
#include "core/privacy/odp_guarantee.h"

#include <optional>
#include <string>
#include <vector>

namespace pbx::odp {

struct RecoveryParameters
{
    double lambda = 0.01;      ///< Λ > 0
    double epsilonModel = 2.0; ///< ε_p > 0, the model's output perturbation
    double epsilonTest = 0.5;  ///< ε_t > 0, the test
    double tau = 0.49;         ///< τ ∈ [0, 1], release iff noisy error ≤ τ
    double gradientTolerance = 1e-12;
    data::Neighbouring relation = data::Neighbouring::Replace;
    double trainNormaliser = 0.0;    ///< add/remove: the public n₀ (0 = invalid there)
    double testNormaliser = 0.0;     ///< add/remove: the public m₀
    std::optional<double> testNoise; ///< s; default max(Δ_test, Δ_train)/ε_t
};

/// The sensitivities and noise scales of Algorithm 5 for a split of n training and m test rows.
struct RecoveryCalibration
{
    double modelSensitivity = 0.0; ///< Δ₂ (+ 2g/Λ for the inexact optimiser), ℓ2
    double trainSensitivity = 0.0; ///< Δ_train = Δ₂/4 for the test error
    double testSensitivity = 0.0;  ///< Δ_test = 1/m (1/m₀ under add/remove)
    double beta = 0.0;             ///< model noise density ∝ exp(−β‖b‖), β = ε_p/Δ₂
    double testNoise = 0.0;        ///< s, the Laplace scale of the test noise
    double releaseCost = 0.0;      ///< E(released)
    double bottomCost = 0.0;       ///< E(⊥)
    bool testCanSave = true;       ///< false when ε_t ≥ ε_p (Corollary 18 needs ε_t < ε_p)
};
/// Errors (InvalidArgument naming the field): Λ, ε_p, ε_t not finite > 0; τ ∉ [0, 1]; n or m
/// zero ("train"/"test": empty part); add/remove without normalisers; s ≤ 0.
Result<RecoveryCalibration> calibrateRecovery(const RecoveryParameters &p, std::size_t trainRows,
                                              std::size_t testRows);

/// The (E, 0)-ODP guarantee: cell 0 = ⊥, cell 1 = released.
OdpGuarantee recoveryGuarantee(const RecoveryCalibration &c);

/// A draw b ∈ ℝ^d with density ∝ exp(−β‖b‖₂): ‖b‖ ~ Gamma(d, rate β) times a uniform direction
/// (Chaudhuri et al. 2011). Floating point (no exact sampler exists in pbx for it).
Eigen::VectorXd sampleL2LaplaceNoise(Eigen::Index dimension, double beta, mechanisms::RandomBits &bits);

struct RecoveryRun
{
    RecoveryCalibration calibration;
    bool released = false;
    Eigen::VectorXd theta;   ///< θ̃ (meaningful only if released)
    double noisyError = 0.0; ///< ẽ, published in both cells
    double cost = 0.0;       ///< E(cell)
};
/// Algorithm 5. Errors: as calibrateRecovery and validateRows; the source's error.
Result<RecoveryRun> runRecovery(const LabelledRows &train, const LabelledRows &test,
                                const RecoveryParameters &p, mechanisms::RandomBits &bits);

/// Algorithm 5 after the (deterministic) fit: perturb θ*, test, release or ⊥. For repeated runs
/// on one training part (simulation). `fit` must come from fitLogistic on a part of
/// `trainRows` rows with p's Λ and tolerance. Errors: as runRecovery.
Result<RecoveryRun> perturbAndTest(const LogisticFit &fit, std::size_t trainRows, const LabelledRows &test,
                                   const RecoveryParameters &p, mechanisms::RandomBits &bits);

/// P[err + Lap(s) ≤ τ] ignoring the model noise (teaching aid).
double recoveryPassProbability(double error, double tau, double testNoise);

/// The seed's Fig. 2 quantity: the 95th percentile s·ln 10 of the test noise for N records with an
/// 80/20 split, replace-one, s = max(1/m, 1/(2nΛ))/ε_t.
double testNoiseQuantile95(double records, double lambda, double epsilonTest);

/// Labelled rows split into a training and a test part (datasets/cps1988_recovery.h makes one).
struct RecoverySplit
{
    LabelledRows train;
    LabelledRows test;
};

} // namespace pbx::odp
