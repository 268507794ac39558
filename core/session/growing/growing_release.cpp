// SPDX-License-Identifier: MIT
#include "core/session/growing/growing_release.h"

#include "core/data/predicate.h"
#include "core/datasets/cps1988_pmwg.h"
#include "core/growing/growing_error.h"
#include "core/math/directed_rounding.h"
#include "core/session/growing/growing_ermg.h"
#include "core/session/growing/growing_exact_noise.h"
#include "core/session/growing/growing_nsg.h"
#include "core/session/growing/growing_planned.h"
#include "core/session/growing/growing_pmwg.h"
#include "core/session/growing/growing_smalldb.h"
#include "core/util/number_format.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <span>

namespace pbx::session {

namespace {

using growing::growingError;

/// The request's predicates, compiled against the table's schema (no row is read). Errors:
/// INVALID_BLACK_BOX naming the query.
Result<std::vector<data::Predicate>> queryPredicates(const GrowingRequestSpec &spec, const data::Table &table)
{
    std::vector<data::Predicate> predicates;
    for (std::size_t j = 0; j < spec.queries.size(); ++j) {
        auto p = data::Predicate::compile(spec.queries[j], table);
        if (!p)
            return makeError(p.error().code, std::string(growing::kInvalidBlackBox) + ": black_box.queries["
                                                 + std::to_string(j) + "]: " + p.error().message);
        predicates.push_back(std::move(*p));
    }
    return predicates;
}

/// The masks of the request's predicates over the rows. Errors: as queryPredicates.
Result<std::vector<std::vector<std::uint8_t>>> queryMasks(const GrowingRequestSpec &spec,
                                                          const data::Rows &rows)
{
    PBX_TRY(predicates, queryPredicates(spec, rows.table()));
    std::vector<std::vector<std::uint8_t>> masks(predicates.size());
    for (std::size_t j = 0; j < predicates.size(); ++j)
        (predicates)[j].evaluate(rows, masks[j]);
    return masks;
}

/// The Laplace-k black box both BBScheduler and BBImprover re-run in a session: k = the number of
/// predicates. Errors: INVALID_BLACK_BOX ("black_box.queries") when there are none.
Result<growing::BlackBox> laplaceBoxOf(const GrowingRequestSpec &spec)
{
    if (spec.queries.empty())
        return growingError(growing::kInvalidBlackBox, "black_box.queries",
                            "a session's laplace-k box needs at least one predicate");
    growing::BlackBox box;
    box.kind = growing::BlackBoxKind::LaplaceK;
    box.queries = spec.queries.size();
    return box;
}

/// The exact discrete noise of a Laplace-k run and its bound: the count-scale scale
/// (countLaplaceScale of run.scale at run.start) and the discrete tail's α over the k queries (union
/// bound, β_t/k each) plus `staleness`. Errors: as countLaplaceScale.
Result<void> setCountNoise(GrowingRunPlan &run, std::size_t k, double staleness)
{
    PBX_TRY(scale, countLaplaceScale(run.scale, run.start));
    run.noise = scale;
    if (!(run.beta > 0.0)) {
        run.bound = INFINITY; // no accuracy claim (as the lab's α for β_i = 0)
        return {};
    }
    PBX_TRY(alpha, countLaplaceBound(scale, run.start, run.beta / double(k)));
    run.bound = alpha + staleness;
    return {};
}

} // namespace

Result<growing::SchedulerConfig> growingSchedulerConfig(const GrowingRequestSpec &spec)
{
    if (spec.algorithm != GrowingAlgorithm::BBScheduler)
        return growingError(growing::kInvalidConfig, "algorithm",
                            "expected bbscheduler here (the Laplace-k schedule of a bbscheduler stream)");
    growing::SchedulerConfig c;
    c.startSize = spec.startSize;
    c.gamma = spec.gamma;
    PBX_TRY(budget, growingStreamBudget(spec));
    c.budget = budget;
    c.schedule = spec.schedule;
    if (growing::scheduleIsZcdp(c.schedule) != growing::isZcdp(c.budget))
        return growingError(
            growing::kInvalidSchedule, "schedule.kind",
            "'" + std::string(growing::scheduleKindName(spec.schedule)) + "' needs "
                + (growing::scheduleIsZcdp(c.schedule) ? "a zcdp or approx budget" : "a pure budget")
                + " (budget.kind is '" + std::string(growing::budgetKindName(spec.budgetKind)) + "')");
    c.beta = spec.beta;
    PBX_TRY(box, laplaceBoxOf(spec));
    c.box = box;
    PBX_RETURN_IF_ERROR(growing::validate(c));
    return c;
}

Result<growing::ImproverConfig> growingImproverConfig(const GrowingRequestSpec &spec)
{
    if (spec.algorithm != GrowingAlgorithm::BBImprover)
        return growingError(growing::kInvalidConfig, "algorithm", "expected bbimprover here");
    growing::ImproverConfig c;
    c.startSize = spec.startSize;
    c.decay = spec.decay;
    c.every = spec.every;
    PBX_TRY(budget, growingStreamBudget(spec));
    c.budget = budget;
    c.beta = spec.beta;
    PBX_TRY(box, laplaceBoxOf(spec));
    c.box = box;
    PBX_RETURN_IF_ERROR(growing::validate(c));
    return c;
}

Result<std::uint64_t> growingStreamEnd(const GrowingRequestSpec &spec, const data::Table &table)
{
    const std::uint64_t rows = table.rowCount();
    const std::uint64_t end = spec.end.value_or(rows);
    if (end > rows)
        return growingError(growing::kInvalidConfig, "stream.end",
                            "exceeds the dataset's " + std::to_string(rows) + " rows");
    if (end < spec.startSize)
        return growingError(growing::kInvalidConfig, "stream.end",
                            "must be ≥ stream.start_size (" + std::to_string(spec.startSize) + ")");
    return end;
}

Result<std::vector<growing::EpochPlan>> growingEpochPlan(const GrowingRequestSpec &spec,
                                                         const data::Table &table)
{
    PBX_TRY(config, growingSchedulerConfig(spec));
    PBX_TRY(end, growingStreamEnd(spec, table));
    // The number of epochs is known before they are planned: refuse huge plans before building them.
    PBX_TRY(count, checkEpochCount(spec, end, kMaxGrowingEpochs, "epochs (every answer is recorded)"));
    if (count * spec.queries.size() > kMaxGrowingAnswers)
        return growingError(growing::kInvalidConfig, "black_box.queries",
                            std::to_string(count) + " epochs × " + std::to_string(spec.queries.size())
                                + " queries exceed " + std::to_string(kMaxGrowingAnswers)
                                + " recorded answers");
    PBX_TRY(plan, growing::planEpochs(config, end));
    for (const auto &e : plan)
        if (!(e.privacy.epsilon > 0.0))
            return growingError(growing::kInvalidConfig, "schedule.gamma",
                                "epoch " + std::to_string(e.privacy.index)
                                    + "'s ε underflows to 0 (no useful run); shorten the stream");
    return plan;
}

namespace {

/// BBImprover's runs t = n + jm ≤ end (see growingRunPlan).
Result<std::vector<GrowingRunPlan>> improverRunPlan(const GrowingRequestSpec &spec, const data::Table &table,
                                                    GrowingNoiseDesign design)
{
    PBX_TRY(config, growingImproverConfig(spec));
    PBX_TRY(end, growingStreamEnd(spec, table));
    const std::uint64_t runs = (end - spec.startSize) / spec.every + 1;
    if (runs > kMaxGrowingEpochs)
        return growingError(growing::kInvalidConfig, "schedule.every",
                            "the stream would have " + std::to_string(runs) + " runs, more than "
                                + std::to_string(kMaxGrowingEpochs)
                                + " (every answer is recorded); run every m ≥ "
                                + std::to_string((end - spec.startSize) / kMaxGrowingEpochs + 1) + " rows");
    if (runs * spec.queries.size() > kMaxGrowingAnswers)
        return growingError(growing::kInvalidConfig, "black_box.queries",
                            std::to_string(runs) + " runs × " + std::to_string(spec.queries.size())
                                + " queries exceed " + std::to_string(kMaxGrowingAnswers)
                                + " recorded answers");
    PBX_TRY(improver, growing::BBImprover::create(config));
    const std::size_t k = spec.queries.size();
    std::vector<GrowingRunPlan> plan;
    plan.reserve(runs);
    for (std::uint64_t j = 0; j < runs; ++j) {
        const std::uint64_t t = spec.startSize + j * spec.every;
        const growing::ImproverStep step = improver.step(t);
        if (!(step.epsilon > 0.0))
            return growingError(growing::kInvalidConfig, "budget.rho",
                                "the run at t = " + std::to_string(t)
                                    + " would have ε = 0 (ρ_t underflows); shorten the stream");
        GrowingRunPlan r;
        r.index = j;
        r.start = t;
        r.last = std::min(t + spec.every - 1, end);
        r.epsilon = step.epsilon;
        r.rho = step.rho;
        r.beta = step.beta;
        r.scale = growing::laplaceKScale(k, step.epsilon, double(t));
        // The last block may be cut at `end`: its staleness is then the shorter one.
        if (design == GrowingNoiseDesign::Continuous)
            r.bound = step.alphaBlackBox + growing::epochStaleness(t, r.last);
        else
            PBX_RETURN_IF_ERROR(setCountNoise(r, k, growing::epochStaleness(t, r.last)));
        // ρ_t is the block's own share of the series (m times its smallest term, rounded down):
        // the runs together never charge more than ρ (growing::BBImprover::step).
        r.charge = filters::Charge{filters::ChargeKind::Rho, step.rho, 0.0};
        plan.push_back(r);
    }
    return plan;
}

} // namespace

Result<std::vector<GrowingRunPlan>> growingRunPlan(const GrowingRequestSpec &spec, const data::Table &table,
                                                   GrowingNoiseDesign design)
{
    if (spec.algorithm == GrowingAlgorithm::Nsg || spec.algorithm == GrowingAlgorithm::Pmwg)
        return growingError(growing::kInvalidConfig, "algorithm",
                            "an " + growingAlgorithmTitle(spec)
                                + " stream has no fixed runs: its rounds open as its ⊤ answers come");
    if (spec.algorithm == GrowingAlgorithm::BBImprover)
        return improverRunPlan(spec, table, design);
    if (spec.algorithm == GrowingAlgorithm::Ermg)
        return ermgRunPlan(spec, table, design);
    if (spec.algorithm == GrowingAlgorithm::SmallDb)
        return smallDbRunPlan(spec, table);
    PBX_TRY(epochs, growingEpochPlan(spec, table));
    const std::size_t k = spec.queries.size();
    std::vector<GrowingRunPlan> plan;
    plan.reserve(epochs.size());
    for (const auto &e : epochs) {
        GrowingRunPlan r;
        r.index = e.privacy.index;
        r.start = e.start;
        r.last = e.last;
        r.epsilon = e.privacy.epsilon;
        r.rho = e.privacy.rho;
        r.beta = e.privacy.beta;
        r.scale = growing::laplaceKScale(k, e.privacy.epsilon, double(e.start));
        r.charge = growingEpochCharge(spec, e);
        if (design == GrowingNoiseDesign::Continuous)
            r.bound = e.bound;
        else
            PBX_RETURN_IF_ERROR(setCountNoise(r, k, e.staleness));
        plan.push_back(r);
    }
    return plan;
}

Result<double> growingSeriesTotal(const GrowingRequestSpec &spec)
{
    if (spec.algorithm == GrowingAlgorithm::Pmwg) {
        PBX_TRY(unit, growingPmwgUnit(spec));
        return pmwgChargeWorstCase(spec, unit);
    }
    if (spec.algorithm == GrowingAlgorithm::Nsg) {
        PBX_TRY(unit, growingNsgUnit(spec));
        return nsgChargeWorstCase(spec, unit);
    }
    if (spec.algorithm == GrowingAlgorithm::Ermg)
        return ermgSeriesTotal(spec);
    if (spec.algorithm == GrowingAlgorithm::SmallDb)
        return smallDbSeriesTotal(spec);
    if (spec.algorithm == GrowingAlgorithm::BBImprover) {
        PBX_TRY(config, growingImproverConfig(spec));
        PBX_TRY(improver, growing::BBImprover::create(config));
        return improver.total();
    }
    PBX_TRY(config, growingSchedulerConfig(spec));
    PBX_TRY(scheduler, growing::BBScheduler::create(config));
    return scheduler.total();
}

std::string growingAlgorithmTitle(const GrowingRequestSpec &spec)
{
    switch (spec.algorithm) {
    case GrowingAlgorithm::BBScheduler:
        return "BBScheduler";
    case GrowingAlgorithm::BBImprover:
        return "BBImprover";
    case GrowingAlgorithm::Nsg:
        return "NSG";
    case GrowingAlgorithm::Pmwg:
        return "PMWG";
    case GrowingAlgorithm::Ermg:
        return "ERMG";
    case GrowingAlgorithm::SmallDb:
        return "SmallDBG";
    }
    return "BBScheduler";
}

filters::Charge growingEpochCharge(const GrowingRequestSpec &spec, const growing::EpochPlan &epoch)
{
    const bool zcdp = growing::scheduleIsZcdp(spec.schedule);
    return zcdp ? filters::Charge{filters::ChargeKind::Rho, epoch.privacy.rho, 0.0}
                : filters::Charge{filters::ChargeKind::PureEpsilon, epoch.privacy.epsilon, 0.0};
}

Result<void> checkGrowingRequest(const QueryRequest &request, const data::Table &table,
                                 const SessionSettings &settings)
{
    if (!request.growing())
        return makeError(ErrorCode::InvalidArgument, "not a growing-database request");
    const GrowingRequestSpec &spec = *request.growing();
    if (settings.neighbours != data::Neighbouring::Replace)
        return growingError(growing::kNeighboursUnsupported, "neighbours",
                            "growing-database mechanisms are analysed for replace-one neighbouring streams "
                            "(use --neighbours replace)");
    filters::Charge charge;
    if (spec.algorithm == GrowingAlgorithm::Nsg) {
        PBX_TRY(unit, growingNsgUnit(spec));
        PBX_TRY(end, growingStreamEnd(spec, table));
        // Every checkpoint's exact noise scales fit the sampler (refused here, nothing spent).
        PBX_RETURN_IF_ERROR(
            svtNoiseAtEach(unit, nsgCheckpointTimes(spec.startSize, end, spec.nsgCheckpoints)));
        charge = nsgRoundCharge(spec, unit, spec.startSize);
    } else if (spec.algorithm == GrowingAlgorithm::Pmwg) {
        PBX_TRY(unit, growingPmwgUnit(spec));
        PBX_TRY(end, growingStreamEnd(spec, table));
        PBX_RETURN_IF_ERROR(
            svtNoiseAtEach(unit, nsgCheckpointTimes(spec.startSize, end, spec.pmwg.checkpoints)));
        PBX_RETURN_IF_ERROR(growing::cpsUniverse(table, spec.pmwg.universe));
        charge = pmwgRoundCharge(spec, unit, spec.startSize);
    } else {
        PBX_TRY(plan, growingRunPlan(spec, table));
        charge = plan.front().charge;
    }
    if (spec.algorithm == GrowingAlgorithm::Ermg || spec.algorithm == GrowingAlgorithm::SmallDb)
        PBX_RETURN_IF_ERROR(spec.algorithm == GrowingAlgorithm::Ermg ? checkErmgData(table)
                                                                     : checkSmallDbData(table));
    PBX_RETURN_IF_ERROR(queryPredicates(spec, table));
    PBX_RETURN_IF_ERROR(growing::checkArrivalOrder(table, spec.order));
    // Whether the filter can account this kind of charge at all (a zero charge of the kind on a
    // fresh filter of the session's kind): a refusal for budget comes later, epoch by epoch.
    PBX_TRY(probe, filters::PrivacyFilter::create(settings.filter, settings.epsilon, settings.delta,
                                                  settings.split));
    charge.amount = 0.0;
    if (auto ok = (probe)->canCharge(charge); !ok)
        return makeError(
            ok.error().code,
            (spec.algorithm == GrowingAlgorithm::BBScheduler || spec.algorithm == GrowingAlgorithm::SmallDb
                 ? "schedule.kind: '" + std::string(growing::scheduleKindName(spec.schedule)) + "'"
             : spec.algorithm == GrowingAlgorithm::Nsg || spec.algorithm == GrowingAlgorithm::Pmwg
                 ? "budget.kind: '" + std::string(growing::budgetKindName(spec.budgetKind)) + "'"
                 : "algorithm: '" + std::string(growingAlgorithmName(spec.algorithm)) + "'")
                + " charges " + std::string(filters::chargeUnitSymbol(charge.kind)) + ", but "
                + ok.error().message);
    return {};
}

std::string releasedBefore(std::size_t count, const std::string &unit)
{
    if (count == 1)
        return "the " + unit + " before it stays released and charged";
    return "the " + std::to_string(count) + " " + unit + "s before it stay released and charged";
}

std::string growingEpochLabel(const LedgerEvent &e, std::size_t epoch)
{
    if (e.growingRecord()->nsg)
        return nsgRoundLabel(e, epoch);
    if (e.request.growing() && e.request.growing()->algorithm == GrowingAlgorithm::Ermg)
        return ermgReleaseLabel(e, epoch);
    if (e.request.growing() && e.request.growing()->algorithm == GrowingAlgorithm::SmallDb)
        return smallDbEpochLabel(e, epoch);
    if (e.growingRecord()->pmwg)
        return pmwgRoundLabel(e, epoch);
    const GrowingRecord &r = *e.growingRecord();
    const GrowingEpochRecord &x = r.epochs[epoch];
    const bool zcdp = e.costKind == filters::ChargeKind::Rho;
    const bool improver
        = e.request.growing() && e.request.growing()->algorithm == GrowingAlgorithm::BBImprover;
    return std::string(improver ? "BBImprover run " : "BBScheduler epoch ") + std::to_string(x.index) + " of "
           + std::to_string(r.plannedEpochs) + ": t = " + std::to_string(x.start) + ", "
           + (zcdp ? "ρ = " + formatSignificant(x.rho) : "ε = " + formatSignificant(x.epsilon));
}

std::string describeGrowingRequest(const QueryRequest &request)
{
    const GrowingRequestSpec &s = *request.growing();
    if (s.algorithm == GrowingAlgorithm::Pmwg)
        return describePmwgRequest(s);
    const std::string budget
        = s.budgetKind == growing::BudgetKind::Zcdp ? "ρ ≤ " + formatSignificant(s.rho)
          : s.budgetKind == growing::BudgetKind::Approx
              ? "(" + formatSignificant(s.epsilon) + ", " + formatSignificant(s.delta) + ")"
              : "ε ≤ " + formatSignificant(s.epsilon);
    if (s.algorithm == GrowingAlgorithm::Ermg)
        return describeErmgRequest(s, budget);
    if (s.algorithm == GrowingAlgorithm::SmallDb)
        return describeSmallDbRequest(s, budget);
    if (s.algorithm == GrowingAlgorithm::Nsg)
        return "NSG stream, t = " + std::to_string(s.startSize) + " … "
               + (s.end ? std::to_string(*s.end) : std::string("all rows"))
               + ", p = " + formatSignificant(s.nsgExponent) + ", T = " + formatSignificant(s.nsgThreshold)
               + ", " + (s.nsgCapKind == NsgCapKind::Time ? "time cap c₀ = " : "constant cap c = ")
               + formatSignificant(s.nsgCap) + ", " + std::to_string(s.nsgCheckpoints) + " checkpoints, "
               + budget + ", " + std::to_string(s.queries.size())
               + (s.queries.size() == 1 ? " query" : " queries");
    const std::string schedule
        = s.algorithm == GrowingAlgorithm::BBImprover
              ? "a = " + formatSignificant(s.decay) + ", every " + std::to_string(s.every)
                    + (s.every == 1 ? " row" : " rows")
              : std::string(growing::scheduleKindName(s.schedule)) + " γ = " + formatSignificant(s.gamma);
    return growingAlgorithmTitle(s) + " stream, t = " + std::to_string(s.startSize) + " … "
           + (s.end ? std::to_string(*s.end) : std::string("all rows")) + ", " + schedule + ", " + budget
           + ", " + std::to_string(s.queries.size()) + (s.queries.size() == 1 ? " query" : " queries");
}

Result<void> runLaplaceKStream(const GrowingRequestSpec &spec, const std::vector<GrowingRunPlan> &plan,
                               const growing::PrefixCounts &counts, filters::PrivacyFilter &filter,
                               mechanisms::NoiseSource &noise, LedgerEvent &event, GrowingRecord &record)
{
    const std::size_t k = spec.queries.size();
    // Each run answers every query once, (count + Z)/t with Z exact discrete Laplace at the run's
    // count-scale scale; the charge comes first (runPlannedStream), the noise after it.
    const auto laplaceAnswers = [&](const GrowingRunPlan &run) -> Result<PlannedRelease> {
        PlannedRelease out;
        for (std::size_t j = 0; j < k; ++j) {
            auto answer = noisyCountFraction(counts.count(j, run.start), run.start, run.noise, noise.bits());
            // A failed source: nothing of the stream may be shown.
            if (!answer)
                return streamNoiseFailed(answer.error());
            out.values.push_back(*answer);
        }
        return out;
    };
    return runPlannedStream(plan, growingAlgorithmTitle(spec),
                            spec.algorithm == GrowingAlgorithm::BBImprover ? "run" : "epoch", "fraction",
                            filter, laplaceAnswers, event, record);
}

Result<LedgerEvent> Session::askGrowing(QueryRequest request)
{
    PBX_RETURN_IF_ERROR(checkGrowingRequest(request, *m_table, m_settings));
    if (request.id.empty())
        request.id = "q" + std::to_string(m_events.size() + 1);
    const GrowingRequestSpec &spec = *request.growing();
    const bool nsg = spec.algorithm == GrowingAlgorithm::Nsg;
    const bool pmwg = spec.algorithm == GrowingAlgorithm::Pmwg;
    const auto plan = nsg || pmwg ? std::vector<GrowingRunPlan>{} : *growingRunPlan(spec, *m_table);
    const std::uint64_t end = *growingStreamEnd(spec, *m_table);
    const double seriesTotal = *growingSeriesTotal(spec);
    // The random source is opened before anything is charged: no bits, nothing spent.
    PBX_TRY(source, nextNoiseSource());
    mechanisms::NoiseSource &noise = source;
    // The arrival order is a public coin (it does not depend on the data's values beyond the
    // sorted teaching order, which the request names): drawn from the event's stream when unset.
    const std::uint64_t orderSeed = spec.orderSeed ? *spec.orderSeed : noise.bits().nextU64();
    if (noise.bits().failed())
        return makeError(ErrorCode::Io, "the random source failed before the stream started; nothing spent");
    PBX_TRY(order, growing::arrivalOrder(privateRows(), spec.order, orderSeed));
    PBX_TRY(masks, queryMasks(spec, privateRows()));
    const growing::PrefixCounts counts(masks, std::span<const std::uint32_t>(order).first(end));

    LedgerEvent event;
    event.request = request;
    event.mechanism = eventMechanism(spec.algorithm);
    event.costKind = nsg || pmwg ? filters::ChargeKind::PureEpsilon : plan.front().charge.kind;
    GrowingRecord record;
    record.orderSeed = orderSeed;
    record.end = end;
    record.plannedEpochs = plan.size();
    record.seriesTotal = seriesTotal;
    if (pmwg) {
        PBX_RETURN_IF_ERROR(runPmwgStream(spec, privateRows(), order, end, *m_filter, noise, event, record));
        event.record = std::move(record);
        return append(std::move(event));
    }
    if (nsg) {
        event.costKind = nsgRoundCharge(spec, *growingNsgUnit(spec), spec.startSize).kind;
        PBX_RETURN_IF_ERROR(runNsgStream(spec, counts, end, *m_filter, noise, event, record));
        const NsgRecord &r = *record.nsg;
        if (r.rounds.empty()) {
            event.status = EventStatus::Refused;
        } else {
            event.status = EventStatus::Released;
            event.answer = r.hard.empty() ? 0.0 : r.hard.back().answer;
            // The last ⊤ answer's exact discrete Laplace tail: |Z|/t ≤ w/t with probability ≥ 1 − β.
            event.errorBound = 0.0;
            if (!r.hard.empty()) {
                auto bound = fractionLaplaceBound(r.hard.back().scale, r.hard.back().time, spec.beta);
                event.errorBound = bound ? *bound : INFINITY;
            }
            event.targetMet = !record.refusedEpoch;
            const std::string symbol(filters::chargeUnitSymbol(event.costKind));
            event.accounting
                = "growing database (Cummings et al. 2018, NSG): " + std::to_string(r.rounds.size())
                  + " sparse-vector rounds, each charged " + symbol
                  + " for its whole worst case when it opened; " + std::to_string(r.hard.size())
                  + " ⊤ answers; the charges' worst case over all transcripts is " + symbol + " = "
                  + formatSignificant(r.worstCase);
        }
        event.record = std::move(record);
        return append(std::move(event));
    }
    if (spec.algorithm == GrowingAlgorithm::Ermg || spec.algorithm == GrowingAlgorithm::SmallDb) {
        const std::span<const std::uint32_t> arrivals = std::span<const std::uint32_t>(order).first(end);
        PBX_RETURN_IF_ERROR(
            spec.algorithm == GrowingAlgorithm::Ermg
                ? runErmgStream(spec, plan, privateRows(), arrivals, *m_filter, noise, event, record)
                : runSmallDbStream(spec, plan, privateRows(), arrivals, *m_filter, noise, event, record));
        event.record = std::move(record);
        return append(std::move(event));
    }
    PBX_RETURN_IF_ERROR(runLaplaceKStream(spec, plan, counts, *m_filter, noise, event, record));
    event.record = std::move(record);
    return append(std::move(event));
}

namespace {

/// auditGrowingEvent for a BBScheduler or BBImprover event under one noise design.
Result<void> auditLaplaceKEvent(const LedgerEvent &e, const data::Table &table, GrowingNoiseDesign design)
{
    const std::string where = "event " + std::to_string(e.index) + " ('" + e.request.id + "')";
    auto fail = [&](const std::string &what) { return makeError(ErrorCode::Parse, where + ": " + what); };
    const GrowingRequestSpec &spec = *e.request.growing();
    auto plan = growingRunPlan(spec, table, design);
    if (!plan)
        return fail(plan.error().message);
    if (e.growingRecord() && (e.growingRecord()->nsg || e.growingRecord()->pmwg))
        return fail("an NSG or PMWG record on a " + std::string(growingAlgorithmName(spec.algorithm))
                    + " request");
    const std::string unit = spec.algorithm == GrowingAlgorithm::BBImprover ? "run" : "epoch";
    const filters::ChargeKind kind = plan->front().charge.kind;
    if (e.costKind != kind)
        return fail("its cost is in " + std::string(filters::chargeKindName(e.costKind))
                    + ", but its schedule charges " + std::string(filters::chargeKindName(kind)));
    if (!e.growingRecord())
        return fail("a growing-database event without its " + unit + "s");
    const GrowingRecord &r = *e.growingRecord();
    if (r.plannedEpochs != plan->size() || r.end != *growingStreamEnd(spec, table))
        return fail("its plan (" + std::to_string(r.plannedEpochs) + " " + unit
                    + "s to t = " + std::to_string(r.end) + ") is not the one its parameters give ("
                    + std::to_string(plan->size()) + " " + unit + "s)");
    if (auto total = growingSeriesTotal(spec); !total || *total != r.seriesTotal)
        return fail("its series total " + formatSignificant(r.seriesTotal)
                    + " is not the one its parameters give");
    if (r.epochs.size() != e.attempts.size())
        return fail("it records " + std::to_string(r.epochs.size()) + " " + unit + "s but "
                    + std::to_string(e.attempts.size()) + " charges");
    if (r.epochs.size() > plan->size())
        return fail("it records more " + unit + "s than its plan has");
    // Cut short only by a recorded refusal of the next run.
    if (r.epochs.size() < plan->size() ? r.refusedEpoch != r.epochs.size() : r.refusedEpoch.has_value())
        return fail("its stream stops after " + std::to_string(r.epochs.size()) + " of "
                    + std::to_string(plan->size()) + " " + unit + "s without a refusal of the next one");
    if ((e.status == EventStatus::Refused) != r.epochs.empty())
        return fail("its status does not match the " + unit + "s it released");
    const std::size_t k = spec.queries.size();
    double total = 0.0;
    for (std::size_t i = 0; i < r.epochs.size(); ++i) {
        const GrowingEpochRecord &x = r.epochs[i];
        const GrowingRunPlan &p = (*plan)[i];
        const std::string run = unit + " " + std::to_string(i);
        if (x.index != i || x.start != p.start || x.last != p.last)
            return fail(run + ": its times are not t_" + std::to_string(i) + " = " + std::to_string(p.start)
                        + " … " + std::to_string(p.last));
        if (x.epsilon != p.epsilon || x.rho != p.rho || x.beta != p.beta)
            return fail(run + ": it records ε = " + formatSignificant(x.epsilon)
                        + ", ρ = " + formatSignificant(x.rho) + ", but its schedule gives ε = "
                        + formatSignificant(p.epsilon) + ", ρ = " + formatSignificant(p.rho));
        if (x.scale != p.scale || x.bound != p.bound)
            return fail(run + ": its noise scale or bound is not the one ε_" + std::to_string(i) + " gives");
        const Attempt &a = e.attempts[i];
        if (a.cost != p.charge.amount)
            return fail(run + ": it charged " + std::string(filters::chargeUnitSymbol(kind)) + " = "
                        + filters::formatAmount(a.cost) + ", but its schedule gives "
                        + filters::formatAmount(p.charge.amount));
        if (x.answers.size() != k || a.releases.size() != k)
            return fail(run + ": it does not release one answer per query");
        for (std::size_t j = 0; j < k; ++j) {
            if (a.releases[j].value != x.answers[j] || a.releases[j].scale != p.scale)
                return fail(run + ": its released answers differ from its record");
            if (design == GrowingNoiseDesign::Exact && !isCountFraction(x.answers[j], x.start))
                return fail(run + ": answer " + std::to_string(j) + " (" + formatSignificant(x.answers[j])
                            + ") is not a count over t = " + std::to_string(x.start)
                            + " (the exact discrete noise releases (count + Z)/t)");
        }
        total = math::addRoundUp(total, a.cost);
    }
    if (total != e.cost)
        return fail("its " + unit + "s charge " + filters::formatAmount(total) + ", not the recorded cost "
                    + filters::formatAmount(e.cost));
    return {};
}

} // namespace

Result<void> auditGrowingEvent(const LedgerEvent &e, const data::Table &table,
                               const SessionSettings &settings)
{
    const std::string where = "event " + std::to_string(e.index) + " ('" + e.request.id + "')";
    auto fail = [&](const std::string &what) { return makeError(ErrorCode::Parse, where + ": " + what); };
    if (!e.request.growing())
        return fail("a growing-database record without its request");
    const GrowingRequestSpec &spec = *e.request.growing();
    if (settings.neighbours != data::Neighbouring::Replace)
        return fail("a growing-database stream in a session whose neighbouring relation is not replace-one");
    if (spec.algorithm == GrowingAlgorithm::Nsg) {
        auto end = growingStreamEnd(spec, table);
        if (!end)
            return fail(end.error().message);
        return auditNsgEvent(e, spec, *end);
    }
    if (spec.algorithm == GrowingAlgorithm::Ermg)
        return auditErmgEvent(e, table);
    if (spec.algorithm == GrowingAlgorithm::SmallDb)
        return auditSmallDbEvent(e, table);
    if (spec.algorithm == GrowingAlgorithm::Pmwg) {
        auto end = growingStreamEnd(spec, table);
        if (!end)
            return fail(end.error().message);
        return auditPmwgEvent(e, spec, *end);
    }
    // Recorded before the exact noise: its bounds are the continuous design's (the charges are the
    // same); audited with the same checks but the answers' integrality.
    return auditLaplaceKEvent(e, table, recordedNoiseDesign(e, table));
}

GrowingNoiseDesign recordedNoiseDesign(const LedgerEvent &e, const data::Table &table)
{
    if (!e.request.growing() || !e.growingRecord() || e.growingRecord()->epochs.empty())
        return GrowingNoiseDesign::Exact;
    const GrowingEpochRecord &first = e.growingRecord()->epochs.front();
    const auto matches = [&](GrowingNoiseDesign design) {
        auto plan = growingRunPlan(*e.request.growing(), table, design);
        return plan && !plan->empty() && plan->front().scale == first.scale
               && plan->front().bound == first.bound;
    };
    return !matches(GrowingNoiseDesign::Exact) && matches(GrowingNoiseDesign::Continuous)
               ? GrowingNoiseDesign::Continuous
               : GrowingNoiseDesign::Exact;
}

} // namespace pbx::session
