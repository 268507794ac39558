// SPDX-License-Identifier: MIT
#include "core/odp/early_stopping.h"

#include "core/accounting/optimal_composition.h"
#include "core/math/directed_rounding.h"
#include "core/privacy/analytic_gaussian.h"
#include "core/util/parameter_checks.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>

namespace pbx::odp {

namespace {

constexpr double kMaxStates = 1e7;

Result<void> validateSteps(const IterativeSteps &steps)
{
    if (steps.kind == IterativeSteps::Kind::Gaussian) {
        PBX_RETURN_IF_ERROR(checkPositive(steps.noiseMultiplier, "noise-multiplier"));
        return {};
    }
    PBX_RETURN_IF_ERROR(checkPositive(steps.stepEpsilon, "step-epsilon"));
    PBX_RETURN_IF_ERROR(checkProbability(steps.stepDelta, "step-delta", UnitInterval::ClosedOpen));
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
            next[at] = d + up * value[at + static_cast<std::size_t>(u)]
                       + down * value[at - static_cast<std::size_t>(u)];
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
    PBX_TRY(top, at(hi));
    if (top > deltaPrime)
        return makeError(ErrorCode::InvalidArgument, "delta: below the steps' own δ; no ε reaches it");
    for (int it = 0; it < 200 && hi - lo > 1e-13 * hi; ++it) {
        const double mid = 0.5 * (lo + hi);
        PBX_TRY(d, at(mid));
        (d <= deltaPrime ? hi : lo) = mid;
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
            return makeError(ErrorCode::InvalidArgument,
                             "stops: stopping points must be strictly increasing");
    if (stops.back() > 100000000)
        return makeError(ErrorCode::InvalidArgument, "stops: at most 10^8 steps");
    return {};
}

Result<double> composedEpsilon(const IterativeSteps &steps, StepComposition composition, std::int64_t k,
                               double deltaPrime)
{
    PBX_RETURN_IF_ERROR(validateSteps(steps));
    const bool gaussian = steps.kind == IterativeSteps::Kind::Gaussian;
    if (gaussian != (composition == StepComposition::Gaussian))
        return makeError(ErrorCode::Unsupported,
                         gaussian ? "composition: Gaussian steps need the gauss composition"
                                  : "composition: gauss needs Gaussian steps");
    const double kd = static_cast<double>(k);
    switch (composition) {
    case StepComposition::Basic:
        return math::multiplyRoundUp(kd, steps.stepEpsilon);
    case StepComposition::Kov: {
        PBX_RETURN_IF_ERROR(
            checkProbability(deltaPrime, "delta: each stopping point's share", UnitInterval::Open));
        PBX_TRY(e, accounting::kovOptimalEpsilon(steps.stepEpsilon, steps.stepDelta, k, deltaPrime));
        if (!std::isfinite(e))
            return makeError(ErrorCode::InvalidArgument, "delta: below the steps' own δ; no ε reaches it");
        return std::min(e, math::multiplyRoundUp(kd, steps.stepEpsilon));
    }
    case StepComposition::Gaussian: {
        PBX_RETURN_IF_ERROR(
            checkProbability(deltaPrime, "delta: each stopping point's share", UnitInterval::Open));
        return privacy::gaussianEpsilon(std::sqrt(kd) / steps.noiseMultiplier, deltaPrime);
    }
    case StepComposition::Exact:
        PBX_RETURN_IF_ERROR(
            checkProbability(deltaPrime, "delta: each stopping point's share", UnitInterval::Open));
        return exactCompositionEpsilon(steps, k, deltaPrime);
    }
    return makeError(ErrorCode::InvalidArgument, "composition: unknown");
}

Result<Lemma11Plan> lemma11Plan(const std::vector<std::int64_t> &stops, const IterativeSteps &steps,
                                StepComposition composition, double delta, DeltaSplit split)
{
    PBX_RETURN_IF_ERROR(validateStops(stops));
    PBX_RETURN_IF_ERROR(validateSteps(steps));
    const bool basic = composition == StepComposition::Basic;
    if (!(delta >= 0.0 && delta < 1.0) || (!basic && delta == 0.0))
        return makeError(ErrorCode::InvalidArgument,
                         basic ? "delta must lie in [0, 1)" : "delta must lie in (0, 1)");
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
            share = math::multiplyRoundUp(static_cast<double>(stops[j]), steps.stepDelta);
        } else {
            // Rounded DOWN: the E_j are computed for a δ'_j no larger than the one charged.
            share = split == DeltaSplit::Equal
                        ? math::divideRoundDown(delta, static_cast<double>(m))
                        : math::nudgeDown(delta * static_cast<double>(stops[j]) / sumK);
        }
        PBX_TRY(e, composedEpsilon(steps, composition, stops[j], share));
        plan.deltaPrimes.push_back(share);
        plan.costs.push_back(e);
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
                              const std::vector<double> &stepDeltas, const std::vector<double> &costs,
                              double grid)
{
    PBX_RETURN_IF_ERROR(validateStops(stops));
    const auto K = static_cast<std::size_t>(stops.back());
    if (stepEpsilons.size() != K || stepDeltas.size() != K)
        return makeError(ErrorCode::InvalidArgument,
                         "steps: one ε and one δ per step up to the last stopping point");
    if (costs.size() != stops.size())
        return makeError(ErrorCode::InvalidArgument, "costs: one cost per stopping point");
    for (double c : costs)
        PBX_RETURN_IF_ERROR(checkNonNegative(c, "costs"));
    for (std::size_t i = 0; i < K; ++i) {
        PBX_RETURN_IF_ERROR(checkNonNegative(stepEpsilons[i], "step epsilons"));
        PBX_RETURN_IF_ERROR(checkProbability(stepDeltas[i], "step deltas", UnitInterval::ClosedOpen));
    }
    if (grid == 0.0) {
        grid = stepEpsilons.front();
        for (double e : stepEpsilons)
            if (e != grid)
                return makeError(ErrorCode::InvalidArgument, "grid: steps differ, so a grid > 0 is needed");
        if (grid == 0.0)
            grid = 1.0;
    }
    PBX_RETURN_IF_ERROR(checkPositive(grid, "grid"));
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
            return makeError(ErrorCode::Unsupported,
                             "too many loss states; use a coarser grid or one cell per stopping point "
                             "(Hartmann et al. 2023, Lemma 11)");
        units[i] = static_cast<std::int64_t>(n);
    }
    return math::nudgeUp(backwardInduction(stops, units, stepDeltas, costs, grid));
}

Result<Theorem15Tuning> tuneWithTheorem15(const std::vector<std::int64_t> &stops, const IterativeSteps &steps,
                                          StepComposition composition, double delta)
{
    if (steps.kind != IterativeSteps::Kind::EpsDelta
        || (composition != StepComposition::Kov && composition != StepComposition::Exact))
        return makeError(ErrorCode::Unsupported,
                         "tuning by the exact δ (Hartmann et al. 2023, Theorem 15) needs (ε, δ) steps "
                         "with the kov or exact composition");
    PBX_RETURN_IF_ERROR(checkDelta(delta, "delta"));
    PBX_RETURN_IF_ERROR(validateStops(stops));
    const auto K = static_cast<std::size_t>(stops.back());
    const std::vector<double> eps(K, steps.stepEpsilon);
    const std::vector<double> del(K, steps.stepDelta);
    const double m = static_cast<double>(stops.size());
    auto evaluate = [&](double s, Theorem15Tuning &out) -> Result<void> {
        out.scale = s;
        out.costs.clear();
        const double share = math::nudgeDown(std::min(s * delta / m, 0.999999));
        for (std::int64_t k : stops) {
            PBX_TRY(e, composedEpsilon(steps, composition, k, share));
            out.costs.push_back(e);
        }
        PBX_TRY(d, theorem15Delta(stops, eps, del, out.costs, steps.stepEpsilon));
        out.delta = d;
        return {};
    };
    Theorem15Tuning best;
    PBX_RETURN_IF_ERROR(evaluate(1.0, best));
    if (best.delta > delta)
        return best; // cannot happen for a valid Lemma 11 plan; reported as is
    double lo = 1.0;
    double hi = m;
    for (int it = 0; it < 100 && hi - lo > 1e-10 * hi; ++it) {
        const double mid = 0.5 * (lo + hi);
        Theorem15Tuning trial;
        PBX_RETURN_IF_ERROR(evaluate(mid, trial));
        if (trial.delta <= delta) {
            lo = mid;
            best = trial;
        } else {
            hi = mid;
        }
    }
    return best;
}

Result<OdpGuarantee> earlyStopGuarantee(const std::vector<std::int64_t> &stops,
                                        const std::vector<double> &costs, double delta)
{
    PBX_RETURN_IF_ERROR(validateStops(stops));
    if (costs.size() != stops.size())
        return makeError(ErrorCode::InvalidArgument, "costs: one cost per stopping point");
    OdpGuarantee g;
    for (std::size_t j = 0; j < stops.size(); ++j)
        g.cells.push_back(OdpCell{static_cast<int>(j), "stopped at " + std::to_string(stops[j]), costs[j]});
    g.delta = delta;
    PBX_RETURN_IF_ERROR(g.validate());
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
