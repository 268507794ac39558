// SPDX-License-Identifier: MIT
#include "core/accounting/strategy_titles.h"

#include <array>
#include <utility>

namespace pbx::accounting {

std::string_view strategyTitle(std::string_view id)
{
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 6> titles{{
        {"basic", "Basic composition"},
        {"advanced", "Advanced composition"},
        {"optimal", "Optimal composition"},
        {"zcdp", "zCDP"},
        {"rdp", "Rényi DP"},
        {"pld", "Privacy-loss distribution"},
    }};
    for (const auto &[key, title] : titles)
        if (key == id)
            return title;
    return id;
}

} // namespace pbx::accounting
