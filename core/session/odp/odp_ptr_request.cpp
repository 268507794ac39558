// SPDX-License-Identifier: MIT
#include "core/math/directed_rounding.h"
#include "core/odp/ptr_iqr.h"
#include "core/session/odp/odp_mechanisms.h"
#include "core/strategies/quantiles.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>

namespace pbx::session {

namespace {

Error invalid(const std::string &message)
{
    return makeError(ErrorCode::InvalidArgument, message);
}

constexpr std::size_t kMedianGridPoints = 1001;
constexpr double kMinMedianEpsilon = 1.0 / 1048576.0; // sampleGridQuantile's lower limit 2^−20

odp::IqrReleaseMode modeOf(const PtrIqrRequestSpec &spec)
{
    return spec.binMode ? odp::IqrReleaseMode::Bin : odp::IqrReleaseMode::Noisy;
}

Result<void> checkParameters(const PtrIqrRequestSpec &spec)
{
    if (!std::isfinite(spec.epsilon) || !(spec.epsilon > 0.0))
        return invalid("epsilon: must be a finite number > 0");
    if (!(spec.failureProbability > 0.0 && spec.failureProbability < 0.5))
        return invalid("delta_f: must lie in (0, 1/2)");
    if (!std::isfinite(spec.width) || spec.width < 0.0)
        return invalid("width: must be a finite number > 0 (or absent for ln(1 + 1/ln n))");
    if (!std::isfinite(spec.medianEpsilon) || spec.medianEpsilon < 0.0
        || (spec.medianEpsilon > 0.0 && spec.medianEpsilon < kMinMedianEpsilon))
        return invalid("median_epsilon: must be 0 (no median) or a finite number ≥ 2^-20");
    return {};
}

odp::PtrCaseCosts caseCosts(const PtrIqrRequestSpec &spec)
{
    auto t = odp::ptrThreshold(spec.epsilon, spec.failureProbability, 2);
    const double deltaF = odp::ptrFailureProbability(spec.epsilon, *t, 2);
    // Three cells by Lemma 6 (one reservation holds both PTR functions): δ = 2δ_f.
    return odp::ptrCaseCosts(odp::PtrAccounting::Cells3, modeOf(spec), spec.epsilon, deltaF);
}

std::vector<double> medianGrid(double lo, double hi)
{
    std::vector<double> grid(kMedianGridPoints);
    for (std::size_t i = 0; i < kMedianGridPoints; ++i)
        grid[i] = lo + (hi - lo) * static_cast<double>(i) / static_cast<double>(kMedianGridPoints - 1);
    grid.back() = hi;
    return grid;
}

const char *caseLabel(int outcome)
{
    return outcome == 1 ? "case 1: M1 released" : outcome == 2 ? "case 2: M2 released" : "case 3: both ⊥";
}

} // namespace

double ptrIqrMedianEpsilon(const PtrIqrRequestSpec &spec, int outcome)
{
    if (spec.medianEpsilon == 0.0 && !spec.spendSavings)
        return 0.0;
    const auto c = caseCosts(spec);
    // What the realised case saved against the worst case, rounded down (never over-spent).
    const double saved
        = spec.spendSavings ? math::subtractRoundDown(c.worstEpsilon, c.epsilon[outcome - 1]) : 0.0;
    const double e = math::addRoundUp(spec.medianEpsilon, saved);
    return e < kMinMedianEpsilon ? 0.0 : e;
}

Result<odp::OdpGuarantee> ptrIqrRequestGuarantee(const PtrIqrRequestSpec &spec)
{
    PBX_RETURN_IF_ERROR(checkParameters(spec));
    const auto c = caseCosts(spec);
    odp::OdpGuarantee g;
    for (int k = 1; k <= 3; ++k)
        g.cells.push_back(
            {k, caseLabel(k), math::addRoundUp(c.epsilon[k - 1], ptrIqrMedianEpsilon(spec, k))});
    g.delta = c.admissionDelta;
    PBX_RETURN_IF_ERROR(g.validate());
    return g;
}

Result<void> checkPtrIqrRequest(const PtrIqrRequestSpec &spec, const data::Table &table)
{
    PBX_RETURN_IF_ERROR(checkParameters(spec));
    PBX_TRY(col, boundedColumnShape(table, spec.column, "column"));
    if (col.rows < 4)
        return invalid("column: PTR-IQR needs at least 4 rows");
    return {};
}

Result<int> runPtrIqrRequest(const PtrIqrRequestSpec &spec, const data::Rows &table,
                             mechanisms::RandomBits &bits, OdpRecord &record)
{
    PBX_TRY(col, boundedColumn(table, spec.column, "column"));
    PBX_TRY(data, odp::IqrData::create(col.values, col.lo, col.hi));
    odp::PtrIqrParameters p;
    p.epsilon = spec.epsilon;
    p.failureProbability = spec.failureProbability;
    p.width = spec.width;
    p.mode = modeOf(spec);
    p.randomOrder = spec.randomOrder;
    PBX_TRY(run, odp::runPtrIqr(data, p, bits));
    PtrIqrOutput out;
    out.width = run.width;
    out.threshold = run.threshold;
    out.failureProbability = run.failureProbability;
    out.offsets[0] = run.offsets[0];
    out.offsets[1] = run.offsets[1];
    out.outcome = run.outcome;
    out.iqr = run.released;
    // The median with what this case leaves (docs/output-dp.md §4): chosen from S's output only.
    out.medianEpsilon = ptrIqrMedianEpsilon(spec, run.outcome);
    if (out.medianEpsilon > 0.0) {
        const auto grid = medianGrid(col.lo, col.hi);
        PBX_TRY(index, strategies::sampleGridQuantile(col.values, 0.5, out.medianEpsilon, grid, bits));
        out.median = grid[index];
    }
    record.ptrIqr = out;
    return run.outcome;
}

Result<void> auditPtrIqrOutput(const PtrIqrRequestSpec &spec, const OdpRecord &r, const data::Table &table)
{
    if (!r.ptrIqr)
        return invalid("a settled ptr-iqr event without its output");
    const PtrIqrOutput &o = *r.ptrIqr;
    if (o.outcome < 1 || o.outcome > 3 || *r.cell != o.outcome)
        return invalid("it settled in cell " + std::to_string(*r.cell) + " but its output is case "
                       + std::to_string(o.outcome));
    if (o.iqr.has_value() != (o.outcome != 3))
        return invalid("case " + std::to_string(o.outcome)
                       + (o.outcome == 3 ? " releases no IQR, but one is recorded" : " must release an IQR"));
    PBX_TRY(col, boundedColumnShape(table, spec.column, "column"));
    const double width = spec.width == 0.0 ? odp::defaultBinWidth(col.rows) : spec.width;
    const double t = *odp::ptrThreshold(spec.epsilon, spec.failureProbability, 2);
    if (o.width != width || o.threshold != t
        || o.failureProbability != odp::ptrFailureProbability(spec.epsilon, t, 2))
        return invalid("its bin width, threshold or δ_f is not the one its parameters give");
    const bool swapped = o.offsets[0] == 0.5 && o.offsets[1] == 0.0;
    if (!(o.offsets[0] == 0.0 && o.offsets[1] == 0.5) && !(swapped && spec.randomOrder))
        return invalid("its offsets are not {0, ½} in an order its parameters allow");
    if (o.iqr && (!std::isfinite(*o.iqr) || *o.iqr < 0.0))
        return invalid("its IQR is not a finite number ≥ 0");
    if (o.iqr && spec.binMode && *o.iqr > 0.0) {
        // Bin mode releases exp((j + o + ½)w) for the passing discretisation's offset o.
        const double j = std::log(*o.iqr) / width - o.offsets[o.outcome - 1] - 0.5;
        if (std::abs(j - std::round(j)) > 1e-6)
            return invalid("its bin-mode IQR is not a bin midpoint of the passing discretisation");
    }
    if (o.medianEpsilon != ptrIqrMedianEpsilon(spec, o.outcome))
        return invalid("its median used ε = " + std::to_string(o.medianEpsilon) + ", not what case "
                       + std::to_string(o.outcome) + " leaves");
    if (o.median.has_value() != (o.medianEpsilon > 0.0))
        return invalid(o.median ? "a median is recorded but none was run" : "its median is missing");
    if (o.median) {
        const auto grid = medianGrid(col.lo, col.hi);
        if (std::find(grid.begin(), grid.end(), *o.median) == grid.end())
            return invalid("its median is not a point of the public grid");
    }
    return {};
}

} // namespace pbx::session
