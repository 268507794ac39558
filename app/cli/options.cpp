// SPDX-License-Identifier: MIT
#include "app/cli/options.h"

#include <charconv>
#include <cmath>

namespace pbx::cli {

Result<Options> Options::parse(const std::vector<std::string> &args, const std::set<std::string> &valued,
                               const std::set<std::string> &flags)
{
    Options o;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &name = args[i];
        const bool isValued = valued.count(name) > 0;
        if (!isValued && flags.count(name) == 0)
            return makeError(ErrorCode::InvalidArgument, "unknown option '" + name + "' (see --help)");
        if (o.m_values.count(name))
            return makeError(ErrorCode::InvalidArgument, name + " is given twice");
        if (!isValued) {
            o.m_values[name] = "";
            continue;
        }
        if (i + 1 >= args.size())
            return makeError(ErrorCode::InvalidArgument, name + " needs a value");
        o.m_values[name] = args[++i];
    }
    return o;
}

std::optional<std::string> Options::value(const std::string &name) const
{
    auto it = m_values.find(name);
    return it == m_values.end() ? std::nullopt : std::optional<std::string>(it->second);
}

Result<std::optional<double>> Options::number(const std::string &name) const
{
    auto text = value(name);
    if (!text)
        return std::optional<double>();
    double x = 0.0;
    const char *end = text->data() + text->size();
    auto [ptr, ec] = std::from_chars(text->data(), end, x);
    if (ec != std::errc() || ptr != end || !std::isfinite(x))
        return makeError(ErrorCode::InvalidArgument, name + ": '" + *text + "' is not a finite number");
    return std::optional<double>(x);
}

Result<std::optional<std::uint64_t>> Options::unsignedInteger(const std::string &name) const
{
    auto text = value(name);
    if (!text)
        return std::optional<std::uint64_t>();
    std::uint64_t x = 0;
    const char *end = text->data() + text->size();
    auto [ptr, ec] = std::from_chars(text->data(), end, x);
    if (ec != std::errc() || ptr != end)
        return makeError(ErrorCode::InvalidArgument, name + ": '" + *text + "' is not an integer ≥ 0");
    return std::optional<std::uint64_t>(x);
}

} // namespace pbx::cli
