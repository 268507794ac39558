// SPDX-License-Identifier: MIT
#include "core/session/growing/growing_ermg.h"

#include "core/datasets/cps1988_ermg.h"
#include "core/growing/ermg.h"
#include "core/growing/growing_error.h"
#include "core/math/directed_rounding.h"
#include "core/mechanisms/discrete_mechanisms.h"
#include "core/session/growing/growing_exact_noise.h"
#include "core/session/growing/growing_planned.h"
#include "core/util/number_format.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pbx::session {

namespace {

using growing::growingError;

/// The budget of an ERMG request: zcdp or approx (its noise is Gaussian).
Result<growing::Budget> ermgBudget(const GrowingRequestSpec &spec)
{
    if (spec.algorithm != GrowingAlgorithm::Ermg)
        return growingError(growing::kInvalidConfig, "algorithm", "expected ermg here");
    PBX_TRY(budget, growingStreamBudget(spec));
    if (!growing::isZcdp(budget))
        return growingError(growing::kInvalidSchedule, "budget.kind",
                            "ermg releases Gaussian noise and needs a zcdp or approx budget (budget.kind is '"
                                + std::string(growing::budgetKindName(spec.budgetKind)) + "')");
    if (!(spec.ermLambda > 0.0) || !std::isfinite(spec.ermLambda))
        return growingError(growing::kInvalidConfig, "erm.lambda", "must be a finite number > 0");
    if (!(spec.ermTol >= 1e-10 && spec.ermTol <= 1e-2))
        return growingError(growing::kInvalidConfig, "erm.tol", "must be a number with 1e-10 <= tol <= 1e-2");
    return budget;
}

Result<growing::ImproverConfig> improverConfig(const GrowingRequestSpec &spec, const growing::Budget &budget)
{
    // The box's accuracy function is not used by ERMG; a Laplace box satisfies the checks (as in the lab).
    growing::ImproverConfig c{spec.startSize, spec.decay, spec.every, budget, spec.beta, growing::BlackBox{}};
    PBX_RETURN_IF_ERROR(growing::validate(c));
    return c;
}

Result<growing::SchedulerConfig> schedulerConfig(const GrowingRequestSpec &spec,
                                                 const growing::Budget &budget)
{
    const growing::ScheduleKind kind = spec.schedule;
    if (!growing::scheduleIsZcdp(kind))
        return growingError(growing::kInvalidSchedule, "schedule.kind",
                            "ermg takes \"improver\", \"zcdp-equalised\" or \"zcdp-geometric\"");
    growing::SchedulerConfig c{spec.startSize, spec.gamma, budget, kind, spec.beta, growing::BlackBox{}};
    PBX_RETURN_IF_ERROR(growing::validate(c));
    return c;
}

/// σ √(2 ln(2d/β)), rounded up: P(|N(0, σ²)| > σz) ≤ 2e^{−z²/2} = β/d per coordinate.
double coordinateBound(double sigma, double beta)
{
    return math::nudgeUp(sigma * std::sqrt(2.0 * std::log(2.0 * double(kErmgDimension) / beta)));
}

/// The largest power of two ≤ x (x finite > 0, a normal double).
double powerOfTwoAtMost(double x)
{
    int exponent = 0;
    std::frexp(x, &exponent); // x = m·2^exponent, m ∈ [½, 1)
    return std::ldexp(1.0, exponent - 1);
}

/// ERMG's exact noise for run r (docs/growing-databases.md §9, "Exact discrete noise"): θ̃_t is
/// snapped to the power-of-two grid g and released as g·(k + Z), Z_j ~ N_ℤ(0, σ_g²) independent
/// (CKS 2020 Algorithm 3). g is the largest power of two ≤ max(min(Δ_t, σ_t)·2^-20, σ_t·2^-28), so
/// the snap moves θ by at most g/2 ≤ 2^-21 σ_t and σ_g stays below 2^29 (the sampler's σ² ≤ 2^60).
/// Each snap moves a coordinate by at most g/2, so neighbouring snapped vectors differ by
/// ‖k − k'‖₂ < Δ_t/g + √d = Δ_t/g + 3; σ_g² = (Δ_t/g + 3)²/(2ρ_t) rounded up to n/2^k, hence the
/// multivariate discrete Gaussian is ‖k − k'‖²/(2σ_g²) ≤ ρ_t-zCDP (CKS 2020 Thm 14): the charge ρ_t
/// is unchanged and the noise g·σ_g ≥ σ_t(1 + 3g/Δ_t). Sets r.grid, r.noise (σ_g²), r.scale (g·σ_g,
/// rounded up) and r.bound: g·(w + ½), w the smallest integer with P(|Z| > w) ≤ β_t/d (the exact
/// discrete tail, DiscreteNoiseMechanism::halfWidth). Errors: INVALID_BUDGET ("budget.rho") when σ_g²
/// exceeds 2^60 (ρ_t far too small), INVALID_CONFIG ("erm.lambda") when the largest possible
/// coefficient (1 + tol)/λ does not fit 2^52 grid steps (so snapping cannot fail after a charge).
Result<void> setGridNoise(GrowingRunPlan &r, double sensitivity, const GrowingRequestSpec &spec)
{
    const double grid
        = powerOfTwoAtMost(std::max(std::min(sensitivity, r.scale) * 0x1p-20, r.scale * 0x1p-28));
    const double units = math::addRoundUp(sensitivity / grid, 3.0); // Δ_t/g is exact: g is a power of two
    const double variance = math::divideRoundUp(math::multiplyRoundUp(units, units), 2.0 * r.rho);
    if (!(variance <= mechanisms::DiscreteGaussianSampler::kMaxVariance))
        return growingError(growing::kInvalidBudget, "budget.rho",
                            "the release at t = " + std::to_string(r.start)
                                + " (ρ = " + formatSignificant(r.rho)
                                + ") needs discrete Gaussian noise beyond the exact sampler's σ² ≤ 2^60");
    // ‖θ̃‖ ≤ ‖θ*‖ + tol/λ ≤ (1 + tol)/λ (λθ* is an average of gradients of norm ≤ 1).
    const double largest = math::divideRoundUp(math::addRoundUp(1.0, spec.ermTol), spec.ermLambda);
    if (!(largest / grid <= 0x1p52))
        return growingError(growing::kInvalidConfig, "erm.lambda",
                            "the coefficients (up to " + formatSignificant(largest)
                                + ") do not fit the release grid " + formatSignificant(grid)
                                + " at t = " + std::to_string(r.start));
    PBX_TRY(parameter, mechanisms::rationalAtLeast(variance));
    r.grid = grid;
    r.noise = parameter;
    r.scale = math::nudgeUp(grid * std::sqrt(parameter.toDouble()));
    const double beta = r.beta / double(kErmgDimension);
    PBX_TRY(tail, mechanisms::DiscreteNoiseMechanism::withParameter(mechanisms::DiscreteNoiseKind::Gaussian,
                                                                    parameter, 1));
    if (auto w = tail.halfWidth(beta))
        r.bound = math::nudgeUp(grid * (double(*w) + 0.5));
    else // β below the tail's floor: the discrete tail is at most the continuous one
        r.bound = math::nudgeUp(coordinateBound(r.scale, r.beta) + grid);
    return {};
}

} // namespace

