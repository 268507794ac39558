// SPDX-License-Identifier: MIT
#include "core/session/release_plan.h"

#include "core/math/directed_rounding.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pbx::session {

using data::Aggregate;
using mechanisms::AdditiveNoiseMechanism;
using mechanisms::NoiseKind;

namespace {

constexpr int kMaxLevels = 40;
constexpr double kInfinity = std::numeric_limits<double>::infinity();

std::string costText(const filters::PrivacyFilter &filter, double cost)
{
    return std::string(filter.unitSymbol()) + " = " + filters::formatAmount(cost);
}

double percent(double fraction)
{
    return fraction * 100.0;
}

/// The scalar statistic and its sensitivity for count and sum.
struct ScalarQuery
{
    std::string quantity;
    double exact = 0.0;
    double sensitivity = 1.0;
    double largestAnswer = 0.0; ///< public bound on |answer|
};

ScalarQuery scalarQuery(const ReleaseContext &c)
{
    if (c.query.spec().aggregate == Aggregate::Count)
        return {"count", c.exact.count, data::countSensitivity(c.neighbours).l1, c.publicRowCount};
    const auto b = c.query.bounds();
    const double magnitude = std::max(std::fabs(b.lower), std::fabs(b.upper));
    return {"sum", c.exact.clippedSum, data::sumSensitivity(b, c.neighbours).l1,
            c.publicRowCount * magnitude};
}

/// Cost split of a mean level between the centred sum and the count that minimises the
/// half-width numerator w_S + h·w_C: for Laplace (w ∝ Δ/ε) ε_S ∝ √Δ_S and ε_C ∝ √(h·Δ_C);
/// for Gaussian (w ∝ Δ/√ρ) ρ_S ∝ Δ_S^{2/3} and ρ_C ∝ (h·Δ_C)^{2/3} (Lagrange conditions).
double sumShareOfMeanCost(NoiseKind kind, double sumSensitivity, double countWeight)
{
    const double power = kind == NoiseKind::Laplace ? 0.5 : 2.0 / 3.0;
    const double s = std::pow(sumSensitivity, power);
    const double c = std::pow(countWeight, power);
    return s / (s + c);
}

/// One level of a doubling plan, realised or only sized (for planning, no noise is drawn).
class LevelRunner
{
public:
    LevelRunner(const ReleaseContext &context) : m_c(context)
    {
        if (context.query.spec().aggregate == Aggregate::Mean) {
            const auto b = context.query.bounds();
            m_mid = (b.lower + b.upper) / 2.0;
            m_halfRange = (b.upper - b.lower) / 2.0;
            m_sumSensitivity = data::centredSumSensitivity(b, context.neighbours).l1;
            m_countSensitivity = data::countSensitivity(context.neighbours).l1;
            m_sumShare = sumShareOfMeanCost(context.noise, m_sumSensitivity,
                                            m_halfRange * m_countSensitivity);
        } else {
            m_scalar = scalarQuery(context);
        }
    }

    bool isMean() const { return m_c.query.spec().aggregate == Aggregate::Mean; }

    /// Half-width numerator at a level: w for count/sum, w_S + h·w_C for a mean.
    double widthNumerator(double cost, double beta) const
    {
        if (!isMean())
            return mechanism(cost, m_scalar.sensitivity).halfWidth(beta);
        return mechanism(cost * m_sumShare, m_sumSensitivity).halfWidth(beta / 2.0)
               + m_halfRange * mechanism(cost * (1.0 - m_sumShare), m_countSensitivity).halfWidth(beta / 2.0);
    }

    /// Could a level of this cost certify the target for the largest possible answer?
    bool couldCertify(double cost, double beta, const AccuracyTarget &target) const
    {
        const double w = widthNumerator(cost, beta);
        const double slack = target.kind == TargetKind::Relative ? (1.0 + target.error) / target.error : 1.0;
        if (!isMean())
            return target.kind == TargetKind::Relative ? w * slack <= m_scalar.largestAnswer
                                                       : w <= target.error;
        const auto b = m_c.query.bounds();
        const double largestMean = std::max(std::fabs(b.lower), std::fabs(b.upper));
        const double n = m_c.publicRowCount;
        return target.kind == TargetKind::Relative ? w * slack <= largestMean * n
                                                   : w <= target.error * n;
    }

