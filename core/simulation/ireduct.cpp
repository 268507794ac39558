// SPDX-License-Identifier: MIT
#include "core/simulation/ireduct.h"

#include "core/math/directed_rounding.h"
#include "core/mechanisms/laplace_noise_reduction.h"
#include "core/util/number_format.h"
#include "core/util/parameter_checks.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

namespace pbx::simulation {

namespace {

/// GS(Λ) of the levels ε_i = 1/λ_i, kept as an upper bound while levels only grow: a running sum
/// (overlapping counts) or the largest / two largest levels (a partition). Never below the exact
/// value, so admitting by it never lets the batch exceed ε.
class GeneralisedSensitivity
{
public:
    GeneralisedSensitivity(IReductOverlap overlap, const std::vector<double> &levels) : m_overlap(overlap)
    {
        for (std::size_t i = 0; i < levels.size(); ++i)
            grow(i, 0.0, levels[i]);
    }

    /// GS after raising level i from `from` to `to` (≥ from), without changing this.
    double ifRaised(std::size_t i, double from, double to) const
    {
        GeneralisedSensitivity copy = *this;
        copy.grow(i, from, to);
        return copy.value();
    }

    void grow(std::size_t i, double from, double to)
    {
        m_sum = math::addRoundUp(m_sum, math::nudgeUp(to - from, 1));
        if (i == m_topIndex || to > m_top) {
            if (i != m_topIndex)
                m_second = m_top;
            m_top = to;
            m_topIndex = i;
        } else if (to > m_second) {
            m_second = to;
        }
    }

    double value() const
    {
        switch (m_overlap) {
        case IReductOverlap::Overlapping:
            return m_sum;
        case IReductOverlap::PartitionAddRemove:
            return m_top;
        case IReductOverlap::PartitionReplaceOne:
            return math::addRoundUp(m_top, m_second);
        }
        return m_sum;
    }

private:
    IReductOverlap m_overlap;
    double m_sum = 0.0;
    double m_top = 0.0, m_second = 0.0;
    std::size_t m_topIndex = static_cast<std::size_t>(-1);
};

/// GS of a whole batch, computed afresh (rounded up): the reported spend.
double generalisedSensitivity(IReductOverlap overlap, const std::vector<double> &levels)
{
    return GeneralisedSensitivity(overlap, levels).value();
}

/// The smallest λ_max whose first round fits in ε: m/ε, 1/ε or 2/ε by the overlap rule.
double smallestStartScale(IReductOverlap overlap, std::size_t m, double epsilon)
{
    const double people = overlap == IReductOverlap::Overlapping           ? static_cast<double>(m)
                          : overlap == IReductOverlap::PartitionReplaceOne ? std::min<double>(2.0, double(m))
                                                                           : 1.0;
    return math::divideRoundUp(people, epsilon);
}

/// The counts to reduce this round, worst estimated relative error first (ties by position).
std::vector<std::size_t> reductionOrder(const IReductRun &run, const std::vector<bool> &stuck,
                                        const IReductSettings &s)
{
    const double logInverseBeta = std::log(1.0 / s.beta);
    std::vector<std::size_t> order;
    std::vector<double> estimate(run.released.size(), 0.0);
    for (std::size_t i = 0; i < run.released.size(); ++i) {
        if (run.good[i] || stuck[i])
            continue;
        const double w = run.scales[i] * logInverseBeta;
        estimate[i] = w / std::max(run.released[i] - w, s.floor);
        order.push_back(i);
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return estimate[a] > estimate[b]; });
    return order;
}

} // namespace

Result<void> IReductSettings::validate() const
{
    PBX_RETURN_IF_ERROR(checkEpsilon(epsilon, "ε", Zero::Excluded));
    PBX_RETURN_IF_ERROR(checkPositive(alpha, "α"));
    PBX_RETURN_IF_ERROR(checkProbability(beta, "β", UnitInterval::Open));
    if (!(startScale == 0.0 || (std::isfinite(startScale) && startScale > 0.0)))
        return makeError(ErrorCode::InvalidArgument, "λ_max must be positive and finite (0: 10·m/ε)");
    if (!(step > 0.0 && step <= kIReductLargestStep))
        return makeError(ErrorCode::InvalidArgument, "γ must be in (0, "
                                                         + formatSignificant(kIReductLargestStep)
                                                         + "]: closer to 1, the rounds explode");
    PBX_RETURN_IF_ERROR(checkPositive(floor, "the sanity floor s"));
    return {};
}

bool isCertifiedCount(double released, double scale, double alpha, double beta)
{
    const double w = scale * std::log(1.0 / beta);
    return released - w > 0.0 && w <= alpha * (released - w);
}

Result<IReductRun> runIReduct(const std::vector<double> &counts, const IReductSettings &s,
                              mechanisms::NoiseSource &noise)
{
    PBX_RETURN_IF_ERROR(s.validate());
    if (counts.empty())
        return makeError(ErrorCode::InvalidArgument, "the batch has no counts");
    if (!std::all_of(counts.begin(), counts.end(), [](double c) { return std::isfinite(c); }))
        return makeError(ErrorCode::InvalidArgument, "the batch's counts must be finite");
    const std::size_t m = counts.size();
    const double smallest = smallestStartScale(s.overlap, m, s.epsilon);
    const double startScale
        = s.startScale > 0.0 ? s.startScale : std::max(smallest, 10.0 * double(m) / s.epsilon);
    std::vector<double> levels(m, 1.0 / startScale);
    if (generalisedSensitivity(s.overlap, levels) > s.epsilon)
        return makeError(ErrorCode::InvalidArgument, "λ_max = " + formatSignificant(startScale)
                                                         + " is too small: a batch of " + std::to_string(m)
                                                         + " counts within ε needs λ_max ≥ "
                                                         + formatSignificant(smallest));
    std::vector<mechanisms::LaplaceNoiseReduction> states;
    states.reserve(m);
    for (std::size_t i = 0; i < m; ++i) {
        PBX_TRY(state, mechanisms::LaplaceNoiseReduction::start(levels[i], 1.0, noise));
        states.push_back(std::move(state));
    }
    IReductRun run;
    run.released.resize(m);
    run.scales.resize(m);
    run.good.assign(m, false);
    std::vector<bool> stuck(m, false);
    GeneralisedSensitivity gs(s.overlap, levels);
    for (;;) {
        ++run.rounds;
        for (std::size_t i = 0; i < m; ++i) {
            PBX_TRY(y, states[i].release(counts[i]));
            run.released[i] = y;
            run.scales[i] = states[i].scale();
            run.good[i] = isCertifiedCount(y, run.scales[i], s.alpha, s.beta);
        }
        if (std::all_of(run.good.begin(), run.good.end(), [](bool g) { return g; })) {
            run.stop = IReductStop::AllGood;
            break;
        }
        const std::vector<std::size_t> order = reductionOrder(run, stuck, s);
        if (order.empty()) {
            run.stop = IReductStop::BudgetExhausted;
            break;
        }
        for (std::size_t i : order) {
            const double next = levels[i] / s.step;
            if (gs.ifRaised(i, levels[i], next) > s.epsilon) {
                stuck[i] = true;
                continue;
            }
            PBX_RETURN_IF_ERROR(states[i].reduceTo(next, noise));
            gs.grow(i, levels[i], next);
            levels[i] = next;
        }
    }
    run.epsilons = levels;
    run.epsilonSpent = generalisedSensitivity(s.overlap, levels);
    return run;
}

} // namespace pbx::simulation
