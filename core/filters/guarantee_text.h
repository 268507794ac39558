// SPDX-License-Identifier: MIT
// The one sentence that states what a session's privacy filter (or odometer) guarantees.
#pragma once

#include "core/filters/privacy_filter.h"

#include <string>

namespace pbx::filters {

/// For a filter: "the session is (ε, δ)-DP by the filter; what is spent so far corresponds to
/// (ε, δ) ≈ (…, …) (a gauge, not a guarantee)" — with adaptively chosen costs the guarantee is the
/// budget (Whitehouse et al. 2023; Rogers et al. 2023). For an odometer (OdometerFilter): "the
/// session so far is (ε_n, δ)-DP by the privacy odometer (it holds wherever the session stops); a
/// ledger planned in advance would have cost ε ≈ …" (both ε rounded up to 6 significant digits).
/// The filter's numbers as formatSignificant prints them.
std::string guaranteeText(const PrivacyFilter &filter);

} // namespace pbx::filters
