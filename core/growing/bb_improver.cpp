// SPDX-License-Identifier: MIT
#include "core/growing/bb_improver.h"

#include "core/growing/growing_error.h"
#include "core/math/directed_rounding.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace pbx::growing {

Result<void> validate(const ImproverConfig &config)
{
    if (auto ok = checkStartSize(config.startSize, "stream.start_size"); !ok)
        return ok;
    if (!(config.decay > 0.0 && config.decay < 1.0))
        return growingError(kInvalidDecay, "schedule.a", "must be a number with 0 < a < 1");
    if (config.every < 1 || config.every > kMaxTime)
        return growingError(kInvalidConfig, "schedule.every", "must be an integer >= 1");
    if (auto ok = validate(config.budget); !ok)
        return ok;
    if (!isZcdp(config.budget))
        return growingError(
            kInvalidSchedule, "budget.kind",
            "bbimprover needs a zcdp or approx budget (a pure per-step schedule makes accuracy "
            "worse over time)");
    if (auto ok = checkBeta(config.beta); !ok)
        return ok;
    if (auto ok = validate(config.box); !ok)
        return ok;
    return {};
}

Result<BBImprover> BBImprover::create(const ImproverConfig &config)
{
    PBX_RETURN_IF_ERROR(validate(config));
    PBX_TRY(rho, zcdpBudget(config.budget));
    BBImprover b;
    b.m_config = config;
    b.m_rho = rho;
    b.m_exponent = 1.0 + config.decay;
    const double a = b.m_exponent - 1.0; // exact (Sterbenz): the decay the bound is proved for
    const double n = double(config.startSize);
    // Each pow/division errs by < 1 ulp (glibc); nudging 4 ulps up per term keeps Z an upper bound.
    const double first = math::nudgeUp(std::pow(n, -b.m_exponent));
    const double tail = math::nudgeUp(math::divideRoundUp(math::nudgeUp(std::pow(n, -a)), a));
    b.m_z = math::addRoundUp(first, tail);
    return b;
}

double BBImprover::rhoAt(double t) const
{
    const double power = math::nudgeUp(std::pow(t, m_exponent));
    return math::divideRoundDown(m_rho, math::multiplyRoundUp(m_z, power));
}

ImproverStep BBImprover::step(std::uint64_t t) const
{
    ImproverStep s;
    s.t = t;
    const std::uint64_t m = m_config.every;
    const double lastOfBlock = double(t + m - 1);
    // The block t … t+m−1 is paid for by m times its smallest ρ_s (ρ_s decreases in s), so the runs
    // together never charge more than Σ_{s≥n} ρ_s ≤ ρ.
    s.rho = math::multiplyRoundDown(double(m), rhoAt(lastOfBlock));
    s.epsilon = s.rho > 0.0 ? std::max(0.0, math::nudgeDown(std::sqrt(2.0 * s.rho), 1)) : 0.0;
    // Σ_{t≥n} n/(t(t+1)) = 1, so Σ β_t ≤ β.
    s.beta = m_config.beta * double(m) * double(m_config.startSize) / (lastOfBlock * (lastOfBlock + 1.0));
    s.alphaBlackBox = s.epsilon > 0.0 ? m_config.box.alpha(s.epsilon, double(t), s.beta) : INFINITY;
    s.staleness = epochStaleness(t, t + m - 1);
    s.bound = s.alphaBlackBox + s.staleness;
    return s;
}

double BBImprover::cumulative(std::uint64_t horizon) const
{
    const double a = m_exponent - 1.0;
    const double n = double(m_config.startSize);
    const double T = double(std::max<std::uint64_t>(horizon, m_config.startSize));
    // Σ_{s=n}^{T} s^{-(1+a)} ≤ n^{-(1+a)} + ∫_n^T x^{-(1+a)} dx, every operation rounded up.
    const double first = math::nudgeUp(std::pow(n, -m_exponent));
    const double difference
        = math::addRoundUp(math::nudgeUp(std::pow(n, -a)), -math::nudgeDown(std::pow(T, -a)));
    const double integral = math::divideRoundUp(math::nudgeUp(std::max(0.0, difference)), a);
    const double sum = math::addRoundUp(first, integral);
    const double bound = math::multiplyRoundUp(math::divideRoundUp(m_rho, m_z), sum);
    return std::min(m_rho, math::nudgeUp(bound));
}

Result<std::optional<std::uint64_t>> improverCrossover(const ImproverConfig &improverConfig,
                                                       const SchedulerConfig &schedulerConfig,
                                                       std::uint64_t limit)
{
    PBX_TRY(improver, BBImprover::create(improverConfig));
    PBX_TRY(scheduler, BBScheduler::create(schedulerConfig));
    std::vector<EpochPlan> epochs;
    std::uint64_t t = improverConfig.startSize;
    while (t <= limit) {
        while (epochs.empty() || epochs.back().next <= t) {
            PBX_TRY(e, scheduler.nextEpoch());
            epochs.push_back(e);
        }
        const auto it
            = std::upper_bound(epochs.begin(), epochs.end(), t,
                               [](std::uint64_t time, const EpochPlan &e) { return time < e.start; });
        const double schedulerBound = std::prev(it)->bound;
        if (improver.step(t).bound < schedulerBound)
            return std::optional<std::uint64_t>(t);
        t = static_cast<std::uint64_t>(double(t) * 1.01) + 1;
    }
    return std::optional<std::uint64_t>();
}

} // namespace pbx::growing
