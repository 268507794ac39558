// SPDX-License-Identifier: MIT
// From a Rényi-DP curve on a grid of orders to (ε, δ)-DP.
#pragma once

#include "core/util/result.h"

#include <vector>

namespace pbx::privacy {

/// An (ε, δ) answer of an RDP conversion and the order that achieved it.
struct RdpConversion
{
    double value = 0.0;        ///< ε (for epsilonFromRdp) or δ (for deltaFromRdp)
    double optimalOrder = 0.0; ///< the α that achieved it (NaN if a shortcut decided)
};

/// ε(δ) = min_α ε̂(α) + log(1 − 1/α) − (log δ + log α)/(α − 1) over the orders α > 1.01
/// (Canonne, Kamath & Steinke 2020, arXiv 2004.00010, Prop. 12; Asoodeh et al. 2020 eq. 20;
/// Balle et al. 2020 Thm 21 — the "improved conversion" of dp_accounting/Opacus/TF-Privacy).
/// As in dp_accounting: if δ² + expm1(−ε̂(α)) > 0 for some α, the KL bound gives ε = 0; negative
/// ε̂ is treated as 0 (ε = 0). Orders with ε̂ = ∞ are skipped. Result ≥ 0, rounded up a few ulps.
/// Shapes: orders and rdp have equal length ≥ 1, orders ≥ 1. Valid: 0 < δ < 1 (δ ≥ 1 ⇒ 0).
/// Errors: InvalidArgument (shape, NaN, order < 1, δ ≤ 0).
Result<RdpConversion> epsilonFromRdp(const std::vector<double> &orders, const std::vector<double> &rdp,
                                     double delta);

/// δ(ε) = min over α of min( sqrt(1 − e^{−ε̂(α)}) [KL bound],
///   exp((α−1)(ε̂(α) − ε + log(1 − 1/α)) − log α) [CKS20 Prop. 12, only α > 1.01] ), capped at 1.
/// Rounded up a few ulps. Valid: ε ≥ 0 finite. Errors: InvalidArgument.
Result<RdpConversion> deltaFromRdp(const std::vector<double> &orders, const std::vector<double> &rdp,
                                   double epsilon);

} // namespace pbx::privacy