    /// The exact cost the level's mechanisms charge (each rounded up), for a planned cost.
    double chargedCost(double cost) const
    {
        if (!isMean())
            return mechanism(cost, m_scalar.sensitivity).cost();
        return math::addRoundUp(mechanism(cost * m_sumShare, m_sumSensitivity).cost(),
                                mechanism(cost * (1.0 - m_sumShare), m_countSensitivity).cost());
    }

    /// Draws the level's noise (already charged by the caller) and fills the attempt.
    Attempt run(double cost, double beta)
    {
        Attempt a;
        if (!isMean()) {
            const auto m = mechanism(cost, m_scalar.sensitivity);
            a.releases.push_back({m_scalar.quantity, m.scale(), m.release(m_scalar.exact, m_c.noiseSource), m.cost()});
            a.estimate = a.releases.back().value;
            a.halfWidth = m.halfWidth(beta);
            a.cost = m.cost();
            return a;
        }
        const auto sumMech = mechanism(cost * m_sumShare, m_sumSensitivity);
        const auto countMech = mechanism(cost * (1.0 - m_sumShare), m_countSensitivity);
        const double noisySum = sumMech.release(m_c.exact.centredSum, m_c.noiseSource);
        const double noisyCount = countMech.release(m_c.exact.count, m_c.noiseSource);
        a.releases.push_back({"centred-sum", sumMech.scale(), noisySum, sumMech.cost()});
        a.releases.push_back({"count", countMech.scale(), noisyCount, countMech.cost()});
        a.cost = math::addRoundUp(sumMech.cost(), countMech.cost());
        const auto b = m_c.query.bounds();
        const double countWidth = countMech.halfWidth(beta / 2.0);
        const double estimate = std::clamp(m_mid + noisySum / std::max(noisyCount, 1.0), b.lower, b.upper);
        // Always valid once the true mean lies in [L, U]: the distance to the farther bound.
        const double trivialBound = std::max(estimate - b.lower, b.upper - estimate);
        a.estimate = estimate;
        a.halfWidth = trivialBound;
        if (noisyCount > countWidth) {
            const double numerator = sumMech.halfWidth(beta / 2.0) + m_halfRange * countWidth;
            a.halfWidth = std::min(trivialBound, math::nudgeUp(numerator / noisyCount));
        }
        return a;
    }

    /// Early abandonment (accuracy-first.md §7.2, count and sum only): with probability ≥ 1 − β
    /// the answer is below what the least noisy level could certify.
    bool hopeless(const Attempt &a, double topWidth, const AccuracyTarget &target) const
    {
        if (isMean() || target.kind != TargetKind::Relative)
            return false;
        return std::fabs(a.estimate) + a.halfWidth < topWidth * (1.0 + target.error) / target.error;
    }

private:
    AdditiveNoiseMechanism mechanism(double cost, double sensitivity) const
    {
        return AdditiveNoiseMechanism::forCost(m_c.noise, cost, sensitivity).value();
    }

    const ReleaseContext &m_c;
    ScalarQuery m_scalar;
    double m_mid = 0.0;
    double m_halfRange = 0.0;
    double m_sumSensitivity = 1.0;
    double m_countSensitivity = 1.0;
    double m_sumShare = 0.5;
};

bool certifies(const Attempt &a, const AccuracyTarget &target)
{
    if (target.kind == TargetKind::Absolute)
        return a.halfWidth <= target.error;
    const double lowerMagnitude = std::fabs(a.estimate) - a.halfWidth;
    return lowerMagnitude > 0.0 && a.halfWidth <= target.error * lowerMagnitude;
}

std::string targetText(const AccuracyTarget &t)
{
    char buffer[96];
    if (t.kind == TargetKind::Absolute)
        std::snprintf(buffer, sizeof buffer, "±%g at %g %% confidence", t.error, percent(t.confidence));
    else
        std::snprintf(buffer, sizeof buffer, "±%g %% at %g %% confidence", percent(t.error),
                      percent(t.confidence));
    return buffer;
}

} // namespace

