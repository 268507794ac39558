// SPDX-License-Identifier: MIT
#include "core/accounting/rdp_accountant.h"

#include "core/math/directed_rounding.h"
#include "core/privacy/rdp_conversion.h"
#include "core/util/parameter_checks.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pbx::accounting {

namespace {
const char *kRdpMethod
    = "RDP: per-order sum, improved conversion (Mironov 2017; Canonne–Kamath–Steinke 2020 Prop. 12)";
}

RdpAccountant::RdpAccountant(std::vector<double> orders, privacy::FractionalOrderMethod method)
    : m_orders(std::move(orders)), m_rdp(m_orders.size(), 0.0), m_method(method)
{}

Result<std::unique_ptr<RdpAccountant>> RdpAccountant::fromLedger(const Ledger &ledger,
                                                                 std::vector<double> orders,
                                                                 privacy::FractionalOrderMethod method)
{
    if (orders.empty())
        return makeError(ErrorCode::InvalidArgument, "the RDP order grid is empty");
    for (double a : orders)
        if (!(a > 1.0))
            return makeError(ErrorCode::InvalidArgument, "RDP orders must be > 1");
    auto acc = std::make_unique<RdpAccountant>(std::move(orders), method);
    for (std::size_t i = 0; i < ledger.events.size(); ++i) {
        PBX_RETURN_IF_ERROR(validateEvent(ledger.events[i], i));
        PBX_RETURN_IF_ERROR(requireExAnte(ledger.events[i]));
        if (auto ok = acc->compose(ledger.events[i], ledger.neighbours); !ok)
            return makeError(ok.error().code, "events[" + std::to_string(i) + "] ("
                                                  + mechanismName(ledger.events[i].mechanism)
                                                  + "): " + ok.error().message);
    }
    return acc;
}

Result<const std::vector<double> *> RdpAccountant::curveFor(const PrivacyEvent &e, Neighbouring relation,
                                                            double *stepDelta)
{
    const Key key{eventShapeOf(e), static_cast<int>(relation)};
    if (auto it = m_cache.find(key); it != m_cache.end()) {
        *stepDelta = it->second.second;
        return &it->second.first;
    }
    const bool sampled = e.sampling.kind != SamplingKind::None && e.sampling.rate < 1.0;
    std::vector<double> curve(m_orders.size(), 0.0);
    double delta = 0.0;
    if (sampled && !samplingMatchesRelation(e.sampling, relation))
        return makeError(ErrorCode::Unsupported,
                         "the sampling scheme does not match the neighbouring relation "
                         "(Poisson needs add-remove, without-replacement needs replace)");
    switch (e.mechanism) {
    case MechanismKind::Gaussian:
        if (!sampled) {
            for (std::size_t i = 0; i < m_orders.size(); ++i)
                curve[i] = privacy::rdpGaussian(e.sigma, e.sensitivity, m_orders[i]);
        } else if (e.sampling.kind == SamplingKind::Poisson) {
            for (std::size_t i = 0; i < m_orders.size(); ++i)
                curve[i] = privacy::rdpSubsampledGaussian(e.sampling.rate, e.sigma / e.sensitivity,
                                                          m_orders[i], m_method);
        } else {
            // Replace-one (checked above): Wang, Balle & Kasiviswanathan 2019, Thm 9 / Cor. 10.
            for (std::size_t i = 0; i < m_orders.size(); ++i)
                curve[i] = privacy::rdpSampledWithoutReplacementGaussian(
                    e.sampling.rate, e.sigma / e.sensitivity, m_orders[i]);
        }
        break;
    case MechanismKind::Laplace:
        if (!sampled) {
            for (std::size_t i = 0; i < m_orders.size(); ++i)
                curve[i] = privacy::rdpLaplace(e.sensitivity / e.scale, m_orders[i]);
            break;
        }
        [[fallthrough]];
    case MechanismKind::BoundedRange:
        if (!sampled) { // tight over every ε-bounded-range mechanism (docs/selection.md)
            for (std::size_t i = 0; i < m_orders.size(); ++i)
                curve[i] = privacy::rdpBoundedRange(e.epsilon, m_orders[i]);
            break;
        }
        [[fallthrough]]; // sampled: the amplified ε-DP step (its range is not known)
    case MechanismKind::PureDp:
    case MechanismKind::RandomizedResponse:
    case MechanismKind::ApproxDp: {
        PBX_TRY(step, approxDpPerStep(e, relation));
        for (std::size_t i = 0; i < m_orders.size(); ++i)
            curve[i] = privacy::rdpPureDp(step.epsilon, m_orders[i]);
        delta = step.delta;
        break;
    }
    case MechanismKind::Zcdp:
        if (sampled)
            return makeError(ErrorCode::Unsupported,
                             "no amplification by subsampling is available for a zCDP event");
        for (std::size_t i = 0; i < m_orders.size(); ++i)
            curve[i] = privacy::rdpZcdp(e.rho, m_orders[i]);
        break;
    case MechanismKind::PostProcessing:
        break;
    }
    // The closed forms are evaluated with a handful of roundings: nudge each order up.
    for (double &v : curve)
        if (std::isfinite(v) && v > 0.0)
            v = math::nudgeUp(v * (1.0 + 1e-14), 2);
    auto [it, inserted] = m_cache.emplace(key, std::make_pair(std::move(curve), delta));
    *stepDelta = delta;
    return &it->second.first;
}

