// SPDX-License-Identifier: MIT
#include "core/math/directed_rounding.h"
#include "core/mechanisms/brownian_noise_reduction.h"
#include "core/mechanisms/laplace_noise_reduction.h"
#include "core/privacy/zcdp_conversion.h"
#include "core/session/release/level_plan.h"
#include "core/session/release/release_common.h"
#include "core/util/try.h"

#include <cmath>
#include <numbers>
#include <optional>
#include <variant>

namespace pbx::session {

using namespace detail;
using mechanisms::BrownianBoundary;
using mechanisms::BrownianNoiseReduction;
using mechanisms::LaplaceNoiseReduction;

namespace {

/// Noise grows by 1/0.8 per level in scale: fine enough that stopping overshoots the needed noise
/// by at most 25 % in scale, coarse enough that the union bound over K levels stays cheap.
constexpr double kScaleRatio = 0.8;
constexpr int kMaxLevels = 120;

/// One channel's noise path: Laplace or Brownian, advanced level by level.
using Path = std::variant<std::monostate, LaplaceNoiseReduction, BrownianNoiseReduction>;

Result<void> advanceUnchecked(Path &path, const ChannelLevel &level, double sensitivity, NoiseFamily family,
                              mechanisms::NoiseSource &noise)
{
    if (family == NoiseFamily::Laplace) {
        if (auto *p = std::get_if<LaplaceNoiseReduction>(&path))
            return p->reduceTo(level.epsilon, noise);
        PBX_TRY(started, LaplaceNoiseReduction::start(level.epsilon, sensitivity, noise));
        path = std::move(started);
        return {};
    }
    if (auto *p = std::get_if<BrownianNoiseReduction>(&path))
        return p->reduceTo(level.time, noise);
    PBX_TRY(started, BrownianNoiseReduction::start(1, level.time, noise));
    path = std::move(started);
    return {};
}

/// advanceUnchecked(), then a check of the random source: the continuous samplers cannot see a
/// failure (a failed source yields zero bits, i.e. no randomness), so its values must not be used.
Result<void> advance(Path &path, const ChannelLevel &level, double sensitivity, NoiseFamily family,
                     mechanisms::NoiseSource &noise)
{
    if (auto moved = advanceUnchecked(path, level, sensitivity, family, noise); !moved)
        return moved;
    if (noise.bits().failed())
        return noise.bits().error();
    return {};
}

/// The current noise of a channel, in query units.
double currentNoise(const Path &path)
{
    if (const auto *p = std::get_if<LaplaceNoiseReduction>(&path))
        return p->noise().front();
    return std::get<BrownianNoiseReduction>(path).noise().front();
}

/// δ_n = δ_e·6/(π²n²): Σ_n δ_n = δ_e, so the n-th ex-post Brownian run never runs out of δ
/// while leaving each run a usable share.
double expostDeltaFor(const ReleaseContext &context)
{
    const double n = static_cast<double>(context.expostDeltaIndex);
    const double scheduled
        = context.filter.expostDeltaBudget() * 6.0 / (std::numbers::pi * std::numbers::pi * n * n);
    return math::nudgeDown(std::min(scheduled, context.filter.remainingExPostDelta()));
}

/// The normal-mixture boundaries of an ex-post Brownian run, one per channel, fixed before the
/// first release (§6.1 rule 3) and tuned where a typical run stops: a few times noisier than the
/// cap's zCDP-equivalent time Δ²/(2ρ(cap, δ)) (a fixed design choice, docs/accuracy-first.md §6.3).
Result<std::vector<BrownianBoundary>> expostBoundaries(const QueryShape &shape, double topCost, double delta)
{
    const auto &channels = shape.channels();
    const auto shares = shape.costShares(CostGrowth::Linear);
    const double channelDelta = delta / static_cast<double>(channels.size());
    std::vector<BrownianBoundary> boundaries;
    for (std::size_t i = 0; i < channels.size(); ++i) {
        auto rho = privacy::rhoFromEpsilon(topCost * shares[i], channelDelta);
        const double capTime
            = rho && *rho > 0.0 ? channels[i].sensitivity * channels[i].sensitivity / (2.0 * *rho) : 1.0;
        PBX_TRY(boundary, BrownianBoundary::normalMixtureTuned(4.0 * capTime, channelDelta));
        boundaries.push_back(boundary);
    }
    return boundaries;
}

/// Which side of the unified filter pays a Brownian noise reduction.
///
/// Rogers, Samorodnitsky, Wu & Ramdas (2023), Theorem 3: a zCDP filter with budget ρ_z (at δ_z) and
/// an ex-post filter with budget (ε_e, δ_e), run concurrently on one adaptively chosen sequence of
/// mechanisms, give a (ε(ρ_z, δ_z) + ε_e, δ_z + δ_e)-DP session. The proof needs of the zCDP side
/// only that every charge it admits is a mechanism that is ρ_t-zCDP conditionally on everything
/// released before, with ρ_t fixed before it runs (predictable), and that it stops by its rule
/// Σρ_t ≤ ρ_z (the fully adaptive zCDP filter of Whitehouse, Ramdas, Rogers & Wu 2023, Thm 1).
/// Brownian noise reduction in the improved analysis (Whitehouse et al. 2022; docs/accuracy-first.md
/// §4.4) is such a sequence: the release at time T_k given the releases at T_{k−1} > … > T_1
/// (noisiest first) is, by the Markov property of the Brownian bridge, a Gaussian mechanism of
/// sensitivity Δ and ρ-increment (Δ²/2)(1/T_k − 1/T_{k−1}), and T_k is fixed before the level is
/// drawn. So the zCDP side may admit each level as a ρ charge exactly as the brownian-zcdp filter
/// does; the ex-post side is untouched by such a run, and Theorem 3's sum holds unchanged. A run
/// is paid entirely by one side, chosen here before its first release from public quantities
/// only (the two sides' caps and the target), so the choice is predictable too.
///
/// Rule: the side whose cap reaches the least noisy last level (the smaller error-bar numerator at
/// the top level), so the run can certify the most answers; the zCDP side on a tie, and whichever
/// side can pay at all when the other cannot.
filters::ChargeKind unifiedBrownianSide(const ReleaseContext &context, const AccuracyTarget &target,
                                        std::optional<double> maxCost)
{
    using filters::ChargeKind;
    const double capRho = perQueryCap(context, ChargeKind::Rho, maxCost) * (1.0 - 1e-9);
    const double capExPost = perQueryCap(context, ChargeKind::ExPost, maxCost) * (1.0 - 1e-9);
    const double delta = expostDeltaFor(context);
    if (!(capExPost > 0.0) || !(delta > 0.0))
        return ChargeKind::Rho;
    if (!(capRho > 0.0))
        return ChargeKind::ExPost;
    const double beta = target.beta() / kMaxLevels;
    const LevelNoise zcdp(NoiseFamily::Gaussian, context.shape);
    auto boundaries = expostBoundaries(context.shape, capExPost, delta);
    if (!boundaries)
        return ChargeKind::Rho;
    const LevelNoise expost(NoiseFamily::BrownianExPost, context.shape, *boundaries);
    auto z = zcdp.level(capRho, beta);
    auto e = expost.level(capExPost, beta);
    if (!e)
        return ChargeKind::Rho;
    if (!z)
        return ChargeKind::ExPost;
    return zcdp.widthNumerator(*z) <= expost.widthNumerator(*e) ? ChargeKind::Rho : ChargeKind::ExPost;
}

} // namespace

ReleaseOutcome releaseByNoiseReduction(const ReleaseContext &context, const AccuracyTarget &target,
                                       std::optional<double> maxCost)
{
    ReleaseOutcome out;
    out.mechanism = eventMechanism(context.mechanism);
    out.costKind = chargeKindFor(context.mechanism, context.filter.kind());
    const bool routed = context.mechanism == ReleaseMethod::Brownian
                        && context.filter.kind() == filters::FilterKind::Unified;
    if (routed)
        out.costKind = unifiedBrownianSide(context, target, maxCost);
    const bool laplace = context.mechanism == ReleaseMethod::LaplaceNr;
    const bool expostBrownian = !laplace && out.costKind == filters::ChargeKind::ExPost;
    const NoiseFamily family = laplace          ? NoiseFamily::Laplace
                               : expostBrownian ? NoiseFamily::BrownianExPost
                                                : NoiseFamily::Gaussian;
    const double growth
        = family == NoiseFamily::Gaussian ? 1.0 / (kScaleRatio * kScaleRatio) : 1.0 / kScaleRatio;
    const double cap = perQueryCap(context, out.costKind, maxCost);
    if (!(cap > 0.0) || !std::isfinite(cap)) {
        out.reason = cannotStartReason(context, out.costKind, cap, maxCost, target);
        return out;
    }
    const double topCost = cap * (1.0 - 1e-9); // only the last level is paid: it may use the whole cap
    const auto &channels = context.shape.channels();

    // Ex-post Brownian: a boundary per channel, fixed now, before the first release (§6.1 rule 3).
    std::vector<BrownianBoundary> boundaries;
    double delta = 0.0;
    if (expostBrownian) {
        delta = expostDeltaFor(context);
        if (!(delta > 0.0)) {
            out.reason = "no ex-post δ remains for a Brownian noise reduction";
            return out;
        }
        auto built = expostBoundaries(context.shape, topCost, delta);
        if (!built) {
            out.reason = built.error().message;
            return out;
        }
        boundaries = std::move(built).value();
        char text[160];
        std::snprintf(
            text, sizeof text, "%sex-post, normal-mixture boundary r = %.4g, δ = %.3g%s",
            routed ? "unified: paid by the ex-post side (it reaches less noise within its cap); " : "",
            boundaries.front().parameter(), delta, channels.size() > 1 ? " (split over 2 paths)" : "");
        out.accounting = text;
    } else {
        out.accounting
            = laplace  ? "ex-post (pure): ε of the last level released"
              : routed ? "unified: paid by the zCDP side (it reaches less noise within its cap); "
                         "ρ = Δ²/(2·T_stop), paid step by step (each step is a Gaussian mechanism given the "
                         "past, so the unified filter composes it: Rogers et al. 2023, Theorem 3)"
                       : "zCDP: ρ = Δ²/(2·T_stop), paid step by step";
    }

    const LevelNoise noise(family, context.shape, boundaries);
    auto plan = planLevels(noise, context.shape, target, topCost, growth, kMaxLevels);
    if (!plan) {
        out.reason = plan.error().code == ErrorCode::BudgetExceeded
                         ? cannotStartReason(context, out.costKind, cap, maxCost, target)
                         : plan.error().message;
        return out;
    }
    auto top = noise.level(plan->costs.back(), plan->beta);
    const double leastNoisyNumerator = top ? noise.widthNumerator(*top) : 0.0;

    std::vector<Path> paths(channels.size());
    double paidSoFar = 0.0;
    for (std::size_t k = 0; k < plan->costs.size(); ++k) {
        auto level = noise.level(plan->costs[k], plan->beta);
        if (!level) {
            out.reason = level.error().message;
            break;
        }
        // The loss if stopped here; the increment over what is already paid is charged first.
        const double levelCost = LevelNoise::totalCost(*level);
        const double increment = k == 0 ? levelCost : std::max(0.0, math::nudgeUp(levelCost - paidSoFar, 2));
        const double chargeDelta = k == 0 ? delta : 0.0;
        if (auto charged = context.filter.charge({out.costKind, increment, chargeDelta}); !charged) {
            out.reason = charged.error().message;
            break;
        }
        out.cost = math::addRoundUp(out.cost, increment);
        out.costDelta += chargeDelta;
        paidSoFar = std::max(levelCost, out.cost);

        Attempt a;
        a.cost = increment;
        std::vector<double> widths;
        std::optional<Error> failed;
        for (std::size_t i = 0; i < channels.size(); ++i) {
            const ChannelLevel &c = (*level)[i];
            if (auto moved = advance(paths[i], c, channels[i].sensitivity, family, context.noiseSource);
                !moved) {
                failed = moved.error();
                break;
            }
            a.releases.push_back(
                {channels[i].quantity, c.scale, channels[i].exact + currentNoise(paths[i]), c.cost});
            widths.push_back(c.halfWidth);
        }
        if (failed) { // the increment is paid: the ledger records it with this level's scales
            std::vector<double> scales;
            for (const auto &c : *level)
                scales.push_back(c.scale);
            recordChargedWithoutRelease(out, std::move(a), context.shape, scales, *failed);
            break;
        }
        if (recordAttempt(out, std::move(a), widths, context.shape, target, leastNoisyNumerator))
            break;
    }
    finishFromAttempts(out, cap, out.costKind);
    return out;
}

} // namespace pbx::session
