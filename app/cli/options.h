// SPDX-License-Identifier: MIT
// A minimal "--name value" option reader for pbx-cli subcommands, with one-line errors.
#pragma once

#include "core/util/result.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace pbx::cli {

class Options
{
public:
    /// Reads `--name value` pairs; `flags` are options without a value (e.g. --help).
    /// Errors: an unknown option, a repeated one, or a missing value.
    static Result<Options> parse(const std::vector<std::string> &args, const std::set<std::string> &valued,
                                 const std::set<std::string> &flags = {"--help"});

    bool has(const std::string &name) const { return m_values.count(name) > 0; }
    std::optional<std::string> value(const std::string &name) const;
    /// A finite number. Errors: "--epsilon: '1x' is not a number".
    Result<std::optional<double>> number(const std::string &name) const;
    /// An unsigned integer. Errors: "--seed: '…' is not an integer ≥ 0".
    Result<std::optional<std::uint64_t>> unsignedInteger(const std::string &name) const;

private:
    std::map<std::string, std::string> m_values;
};

} // namespace pbx::cli
