// SPDX-License-Identifier: MIT
// The small interface every composition strategy implements: ε at a given δ, δ at a given ε.
#pragma once

#include "core/util/result.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace pbx::accounting {

/// Progress of a long computation: return false to cancel (the call then fails with Cancelled).
using ProgressCallback = std::function<bool(std::int64_t done, std::int64_t total)>;

/// An (ε, δ) pair certified by a strategy, with what the strategy can say about how it got it.
/// ε may be +∞ (no finite ε at that δ); δ lies in [0, 1]. Both are upper bounds (rounded up).
struct StrategyAnswer
{
    double epsilon = 0.0;
    double delta = 0.0;
    std::string method;                           ///< the bound used, with its source
    std::optional<double> optimalOrder;           ///< RDP / CKS order α that achieved it
    std::optional<double> rho;                    ///< zCDP: the composed ρ
    std::optional<double> simpleEpsilon;          ///< zCDP: Bun–Steinke ρ + 2√(ρ log 1/δ)
    std::optional<double> discretisationInterval; ///< PLD grid step d
    std::optional<double> optimisticEpsilon;      ///< PLD: a lower bound on the exact ε(δ)
    std::optional<double> optimisticDelta;        ///< PLD: a lower bound on the exact δ(ε)
};

class CompositionStrategy
{
public:
    virtual ~CompositionStrategy() = default;
    /// "basic", "advanced", "optimal", "zcdp", "rdp" or "pld".
    virtual std::string name() const = 0;
    /// The smallest ε this strategy certifies at δ. Valid: 0 < δ < 1. Errors: InvalidArgument.
    virtual Result<StrategyAnswer> epsilonForDelta(double delta) const = 0;
    /// The smallest δ this strategy certifies at ε. Valid: ε ≥ 0 finite. Errors: InvalidArgument.
    virtual Result<StrategyAnswer> deltaForEpsilon(double epsilon) const = 0;
};

} // namespace pbx::accounting
