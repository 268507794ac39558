// SPDX-License-Identifier: MIT
// Basic against optimal composition: the smallest number k of ε₀-DP mechanisms for which the
// optimal composition of Kairouz, Oh & Viswanath (2015, Thm 3.3) gives any ε below
// basic composition kε₀ at a target δ (Hartmann, Bindschaedler, Bentkamp & West, PoPETs 2023,
// Table 1). Below that k, ODP composition (built on basic composition) is the best choice in ε.
// Derivation in docs/output-dp.md.
#pragma once

#include "core/util/result.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace pbx::odp {

/// δ₁(k) = (1 − e^{−2ε₀})·(e^{ε₀}/(1+e^{ε₀}))^k: the δ at which Thm 3.3's first rung
/// ε = (k−2)ε₀ holds. Valid: ε₀ > 0, k ≥ 2.
double firstRungDelta(double epsilon0, std::int64_t k);

/// k_min(ε₀, δ) = max(2, ⌈ln((1 − e^{−2ε₀})/δ) / ln(1 + e^{−ε₀})⌉) (log1p for large ε₀).
/// Errors: InvalidArgument (ε₀ ≤ 0 or non-finite: "eps0"; δ ∉ (0, 1): "delta").
Result<std::int64_t> crossoverK(double epsilon0, double delta);

/// The companion criteria, each the smallest k (nullopt: never, up to `cap`):
/// (a) KOV's closed form (Thm 3.4) below kε₀; (b) Dwork–Rothblum–Vadhan below kε₀;
/// (c) the exact optimal curve ε ≤ 0.9·kε₀, for k ≥ 2.
struct CrossoverCompanions
{
    std::optional<std::int64_t> kovAnalytic;
    std::optional<std::int64_t> drv;
    std::optional<std::int64_t> tenPercent;
};
Result<CrossoverCompanions> crossoverCompanions(double epsilon0, double delta, std::int64_t cap = 100000);

} // namespace pbx::odp
