// SPDX-License-Identifier: MIT
// The one tolerance helper shared by all tests, plus small readers for the oracle files.
#pragma once

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

inline std::string readTextFile(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

} // namespace pbx::test

/// QCOMPARE-like check with a relative tolerance and a readable failure message.
#define PBX_FUZZY_COMPARE(actual, expected, relTol)                                              \
    QVERIFY2(::pbx::test::fuzzyCompare((actual), (expected), (relTol)),                          \
             qPrintable(::pbx::test::describe((actual), (expected), (relTol))))