ReleaseOutcome releaseOnce(const ReleaseContext &context, const AccuracyTarget &target,
                           std::optional<double> maxCost)
{
    ReleaseOutcome out;
    out.mechanism = std::string(mechanisms::noiseKindName(context.noise));
    const ScalarQuery q = scalarQuery(context);
    auto mech = AdditiveNoiseMechanism::forAbsoluteError(context.noise, target.error, target.beta(),
                                                         q.sensitivity);
    if (!mech) {
        out.reason = mech.error().message;
        return out;
    }
    const double cost = mech->cost();
    if (maxCost && cost > *maxCost) {
        out.reason = "this query needs " + costText(context.filter, cost)
                     + ", more than the per-query maximum " + filters::formatAmount(*maxCost);
        return out;
    }
    // Predictability: the cost is known and charged before any noise is drawn.
    if (auto charged = context.filter.spend(cost); !charged) {
        out.reason = charged.error().message;
        return out;
    }
    Attempt a;
    a.releases.push_back({q.quantity, mech->scale(), mech->release(q.exact, context.noiseSource), cost});
    a.estimate = a.releases.back().value;
    a.halfWidth = std::min(mech->halfWidth(target.beta()), target.error);
    a.cost = cost;
    a.accepted = true;
    out.status = EventStatus::Released;
    out.answer = a.estimate;
    out.errorBound = a.halfWidth;
    out.targetMet = true;
    out.cost = cost;
    out.attempts.push_back(a);
    return out;
}

ReleaseOutcome releaseByDoubling(const ReleaseContext &context, const AccuracyTarget &target,
                                 std::optional<double> maxCost)
{
    ReleaseOutcome out;
    out.mechanism = "doubling-" + std::string(mechanisms::noiseKindName(context.noise));
    const double remaining = context.filter.remaining();
    const double cap = std::min(maxCost.value_or(kInfinity), remaining);
    if (!(cap > 0.0)) {
        out.reason = remaining > 0.0 ? "the per-query maximum must be > 0"
                                     : "no privacy budget remains (" + costText(context.filter, 0.0) + ")";
        return out;
    }
    const double ratio = context.noise == NoiseKind::Laplace ? 0.5 : 0.25;
    // A hair below (1 − r)·C so that ulp-level rounding of each level's cost keeps Σ ≤ C.
    const double topCost = (1.0 - ratio) * cap * (1.0 - 1e-9);
    LevelRunner runner(context);

    int levels = 0;
    for (int k = kMaxLevels; k >= 1; --k)
        if (runner.couldCertify(topCost * std::pow(ratio, k - 1), target.beta() / k, target)) {
            levels = k;
            break;
        }
    if (levels == 0) {
        out.reason = "the " + std::string(cap < remaining ? "per-query maximum" : "remaining budget") + " ("
                     + costText(context.filter, cap) + ") cannot certify " + targetText(target)
                     + " for any answer this query can take";
        return out;
    }

    const double beta = target.beta() / levels;
    const double topWidth = runner.widthNumerator(topCost, beta);
    for (int j = 0; j < levels; ++j) {
        const double cost = topCost * std::pow(ratio, levels - 1 - j);
        // Predictability: the level's cost is charged before its noise is drawn.
        if (auto charged = context.filter.spend(runner.chargedCost(cost)); !charged) {
            out.reason = charged.error().message;
            break;
        }
        Attempt a = runner.run(cost, beta);
        a.accepted = certifies(a, target);
        out.cost = math::addRoundUp(out.cost, a.cost);
        out.attempts.push_back(a);
        if (a.accepted)
            break;
        if (runner.hopeless(a, topWidth, target)) {
            out.reason = "target not met: the noisy answer is too small for the remaining levels to "
                         "certify "
                         + targetText(target) + "; abandoned early (free)";
            break;
        }
    }
    if (out.attempts.empty()) {
        out.status = EventStatus::Refused;
        return out;
    }
    const Attempt &last = out.attempts.back();
    out.status = EventStatus::Released;
    out.answer = last.estimate;
    out.errorBound = last.halfWidth;
    out.targetMet = last.accepted;
    if (!out.targetMet && out.reason.empty())
        out.reason = "target not met within " + costText(context.filter, cap) + "; the least noisy "
                     "attempt is released";
    return out;
}

} // namespace pbx::session
