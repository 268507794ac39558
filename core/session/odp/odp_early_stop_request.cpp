// SPDX-License-Identifier: MIT
#include "core/math/directed_rounding.h"
#include "core/odp/early_stopping.h"
#include "core/odp/ptr_iqr.h"
#include "core/session/odp/odp_mechanisms.h"
#include "core/util/given_parameters.h"
#include "core/util/try.h"

#include <cmath>

namespace pbx::session {

namespace {

Error invalid(const std::string &message)
{
    return makeError(ErrorCode::InvalidArgument, message);
}

constexpr std::int64_t kMaxSteps = 10000; // every iterate is recorded in the transcript

Result<odp::StepComposition> compositionOf(const std::string &name)
{
    if (name == "basic")
        return odp::StepComposition::Basic;
    if (name == "kov")
        return odp::StepComposition::Kov;
    if (name == "exact")
        return odp::StepComposition::Exact;
    return invalid("composition: unknown composition '" + name + "' (expected basic, kov or exact)");
}

Result<void> checkParameters(const EarlyStopRequestSpec &spec)
{
    if (!std::isfinite(spec.stepEpsilon) || !(spec.stepEpsilon > 0.0))
        return invalid("step_epsilon: must be a finite number > 0");
    PBX_RETURN_IF_ERROR(checkGivenEpsilon(spec.stepEpsilon, "step_epsilon:"));
    if (auto ok = odp::validateStops(spec.stops); !ok)
        return invalid("stops: must be whole numbers k_1 < … < k_m with k_1 ≥ 1 (" + ok.error().message
                       + ")");
    if (spec.stops.back() > kMaxSteps)
        return invalid("stops: the last stopping point must be at most 10000");
    PBX_TRY(composition, compositionOf(spec.composition));
    if (composition != odp::StepComposition::Basic && !(spec.delta > 0.0 && spec.delta < 1.0))
        return invalid("delta: composition " + spec.composition + " needs δ in (0, 1)");
    if (!std::isfinite(spec.delta) || spec.delta < 0.0 || spec.delta >= 1.0)
        return invalid("delta: must lie in [0, 1)");
    if (!std::isfinite(spec.tolerance) || !(spec.tolerance > 0.0))
        return invalid("tolerance: must be a finite number > 0");
    return {};
}

/// ε₀-DP Laplace steps of the noisy mean (pure: δ₀ = 0).
odp::IterativeSteps laplaceSteps(const EarlyStopRequestSpec &spec)
{
    odp::IterativeSteps steps;
    steps.kind = odp::IterativeSteps::Kind::EpsDelta;
    steps.stepEpsilon = spec.stepEpsilon;
    steps.stepDelta = 0.0;
    return steps;
}

/// The Laplace scale Δ/ε₀ with Δ = (hi − lo)/n, rounded up (more noise is never less private).
double noiseScaleOf(const EarlyStopRequestSpec &spec, const BoundedColumn &col)
{
    const double sensitivity = math::nudgeUp((col.hi - col.lo) / static_cast<double>(col.rows));
    return math::nudgeUp(sensitivity / spec.stepEpsilon);
}

double clippedMean(const BoundedColumn &col)
{
    double sum = 0.0;
    for (double v : col.values)
        sum += v;
    return sum / static_cast<double>(col.values.size());
}

double runningMean(const std::vector<double> &iterates, std::size_t k)
{
    double sum = 0.0;
    for (std::size_t i = 0; i < k; ++i)
        sum += iterates[i];
    return sum / static_cast<double>(k);
}

} // namespace

Result<odp::OdpGuarantee> earlyStopRequestGuarantee(const EarlyStopRequestSpec &spec)
{
    PBX_RETURN_IF_ERROR(checkParameters(spec));
    PBX_TRY(plan, odp::lemma11Plan(
                      spec.stops, laplaceSteps(spec), *compositionOf(spec.composition), spec.delta,
                      spec.proportionalSplit ? odp::DeltaSplit::Proportional : odp::DeltaSplit::Equal));
    return odp::earlyStopGuarantee(plan.stops, plan.costs, plan.delta);
}

Result<void> checkEarlyStopRequest(const EarlyStopRequestSpec &spec, const data::Table &table)
{
    PBX_RETURN_IF_ERROR(checkParameters(spec));
    PBX_TRY(col, boundedColumnShape(table, spec.column, "column"));
    if (col.rows == 0)
        return invalid("column: the dataset has no rows");
    return {};
}

bool earlyStopHalts(const std::vector<double> &iterates, std::size_t k, double noiseScale, double tolerance)
{
    // Two standard deviations of the mean of k Laplace(b) draws: 2·√(2b²/k).
    const double halfWidth = 2.0 * std::sqrt(2.0) * noiseScale / std::sqrt(static_cast<double>(k));
    return halfWidth <= tolerance * std::abs(runningMean(iterates, k));
}

Result<int> runEarlyStopRequest(const EarlyStopRequestSpec &spec, const data::Rows &table,
                                mechanisms::RandomBits &bits, OdpRecord &record)
{
    PBX_TRY(col, boundedColumn(table, spec.column, "column"));
    const double mean = clippedMean(col);
    EarlyStopOutput out;
    out.noiseScale = noiseScaleOf(spec, col);
    std::size_t cell = 0;
    for (; cell < spec.stops.size(); ++cell) {
        const auto k = static_cast<std::size_t>(spec.stops[cell]);
        while (out.iterates.size() < k) {
            out.iterates.push_back(mean + odp::sampleLaplace(bits, out.noiseScale));
            if (bits.failed())
                return bits.error();
        }
        // The rule sees the released iterates only; the last stopping point always halts.
        if (cell + 1 == spec.stops.size() || earlyStopHalts(out.iterates, k, out.noiseScale, spec.tolerance))
            break;
    }
    out.estimate = runningMean(out.iterates, out.iterates.size());
    record.earlyStop = std::move(out);
    return static_cast<int>(cell);
}

Result<void> auditEarlyStopOutput(const EarlyStopRequestSpec &spec, const OdpRecord &r,
                                  const data::Table &table)
{
    if (!r.earlyStop)
        return invalid("a settled early-stop event without its iterates");
    const EarlyStopOutput &o = *r.earlyStop;
    const auto cell = static_cast<std::size_t>(*r.cell);
    if (cell >= spec.stops.size() || o.iterates.size() != static_cast<std::size_t>(spec.stops[cell]))
        return invalid("it settled in cell " + std::to_string(cell) + " but it released "
                       + std::to_string(o.iterates.size()) + " iterates");
    PBX_TRY(col, boundedColumnShape(table, spec.column, "column"));
    if (o.noiseScale != noiseScaleOf(spec, col))
        return invalid("its noise scale is not Δ/ε₀ of its parameters");
    for (double y : o.iterates)
        if (!std::isfinite(y))
            return invalid("an iterate is not a finite number");
    // The stopping rule is a function of the released iterates: replay it.
    for (std::size_t j = 0; j < cell; ++j)
        if (earlyStopHalts(o.iterates, static_cast<std::size_t>(spec.stops[j]), o.noiseScale, spec.tolerance))
            return invalid("its stopping rule halts at k = " + std::to_string(spec.stops[j])
                           + ", before the recorded stopping point");
    if (cell + 1 < spec.stops.size()
        && !earlyStopHalts(o.iterates, o.iterates.size(), o.noiseScale, spec.tolerance))
        return invalid("its stopping rule does not halt at k = " + std::to_string(o.iterates.size()));
    if (o.estimate != runningMean(o.iterates, o.iterates.size()))
        return invalid("its estimate is not the mean of its iterates");
    return {};
}

} // namespace pbx::session
