// SPDX-License-Identifier: MIT
#include "core/session/growing/growing_smalldb.h"

#include "core/datasets/cps1988_smalldb.h"
#include "core/growing/growing_error.h"
#include "core/growing/growing_lab.h"
#include "core/growing/smalldb.h"
#include "core/session/growing/growing_planned.h"
#include "core/util/number_format.h"
#include "core/util/try.h"

#include <cmath>
#include <cstdio>
#include <numeric>

namespace pbx::session {

namespace {

using growing::growingError;

/// The sampler's ε range (growing::SmallDb::sample).
constexpr double kMinEpsilon = 0x1p-20;
constexpr double kMaxEpsilon = 0x1p20;

Result<growing::SchedulerConfig> schedulerConfig(const GrowingRequestSpec &spec)
{
    if (spec.algorithm != GrowingAlgorithm::SmallDb)
        return growingError(growing::kInvalidConfig, "algorithm", "expected smalldb here");
    PBX_TRY(budget, growingStreamBudget(spec));
    const growing::ScheduleKind kind = spec.schedule;
    if (growing::scheduleIsZcdp(kind) != growing::isZcdp(budget))
        return growingError(
            growing::kInvalidSchedule, "schedule.kind",
            "'" + std::string(growing::scheduleKindName(kind)) + "' needs "
                + (growing::scheduleIsZcdp(kind) ? "a zcdp or approx budget" : "a pure budget")
                + " (budget.kind is '" + std::string(growing::budgetKindName(spec.budgetKind)) + "')");
    // The range is checked here, before any data is read or anything charged: C(16+m−1, m) ≤ 5·10⁶.
    const std::size_t m = std::size_t(std::min<std::uint64_t>(spec.smallDbSize, 1u << 16));
    PBX_RETURN_IF_ERROR(growing::SmallDb::create(
        growing::SmallDbInstance::kCells, {std::vector<std::uint8_t>(growing::SmallDbInstance::kCells, 1)}, m,
        "black_box"));
    growing::BlackBox box;
    box.kind = growing::BlackBoxKind::SmallDb;
    box.universe = growing::SmallDbInstance::kCells;
    box.queries = growing::kCpsSmallDbQueries;
    growing::SchedulerConfig c{spec.startSize, spec.gamma, budget, kind, spec.beta, box};
    PBX_RETURN_IF_ERROR(growing::validate(c));
    return c;
}

const char *const kRegions[] = {"northeast", "midwest", "south", "west"};
const char *const kNoYes[] = {"no", "yes"};

} // namespace

Result<std::vector<GrowingRunPlan>> smallDbRunPlan(const GrowingRequestSpec &spec, const data::Table &table)
{
    PBX_TRY(config, schedulerConfig(spec));
    PBX_TRY(end, growingStreamEnd(spec, table));
    PBX_RETURN_IF_ERROR(
        checkEpochCount(spec, end, kMaxSmallDbEpochs, "epochs (each draw enumerates the whole range)"));
    PBX_TRY(epochs, growing::planEpochs(config, end));
    std::vector<GrowingRunPlan> plan;
    for (const auto &e : epochs) {
        // Checked before anything is charged: a draw the sampler would refuse after its charge
        // would leave a charge without a release.
        if (!(e.privacy.epsilon >= kMinEpsilon && e.privacy.epsilon <= kMaxEpsilon))
            return growingError(growing::kInvalidConfig, "schedule.gamma",
                                "epoch " + std::to_string(e.privacy.index)
                                    + "'s ε = " + formatSignificant(e.privacy.epsilon)
                                    + " is outside the sampler's 2^-20 … 2^20; shorten the stream");
        GrowingRunPlan r;
        r.index = e.privacy.index;
        r.start = e.start;
        r.last = e.last;
        r.epsilon = e.privacy.epsilon;
        r.rho = e.privacy.rho;
        r.beta = e.privacy.beta;
        r.scale = 0.0; // a sample from the exponential mechanism, not additive noise
        r.bound = e.bound;
        // ε_i (pure) or ρ_i (zCDP, with ε_i = √(2ρ_i) rounded down so ε_i²/2 ≤ ρ_i, Bun & Steinke
        // 2016 Prop. 1.4); the exact sampler's integer weights move by at most ε_i/2 − 2^−32 between
        // neighbours (growing::SmallDb::sample), so the draw is ε_i-DP: the charge never under-reports.
        r.charge = growingEpochCharge(spec, e);
        plan.push_back(r);
    }
    return plan;
}

Result<double> smallDbSeriesTotal(const GrowingRequestSpec &spec)
{
    PBX_TRY(config, schedulerConfig(spec));
    PBX_TRY(scheduler, growing::BBScheduler::create(config));
    return scheduler.total();
}

Result<void> checkSmallDbData(const data::Table &table)
{
    PBX_RETURN_IF_ERROR(growing::cpsSmallDbInstance(table));
    return {};
}

Result<std::vector<std::string>> smallDbQueryNames(const data::Table &table)
{
    PBX_TRY(inst, growing::cpsSmallDbInstance(table));
    return inst.names;
}

Result<void> runSmallDbStream(const GrowingRequestSpec &spec, const std::vector<GrowingRunPlan> &plan,
                              const data::Rows &table, std::span<const std::uint32_t> order,
                              filters::PrivacyFilter &filter, mechanisms::NoiseSource &noise,
                              LedgerEvent &event, GrowingRecord &record)
{
    PBX_TRY(inst, growing::cpsSmallDbInstance(table));
    PBX_TRY(db, growing::SmallDb::create(growing::SmallDbInstance::kCells, inst.queries,
                                         std::size_t(spec.smallDbSize), "black_box"));
    std::vector<std::uint64_t> cells(growing::SmallDbInstance::kCells, 0);
    std::uint64_t t = 0;
    auto release = [&](const GrowingRunPlan &run) -> Result<PlannedRelease> {
        for (; t < run.start; ++t)
            ++cells[inst.rowCells[order[std::size_t(t)]]];
        PBX_TRY(y, db.sample(cells, run.epsilon, noise.bits()));
        PlannedRelease out;
        out.values = db.answers(y);
        out.cells = std::move(y);
        return out;
    };
    return runPlannedStream(plan, "SmallDBG", "epoch", "fraction", filter, release, event, record);
}

std::string smallDbEpochLabel(const LedgerEvent &e, std::size_t epoch)
{
    const GrowingRecord &r = *e.growingRecord();
    const GrowingEpochRecord &x = r.epochs[epoch];
    const bool zcdp = e.costKind == filters::ChargeKind::Rho;
    return "SmallDBG epoch " + std::to_string(x.index) + " of " + std::to_string(r.plannedEpochs)
           + ": t = " + std::to_string(x.start) + ", "
           + (zcdp ? "ρ = " + formatSignificant(x.rho) + " (ε = " + formatSignificant(x.epsilon) + ")"
                   : "ε = " + formatSignificant(x.epsilon));
}

std::string smallDbDatabaseText(const GrowingEpochRecord &x)
{
    const std::uint64_t m = std::accumulate(x.cells.begin(), x.cells.end(), std::uint64_t{0});
    std::string text = "m = " + std::to_string(m) + " rows (region, smsa, parttime):";
    bool first = true;
    for (std::size_t c = 0; c < x.cells.size() && c < growing::SmallDbInstance::kCells; ++c) {
        if (x.cells[c] == 0)
            continue;
        text += std::string(first ? " " : ", ") + "(" + kRegions[c / 4] + ", " + kNoYes[(c / 2) % 2] + ", "
                + kNoYes[c % 2] + ")";
        if (x.cells[c] > 1)
            text += " ×" + std::to_string(x.cells[c]);
        first = false;
    }
    return text;
}

std::string describeSmallDbRequest(const GrowingRequestSpec &s, const std::string &budget)
{
    return "SmallDBG stream, t = " + std::to_string(s.startSize) + " … "
           + (s.end ? std::to_string(*s.end) : std::string("all rows")) + ", "
           + std::string(growing::scheduleKindName(s.schedule)) + " γ = " + formatSignificant(s.gamma)
           + ", m = " + std::to_string(s.smallDbSize) + ", " + budget + ", "
           + std::to_string(growing::kCpsSmallDbQueries) + " marginal queries";
}

Result<void> auditSmallDbEvent(const LedgerEvent &e, const data::Table &table)
{
    const std::string where = "event " + std::to_string(e.index) + " ('" + e.request.id + "')";
    const GrowingRequestSpec &spec = *e.request.growing();
    auto plan = smallDbRunPlan(spec, table);
    auto total = smallDbSeriesTotal(spec);
    auto inst = growing::cpsSmallDbInstance(table);
    if (!plan || !total || !inst)
        return makeError(ErrorCode::Parse, where + ": "
                                               + (!plan    ? plan.error().message
                                                  : !total ? total.error().message
                                                           : inst.error().message));
    auto db = growing::SmallDb::create(growing::SmallDbInstance::kCells, inst->queries,
                                       std::size_t(spec.smallDbSize), "black_box");
    if (!db)
        return makeError(ErrorCode::Parse, where + ": " + db.error().message);
    const auto check = [&](std::size_t i) -> Result<void> {
        const GrowingEpochRecord &x = e.growingRecord()->epochs[i];
        if (x.cells.size() != growing::SmallDbInstance::kCells
            || std::accumulate(x.cells.begin(), x.cells.end(), std::uint64_t{0}) != spec.smallDbSize)
            return makeError(ErrorCode::Parse, "its synthetic database is not "
                                                   + std::to_string(spec.smallDbSize)
                                                   + " elements of the 16-cell universe");
        if (db->answers(x.cells) != x.answers)
            return makeError(ErrorCode::Parse, "its released answers are not its synthetic database's");
        return {};
    };
    return auditPlannedEvent(e, *plan, *growingStreamEnd(spec, table), *total, "epoch",
                             growing::kCpsSmallDbQueries, check);
}

} // namespace pbx::session