Result<void> RdpAccountant::compose(const PrivacyEvent &event, Neighbouring relation)
{
    if (auto ok = validateEvent(event, 0); !ok)
        return ok;
    if (auto exAnte = requireExAnte(event); !exAnte)
        return exAnte;
    double stepDelta = 0.0;
    PBX_TRY(curve, curveFor(event, relation, &stepDelta));
    const double k = static_cast<double>(event.count);
    const std::vector<double> &c = *curve;
    for (std::size_t i = 0; i < m_rdp.size(); ++i)
        m_rdp[i] = math::addRoundUp(m_rdp[i], k == 1.0 ? c[i] : math::nudgeUp(k * c[i], 1));
    if (stepDelta > 0.0)
        m_logKeep = math::nudgeDown(m_logKeep + k * std::log1p(-stepDelta), 2);
    return {};
}

double RdpAccountant::extraDelta() const
{
    return m_logKeep == 0.0 ? 0.0 : std::min(1.0, math::nudgeUp(-std::expm1(m_logKeep), 4));
}

double RdpAccountant::rdpShareOfDelta(double delta) const
{
    const double extra = extraDelta();
    // 1 − δ = (1 − δ_rdp)(1 − δ_extra): the δ left for the RDP part, rounded down.
    return extra == 0.0 ? delta : math::nudgeDown((delta - extra) / (1.0 - extra), 4);
}

bool RdpAccountant::composedNothing() const
{
    return extraDelta() == 0.0 && std::all_of(m_rdp.begin(), m_rdp.end(), [](double v) { return v == 0.0; });
}

double RdpAccountant::withExtraDelta(double d) const
{
    const double extra = extraDelta();
    return extra == 0.0 ? d : std::min(1.0, math::nudgeUp(d + extra - d * extra, 4));
}

Result<std::vector<double>> RdpAccountant::epsilonByOrder(double delta) const
{
    PBX_RETURN_IF_ERROR(checkDelta(delta));
    const double deltaRdp = rdpShareOfDelta(delta);
    std::vector<double> out(m_orders.size(), std::numeric_limits<double>::infinity());
    if (!(deltaRdp > 0.0))
        return out;
    for (std::size_t i = 0; i < m_orders.size(); ++i) {
        PBX_TRY(e, privacy::epsilonFromRdp({m_orders[i]}, {m_rdp[i]}, deltaRdp));
        out[i] = e.value;
    }
    return out;
}

Result<std::vector<double>> RdpAccountant::deltaByOrder(double epsilon) const
{
    PBX_RETURN_IF_ERROR(checkEpsilon(epsilon));
    std::vector<double> out(m_orders.size(), 0.0);
    if (composedNothing())
        return out;
    for (std::size_t i = 0; i < m_orders.size(); ++i) {
        PBX_TRY(d, privacy::deltaFromRdp({m_orders[i]}, {m_rdp[i]}, epsilon));
        out[i] = withExtraDelta(d.value);
    }
    return out;
}

