// SPDX-License-Identifier: MIT
// The exact discrete noise of the count-based growing-database streams in a session (BBScheduler,
// BBImprover, NSG, PMWG): a fraction answer count/t with Laplace scale b (fraction scale) is drawn
// on the integer count scale, as count + Z with Z discrete Laplace of scale s ≥ b·t (the exact
// sampler of Canonne, Kamath & Steinke 2020, Algorithm 2, core/mechanisms/discrete_samplers.h),
// and released as the double (count + Z)/t — a deterministic function of the integer count + Z and
// the public t, so its low-order bits carry nothing about the count (Mironov 2012).
//
// Privacy: a count has sensitivity 1 (replace-one, docs/growing-databases.md §9), and the discrete
// Laplace of scale s satisfies p(y) ≤ e^{|k|/s} p(y + k) for every integer shift k, so count + Z is
// (1/s)-DP; with s ≥ b·t that is ≤ 1/(b·t), the loss the continuous analysis charges for
// Lap(b) on a fraction of sensitivity 1/t. Charges are unchanged (docs/growing-databases.md,
// "Exact discrete noise").
#pragma once

#include "core/mechanisms/discrete_samplers.h"
#include "core/mechanisms/random_bits.h"
#include "core/util/result.h"

#include <cstdint>
#include <optional>

namespace pbx::session {

/// The count-scale discrete Laplace scale for a fraction-scale Laplace scale b at time t: the
/// smallest n/2^k ≥ b·t (k ≤ 32; the product b·t itself rounded up), so the noise is never less
/// than the continuous analysis assumes. Valid: b finite > 0, t ≥ 1. Errors: INVALID_BUDGET naming
/// "budget" when b·t exceeds the exact sampler's 2^40 (the budget is far too small to be useful).
Result<mechanisms::Rational> countLaplaceScale(double fractionScale, std::uint64_t t);

/// One exact draw of Z ~ discrete Laplace(scale). Errors: the source's error (Io) when it fails;
/// Unsupported for a draw beyond 2^62 (probability < e^{−2^22}).
Result<std::int64_t> discreteLaplaceDraw(const mechanisms::Rational &scale, mechanisms::RandomBits &bits);

/// (count + Z)/t with one exact draw Z ~ discrete Laplace(scale): the released fraction.
/// Errors: as discreteLaplaceDraw; Unsupported when |count + Z| exceeds 2^53 (not reachable in the
/// sampler's range for counts below 2^52).
Result<double> noisyCountFraction(std::uint64_t count, std::uint64_t t, const mechanisms::Rational &scale,
                                  mechanisms::RandomBits &bits);

/// The error bar of noisyCountFraction on the fraction scale: w/t (rounded up) with w the smallest
/// integer whose exact discrete Laplace tail 2e^{−w/s}/(e^{1/s} + 1) (an upper bound with a 10⁻¹⁰
/// margin, DiscreteNoiseMechanism::tailProbability) is ≤ β, so |release − count/t| ≤ w/t with
/// probability ≥ 1 − β. w ≤ s·ln(1/β) + 1 (the continuous Laplace bound plus at most one count).
/// Valid: 0 < β < 1, t ≥ 1. Errors: InvalidArgument.
Result<double> countLaplaceBound(const mechanisms::Rational &scale, std::uint64_t t, double beta);

/// countLaplaceBound at the count-scale scale of a fraction-scale Laplace scale b at time t
/// (countLaplaceScale(b, t)): the error bar of a released (count + Z)/t. Errors: as both.
Result<double> fractionLaplaceBound(double fractionScale, std::uint64_t t, double beta);

/// Whether `value` is what noisyCountFraction releases for some integer m = count + Z: m/t rounded
/// to the nearest double, with |m| ≤ 2^53 (m is recovered as the integer nearest value·t, exact for
/// |m| < 2^51). For pbx-cli verify. Valid: t ≥ 1.
bool isCountFraction(double value, std::uint64_t t);

/// The error of a stream whose noise could not be drawn after a charge (the random source failed):
/// its code, and a message saying that nothing of the stream was released and that the filter keeps
/// what it was charged.
Error streamNoiseFailed(const Error &error);

/// The grid, in counts, on which a count-scale sparse vector places its public reals: 2^-20.
inline constexpr double kSvtGrid = 0x1p-20;

/// The count-scale sparse vector's test (NSG, PMWG; docs/growing-databases.md §4), decided
/// exactly: whether value + ν ≥ τ + ρ, with value = count (no centre: NSG) or |count − centre|
/// (PMWG's hardness, centre = t·⟨q, x̂⟩, public), ν and ρ the integer discrete Laplace draws and τ
/// = t·T the public threshold. centre and τ are first rounded to the grid kSvtGrid (round half up,
/// mechanisms::GridMechanism::snap) — a public change of the query and of the threshold by at most
/// 2^-21 count — and the test is done in 128-bit integers on that grid, so the query keeps count
/// sensitivity exactly 1 (|count − centre| moves by at most 1 when count does) and no rounding
/// depends on the noise. Valid: 0 ≤ centre, τ ≤ 2^32 finite. Errors: InvalidArgument (range).
Result<bool> svtAbove(std::uint64_t count, std::optional<double> centre, std::int64_t nu, std::int64_t rho,
                      double tau);

} // namespace pbx::session
