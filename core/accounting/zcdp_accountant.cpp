// SPDX-License-Identifier: MIT
#include "core/accounting/zcdp_accountant.h"

#include "core/math/directed_rounding.h"
#include "core/privacy/cks_conversion.h"
#include "core/privacy/zcdp_conversion.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>

namespace pbx::accounting {

namespace {
const char *kZcdpMethod
    = "zCDP: ρ's add (Bun–Steinke 2016), CKS conversion (Canonne–Kamath–Steinke 2020 Prop. 12)";
}

Result<double> zcdpRhoPerStep(const PrivacyEvent &e, Neighbouring relation)
{
    const bool sampled = e.sampling.kind != SamplingKind::None && e.sampling.rate < 1.0;
    switch (e.mechanism) {
    case MechanismKind::Gaussian: {
        if (sampled)
            return makeError(
                ErrorCode::Unsupported,
                "zCDP does not capture amplification by subsampling of a Gaussian; use rdp or pld");
        const double z = e.sigma / e.sensitivity;
        return math::nudgeUp(1.0 / (2.0 * z * z), 4);
    }
    case MechanismKind::Zcdp:
        if (sampled)
            return makeError(ErrorCode::Unsupported,
                             "no amplification by subsampling is available for a zCDP event");
        return e.rho;
    case MechanismKind::PostProcessing:
        return 0.0;
    case MechanismKind::BoundedRange:
        if (!sampled) { // ε-bounded range ⇒ (ε²/8)-zCDP (Cesar & Rogers 2021)
            PBX_TRY(pure, privacy::rhoFromPureEpsilonTight(e.epsilon));
            return std::min(math::nudgeUp(e.epsilon * e.epsilon / 8.0, 2), pure);
        }
        [[fallthrough]]; // sampled: the amplified ε-DP step (its range is not known)
    case MechanismKind::ApproxDp:
        if (e.delta > 0.0)
            return makeError(ErrorCode::Unsupported, "an (ε, δ) event with δ > 0 has no zCDP guarantee");
        [[fallthrough]];
    default: {
        PBX_TRY(step, approxDpPerStep(e, relation));
        return privacy::rhoFromPureEpsilonTight(step.epsilon);
    }
    }
}

Result<std::unique_ptr<ZcdpAccountant>> ZcdpAccountant::fromLedger(const Ledger &ledger)
{
    PBX_RETURN_IF_ERROR(validateLedger(ledger));
    auto acc = std::make_unique<ZcdpAccountant>();
    for (std::size_t i = 0; i < ledger.events.size(); ++i) {
        const PrivacyEvent &e = ledger.events[i];
        PBX_RETURN_IF_ERROR(requireExAnte(e));
        auto rho = zcdpRhoPerStep(e, ledger.neighbours);
        if (!rho)
            return makeError(rho.error().code, "events[" + std::to_string(i) + "] ("
                                                   + mechanismName(e.mechanism)
                                                   + "): " + rho.error().message);
        acc->m_rho
            = math::addRoundUp(acc->m_rho, math::nudgeUp(static_cast<double>(e.count) * rho.value(), 1));
        // e.g. σ = 1e-300: Δ²/(2σ²) overflows. Say so here, naming the event, instead of letting
        // the conversion refuse ρ = ∞ later without saying where it came from.
        if (!std::isfinite(acc->m_rho))
            return makeError(
                ErrorCode::Unsupported,
                "events[" + std::to_string(i) + "] (" + mechanismName(e.mechanism)
                    + "): the composed ρ exceeds the largest double (no finite ε; σ too small?)");
    }
    return acc;
}

Result<StrategyAnswer> ZcdpAccountant::epsilonForDelta(double delta) const
{
    double alpha = 0.0;
    PBX_TRY(eps, privacy::epsilonFromRhoCks(m_rho, delta, &alpha));
    StrategyAnswer a;
    a.method = kZcdpMethod;
    a.delta = delta;
    a.epsilon = eps;
    a.rho = m_rho;
    if (m_rho > 0.0)
        a.optimalOrder = alpha;
    if (auto simple = privacy::epsilonFromRho(m_rho, delta))
        a.simpleEpsilon = simple.value();
    return a;
}

Result<StrategyAnswer> ZcdpAccountant::deltaForEpsilon(double epsilon) const
{
    PBX_TRY(delta, privacy::deltaFromRhoCks(m_rho, epsilon));
    StrategyAnswer a;
    a.method = kZcdpMethod;
    a.epsilon = epsilon;
    a.delta = delta;
    a.rho = m_rho;
    return a;
}

} // namespace pbx::accounting
