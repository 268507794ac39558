// SPDX-License-Identifier: MIT
#include "core/accounting/per_step_dp.h"

#include "core/math/directed_rounding.h"
#include "core/privacy/analytic_gaussian.h"
#include "core/privacy/cks_conversion.h"
#include "core/util/parameter_checks.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

namespace pbx::accounting {

namespace {
Result<void> checkStepDelta(double delta)
{
    if (delta > 0.0 && delta < 1.0)
        return {};
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", delta);
    return makeError(ErrorCode::InvalidArgument,
                     std::string("perStepDelta: must lie strictly between 0 and 1, got ") + text);
}
} // namespace

Result<double> gaussianEpsilonAtDelta(double sigma, double sensitivity, double delta)
{
    PBX_RETURN_IF_ERROR(checkPositive(sigma, "sigma:"));
    PBX_RETURN_IF_ERROR(checkSensitivity(sensitivity, "sensitivity:"));
    PBX_RETURN_IF_ERROR(checkStepDelta(delta));
    const double mu = sensitivity / sigma;
    if (!std::isfinite(mu))
        return std::numeric_limits<double>::infinity();
    // The evaluated δ(ε) carries ~1e-13 relative round-off: aim 1e-12 below δ so that the ε
    // returned is at least the exact one.
    PBX_TRY(eps, privacy::gaussianEpsilon(mu, delta * (1.0 - 1e-12)));
    return eps > 0.0 ? math::nudgeUp(eps, 4) : 0.0;
}

Result<double> zcdpEpsilonAtDelta(double rho, double delta)
{
    PBX_RETURN_IF_ERROR(checkRho(rho, "rho:"));
    PBX_RETURN_IF_ERROR(checkStepDelta(delta));
    return privacy::epsilonFromRhoCks(rho, delta);
}

bool hasNonPureEvents(const Ledger &ledger)
{
    for (const auto &e : ledger.events)
        if (e.mechanism == MechanismKind::Gaussian || e.mechanism == MechanismKind::Zcdp)
            return true;
    return false;
}

std::int64_t convertibleSteps(const Ledger &ledger)
{
    std::int64_t steps = 0;
    for (const auto &e : ledger.events)
        if (e.mechanism == MechanismKind::Gaussian || e.mechanism == MechanismKind::Zcdp)
            steps += e.count;
    return steps;
}

double autoPerStepDelta(double delta, std::int64_t steps)
{
    if (steps <= 0 || !(delta > 0.0))
        return 0.0;
    const double half = delta / (2.0 * static_cast<double>(steps));
    // Two significant digits, rounded down (the per-step share never exceeds δ/(2k)).
    const double unit = std::pow(10.0, std::floor(std::log10(half)) - 1.0);
    return std::max(1e-15, std::floor(half / unit) * unit);
}

Result<PerStepLedger> perStepLedger(const Ledger &ledger, double stepDelta)
{
    PBX_RETURN_IF_ERROR(validateLedger(ledger));
    PBX_RETURN_IF_ERROR(checkStepDelta(stepDelta));
    PerStepLedger out;
    out.ledger = ledger;
    for (std::size_t i = 0; i < out.ledger.events.size(); ++i) {
        PrivacyEvent &e = out.ledger.events[i];
        if (e.mechanism != MechanismKind::Gaussian && e.mechanism != MechanismKind::Zcdp)
            continue;
        auto eps = e.mechanism == MechanismKind::Gaussian
                       ? gaussianEpsilonAtDelta(e.sigma, e.sensitivity, stepDelta)
                       : zcdpEpsilonAtDelta(e.rho, stepDelta);
        if (!eps)
            return makeError(eps.error().code, "events[" + std::to_string(i) + "] ("
                                                   + mechanismName(e.mechanism)
                                                   + "): " + eps.error().message);
        if (!std::isfinite(eps.value()))
            return makeError(ErrorCode::Unsupported, "events[" + std::to_string(i) + "] ("
                                                         + mechanismName(e.mechanism)
                                                         + "): no finite ε at the per-step δ (σ too small?)");
        e.mechanism = MechanismKind::ApproxDp;
        e.epsilon = eps.value();
        e.delta = stepDelta;
        e.sigma = 0.0;
        e.rho = 0.0;
        out.convertedSteps += e.count;
        ++out.convertedEvents;
    }
    return out;
}

Result<double> sumOfStepDeltas(const Ledger &ledger)
{
    double sum = 0.0;
    for (std::size_t i = 0; i < ledger.events.size(); ++i) {
        PBX_TRY(step, approxDpStepAt(ledger, i));
        // Σ count_j·δ_j, not basic composition's 1 − Π(1 − δ_j): the δ the steps charge, as the
        // view and pbx-cli print it, an upper bound on the latter.
        if (step.delta > 0.0)
            sum = math::addRoundUp(
                sum, math::nudgeUp(static_cast<double>(ledger.events[i].count) * step.delta, 1));
    }
    return std::min(1.0, sum);
}

} // namespace pbx::accounting
