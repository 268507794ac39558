// SPDX-License-Identifier: MIT
#include "core/accounting/advanced_composition.h"

#include "core/accounting/basic_composition.h"
#include "core/util/try.h"

#include "core/math/directed_rounding.h"
#include "core/util/parameter_checks.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pbx::accounting {

namespace {
struct Sums
{
    double sumEps = 0.0, sumSq = 0.0, drift = 0.0, tanhDrift = 0.0;
};

Sums sums(const std::vector<EpsilonDeltaSteps> &steps)
{
    Sums s;
    for (const auto &st : steps) {
        const double k = static_cast<double>(st.count);
        s.sumEps += k * st.epsilon;
        s.sumSq += k * st.epsilon * st.epsilon;
        s.drift += k * st.epsilon * std::expm1(st.epsilon);
        s.tanhDrift += k * st.epsilon * std::tanh(0.5 * st.epsilon);
    }
    // A few dozen correctly rounded operations at most per group: 1e-12 relative covers them.
    // An exact 0 (no steps) stays 0: nudging it would report ε = 1e-323 for an empty ledger.
    for (double *v : {&s.sumEps, &s.sumSq, &s.drift, &s.tanhDrift})
        if (*v > 0.0)
            *v = math::nudgeUp(*v * (1.0 + 1e-13), 2);
    return s;
}
} // namespace

double drvEpsilon(const std::vector<EpsilonDeltaSteps> &steps, double deltaPrime)
{
    const Sums s = sums(steps);
    return math::nudgeUp(std::sqrt(2.0 * std::log(1.0 / deltaPrime) * s.sumSq) + s.drift, 8);
}

double kovAnalyticEpsilon(const std::vector<EpsilonDeltaSteps> &steps, double deltaTilde)
{
    const Sums s = sums(steps);
    const double second
        = s.tanhDrift + std::sqrt(2.0 * s.sumSq * std::log(std::exp(1.0) + std::sqrt(s.sumSq) / deltaTilde));
    const double third = s.tanhDrift + std::sqrt(2.0 * s.sumSq * std::log(1.0 / deltaTilde));
    return math::nudgeUp(std::min({s.sumEps, second, third}), 8);
}

double zcdpRouteEpsilon(const std::vector<EpsilonDeltaSteps> &steps, double deltaPrime)
{
    const Sums s = sums(steps);
    return math::nudgeUp(0.5 * s.sumSq + std::sqrt(2.0 * std::log(1.0 / deltaPrime) * s.sumSq), 8);
}

Result<std::vector<EpsilonDeltaSteps>> collectEpsilonDeltaSteps(const Ledger &ledger)
{
    PBX_RETURN_IF_ERROR(validateLedger(ledger));
    std::vector<EpsilonDeltaSteps> steps;
    for (std::size_t i = 0; i < ledger.events.size(); ++i) {
        const PrivacyEvent &e = ledger.events[i];
        PBX_RETURN_IF_ERROR(requireExAnte(e));
        PBX_TRY(step, approxDpStepAt(ledger, i));
        if (step.epsilon == 0.0 && step.delta == 0.0)
            continue;
        steps.push_back({step.epsilon, step.delta, e.count});
    }
    return steps;
}

Result<std::unique_ptr<AdvancedComposition>> AdvancedComposition::fromLedger(const Ledger &ledger)
{
    PBX_TRY(steps, collectEpsilonDeltaSteps(ledger));
    auto s = std::make_unique<AdvancedComposition>();
    s->m_steps = std::move(steps);
    const Sums sm = sums(s->m_steps);
    s->m_sumSquares = sm.sumSq;
    s->m_drift = sm.drift;
    // Where advanced composition falls back to the basic one it reports basic composition's own
    // numbers, bit for bit: the two rows of a comparison then show the same digits.
    PBX_TRY(basic, BasicComposition::fromLedger(ledger));
    s->m_sumEpsilon = basic->totalEpsilon();
    s->m_basicDelta = basic->totalDelta();
    double sumDelta = 0.0;
    for (const auto &st : s->m_steps)
        if (st.delta > 0.0)
            sumDelta += static_cast<double>(st.count) * st.delta;
    s->m_sumDelta = sumDelta == 0.0 ? 0.0 : std::min(1.0, math::nudgeUp(sumDelta * (1.0 + 1e-13), 2));
    return s;
}

Result<StrategyAnswer> AdvancedComposition::epsilonForDelta(double delta) const
{
    PBX_RETURN_IF_ERROR(checkDelta(delta));
    StrategyAnswer a;
    a.delta = delta;
    a.epsilon = std::numeric_limits<double>::infinity();
    a.method = "advanced composition (Dwork–Rothblum–Vadhan 2010; Dwork–Roth Thm 3.20)";
    const double deltaPrime = math::nudgeDown(delta - m_sumDelta, 2);
    if (deltaPrime > 0.0) {
        a.epsilon
            = m_sumSquares == 0.0
                  ? m_drift
                  : math::nudgeUp(std::sqrt(2.0 * std::log(1.0 / deltaPrime) * m_sumSquares) + m_drift, 8);
    }
    if (delta >= m_basicDelta && m_sumEpsilon <= a.epsilon) {
        a.epsilon = m_sumEpsilon;
        a.method = "basic composition (smaller than Dwork–Rothblum–Vadhan here)";
    }
    return a;
}

Result<StrategyAnswer> AdvancedComposition::deltaForEpsilon(double epsilon) const
{
    PBX_RETURN_IF_ERROR(checkEpsilon(epsilon));
    StrategyAnswer a;
    a.epsilon = epsilon;
    a.delta = 1.0;
    a.method = "advanced composition (Dwork–Rothblum–Vadhan 2010; Dwork–Roth Thm 3.20)";
    if (m_sumSquares == 0.0) {
        a.delta = m_sumDelta;
    } else if (epsilon > m_drift) {
        // Invert ε = A√(log 1/δ') + B with A = √(2Σε²): δ' = exp(−((ε − B)/A)²), rounded up.
        const double t = (epsilon - m_drift) / std::sqrt(2.0 * m_sumSquares);
        const double deltaPrime = math::nudgeUp(std::exp(-math::nudgeDown(t * t, 4)), 8);
        a.delta = std::min(1.0, math::nudgeUp(deltaPrime + m_sumDelta, 1));
    }
    if (epsilon >= m_sumEpsilon && m_basicDelta <= a.delta) {
        a.delta = m_basicDelta;
        a.method = "basic composition (smaller than Dwork–Rothblum–Vadhan here)";
    }
    return a;
}

} // namespace pbx::accounting