Result<std::vector<GrowingRunPlan>> ermgRunPlan(const GrowingRequestSpec &spec, const data::Table &table,
                                                GrowingNoiseDesign design)
{
    PBX_TRY(budget, ermgBudget(spec));
    PBX_TRY(end, growingStreamEnd(spec, table));
    struct Time
    {
        std::uint64_t t, last;
        double rho, beta;
    };
    std::vector<Time> times;
    if (spec.ermgImprover) {
        PBX_TRY(config, improverConfig(spec, budget));
        const std::uint64_t runs = (end - spec.startSize) / spec.every + 1;
        if (runs > kMaxErmgReleases)
            return growingError(growing::kInvalidConfig, "schedule.every",
                                std::to_string(runs) + " releases exceed " + std::to_string(kMaxErmgReleases)
                                    + " (each is a model fit); raise schedule.every");
        PBX_TRY(improver, growing::BBImprover::create(config));
        for (std::uint64_t j = 0; j < runs; ++j) {
            const std::uint64_t t = spec.startSize + j * spec.every;
            const growing::ImproverStep step = improver.step(t);
            times.push_back({t, std::min(t + spec.every - 1, end), step.rho, step.beta});
        }
    } else {
        PBX_TRY(config, schedulerConfig(spec, budget));
        // Count the epochs before planning them: a tiny γ is refused before a huge plan is built.
        PBX_RETURN_IF_ERROR(checkEpochCount(spec, end, kMaxErmgReleases, "releases (each is a model fit)"));
        PBX_TRY(epochs, growing::planEpochs(config, end));
        for (const auto &e : epochs)
            times.push_back({e.start, e.last, e.privacy.rho, e.privacy.beta});
    }
    std::vector<GrowingRunPlan> plan;
    for (std::size_t i = 0; i < times.size(); ++i) {
        const Time &x = times[i];
        if (!(x.rho > 0.0))
            return growingError(growing::kInvalidBudget, "budget.rho",
                                "the release at t = " + std::to_string(x.t)
                                    + " would have ρ = 0 (it underflows); shorten the stream");
        GrowingRunPlan r;
        r.index = i;
        r.start = x.t;
        r.last = x.last;
        r.epsilon = 0.0; // Gaussian: no pure ε
        r.rho = x.rho;
        r.beta = x.beta;
        // σ_t = Δ_t/√(2ρ_t) with Δ_t rounded up and √(2ρ_t) rounded down (growing::ermNoiseScale)
        // chooses the grid; the discrete Gaussian's σ_g² is calibrated to ρ_t itself (setGridNoise),
        // so the release is at most ρ_t-zCDP: charging ρ_t never under-reports.
        r.scale = growing::ermNoiseScale(x.t, spec.ermLambda, spec.ermTol, x.rho);
        r.charge = filters::Charge{filters::ChargeKind::Rho, x.rho, 0.0};
        if (design == GrowingNoiseDesign::Continuous)
            r.bound = coordinateBound(r.scale, x.beta); // the continuous Gaussian's tail, as recorded then
        else
            PBX_RETURN_IF_ERROR(
                setGridNoise(r, growing::ermSensitivity(x.t, spec.ermLambda, spec.ermTol), spec));
        plan.push_back(r);
    }
    return plan;
}

