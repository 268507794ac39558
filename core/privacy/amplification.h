// SPDX-License-Identifier: MIT
// Privacy amplification by subsampling for (ε, δ)-DP guarantees.
#pragma once

#include "core/util/result.h"

namespace pbx::privacy {

/// An (ε, δ)-DP guarantee.
struct ApproxDp
{
    double epsilon = 0.0;
    double delta = 0.0;
};

/// Poisson subsampling with rate p of an (ε, δ)-DP mechanism, add/remove neighbours:
///   ε' = log(1 + p(e^ε − 1)),  δ' = pδ   (Steinke 2022, arXiv 2210.00597, subsampling theorem;
/// tight). Also the bound for sampling a fixed-size subset of m = pn records without replacement
/// under replace-one neighbours (Balle, Barthe & Gaboardi 2018, arXiv 1807.01647, Thm 9).
/// Computed as log1p(p·expm1(ε)); both outputs rounded up. Valid: 0 ≤ p ≤ 1, ε ≥ 0, 0 ≤ δ ≤ 1,
/// finite. Errors: InvalidArgument.
Result<ApproxDp> amplifyBySubsampling(ApproxDp base, double rate);

/// The largest base ε whose amplification at rate p is ≤ target ε': log(1 + (e^{ε'} − 1)/p),
/// rounded down. Valid: 0 < p ≤ 1, ε' ≥ 0 finite. Errors: InvalidArgument.
Result<double> baseEpsilonForAmplified(double targetEpsilon, double rate);

/// Group privacy for k = 2 (replace-one = remove then add): (ε, δ) ⇒ (2ε, (1 + e^ε)δ)
/// (Dwork & Roth 2014, Thm 2.2 / Vadhan 2017 Lemma 2.2). Rounded up; δ capped at 1.
ApproxDp groupOfTwo(ApproxDp guarantee);

} // namespace pbx::privacy
