// SPDX-License-Identifier: MIT
// Errors that start with a stable code word ("INVALID_GAMMA: gamma: must be ≥ 1"): the CLI prints
// them as one line, the GUI shows them, and tests match the word instead of the prose. The
// strategies and growing-database layers each define their own words (strategy_error.h,
// growing_error.h) on top of these two functions.
#pragma once

#include "core/util/result.h"

#include <string>
#include <string_view>

namespace pbx {

/// An Error of kind `kind` whose message is "<word>: <message>".
inline Error codeWordError(ErrorCode kind, std::string_view word, const std::string &message)
{
    std::string text(word);
    text += ": ";
    return makeError(kind, text + message);
}

/// The code word of an error made by codeWordError: the text before the first ':' when it is
/// made of capitals and '_' only; otherwise "".
inline std::string_view errorCodeWord(const Error &error)
{
    const std::string_view m = error.message;
    const auto colon = m.find(':');
    if (colon == std::string_view::npos)
        return {};
    const std::string_view head = m.substr(0, colon);
    for (const char c : head)
        if (!(c == '_' || (c >= 'A' && c <= 'Z')))
            return {};
    return head;
}

} // namespace pbx
