// SPDX-License-Identifier: MIT
// The names a person reads for the composition strategies: the comparison view's rows, the
// lessons' answers and the report use these, never the short ids ("pld") of files and options.
#pragma once

#include <string_view>

namespace pbx::accounting {

/// "Basic composition", "Advanced composition" (Dwork–Rothblum–Vadhan), "Optimal composition"
/// (Kairouz–Oh–Viswanath), "zCDP", "Rényi DP", "Privacy-loss distribution" for the ids of
/// allStrategyNames() (basic, advanced, optimal, zcdp, rdp, pld); `id` itself for any other.
std::string_view strategyTitle(std::string_view id);

} // namespace pbx::accounting
