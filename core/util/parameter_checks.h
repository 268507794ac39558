// SPDX-License-Identifier: MIT
// One range check per privacy parameter (ε, δ, ρ, sensitivity, probabilities), so every call site
// reports the same wording and the message always names the field that is wrong.
#pragma once

#include "core/util/result.h"
#include "core/util/try.h" // PBX_RETURN_IF_ERROR, used with every check below

#include <cmath>
#include <string_view>

namespace pbx {

/// x > 0 and finite (NaN and ±∞ are not).
inline bool isPositiveFinite(double x)
{
    return x > 0.0 && std::isfinite(x);
}

/// Whether 0 itself is accepted by a non-negative check.
enum class Zero {
    Allowed,  ///< value ≥ 0
    Excluded, ///< value > 0
};

/// Whether +∞ is accepted by a non-negative check (NaN never is).
enum class Infinity {
    Excluded, ///< the value must be finite
    Allowed,  ///< +∞ passes (e.g. a point of a privacy profile)
};

/// The part of the unit interval a probability-like parameter must lie in. NaN never passes.
enum class UnitInterval {
    Open,       ///< (0, 1)
    ClosedOpen, ///< [0, 1)
    OpenClosed, ///< (0, 1]
    Closed,     ///< [0, 1]
    AboveZero,  ///< (0, ∞]: only δ > 0 is needed (conversions that are vacuous for δ ≥ 1)
};

// Every check returns an InvalidArgument error whose message is "<field> must …", e.g.
// "ε must be a finite number ≥ 0" or "events[2].delta: must lie in [0, 1)" (a field that ends in
// ':' reads as a path). `suffix` is appended verbatim (e.g. " for an RDP conversion").

/// value ≥ 0 (or > 0 with Zero::Excluded), finite unless Infinity::Allowed.
/// Message: "<field> must be a finite number ≥ 0" (or "> 0"; "a number" when ∞ is allowed).
Result<void> checkNonNegative(double value, std::string_view field, Zero zero = Zero::Allowed,
                              Infinity infinity = Infinity::Excluded, std::string_view suffix = {});

/// A finite value > 0: a noise scale, a Brownian time, a target error, …
Result<void> checkPositive(double value, std::string_view field, std::string_view suffix = {});

/// A privacy-loss bound ε (pure or approximate DP): finite and ≥ 0 unless told otherwise.
Result<void> checkEpsilon(double epsilon, std::string_view field = "ε", Zero zero = Zero::Allowed,
                          Infinity infinity = Infinity::Excluded, std::string_view suffix = {});

/// A zCDP parameter ρ (Bun & Steinke 2016, Definition 1.1): finite and ≥ 0 unless told otherwise.
Result<void> checkRho(double rho, std::string_view field = "ρ", Zero zero = Zero::Allowed);

/// An ℓ1/ℓ2 sensitivity Δ: finite and > 0 unless Zero::Allowed (a zero difference f(x) − f(x')).
Result<void> checkSensitivity(double sensitivity, std::string_view field = "the sensitivity",
                              Zero zero = Zero::Excluded);

/// A probability-like parameter in the given part of [0, 1] (a sampling rate, a confidence, α, β).
/// Message: "<field> must lie strictly between 0 and 1" for UnitInterval::Open, otherwise
/// "<field> must lie in [0, 1)" etc.; "<field> must be > 0" for UnitInterval::AboveZero.
Result<void> checkProbability(double value, std::string_view field, UnitInterval range,
                              std::string_view suffix = {});

/// The failure probability δ of (ε, δ)-DP; by default 0 < δ < 1 (what every ε-for-δ inversion needs).
Result<void> checkDelta(double delta, std::string_view field = "δ", UnitInterval range = UnitInterval::Open,
                        std::string_view suffix = {});

} // namespace pbx
