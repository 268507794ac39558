// SPDX-License-Identifier: MIT
#include "core/accounting/optimal_composition.h"

#include "core/accounting/advanced_composition.h"
#include "core/accounting/pld_atoms.h"
#include "core/accounting/pld_pmf.h"
#include "core/math/directed_rounding.h"
#include "core/math/log_space.h"
#include "core/util/parameter_checks.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace pbx::accounting {

double kovOptimalDelta(double eps0, double delta0, std::int64_t k, double epsilon)
{
    const double kd = static_cast<double>(k);
    double logDeltaRr = math::kNegInf;
    if (eps0 == 0.0) {
        logDeltaRr = epsilon < 0.0 ? math::log1mExp(epsilon) : math::kNegInf;
    } else {
        const double logNorm = kd * (eps0 + std::log1p(std::exp(-eps0))); // k·log(1 + e^{ε₀})
        const double logKFact = std::lgamma(kd + 1.0);
        for (std::int64_t l = 0; l <= k; ++l) {
            const double ld = static_cast<double>(l);
            const double expo = epsilon + (2.0 * ld - kd) * eps0; // log of e^{ε+lε₀}/e^{(k−l)ε₀}
            if (expo >= 0.0)
                break;
            const double logTerm = logKFact - std::lgamma(ld + 1.0) - std::lgamma(kd - ld + 1.0)
                                   + (kd - ld) * eps0 + math::log1mExp(expo);
            logDeltaRr = math::logAdd(logDeltaRr, logTerm - logNorm);
        }
    }
    const double deltaRr = std::exp(logDeltaRr);
    double delta;
    if (delta0 == 0.0)
        delta = deltaRr;
    else
        delta = -std::expm1(kd * std::log1p(-delta0) + std::log1p(-std::min(deltaRr, 1.0)));
    if (!(delta > 0.0))
        return 0.0;
    // The log-space sum has ~k roundings of relative size 2⁻⁵³ each (and lgamma ~1e-15).
    return std::min(1.0, math::nudgeUp(delta * (1.0 + 1e-13 + 4e-16 * kd), 2));
}

Result<double> kovOptimalEpsilon(double eps0, double delta0, std::int64_t k, double delta)
{
    PBX_RETURN_IF_ERROR(checkDelta(delta));
    const double kd = static_cast<double>(k);
    const double floorDelta = delta0 == 0.0 ? 0.0 : -std::expm1(kd * std::log1p(-delta0));
    if (delta < floorDelta)
        return std::numeric_limits<double>::infinity();
    if (kovOptimalDelta(eps0, delta0, k, 0.0) <= delta)
        return 0.0;
    double lo = 0.0;
    double hi = math::nudgeUp(kd * eps0, 4);
    if (kovOptimalDelta(eps0, delta0, k, hi) > delta)
        return std::numeric_limits<double>::infinity(); // only rounding can get here
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
        const double mid = 0.5 * (lo + hi);
        (kovOptimalDelta(eps0, delta0, k, mid) > delta ? lo : hi) = mid;
    }
    return hi;
}

Result<double> kovGridEpsilon(double eps0, double delta0, std::int64_t k, double delta)
{
    PBX_RETURN_IF_ERROR(checkDelta(delta));
    double best = std::numeric_limits<double>::quiet_NaN();
    for (std::int64_t i = 0; 2 * i <= k; ++i) {
        const double eps = eps0 * static_cast<double>(k - 2 * i);
        if (kovOptimalDelta(eps0, delta0, k, eps) <= delta)
            best = eps;
        else
            break;
    }
    if (std::isnan(best))
        return makeError(ErrorCode::Unsupported, "δ is below 1 − (1 − δ₀)^k: no ε of the KOV grid works");
    return best;
}

Result<double> kovGridLargestStepEpsilon(double epsilon, double delta, std::int64_t k, double delta0)
{
    if (!(epsilon > 0.0) || !std::isfinite(epsilon) || k < 1)
        return makeError(ErrorCode::InvalidArgument, "ε must be > 0 and k ≥ 1");
    auto fits = [&](double eps0) {
        auto g = kovGridEpsilon(eps0, delta0, k, delta);
        return g && g.value() <= epsilon;
    };
    double lo = 0.0;
    double hi = epsilon; // ε₀ ≥ ε can never fit with k ≥ 1 unless k·ε₀ ≤ ε
    if (fits(hi))
        return hi;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
        const double mid = 0.5 * (lo + hi);
        (fits(mid) ? lo : hi) = mid;
    }
    return lo;
}

