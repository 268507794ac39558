// SPDX-License-Identifier: MIT
#include "core/odp/early_stopping.h"

#include "core/accounting/optimal_composition.h"
#include "core/math/directed_rounding.h"
#include "core/odp/rounding.h"
#include "core/privacy/analytic_gaussian.h"

#include <algorithm>
#include <cmath>

namespace pbx::odp {

namespace {

constexpr double kMaxStates = 1e7;

bool positiveFinite(double x)
{
    return std::isfinite(x) && x > 0.0;
}

Result<void> validateSteps(const IterativeSteps &steps)
{
    if (steps.kind == IterativeSteps::Kind::Gaussian) {
        if (!positiveFinite(steps.noiseMultiplier))
            return makeError(ErrorCode::InvalidArgument, "noise-multiplier must be finite and > 0");
        return {};
    }
    if (!positiveFinite(steps.stepEpsilon))
        return makeError(ErrorCode::InvalidArgument, "step-epsilon must be finite and > 0");
    if (!(steps.stepDelta >= 0.0 && steps.stepDelta < 1.0))
        return makeError(ErrorCode::InvalidArgument, "step-delta must lie in [0, 1)");
    return {};
}

/// Backward induction (Snell envelope) over the loss index L/grid; the exact value of the
/// optimal-stopping problem of Theorem 15 for the rounded-up steps.
double backwardInduction(const std::vector<std::int64_t> &stops, const std::vector<std::int64_t> &units,
                         const std::vector<double> &deltas, const std::vector<double> &costs, double grid)
{
    std::int64_t total = 0;
    for (std::int64_t u : units)
        total += u;
    const std::size_t size = static_cast<std::size_t>(2 * total + 1);
    auto gain = [&](std::size_t j, std::int64_t index) {
        const double loss = static_cast<double>(index) * grid;
        return loss > costs[j] ? -std::expm1(costs[j] - loss) : 0.0;
    };
    std::vector<double> value(size, 0.0);
    std::vector<double> next(size, 0.0);
    const std::size_t m = stops.size();
    for (std::int64_t idx = -total; idx <= total; ++idx)
        value[static_cast<std::size_t>(idx + total)] = gain(m - 1, idx);
    std::size_t stopIndex = m - 1; // value is V at time stops[stopIndex]
    for (std::int64_t step = stops.back(); step >= 1; --step) {
        const auto i = static_cast<std::size_t>(step - 1);
        const std::int64_t u = units[i];
        const double e = static_cast<double>(u) * grid;
        const double d = deltas[i];
        const double up = (1.0 - d) / (1.0 + std::exp(-e)); // (1−δ)e^ε/(1+e^ε)
        const double down = (1.0 - d) / (1.0 + std::exp(e));
        std::fill(next.begin(), next.end(), 0.0);
        for (std::int64_t idx = -total + u; idx <= total - u; ++idx) {
            const auto at = static_cast<std::size_t>(idx + total);
            next[at] = d + up * value[at + static_cast<std::size_t>(u)] + down * value[at - static_cast<std::size_t>(u)];
        }
        value.swap(next);
        const std::int64_t time = step - 1;
        if (stopIndex > 0 && time == stops[stopIndex - 1]) {
            --stopIndex;
            for (std::int64_t idx = -total; idx <= total; ++idx) {
                auto &v = value[static_cast<std::size_t>(idx + total)];
                v = std::max(v, gain(stopIndex, idx));
            }
        }
    }
    return std::min(1.0, value[static_cast<std::size_t>(total)]);
}

Result<double> exactCompositionEpsilon(const IterativeSteps &steps, std::int64_t k, double deltaPrime)
{
    const std::vector<std::int64_t> stop{k};
    const std::vector<double> eps(static_cast<std::size_t>(k), steps.stepEpsilon);
    const std::vector<double> del(static_cast<std::size_t>(k), steps.stepDelta);
    double lo = 0.0;
    double hi = steps.stepEpsilon * static_cast<double>(k);
    auto at = [&](double e) { return theorem15Delta(stop, eps, del, {e}, steps.stepEpsilon); };
    auto top = at(hi);
    if (!top)
        return top.error();
    if (*top > deltaPrime)
        return makeError(ErrorCode::InvalidArgument, "delta: below the steps' own δ; no ε reaches it");
    for (int it = 0; it < 200 && hi - lo > 1e-13 * hi; ++it) {
        const double mid = 0.5 * (lo + hi);
        auto d = at(mid);
        if (!d)
            return d.error();
        (*d <= deltaPrime ? hi : lo) = mid;
    }
    return hi; // the upper end: never below the exact ε
}

} // namespace

double Lemma11Plan::worstEpsilon() const
{
    double w = 0.0;
    for (double c : costs)
        w = std::max(w, c);
    return w;
}

Result<void> validateStops(const std::vector<std::int64_t> &stops)
{
    if (stops.empty())
        return makeError(ErrorCode::InvalidArgument, "stops: at least one stopping point is needed");
    if (stops.front() < 1)
        return makeError(ErrorCode::InvalidArgument, "stops: the first stopping point must be >= 1");
    for (std::size_t j = 1; j < stops.size(); ++j)
        if (stops[j] <= stops[j - 1])
            return makeError(ErrorCode::InvalidArgument, "stops: stopping points must be strictly increasing");
    if (stops.back() > 100000000)
        return makeError(ErrorCode::InvalidArgument, "stops: at most 10^8 steps");
    return {};
}

Result<double> composedEpsilon(const IterativeSteps &steps, StepComposition composition, std::int64_t k,
                               double deltaPrime)
{
    if (auto ok = validateSteps(steps); !ok)
        return ok.error();
    const bool gaussian = steps.kind == IterativeSteps::Kind::Gaussian;
    if (gaussian != (composition == StepComposition::Gaussian))
        return makeError(ErrorCode::Unsupported, gaussian ? "composition: Gaussian steps need the gauss composition"
                                                          : "composition: gauss needs Gaussian steps");
    const double kd = static_cast<double>(k);
    switch (composition) {
    case StepComposition::Basic:
        return multiplyRoundUp(kd, steps.stepEpsilon);
    case StepComposition::Kov: {
        if (!(deltaPrime > 0.0 && deltaPrime < 1.0))
            return makeError(ErrorCode::InvalidArgument, "delta: each stopping point's share must lie in (0, 1)");
        auto e = accounting::kovOptimalEpsilon(steps.stepEpsilon, steps.stepDelta, k, deltaPrime);
        if (!e)
            return e.error();
        if (!std::isfinite(*e))
            return makeError(ErrorCode::InvalidArgument, "delta: below the steps' own δ; no ε reaches it");
        return std::min(*e, multiplyRoundUp(kd, steps.stepEpsilon));
    }
    case StepComposition::Gaussian: {
        if (!(deltaPrime > 0.0 && deltaPrime < 1.0))
            return makeError(ErrorCode::InvalidArgument, "delta: each stopping point's share must lie in (0, 1)");
        return privacy::gaussianEpsilon(std::sqrt(kd) / steps.noiseMultiplier, deltaPrime);
    }
    case StepComposition::Exact:
        if (!(deltaPrime > 0.0 && deltaPrime < 1.0))
            return makeError(ErrorCode::InvalidArgument, "delta: each stopping point's share must lie in (0, 1)");
        return exactCompositionEpsilon(steps, k, deltaPrime);
    }
    return makeError(ErrorCode::InvalidArgument, "composition: unknown");
}

Result<Lemma11Plan> lemma11Plan(const std::vector<std::int64_t> &stops, const IterativeSteps &steps,
                                StepComposition composition, double delta, DeltaSplit split)
{
    if (auto ok = validateStops(stops); !ok)
        return ok.error();
    if (auto ok = validateSteps(steps); !ok)
        return ok.error();
    const bool basic = composition == StepComposition::Basic;
    if (!(delta >= 0.0 && delta < 1.0) || (!basic && delta == 0.0))
        return makeError(ErrorCode::InvalidArgument, basic ? "delta must lie in [0, 1)" : "delta must lie in (0, 1)");
    Lemma11Plan plan;
    plan.stops = stops;
    const std::size_t m = stops.size();
    double sumK = 0.0;
    for (std::int64_t k : stops)
        sumK += static_cast<double>(k);
    for (std::size_t j = 0; j < m; ++j) {
        double share = 0.0;
        if (basic) {
            // Basic composition of the first k_j steps: δ'_j = k_j·δ₀ (the steps' own δ).
            share = multiplyRoundUp(static_cast<double>(stops[j]), steps.stepDelta);
        } else {
            // Rounded DOWN: the E_j are computed for a δ'_j no larger than the one charged.
            share = split == DeltaSplit::Equal
                        ? divideRoundDown(delta, static_cast<double>(m))
                        : math::nudgeDown(delta * static_cast<double>(stops[j]) / sumK);
        }
        auto e = composedEpsilon(steps, composition, stops[j], share);
        if (!e)
            return e.error();
        plan.deltaPrimes.push_back(share);
        plan.costs.push_back(*e);
    }
    double sum = 0.0;
    for (double d : plan.deltaPrimes)
        sum = math::addRoundUp(sum, d);
    plan.delta = basic ? sum : std::max(sum, delta); // never less than the δ asked for
    auto dp = basic ? composedEpsilon(steps, composition, stops.back(), 0.0)
                    : composedEpsilon(steps, composition, stops.back(), delta);
    if (!dp)
        return dp.error();
    plan.dpEpsilon = *dp;
    return plan;
}

Result<double> theorem15Delta(const std::vector<std::int64_t> &stops, const std::vector<double> &stepEpsilons,
                              const std::vector<double> &stepDeltas, const std::vector<double> &costs, double grid)
{
    if (auto ok = validateStops(stops); !ok)
        return ok.error();
    const auto K = static_cast<std::size_t>(stops.back());
    if (stepEpsilons.size() != K || stepDeltas.size() != K)
        return makeError(ErrorCode::InvalidArgument, "steps: one ε and one δ per step up to the last stopping point");
    if (costs.size() != stops.size())
        return makeError(ErrorCode::InvalidArgument, "costs: one cost per stopping point");
    for (double c : costs)
        if (!std::isfinite(c) || c < 0.0)
            return makeError(ErrorCode::InvalidArgument, "costs must be finite and >= 0");
    for (std::size_t i = 0; i < K; ++i) {
        if (!std::isfinite(stepEpsilons[i]) || stepEpsilons[i] < 0.0)
            return makeError(ErrorCode::InvalidArgument, "step epsilons must be finite and >= 0");
        if (!(stepDeltas[i] >= 0.0 && stepDeltas[i] < 1.0))
            return makeError(ErrorCode::InvalidArgument, "step deltas must lie in [0, 1)");
    }
    if (grid == 0.0) {
        grid = stepEpsilons.front();
        for (double e : stepEpsilons)
            if (e != grid)
                return makeError(ErrorCode::InvalidArgument, "grid: steps differ, so a grid > 0 is needed");
        if (grid == 0.0)
            grid = 1.0;
    }
    if (!positiveFinite(grid))
        return makeError(ErrorCode::InvalidArgument, "grid must be finite and > 0");
    std::vector<std::int64_t> units(K);
    double total = 0.0;
    for (std::size_t i = 0; i < K; ++i) {
        // Round ε_i UP to the grid: the nearest multiple if it is not below ε_i, else the next.
        double n = std::round(stepEpsilons[i] / grid);
        if (n * grid < stepEpsilons[i])
            n = std::ceil(stepEpsilons[i] / grid);
        while (n * grid < stepEpsilons[i])
            n += 1.0;
        total += n;
        if (2.0 * total + 2.0 > kMaxStates)
            return makeError(ErrorCode::Unsupported, "too many loss states; use a coarser grid or Lemma 11");
        units[i] = static_cast<std::int64_t>(n);
    }
    return math::nudgeUp(backwardInduction(stops, units, stepDeltas, costs, grid));
}

Result<Theorem15Tuning> tuneWithTheorem15(const std::vector<std::int64_t> &stops, const IterativeSteps &steps,
                                          StepComposition composition, double delta)
{
    if (steps.kind != IterativeSteps::Kind::EpsDelta ||
        (composition != StepComposition::Kov && composition != StepComposition::Exact))
        return makeError(ErrorCode::Unsupported, "Theorem 15 tuning needs (ε, δ) steps with the kov or exact composition");
    if (!(delta > 0.0 && delta < 1.0))
        return makeError(ErrorCode::InvalidArgument, "delta must lie in (0, 1)");
    if (auto ok = validateStops(stops); !ok)
        return ok.error();
    const auto K = static_cast<std::size_t>(stops.back());
    const std::vector<double> eps(K, steps.stepEpsilon);
    const std::vector<double> del(K, steps.stepDelta);
    const double m = static_cast<double>(stops.size());
    auto evaluate = [&](double s, Theorem15Tuning &out) -> Result<void> {
        out.scale = s;
        out.costs.clear();
        const double share = math::nudgeDown(std::min(s * delta / m, 0.999999));
        for (std::int64_t k : stops) {
            auto e = composedEpsilon(steps, composition, k, share);
            if (!e)
                return e.error();
            out.costs.push_back(*e);
        }
        auto d = theorem15Delta(stops, eps, del, out.costs, steps.stepEpsilon);
        if (!d)
            return d.error();
        out.delta = *d;
        return {};
    };
    Theorem15Tuning best;
    if (auto ok = evaluate(1.0, best); !ok)
        return ok.error();
    if (best.delta > delta)
        return best; // cannot happen for a valid Lemma 11 plan; reported as is
    double lo = 1.0;
    double hi = m;
    for (int it = 0; it < 100 && hi - lo > 1e-10 * hi; ++it) {
        const double mid = 0.5 * (lo + hi);
        Theorem15Tuning trial;
        if (auto ok = evaluate(mid, trial); !ok)
            return ok.error();
        if (trial.delta <= delta) {
            lo = mid;
            best = trial;
        } else {
            hi = mid;
        }
    }
    return best;
}

Result<OdpGuarantee> earlyStopGuarantee(const std::vector<std::int64_t> &stops, const std::vector<double> &costs,
                                        double delta)
{
    if (auto ok = validateStops(stops); !ok)
        return ok.error();
    if (costs.size() != stops.size())
        return makeError(ErrorCode::InvalidArgument, "costs: one cost per stopping point");
    OdpGuarantee g;
    for (std::size_t j = 0; j < stops.size(); ++j)
        g.cells.push_back(OdpCell{static_cast<int>(j), "stopped at " + std::to_string(stops[j]), costs[j]});
    g.delta = delta;
    if (auto ok = g.validate(); !ok)
        return ok.error();
    return g;
}

int earlyStopCell(const std::vector<std::int64_t> &stops, std::int64_t stepsDone)
{
    for (std::size_t j = 0; j < stops.size(); ++j)
        if (stops[j] >= stepsDone)
            return static_cast<int>(j);
    return static_cast<int>(stops.size()) - 1;
}

} // namespace pbx::odp
