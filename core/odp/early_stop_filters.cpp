// SPDX-License-Identifier: MIT
#include "core/odp/early_stop_filters.h"

#include "core/filters/rdp_filter.h"
#include "core/math/directed_rounding.h"
#include "core/privacy/zcdp_conversion.h"
#include "core/util/parameter_checks.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pbx::odp {

namespace {
/// One step's Rényi curve on the filter's grid and its ρ, rounded up. Errors as the caller's.
Result<std::pair<std::vector<double>, double>> stepCharges(const IterativeSteps &steps,
                                                           const std::vector<double> &orders)
{
    if (steps.kind == IterativeSteps::Kind::Gaussian) {
        if (!(steps.noiseMultiplier > 0.0) || !std::isfinite(steps.noiseMultiplier))
            return makeError(ErrorCode::InvalidArgument, "noise multiplier: must be a finite number > 0");
        const double rho = math::nudgeUp(0.5 / (steps.noiseMultiplier * steps.noiseMultiplier), 2);
        return std::pair{filters::roundedCurve(orders, [rho](double a) { return a * rho; }), rho};
    }
    PBX_RETURN_IF_ERROR(checkEpsilon(steps.stepEpsilon, "step ε", Zero::Excluded));
    if (steps.stepDelta != 0.0)
        return makeError(
            ErrorCode::Unsupported,
            "a Rényi or zCDP filter cannot account (ε, δ)-DP steps with δ > 0 (no Rényi curve is "
            "known for them)");
    const double e = steps.stepEpsilon;
    return std::pair{filters::roundedCurve(orders, [e](double a) { return filters::pureEpsilonRdpUp(e, a); }),
                     math::nudgeUp(0.5 * e * e, 2)};
}
} // namespace

Result<std::vector<FilterBudget>> filterBudgetsForStops(const std::vector<std::int64_t> &stops,
                                                        const IterativeSteps &steps, double delta)
{
    PBX_RETURN_IF_ERROR(validateStops(stops));
    PBX_RETURN_IF_ERROR(checkDelta(delta, "delta", UnitInterval::Open));
    const auto orders = filters::defaultFilterOrders();
    PBX_TRY(charges, stepCharges(steps, orders));
    const auto &[curve, rho] = charges;
    const double share = filters::rdpOrderDelta(delta, orders.size());
    std::vector<FilterBudget> out;
    out.reserve(stops.size());
    for (std::int64_t k : stops) {
        const auto steps_k = static_cast<double>(k);
        FilterBudget b;
        b.k = k;
        b.rdpEpsilon = std::numeric_limits<double>::infinity();
        for (std::size_t i = 0; i < orders.size(); ++i)
            b.rdpEpsilon
                = std::min(b.rdpEpsilon, filters::rdpOrderEpsilon(math::multiplyRoundUp(steps_k, curve[i]),
                                                                  share, orders[i]));
        PBX_TRY(zcdp, privacy::epsilonFromRho(math::multiplyRoundUp(steps_k, rho), delta));
        b.zcdpEpsilon = zcdp;
        out.push_back(b);
    }
    return out;
}

} // namespace pbx::odp