Result<std::unique_ptr<OptimalComposition>> OptimalComposition::fromLedger(const Ledger &ledger,
                                                                           const PldOptions &options)
{
    PBX_TRY(steps, collectEpsilonDeltaSteps(ledger));
    auto s = std::make_unique<OptimalComposition>();
    PBX_TRY(basic, BasicComposition::fromLedger(ledger));
    s->m_basic = std::move(basic);
    bool homogeneous = true;
    for (const auto &st : steps) {
        if (s->m_k == 0) {
            s->m_epsilon0 = st.epsilon;
            s->m_delta0 = st.delta;
        } else if (st.epsilon != s->m_epsilon0 || st.delta != s->m_delta0) {
            homogeneous = false;
        }
        s->m_k += st.count;
    }
    if (homogeneous && s->m_k <= 2000000)
        return s;
    // Heterogeneous: the worst-case PLD of each step (what PldAccountant does for such events).
    Ledger worst;
    worst.neighbours = ledger.neighbours;
    for (const auto &st : steps) {
        PrivacyEvent e;
        e.mechanism = MechanismKind::ApproxDp;
        e.epsilon = st.epsilon;
        e.delta = st.delta;
        e.count = st.count;
        worst.events.push_back(e);
    }
    auto pld = PldAccountant::fromLedger(worst, options);
    if (!pld) {
        // The internal ledger's "events[j] (approx): " prefix would name the wrong event.
        std::string message = pld.error().message;
        if (const auto at = message.find("): "); message.rfind("events[", 0) == 0 && at != std::string::npos)
            message = "the worst-case PLD of the ledger's (ε, δ) steps: " + message.substr(at + 3);
        return makeError(pld.error().code, message);
    }
    s->m_pld = std::move(pld.value());
    return s;
}

namespace {
// Optimal composition is never worse than basic composition (basic is one of the ways to compose
// that the optimum minimises over: KOV 2015 Thm 3.3, Murtagh & Vadhan 2016); a numerical
// evaluation above basic (the pessimistic PLD's grid) is replaced by basic's number.
const char *kBasicDecides = "basic composition (the evaluated optimum came out a hair above it; "
                            "optimal composition is never worse than basic)";
} // namespace

Result<StrategyAnswer> OptimalComposition::epsilonForDelta(double delta) const
{
    auto a = optimalEpsilonForDelta(delta);
    if (!a || !m_basic)
        return a;
    auto basic = m_basic->epsilonForDelta(delta);
    if (basic && basic->epsilon < a->epsilon) {
        a->epsilon = basic->epsilon;
        a->method = kBasicDecides;
    }
    return a;
}

Result<StrategyAnswer> OptimalComposition::deltaForEpsilon(double epsilon) const
{
    auto a = optimalDeltaForEpsilon(epsilon);
    if (!a || !m_basic)
        return a;
    auto basic = m_basic->deltaForEpsilon(epsilon);
    if (basic && basic->delta < a->delta) {
        a->delta = basic->delta;
        a->method = kBasicDecides;
    }
    return a;
}

Result<std::vector<double>> OptimalComposition::upperDeltas(const std::vector<double> &epsilons) const
{
    std::vector<double> out;
    if (!m_pld) {
        for (double epsilon : epsilons) {
            PBX_TRY(a, deltaForEpsilon(epsilon));
            out.push_back(a.delta);
        }
        return out;
    }
    PBX_TRY(swept, m_pld->upperDeltas(epsilons));
    out = std::move(swept);
    for (std::size_t j = 0; j < out.size(); ++j) {
        // The sweep sums in another order than deltaForEpsilon's (±1e-14 relative measured, 1e-12
        // documented): raised by 2e-12 so that it is never below deltaForEpsilon's value.
        if (out[j] > 0.0) // an exact 0 (no loss above ε) stays 0
            out[j] = std::min(1.0, math::nudgeUp(out[j] * (1.0 + 2e-12), 2));
        if (m_basic)
            if (auto basic = m_basic->deltaForEpsilon(epsilons[j]); basic && basic->delta < out[j])
                out[j] = basic->delta;
    }
    return out;
}

