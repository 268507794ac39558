// SPDX-License-Identifier: MIT
// Errors of the strategies layer carry a stable code word (INVALID_EPSILON, INVALID_BOUNDS, …) at
// the start of their message, so the CLI and the GUI can show it and tests can match it.
#pragma once

#include "core/data/sensitivity.h"
#include "core/util/code_word.h"

#include <string>
#include <string_view>

namespace pbx::strategies {

/// The code words (docs/strategies-inference.md, "Errors").
inline constexpr std::string_view kInvalidEpsilon = "INVALID_EPSILON";
inline constexpr std::string_view kInvalidBounds = "INVALID_BOUNDS";
inline constexpr std::string_view kInvalidBranching = "INVALID_BRANCHING";
inline constexpr std::string_view kDomainTooLarge = "DOMAIN_TOO_LARGE";
inline constexpr std::string_view kInvalidQuantile = "INVALID_QUANTILE";
inline constexpr std::string_view kNeighboursMismatch = "NEIGHBOURS_MISMATCH";
inline constexpr std::string_view kNotConvex = "NOT_CONVEX";
inline constexpr std::string_view kInvalidConfig = "INVALID_CONFIG";

/// An Error whose message is "<code>: <message>". DOMAIN_TOO_LARGE maps to ResourceLimit,
/// NOT_CONVEX and NEIGHBOURS_MISMATCH to Unsupported, everything else to InvalidArgument.
inline Error strategyError(std::string_view code, const std::string &message)
{
    ErrorCode kind = ErrorCode::InvalidArgument;
    if (code == kDomainTooLarge)
        kind = ErrorCode::ResourceLimit;
    else if (code == kNotConvex || code == kNeighboursMismatch)
        kind = ErrorCode::Unsupported;
    return codeWordError(kind, code, message);
}

/// The code word of an error made by strategyError, or "".
inline std::string_view strategyErrorCode(const Error &error)
{
    return errorCodeWord(error);
}

/// INVALID_EPSILON unless ε is finite and > 0; `field` names the input.
inline Result<void> checkStrategyEpsilon(double epsilon, std::string_view field = "epsilon")
{
    if (!(epsilon > 0.0) || !(epsilon < 1e300))
        return strategyError(kInvalidEpsilon, std::string(field) + " must be a finite number > 0");
    return {};
}

/// The neighbouring relation (the session's): add-remove or replace-one.
using Neighbouring = data::Neighbouring;

} // namespace pbx::strategies
