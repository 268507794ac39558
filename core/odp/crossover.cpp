// SPDX-License-Identifier: MIT
#include "core/odp/crossover.h"

#include "core/accounting/advanced_composition.h"
#include "core/accounting/optimal_composition.h"
#include "core/util/parameter_checks.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>

namespace pbx::odp {

namespace {
Result<void> validate(double epsilon0, double delta)
{
    PBX_RETURN_IF_ERROR(checkPositive(epsilon0, "eps0"));
    PBX_RETURN_IF_ERROR(checkDelta(delta, "delta"));
    return {};
}
} // namespace

double firstRungDelta(double epsilon0, std::int64_t k)
{
    // (e^{ε₀}/(1+e^{ε₀}))^k = exp(−k·ln(1 + e^{−ε₀})).
    return -std::expm1(-2.0 * epsilon0) * std::exp(-static_cast<double>(k) * std::log1p(std::exp(-epsilon0)));
}

Result<std::int64_t> crossoverK(double epsilon0, double delta)
{
    PBX_RETURN_IF_ERROR(validate(epsilon0, delta));
    const double ratio = std::log(-std::expm1(-2.0 * epsilon0) / delta) / std::log1p(std::exp(-epsilon0));
    auto k = static_cast<std::int64_t>(std::max(2.0, std::ceil(ratio)));
    // The closed form and δ₁(k) ≤ δ must agree; step over a boundary case decided by round-off.
    while (k > 2 && firstRungDelta(epsilon0, k - 1) <= delta)
        --k;
    while (firstRungDelta(epsilon0, k) > delta)
        ++k;
    return k;
}

Result<CrossoverCompanions> crossoverCompanions(double epsilon0, double delta, std::int64_t cap)
{
    PBX_RETURN_IF_ERROR(validate(epsilon0, delta));
    CrossoverCompanions out;
    for (std::int64_t k = 1; k <= cap && !(out.kovAnalytic && out.drv); ++k) {
        const double simple = static_cast<double>(k) * epsilon0;
        const std::vector<accounting::EpsilonDeltaSteps> steps{{epsilon0, 0.0, k}};
        if (!out.kovAnalytic && accounting::kovAnalyticEpsilon(steps, delta) < simple)
            out.kovAnalytic = k;
        if (!out.drv && accounting::drvEpsilon(steps, delta) < simple)
            out.drv = k;
        if (!out.drv && std::expm1(epsilon0) >= 1.0 && out.kovAnalytic)
            break; // DRV's drift term kε₀(e^{ε₀} − 1) alone is ≥ kε₀: never
    }
    for (std::int64_t k = 2; k <= std::min<std::int64_t>(cap, 100000); ++k) {
        PBX_TRY(e, accounting::kovOptimalEpsilon(epsilon0, 0.0, k, delta));
        if (e <= 0.9 * static_cast<double>(k) * epsilon0) {
            out.tenPercent = k;
            break;
        }
    }
    return out;
}

} // namespace pbx::odp