Result<StrategyAnswer> OptimalComposition::optimalEpsilonForDelta(double delta) const
{
    if (m_pld) {
        auto a = m_pld->epsilonForDelta(delta);
        if (a)
            a->method = "optimal heterogeneous composition (Murtagh–Vadhan 2016) via pessimistic PLD";
        return a;
    }
    StrategyAnswer a;
    a.method = "optimal homogeneous composition (Kairouz–Oh–Viswanath 2015 Thm 3.3)";
    a.delta = delta;
    if (m_k == 0) {
        PBX_RETURN_IF_ERROR(checkDelta(delta));
        a.epsilon = 0.0;
        return a;
    }
    PBX_TRY(eps, kovOptimalEpsilon(m_epsilon0, m_delta0, m_k, delta));
    a.epsilon = eps;
    return a;
}

Result<StrategyAnswer> OptimalComposition::optimalDeltaForEpsilon(double epsilon) const
{
    if (m_pld) {
        auto a = m_pld->deltaForEpsilon(epsilon);
        if (a)
            a->method = "optimal heterogeneous composition (Murtagh–Vadhan 2016) via pessimistic PLD";
        return a;
    }
    PBX_RETURN_IF_ERROR(checkEpsilon(epsilon));
    StrategyAnswer a;
    a.method = "optimal homogeneous composition (Kairouz–Oh–Viswanath 2015 Thm 3.3)";
    a.epsilon = epsilon;
    a.delta = m_k == 0 ? 0.0 : kovOptimalDelta(m_epsilon0, m_delta0, m_k, epsilon);
    return a;
}

} // namespace pbx::accounting

namespace pbx::accounting {

struct OptimalPrefixComposer::State
{
    State(const Ledger &l, const PldOptions &o) : ledger(l), options(o) {}

    const Ledger &ledger;
    PldOptions options;
    std::size_t nextEvent = 0;    ///< the first event not wholly taken
    std::int64_t takenOfNext = 0; ///< its steps already taken
    std::int64_t steps = 0;       ///< steps taken (the prefix so far)
    /// The pieces taken so far: an event's steps within one prefix, at its (ε, δ) per step.
    std::vector<EpsilonDeltaSteps> pieces;
    bool heterogeneous = false;   ///< two pieces of different (ε, δ) seen
    std::optional<AtomPld> atoms; ///< the exact composition of pieces[0, atomsUpTo)
    std::size_t atomsUpTo = 0;    ///< … while within the atom limits
    bool overflowed = false;      ///< the atoms went past the limits: the running product answers
    PldPmf product;               ///< pieces[0, productUpTo) each rounded up to the grid, convolved
    std::size_t productUpTo = 0;
    std::optional<Error> failed;

