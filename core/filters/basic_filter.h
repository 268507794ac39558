// SPDX-License-Identifier: MIT
#pragma once

#include "core/filters/privacy_filter.h"

namespace pbx::filters {

/// Basic composition filter for pure ε-DP mechanisms: HALT when Σε_i would exceed ε
/// (Rogers, Roth, Ullman, Vadhan 2016, §3: valid with adaptively chosen ε_i). δ is not used:
/// the stopped interaction is (ε, 0)-DP.
class BasicFilter final : public PrivacyFilter
{
public:
    /// Precondition: ε > 0 finite (checked by PrivacyFilter::create).
    explicit BasicFilter(double epsilon, double delta) : PrivacyFilter(epsilon, delta, epsilon) {}

    FilterKind kind() const override { return FilterKind::Basic; }
    std::string_view unitSymbol() const override { return "ε"; }
    std::string_view unitName() const override { return "epsilon"; }
    double epsilonSpent() const override { return spent(); }
    double deltaSpent() const override { return 0.0; }
    double epsilonOf(double native) const override { return native; }
};

} // namespace pbx::filters
