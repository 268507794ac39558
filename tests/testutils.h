// SPDX-License-Identifier: MIT
// The one tolerance helper shared by all tests, the error check (which code, which field), plus
// small readers for the oracle files.
#pragma once

#include "core/util/result.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

namespace pbx::test {

/// True when |actual − expected| ≤ relTol·max(|actual|, |expected|) (or both are exactly equal).
inline bool fuzzyCompare(double actual, double expected, double relTol)
{
    if (actual == expected)
        return true;
    const double scale = std::max(std::fabs(actual), std::fabs(expected));
    return std::fabs(actual - expected) <= relTol * scale;
}

inline QString describe(double actual, double expected, double relTol)
{
    return QStringLiteral("actual %1, expected %2, relative tolerance %3")
        .arg(actual, 0, 'g', 17)
        .arg(expected, 0, 'g', 17)
        .arg(relTol, 0, 'g', 3);
}

inline const char *errorCodeName(ErrorCode code)
{
    switch (code) {
    case ErrorCode::InvalidArgument:
        return "InvalidArgument";
    case ErrorCode::Parse:
        return "Parse";
    case ErrorCode::NotFound:
        return "NotFound";
    case ErrorCode::BudgetExceeded:
        return "BudgetExceeded";
    case ErrorCode::Io:
        return "Io";
    case ErrorCode::Unsupported:
        return "Unsupported";
    case ErrorCode::Cancelled:
        return "Cancelled";
    case ErrorCode::ResourceLimit:
        return "ResourceLimit";
    }
    return "unknown";
}

/// Empty when `result` failed with `code` and a message containing `field` (the name of the
/// offending input, e.g. "δ" or "events[0].sigma"); otherwise what went wrong, for the test log.
template<typename R>
QString errorMismatch(const R &result, ErrorCode code, std::string_view field)
{
    if (result.ok())
        return QStringLiteral("expected a %1 error naming \"%2\", but the call succeeded")
            .arg(QLatin1String(errorCodeName(code)),
                 QString::fromUtf8(field.data(), qsizetype(field.size())));
    const Error &error = result.error();
    if (error.code != code || error.message.find(field) == std::string::npos)
        return QStringLiteral("expected a %1 error naming \"%2\", got %3: \"%4\"")
            .arg(QLatin1String(errorCodeName(code)), QString::fromUtf8(field.data(), qsizetype(field.size())),
                 QLatin1String(errorCodeName(error.code)), QString::fromStdString(error.message));
    return {};
}

inline std::string readTextFile(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

} // namespace pbx::test

/// QCOMPARE-like check with a relative tolerance and a readable failure message.
#define PBX_FUZZY_COMPARE(actual, expected, relTol)                                                          \
    QVERIFY2(::pbx::test::fuzzyCompare((actual), (expected), (relTol)),                                      \
             qPrintable(::pbx::test::describe((actual), (expected), (relTol))))

/// Checks that a Result failed for the expected reason: its ErrorCode is `code` (written without the
/// ErrorCode:: prefix, e.g. InvalidArgument) and its message names `field` (a substring, e.g. "δ").
/// `result` is evaluated once.
#define PBX_VERIFY_ERROR(result, code, field)                                                                \
    do {                                                                                                     \
        const QString pbxMismatch_ = ::pbx::test::errorMismatch((result), ::pbx::ErrorCode::code, (field));  \
        QVERIFY2(pbxMismatch_.isEmpty(), qPrintable(pbxMismatch_));                                          \
    } while (false)