    Result<void> take(std::int64_t until);
    void composeAtoms();
    Result<void> extendProduct();
    Result<std::pair<double, double>> answer(double delta, std::optional<double> epsilon,
                                             const std::function<double(double)> &epsilonAt,
                                             const std::function<double(double)> &deltaAt) const;
};

/// Takes the ledger's steps up to `until` as pieces (steps with neither ε nor δ are counted only).
Result<void> OptimalPrefixComposer::State::take(std::int64_t until)
{
    while (steps < until && nextEvent < ledger.events.size()) {
        const PrivacyEvent &e = ledger.events[nextEvent];
        const std::int64_t count = std::min(e.count - takenOfNext, until - steps);
        PBX_TRY(step, approxDpStepAt(ledger, nextEvent));
        if (step.epsilon != 0.0 || step.delta != 0.0) {
            if (!pieces.empty()
                && (step.epsilon != pieces.front().epsilon || step.delta != pieces.front().delta))
                heterogeneous = true;
            pieces.push_back({step.epsilon, step.delta, count});
        }
        steps += count;
        takenOfNext += count;
        if (takenOfNext == e.count) {
            ++nextEvent;
            takenOfNext = 0;
        }
    }
    return {};
}

/// Composes the new pieces on their atoms (pld_atoms.h); past its limits, `overflowed`.
void OptimalPrefixComposer::State::composeAtoms()
{
    for (; atomsUpTo < pieces.size() && !overflowed; ++atomsUpTo) {
        const EpsilonDeltaSteps &p = pieces[atomsUpTo];
        auto group = approxDpAtoms(p.epsilon, p.delta, p.count, true);
        auto composed = group && atoms ? accounting::composeAtoms(*atoms, *group) : group;
        if (!composed) {
            overflowed = true;
            atoms.reset();
            return;
        }
        atoms = std::move(composed);
    }
}

/// Convolves each new piece, its atoms rounded up to the grid by itself, onto the product.
Result<void> OptimalPrefixComposer::State::extendProduct()
{
    const double d = options.interval;
    for (; productUpTo < pieces.size(); ++productUpTo) {
        const EpsilonDeltaSteps &p = pieces[productUpTo];
        auto group = approxDpAtoms(p.epsilon, p.delta, p.count, true);
        if (!group)
            return makeError(ErrorCode::ResourceLimit, "too many steps of one (ε, δ) for its atoms");
        if (const double bins = atomGridBins(*group, d); !(bins <= options.maxBins))
            return makeError(ErrorCode::ResourceLimit,
                             pldResourceMessage(pldPeakBytes(bins), d, options.maxBins));
        PldPmf grid = atomsToGrid(*group, d, nullptr);
        if (productUpTo == 0) {
            product = std::move(grid);
            continue;
        }
        PBX_TRY(composed, composePmf(product, grid, options.tailMass, options.maxBins));
        product = std::move(composed);
    }
    return {};
}

/// The prefix's pessimistic ε at δ (and δ at ε) by `epsilonAt` and `deltaAt` (the running atoms
/// or product), capped by basic composition of the prefix (OptimalComposition's cap, on the same
/// events: the prefix without post-processing).
Result<std::pair<double, double>>
OptimalPrefixComposer::State::answer(double delta, std::optional<double> epsilon,
                                     const std::function<double(double)> &epsilonAt,
                                     const std::function<double(double)> &deltaAt) const
{
    Ledger prefix;
    prefix.neighbours = ledger.neighbours;
    std::int64_t left = steps;
    for (std::size_t i = 0; i < ledger.events.size() && left > 0; ++i) {
        const std::int64_t count = std::min(ledger.events[i].count, left);
        left -= count;
        if (ledger.events[i].mechanism == MechanismKind::PostProcessing)
            continue;
        prefix.events.push_back(ledger.events[i]);
        prefix.events.back().count = count;
    }
    PBX_TRY(basic, BasicComposition::fromLedger(prefix));
    double eps = epsilonAt(delta);
    if (auto b = basic->epsilonForDelta(delta); b && b->epsilon < eps)
        eps = b->epsilon;
    double del = std::numeric_limits<double>::quiet_NaN();
    if (epsilon) {
        PBX_RETURN_IF_ERROR(checkEpsilon(*epsilon));
        del = deltaAt(*epsilon);
        if (auto b = basic->deltaForEpsilon(*epsilon); b && b->delta < del)
            del = b->delta;
    }
    return std::pair{eps, del};
}

OptimalPrefixComposer::OptimalPrefixComposer(const Ledger &ledger, const PldOptions &options)
    : m_state(std::make_unique<State>(ledger, options))
{}

OptimalPrefixComposer::~OptimalPrefixComposer() = default;

bool OptimalPrefixComposer::composing() const
{
    return m_state->overflowed && !m_state->failed;
}

Result<std::pair<double, double>> OptimalPrefixComposer::upTo(std::int64_t steps, double delta,
                                                              std::optional<double> epsilon)
{
    State &s = *m_state;
    if (s.failed)
        return *s.failed;
    auto fail = [&](Error e) {
        s.failed = e;
        return e;
    };
    PBX_RETURN_IF_ERROR(checkDelta(delta));
    if (steps < s.steps)
        return fail(makeError(ErrorCode::InvalidArgument, "prefixes must not shrink"));
    if (auto ok = s.take(steps); !ok)
        return fail(ok.error());
    if (!s.heterogeneous)
        return makeError(ErrorCode::Unsupported, "a homogeneous prefix: the KOV closed form answers");
    s.composeAtoms();
    if (!s.overflowed && !s.atoms)
        return makeError(ErrorCode::Unsupported, "no (ε, δ) step yet");
    if (!s.overflowed) {
        // Within the atom limits: the exact atoms answer, as fromLedger's PLD of the prefix does.
        auto value = s.answer(
            delta, epsilon, [&](double d) { return atomEpsilonForDelta(*s.atoms, d); },
            [&](double e) { return atomDeltaForEpsilon(*s.atoms, e); });
        if (!value)
            return fail(value.error());
        return value;
    }
    if (auto ok = s.extendProduct(); !ok)
        return fail(ok.error());
    auto value = s.answer(
        delta, epsilon, [&](double d) { return pmfEpsilonForDelta(s.product, d); },
        [&](double e) { return pmfDeltaForEpsilon(s.product, e); });
    if (!value)
        return fail(value.error());
    return value;
}

} // namespace pbx::accounting
