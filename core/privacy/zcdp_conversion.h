// SPDX-License-Identifier: MIT
// Conversions between ρ-zCDP and (ε, δ)-DP used by the zCDP filter.
#pragma once

#include "core/util/result.h"

namespace pbx::privacy {

/// A conversion from ρ-zCDP to (ε, δ)-DP, as a budget in (ε, δ) names it.
enum class ZcdpConversion {
    Cks,    ///< Canonne, Kamath & Steinke 2020, Prop. 12 (tight)
    Simple, ///< Bun & Steinke 2016, Prop. 1.3: ε = ρ + 2√(ρ ln 1/δ) (the paper's Theorem 4)
};

/// ε of a ρ-zCDP guarantee at δ, by the Bun–Steinke conversion ε = ρ + 2·√(ρ·ln(1/δ))
/// (Bun & Steinke 2016, Prop. 1.3; Whitehouse et al. 2023 use it for the zCDP filter).
/// Units: ρ in nats per Rényi order, ε in nats. Valid: ρ ≥ 0 finite, 0 < δ < 1.
/// Rounded up (an upper bound on ε): privacy loss is never under-reported.
/// Errors: InvalidArgument for ρ < 0, NaN/∞, or δ ∉ (0, 1).
Result<double> epsilonFromRho(double rho, double delta);

/// The largest ρ with epsilonFromRho(ρ, δ) ≤ ε, i.e. the zCDP filter's budget ρ(ε, δ).
/// Uses the cancellation-free form ρ = ε² / (√(L + ε) + √L)², L = ln(1/δ)
/// (docs/accuracy-first.md §4.1, §6.2). Rounded down, so spending the whole budget stays within ε.
/// Valid: ε ≥ 0 finite, 0 < δ < 1. Errors: InvalidArgument otherwise.
Result<double> rhoFromEpsilon(double epsilon, double delta);

} // namespace pbx::privacy
