// SPDX-License-Identifier: MIT
#include "core/growing/bb_scheduler.h"

#include "core/growing/growing_error.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>

namespace pbx::growing {

Result<std::uint64_t> nextEpochStart(std::uint64_t n, double gamma, std::uint64_t epochIndex,
                                     std::uint64_t current)
{
    const double v = double(n) * std::exp(double(epochIndex + 1) * std::log1p(gamma));
    const double ceiling = std::ceil(v - 1e-12 * v);
    if (!(ceiling <= double(kMaxTime)) || current >= kMaxTime)
        return growingError(kEpochOverflow, "",
                            "epoch " + std::to_string(epochIndex + 1) + " would start after 2^53 rows");
    return std::max(current + 1, static_cast<std::uint64_t>(ceiling));
}

double staleness(std::uint64_t epochStart, std::uint64_t t, std::optional<double> answerAtStart)
{
    if (t <= epochStart)
        return 0.0;
    const double age = double(t - epochStart) / double(t);
    if (!answerAtStart)
        return age;
    const double q = std::clamp(*answerAtStart, 0.0, 1.0);
    return age * std::max(q, 1.0 - q);
}

double epochStaleness(std::uint64_t epochStart, std::uint64_t last)
{
    return last <= epochStart ? 0.0 : 1.0 - double(epochStart) / double(last);
}

Result<void> validate(const SchedulerConfig &config)
{
    if (auto ok = checkStartSize(config.startSize, "stream.start_size"); !ok)
        return ok;
    if (auto ok = checkGamma(config.gamma); !ok)
        return ok;
    if (auto ok = validate(config.budget); !ok)
        return ok;
    if (auto ok = checkBeta(config.beta); !ok)
        return ok;
    if (auto ok = validate(config.box); !ok)
        return ok;
    PBX_RETURN_IF_ERROR(PrivacySchedule::create(config.schedule, config.gamma, config.budget, config.beta));
    return {};
}

Result<BBScheduler> BBScheduler::create(const SchedulerConfig &config)
{
    PBX_RETURN_IF_ERROR(validate(config));
    PBX_TRY(schedule, PrivacySchedule::create(config.schedule, config.gamma, config.budget, config.beta));
    BBScheduler s;
    s.m_config = config;
    s.m_schedule = schedule;
    s.m_start = config.startSize;
    return s;
}

Result<EpochPlan> BBScheduler::nextEpoch(std::optional<std::uint64_t> horizon)
{
    EpochPlan e;
    e.start = m_start;
    PBX_TRY(next, nextEpochStart(m_config.startSize, m_config.gamma, m_epoch, m_start));
    e.next = next;
    e.privacy = m_schedule.next();
    ++m_epoch;
    m_start = e.next;
    e.last = e.next - 1;
    if (horizon)
        e.last = std::max(e.start, std::min(e.last, *horizon));
    e.alphaBlackBox = e.privacy.epsilon > 0.0 && e.privacy.beta > 0.0
                          ? m_config.box.alpha(e.privacy.epsilon, double(e.start), e.privacy.beta)
                          : INFINITY;
    e.staleness = epochStaleness(e.start, e.last);
    e.bound = e.alphaBlackBox + e.staleness;
    return e;
}

Result<std::vector<EpochPlan>> planEpochs(const SchedulerConfig &config, std::uint64_t end)
{
    PBX_TRY(scheduler, BBScheduler::create(config));
    if (end < config.startSize)
        return growingError(kInvalidConfig, "stream.end", "must be >= stream.start_size");
    std::vector<EpochPlan> epochs;
    do {
        PBX_TRY(e, scheduler.nextEpoch(end));
        epochs.push_back(e);
    } while (epochs.back().next <= end);
    return epochs;
}

Result<GammaChoice> optimalGamma(SchedulerConfig config, std::uint64_t end, double lo, double hi, int points)
{
    PBX_RETURN_IF_ERROR(checkGamma(lo, "gamma.lo"));
    PBX_RETURN_IF_ERROR(checkGamma(hi, "gamma.hi"));
    if (points < 2 || !(lo < hi))
        return growingError(kInvalidConfig, "gamma.points", "needs lo < hi and at least 2 points");
    GammaChoice best{0.0, INFINITY};
    const double a = std::log(lo);
    const double b = std::log(hi);
    for (int j = 0; j < points; ++j) {
        config.gamma = std::exp(a + (b - a) * double(j) / double(points - 1));
        PBX_TRY(scheduler, BBScheduler::create(config));
        double worst = 0.0;
        for (;;) {
            auto e = scheduler.nextEpoch(); // full epochs: the worst case for queries in them
            if (!e)
                return e.error();
            worst = std::max(worst, e->bound);
            if (e->next > end)
                break;
        }
        if (worst < best.worstBound)
            best = {config.gamma, worst};
    }
    return best;
}

} // namespace pbx::growing
