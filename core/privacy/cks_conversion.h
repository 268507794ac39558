// SPDX-License-Identifier: MIT
// The tight conversion from ρ-zCDP to (ε, δ)-DP of Canonne, Kamath & Steinke, and the two
// bounds from pure ε-DP to ρ-zCDP.
#pragma once

#include "core/util/result.h"

namespace pbx::privacy {

/// δ(ε) of a ρ-zCDP guarantee by the conversion of Canonne, Kamath & Steinke 2020
/// ("The Discrete Gaussian for Differential Privacy", arXiv 2004.00010, Prop. 12 / Cor. 13):
///   δ = inf_{α>1} exp((α−1)(αρ−ε)) / (α−1) · (1 − 1/α)^α.
/// The optimal α solves (2α−1)ρ − ε + log(1−1/α) = 0 (convex objective; bisection). Any α gives a
/// valid bound, so only the final evaluation is rounded: upwards (δ reported ≥ exact value).
/// Units: ρ in nats per order, ε in nats. Valid: ρ ≥ 0, ε ≥ 0, both finite. ρ = 0 ⇒ δ = 0.
/// Result in [0, 1]. Errors: InvalidArgument for negative/NaN/∞ inputs.
Result<double> deltaFromRhoCks(double rho, double epsilon);

/// ε(δ) of a ρ-zCDP guarantee by the same conversion (CKS20 Prop. 12):
///   ε = inf_{α>1} αρ + log(1−1/α) + (log(1/δ) − log α)/(α−1),
/// α found by bisection on the sign of ρ + log(αδ)/(α−1)²; evaluated at the found α and rounded
/// up. Valid: ρ ≥ 0 finite, 0 < δ < 1 (δ ≥ 1 gives 0). ρ = 0 ⇒ ε = 0. If `optimalOrder` is not
/// null it receives the α used. Errors: InvalidArgument.
Result<double> epsilonFromRhoCks(double rho, double delta, double *optimalOrder = nullptr);

/// ρ = ε²/2: an ε-DP mechanism is (ε²/2)-zCDP (Bun & Steinke 2016, Prop. 3.3). Rounded up.
/// Valid: ε ≥ 0 finite. Errors: InvalidArgument.
Result<double> rhoFromPureEpsilonSimple(double epsilon);

/// ρ = ε·tanh(ε/2) = ε(e^ε−1)/(e^ε+1) ≤ ε²/2: the tight zCDP of ε-DP, attained by randomized
/// response (Steinke, "Composition of DP & privacy amplification by subsampling", arXiv
/// 2210.00597, the pure-DP→zCDP theorem; differentialprivacy.org/pdp-to-zcdp Thm 5).
/// Rounded up. Valid: ε ≥ 0 finite. Errors: InvalidArgument.
Result<double> rhoFromPureEpsilonTight(double epsilon);

} // namespace pbx::privacy