Result<StrategyAnswer> RdpAccountant::epsilonForDelta(double delta) const
{
    PBX_RETURN_IF_ERROR(checkDelta(delta));
    StrategyAnswer a;
    a.method = kRdpMethod;
    a.delta = delta;
    const double deltaRdp = rdpShareOfDelta(delta);
    if (!(deltaRdp > 0.0)) {
        a.epsilon = std::numeric_limits<double>::infinity();
        return a;
    }
    PBX_TRY(conv, privacy::epsilonFromRdp(m_orders, m_rdp, deltaRdp));
    a.epsilon = conv.value;
    if (!std::isnan(conv.optimalOrder))
        a.optimalOrder = conv.optimalOrder;
    return a;
}

Result<StrategyAnswer> RdpAccountant::deltaForEpsilon(double epsilon) const
{
    PBX_RETURN_IF_ERROR(checkEpsilon(epsilon));
    if (composedNothing()) {
        // Nothing composed (or only post-processing): δ = 0 exactly, not the conversion's
        // min_α (1/α)(1 − 1/α)^{α−1} floor at the largest order.
        StrategyAnswer a;
        a.method = kRdpMethod;
        a.epsilon = epsilon;
        a.delta = 0.0;
        return a;
    }
    PBX_TRY(conv, privacy::deltaFromRdp(m_orders, m_rdp, epsilon));
    StrategyAnswer a;
    a.method = kRdpMethod;
    a.epsilon = epsilon;
    a.delta = withExtraDelta(conv.value);
    if (!std::isnan(conv.optimalOrder))
        a.optimalOrder = conv.optimalOrder;
    return a;
}

RdpAccountant RdpAccountant::emptyWithSameCurves() const
{
    RdpAccountant out(m_orders, m_method);
    out.m_cache = m_cache;
    return out;
}

RdpPrefixComposer::RdpPrefixComposer(Ledger ledger) : m_ledger(std::move(ledger)) {}

RdpPrefixComposer::RdpPrefixComposer(Ledger ledger, const RdpAccountant &curves)
    : m_ledger(std::move(ledger)), m_running(curves.emptyWithSameCurves())
{}

Result<std::pair<double, double>> RdpPrefixComposer::upTo(std::int64_t steps, double delta,
                                                          std::optional<double> epsilon)
{
    if (m_failed)
        return *m_failed;
    const auto fail = [&](Error e) {
        m_failed = e;
        return e;
    };
    if (steps < m_lastSteps)
        return fail(makeError(ErrorCode::InvalidArgument, "prefixes must not shrink"));
    m_lastSteps = steps;
    const auto compose = [&](RdpAccountant &acc, const PrivacyEvent &e, std::size_t index) -> Result<void> {
        if (e.mechanism == MechanismKind::PostProcessing)
            return {};
        if (auto ok = acc.compose(e, m_ledger.neighbours); !ok)
            return makeError(ok.error().code, "events[" + std::to_string(index) + "] ("
                                                  + mechanismName(e.mechanism) + "): " + ok.error().message);
        return {};
    };
    // Whole events first, into the running sum.
    while (m_next < m_ledger.events.size() && m_stepsDone + m_ledger.events[m_next].count <= steps) {
        if (auto ok = compose(m_running, m_ledger.events[m_next], m_next); !ok)
            return fail(ok.error());
        m_stepsDone += m_ledger.events[m_next].count;
        ++m_next;
    }
    // As the comparison's fresh prefixes: no ε, no δ either.
    const auto answer = [&](const RdpAccountant &acc) {
        std::pair<double, double> out{std::nan(""), std::nan("")};
        if (auto e = acc.epsilonForDelta(delta)) {
            out.first = e->epsilon;
            if (epsilon)
                if (auto d = acc.deltaForEpsilon(*epsilon))
                    out.second = d->delta;
        }
        return out;
    };
    if (m_next == m_ledger.events.size() || m_stepsDone == steps)
        return answer(m_running);
    // The prefix ends inside event m_next: its first steps on a copy.
    RdpAccountant partial = m_running;
    PrivacyEvent part = m_ledger.events[m_next];
    part.count = steps - m_stepsDone;
    if (auto ok = compose(partial, part, m_next); !ok)
        return fail(ok.error());
    return answer(partial);
}

} // namespace pbx::accounting
