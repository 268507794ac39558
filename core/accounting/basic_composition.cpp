// SPDX-License-Identifier: MIT
#include "core/accounting/basic_composition.h"

#include "core/math/directed_rounding.h"
#include "core/util/parameter_checks.h"
#include "core/util/try.h"

#include <cmath>
#include <limits>

namespace pbx::accounting {

namespace {
const char *kBasicMethod = "basic composition: Σε_j and 1−Π(1−δ_j) (Dwork–Roth 2014 Thm 3.16)";
const char *kBasicMethodExPost = "basic composition: Σε_j and 1−Π(1−δ_j), plus Σδ_j of the ex-post and "
                                 "output-DP events (Dwork–Roth 2014 Thm 3.16; Hartmann et al. 2023 Thm 7)";
} // namespace

Result<std::unique_ptr<BasicComposition>> BasicComposition::fromLedger(const Ledger &ledger)
{
    PBX_RETURN_IF_ERROR(validateLedger(ledger));
    auto strategy = std::make_unique<BasicComposition>();
    double eps = 0.0;
    double logKeep = 0.0;     // log Π(1 − δ_j)^{count_j}, rounded down below
    double expostDelta = 0.0; // Σ δ_j of ex-post events (union bound; ODP Theorem 7 sums δ)
    for (std::size_t i = 0; i < ledger.events.size(); ++i) {
        const PrivacyEvent &e = ledger.events[i];
        PBX_TRY(step, approxDpStepAt(ledger, i));
        eps = math::addRoundUp(eps, math::nudgeUp(static_cast<double>(e.count) * step.epsilon, 1));
        if (step.delta > 0.0 && e.expost)
            expostDelta
                = math::addRoundUp(expostDelta, math::nudgeUp(static_cast<double>(e.count) * step.delta, 1));
        else if (step.delta > 0.0)
            logKeep = math::nudgeDown(logKeep + static_cast<double>(e.count) * std::log1p(-step.delta), 2);
    }
    strategy->m_epsilon = eps;
    const double exAnteDelta = logKeep == 0.0 ? 0.0 : math::nudgeUp(-std::expm1(logKeep), 4);
    strategy->m_delta = std::min(1.0, math::addRoundUp(exAnteDelta, expostDelta));
    strategy->m_expostDelta = expostDelta > 0.0;
    return strategy;
}

Result<StrategyAnswer> BasicComposition::epsilonForDelta(double delta) const
{
    PBX_RETURN_IF_ERROR(checkDelta(delta));
    StrategyAnswer a;
    a.method = m_expostDelta ? kBasicMethodExPost : kBasicMethod;
    a.delta = delta;
    a.epsilon = delta >= m_delta ? m_epsilon : std::numeric_limits<double>::infinity();
    return a;
}

Result<StrategyAnswer> BasicComposition::deltaForEpsilon(double epsilon) const
{
    PBX_RETURN_IF_ERROR(checkEpsilon(epsilon));
    StrategyAnswer a;
    a.method = m_expostDelta ? kBasicMethodExPost : kBasicMethod;
    a.epsilon = epsilon;
    a.delta = epsilon >= m_epsilon ? m_delta : 1.0;
    return a;
}

} // namespace pbx::accounting
