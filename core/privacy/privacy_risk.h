// SPDX-License-Identifier: MIT
// What a privacy guarantee means for a person: the hypothesis-testing trade-off (how well the best
// adversary can tell "in the data" from "not in the data") and the posterior bound on membership.
// Derivations: docs/privacy-risk.md.
#pragma once

#include "core/util/result.h"

#include <span>

namespace pbx::privacy {

/// One point of a privacy profile: the mechanism is (ε, δ)-DP.
struct ProfilePoint
{
    double epsilon = 0.0;
    double delta = 0.0;
};

/// The trade-off function of (ε, δ)-DP at type I error α (the adversary's false-positive rate):
/// f(α) = max(0, 1 − δ − e^ε·α, e^{−ε}·(1 − δ − α)), the smallest type II error (1 − true-positive
/// rate) any test can have (Wasserman & Zhou 2010; Kairouz, Oh & Viswanath 2017,
/// Thm 2.1; Dong, Roth & Su 2022, §2). Rounded down by one ulp: never overstates the adversary's
/// error. Valid: ε ≥ 0 (may be +∞), 0 ≤ δ ≤ 1, 0 ≤ α ≤ 1. Errors: InvalidArgument.
Result<double> epsilonDeltaTradeoff(double epsilon, double delta, double alpha);

/// The trade-off implied by a privacy profile: sup over its points of epsilonDeltaTradeoff. If the
/// mechanism is (ε_i, δ_i)-DP for every point, it is f-DP for this f (Dong, Roth & Su 2022, §2.4,
/// the primal–dual relation); with the exact δ(ε) on a fine grid of ε it approaches the exact
/// trade-off from below. Valid: a non-empty profile of valid points, 0 ≤ α ≤ 1.
/// Errors: InvalidArgument.
Result<double> profileTradeoff(std::span<const ProfilePoint> profile, double alpha);

/// The trade-off of μ-Gaussian DP, G_μ(α) = Φ(Φ⁻¹(1 − α) − μ): exact for the Gaussian mechanism
/// with μ = Δ/σ (Dong, Roth & Su 2022, §2, μ-GDP). Rounded down by one ulp. Valid: μ ≥ 0
/// finite, 0 ≤ α ≤ 1. Errors: InvalidArgument.
Result<double> gaussianTradeoff(double mu, double alpha);

/// The largest posterior probability of membership an adversary can reach from a prior p under
/// ε-DP: p·e^ε / (p·e^ε + 1 − p) (Bayes' rule with a likelihood ratio of at most e^ε; under
/// (ε, δ)-DP the same bound holds except with probability δ — Kasiviswanathan & Smith 2014).
/// Rounded up by one ulp (never understates the risk). Valid: ε ≥ 0 (+∞ gives 1 for p > 0),
/// 0 ≤ p ≤ 1. Errors: InvalidArgument.
Result<double> posteriorBound(double epsilon, double prior);

} // namespace pbx::privacy
