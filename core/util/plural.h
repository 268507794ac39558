// SPDX-License-Identifier: MIT
// A count with its noun in the right number ("1 request", "2 requests", "0 requests"): messages
// built by pasting a number before a plural noun read "1 requests".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace pbx {

/// "`count` `singular`" when count is 1, else "`count` `plural`" (English: 0 takes the plural).
inline std::string countNoun(std::uint64_t count, std::string_view singular, std::string_view plural)
{
    std::string text = std::to_string(count);
    text += ' ';
    text += count == 1 ? singular : plural;
    return text;
}

} // namespace pbx
