// SPDX-License-Identifier: MIT
// The two additive noises, one type for the whole core: the mechanisms calibrate them, the
// accountants (core/accounting) compute their privacy-loss distributions.
#pragma once

#include <string_view>

namespace pbx::mechanisms {

enum class NoiseKind {
    Laplace,  ///< scale b; pure ε-DP with ε = Δ1/b (Dwork et al. 2006, Thm 1; Dwork–Roth Thm 3.6)
    Gaussian, ///< std σ; ρ-zCDP with ρ = Δ2²/(2σ²) (Bun & Steinke 2016, Prop. 1.6)
};

std::string_view noiseKindName(NoiseKind kind); ///< "laplace" or "gaussian"

/// The privacy unit a noise kind is charged in: ε (pure DP) for Laplace, ρ (zCDP) for Gaussian.
std::string_view costUnitName(NoiseKind kind); ///< "epsilon" or "rho"

} // namespace pbx::mechanisms
