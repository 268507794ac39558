// SPDX-License-Identifier: MIT
// Reading the oracle files of tests/data/oracle (README there) for the accounting tests.
#pragma once

#include "tests/testutils.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <string>

namespace pbx::test {

/// The parsed oracle file `name` (e.g. "pld.json"); fails the calling test if it is missing.
inline nlohmann::json loadOracle(const std::string &name)
{
    const std::string text = readTextFile(std::string(PBX_ORACLE_DIR) + "/" + name);
    if (text.empty())
        return nlohmann::json();
    return nlohmann::json::parse(text);
}

/// An oracle number; the strings "inf"/"nan" map to the doubles.
inline double oracleNumber(const nlohmann::json &v)
{
    if (v.is_string()) {
        const std::string s = v.get<std::string>();
        if (s == "inf")
            return std::numeric_limits<double>::infinity();
        if (s == "-inf")
            return -std::numeric_limits<double>::infinity();
        return std::numeric_limits<double>::quiet_NaN();
    }
    return v.get<double>();
}

/// The cross-check of `record` whose comparison name starts with `prefix`, or null.
inline const nlohmann::json *crossCheck(const nlohmann::json &record, const std::string &prefix)
{
    for (const auto &c : record["cross_checks"])
        if (c["comparison"].get<std::string>().rfind(prefix, 0) == 0)
            return &c;
    return nullptr;
}

} // namespace pbx::test