Result<double> ermgSeriesTotal(const GrowingRequestSpec &spec)
{
    PBX_TRY(budget, ermgBudget(spec));
    if (spec.ermgImprover) {
        PBX_TRY(config, improverConfig(spec, budget));
        PBX_TRY(improver, growing::BBImprover::create(config));
        return improver.total();
    }
    PBX_TRY(config, schedulerConfig(spec, budget));
    PBX_TRY(scheduler, growing::BBScheduler::create(config));
    return scheduler.total();
}

Result<void> checkErmgData(const data::Table &table)
{
    return growing::checkCpsErmData(table);
}

Result<void> runErmgStream(const GrowingRequestSpec &spec, const std::vector<GrowingRunPlan> &plan,
                           const data::Rows &table, std::span<const std::uint32_t> order,
                           filters::PrivacyFilter &filter, mechanisms::NoiseSource &noise, LedgerEvent &event,
                           GrowingRecord &record)
{
    PBX_TRY(data, growing::cpsErmData(table));
    const Eigen::Index rows = Eigen::Index(record.end);
    Eigen::MatrixXd x(rows, data.features.cols());
    Eigen::VectorXd y(rows);
    for (Eigen::Index r = 0; r < rows; ++r) {
        x.row(r) = data.features.row(Eigen::Index(order[std::size_t(r)]));
        y(r) = data.labels(Eigen::Index(order[std::size_t(r)]));
    }
    // Every model is fitted before the first charge: the fits are not released, and a solver that
    // fails then refuses the request with nothing spent.
    std::vector<Eigen::VectorXd> fits;
    std::vector<std::vector<std::int64_t>> snapped; // θ̃_t on the run's grid, k = ⌊θ/g + ½⌋
    for (const GrowingRunPlan &run : plan) {
        const Eigen::Index t = Eigen::Index(run.start);
        PBX_TRY(fit, growing::fitLogistic(x.topRows(t), y.head(t), spec.ermLambda, spec.ermTol,
                                          fits.empty() ? nullptr : &fits.back()));
        fits.push_back(fit.theta);
        std::vector<std::int64_t> k;
        for (Eigen::Index j = 0; j < fit.theta.size(); ++j) {
            // Cannot fail: |θ_j| ≤ (1 + tol)/λ fits 2^52 grid steps (checked with the plan).
            PBX_TRY(step, mechanisms::GridMechanism::snap(fit.theta(j), run.grid));
            k.push_back(step);
        }
        snapped.push_back(std::move(k));
    }
    // g·(k + Z) with Z exact discrete Gaussian: the released double is a function of the integer
    // k + Z and the public g alone.
    auto release = [&](const GrowingRunPlan &run) -> Result<PlannedRelease> {
        PBX_TRY(sampler, mechanisms::DiscreteGaussianSampler::create(run.noise));
        PlannedRelease out;
        for (const std::int64_t k : snapped[run.index]) {
            auto z = sampler.sample(noise.bits());
            if (!z)
                return streamNoiseFailed(z.error());
            std::int64_t sum = 0;
            if (__builtin_add_overflow(k, *z, &sum) || sum > (std::int64_t{1} << 53)
                || sum < -(std::int64_t{1} << 53))
                return makeError(ErrorCode::Unsupported, "a noisy coefficient leaves the exactly "
                                                         "representable range; nothing was released");
            out.values.push_back(run.grid * double(sum)); // exact: a power of two times an integer
        }
        return out;
    };
    return runPlannedStream(plan, "ERMG", "release", "theta", filter, release, event, record);
}

