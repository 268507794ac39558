// SPDX-License-Identifier: MIT
// The cost of a strategy request whose rows went through a declared transformation and/or are
// Poisson-subsampled: stability s multiplies the base ε (McSherry 2009, "Privacy integrated
// queries", SIGMOD, Thm 2; group privacy, Dwork & Roth 2014, Thm 2.2), and subsampling at rate p
// turns it into ln(1 + p(e^{sε} − 1)) (Steinke 2022, arXiv 2210.00597, the subsampling theorem; exact and
// tight for add/remove). Derivations: docs/strategies-inference.md, "Transformations and subsampling".
#pragma once

#include "core/mechanisms/random_bits.h"
#include "core/session/strategies/strategy_request.h"
#include "core/util/result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pbx::session {

/// The stability s the charge is multiplied by: 1 without a transform, else the transformation's
/// stability and at least 1 (the table's own rows are 1-stable: a declared transformation cannot
/// make the request cheaper). Errors: INVALID_CONFIG (self-join without truncation: unbounded;
/// a missing k or m), NEIGHBOURS_MISMATCH (a transform or subsampling under replace-one: stability
/// and the exact amplification are stated for add/remove), InvalidArgument (subsample ∉ (0, 1]).
/// Every message names the field ("transform" or "subsample").
Result<unsigned> requestStability(const StrategyRequestSpec &spec, data::Neighbouring neighbours);

/// The charge of a request whose mechanism is ε-DP on the (transformed, sampled) rows:
/// ln(1 + p(e^{s·ε} − 1)) with p = spec.subsample, or s·ε when p = 1; rounded up. Valid: ε ≥ 0
/// finite, s ≥ 1. Errors: InvalidArgument.
Result<double> transformedCharge(const StrategyRequestSpec &spec, unsigned s, double epsilon);

/// The largest base ε whose transformedCharge is at most `cap` (the inverse, rounded down):
/// ln(1 + (e^cap − 1)/p)/s (cap itself without transformation and sampling). Valid: cap > 0
/// finite, s ≥ 1.
double baseEpsilonWithin(const StrategyRequestSpec &spec, unsigned s, double cap);

/// Poisson subsampling: one exact Bernoulli draw per row; `mask` (one entry per row, non-zero =
/// in) is cleared where a row is left out. The rate drawn is ⌊p·2^62⌋/2^62 ≤ p, so a charge
/// computed at p is never below the truth. No-op for p = 1. Errors: the noise source's.
Result<void> poissonSample(double rate, std::vector<std::uint8_t> &mask, mechanisms::RandomBits &bits);

/// "; rows flat-map k=3 (stability 3: charge 3·ε); Poisson sample p = 0.1 (ε' = ln(1 + p(e^ε − 1)))"
/// or "" without either.
std::string transformNote(const StrategyRequestSpec &spec, unsigned s);

} // namespace pbx::session
