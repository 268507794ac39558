// SPDX-License-Identifier: MIT
// Errors of the growing-database layer carry a stable code word (INVALID_GAMMA, INVALID_BUDGET, …)
// at the start of their message and name the offending field, so the CLI can print one line and
// tests can match the code (docs/growing-databases.md, "Errors").
#pragma once

#include "core/util/code_word.h"

#include <string>
#include <string_view>

namespace pbx::growing {

/// The code words (docs/growing-databases.md, "Errors").
inline constexpr std::string_view kInvalidStartSize = "INVALID_START_SIZE";
inline constexpr std::string_view kInvalidGamma = "INVALID_GAMMA";
inline constexpr std::string_view kInvalidBudget = "INVALID_BUDGET";
inline constexpr std::string_view kInvalidSchedule = "INVALID_SCHEDULE";
inline constexpr std::string_view kInvalidBeta = "INVALID_BETA";
inline constexpr std::string_view kInvalidBlackBox = "INVALID_BLACK_BOX";
inline constexpr std::string_view kInvalidDecay = "INVALID_DECAY";
inline constexpr std::string_view kInvalidQuery = "INVALID_QUERY";
inline constexpr std::string_view kInvalidNoiseExponent = "INVALID_NOISE_EXPONENT";
inline constexpr std::string_view kInvalidNoiseUnit = "INVALID_NOISE_FUNCTION";
inline constexpr std::string_view kInvalidThreshold = "INVALID_THRESHOLD";
inline constexpr std::string_view kInvalidCap = "INVALID_CAP";
inline constexpr std::string_view kCapRequired = "CAP_REQUIRED";
inline constexpr std::string_view kQuerySensitivity = "QUERY_SENSITIVITY";
inline constexpr std::string_view kTimeNotMonotone = "TIME_NOT_MONOTONE";
inline constexpr std::string_view kEpochOverflow = "EPOCH_OVERFLOW";
inline constexpr std::string_view kNeighboursUnsupported = "GROWING_NEIGHBOURS_UNSUPPORTED";
inline constexpr std::string_view kInvalidConfig = "INVALID_CONFIG";
inline constexpr std::string_view kInvalidUniverse = "INVALID_UNIVERSE";
inline constexpr std::string_view kRowOutsideUniverse = "ROW_OUTSIDE_UNIVERSE";
inline constexpr std::string_view kInvalidAlpha = "INVALID_ALPHA";
inline constexpr std::string_view kInvalidLearningRate = "INVALID_LEARNING_RATE";
inline constexpr std::string_view kSmallDbTooLarge = "SMALLDB_TOO_LARGE";

/// An Error whose message is "<code>: <field>: <message>" (or "<code>: <message>" when `field` is
/// empty). EPOCH_OVERFLOW and SMALLDB_TOO_LARGE map to ResourceLimit, GROWING_NEIGHBOURS_UNSUPPORTED to
/// Unsupported, everything else to InvalidArgument.
inline Error growingError(std::string_view code, std::string_view field, const std::string &message)
{
    ErrorCode kind = ErrorCode::InvalidArgument;
    if (code == kEpochOverflow || code == kSmallDbTooLarge)
        kind = ErrorCode::ResourceLimit;
    else if (code == kNeighboursUnsupported)
        kind = ErrorCode::Unsupported;
    return codeWordError(kind, code, field.empty() ? message : std::string(field) + ": " + message);
}

/// The code word of an error made by growingError, or "".
inline std::string_view growingErrorCode(const Error &error)
{
    return errorCodeWord(error);
}

} // namespace pbx::growing