std::string ermgReleaseLabel(const LedgerEvent &e, std::size_t release)
{
    const GrowingRecord &r = *e.growingRecord();
    const GrowingEpochRecord &x = r.epochs[release];
    return "ERMG release " + std::to_string(x.index) + " of " + std::to_string(r.plannedEpochs)
           + ": t = " + std::to_string(x.start) + ", ρ = " + formatSignificant(x.rho)
           + ", σ = " + formatSignificant(x.scale);
}

std::string describeErmgRequest(const GrowingRequestSpec &s, const std::string &budget)
{
    const std::string schedule
        = s.ermgImprover
              ? "improver a = " + formatSignificant(s.decay) + ", every " + std::to_string(s.every)
                    + (s.every == 1 ? " row" : " rows")
              : std::string(growing::scheduleKindName(s.schedule)) + " γ = " + formatSignificant(s.gamma);
    return "ERMG stream, t = " + std::to_string(s.startSize) + " … "
           + (s.end ? std::to_string(*s.end) : std::string("all rows")) + ", " + schedule
           + ", λ = " + formatSignificant(s.ermLambda) + ", " + budget + ", logistic regression on "
           + std::to_string(kErmgDimension) + " features";
}

namespace {

Result<void> auditErmgDesign(const LedgerEvent &e, const data::Table &table, GrowingNoiseDesign design)
{
    const std::string where = "event " + std::to_string(e.index) + " ('" + e.request.id + "')";
    const GrowingRequestSpec &spec = *e.request.growing();
    auto plan = ermgRunPlan(spec, table, design);
    auto total = ermgSeriesTotal(spec);
    if (!plan || !total)
        return makeError(ErrorCode::Parse,
                         where + ": " + (!plan ? plan.error().message : total.error().message));
    const auto check = [&](std::size_t i) -> Result<void> {
        const GrowingEpochRecord &x = e.growingRecord()->epochs[i];
        if (!x.cells.empty())
            return makeError(ErrorCode::Parse, "an ERMG release records a synthetic database");
        // The exact noise releases g·(k + Z): every coefficient a multiple of the release's grid.
        if (design == GrowingNoiseDesign::Continuous)
            return {};
        const double grid = (*plan)[i].grid;
        for (const double theta : x.answers)
            if (!std::isfinite(theta) || std::round(theta / grid) * grid != theta)
                return makeError(ErrorCode::Parse, "its coefficient " + formatSignificant(theta)
                                                       + " is not a multiple of its grid "
                                                       + formatSignificant(grid));
        return {};
    };
    return auditPlannedEvent(e, *plan, *growingStreamEnd(spec, table), *total, "release", kErmgDimension,
                             check);
}

} // namespace

Result<void> auditErmgEvent(const LedgerEvent &e, const data::Table &table)
{
    // Recorded before the exact noise: its σ_t and bounds are the continuous design's (same charges).
    return auditErmgDesign(e, table, recordedNoiseDesign(e, table));
}

} // namespace pbx::session
