// SPDX-License-Identifier: MIT
#include "core/session/growing_release.h"

#include "core/data/predicate.h"
#include "core/growing/growing_error.h"
#include "core/math/directed_rounding.h"
#include "core/util/try.h"

#include <cmath>
#include <cstdio>
#include <span>

namespace pbx::session {

namespace {

using growing::growingError;

Result<growing::Budget> budgetOf(const GrowingRequestSpec &spec)
{
    growing::Budget b;
    if (spec.budgetKind == "pure") {
        b.kind = growing::BudgetKind::Pure;
        b.epsilon = spec.epsilon;
    } else if (spec.budgetKind == "zcdp") {
        b.kind = growing::BudgetKind::Zcdp;
        b.rho = spec.rho;
    } else if (spec.budgetKind == "approx") {
        b.kind = growing::BudgetKind::Approx;
        b.epsilon = spec.epsilon;
        b.delta = spec.delta;
        if (spec.conversion != "cks" && spec.conversion != "simple")
            return growingError(growing::kInvalidBudget, "budget.conversion", "expected cks or simple");
        b.conversion
            = spec.conversion == "cks" ? growing::ZcdpConversion::Cks : growing::ZcdpConversion::Simple;
    } else {
        return growingError(growing::kInvalidBudget, "budget.kind", "expected pure, zcdp or approx");
    }
    PBX_RETURN_IF_ERROR(growing::validate(b));
    return b;
}

std::string format(double x)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", x);
    return buffer;
}

/// The masks of the request's predicates over the table. Errors: INVALID_BLACK_BOX naming the query.
Result<std::vector<std::vector<std::uint8_t>>> queryMasks(const GrowingRequestSpec &spec,
                                                          const data::Table &table)
{
    std::vector<std::vector<std::uint8_t>> masks;
    for (std::size_t j = 0; j < spec.queries.size(); ++j) {
        auto p = data::Predicate::compile(spec.queries[j], table);
        if (!p)
            return makeError(p.error().code, std::string(growing::kInvalidBlackBox) + ": black_box.queries["
                                                 + std::to_string(j) + "]: " + p.error().message);
        masks.emplace_back();
        p->evaluate(table, masks.back());
    }
    return masks;
}

} // namespace

Result<growing::SchedulerConfig> growingSchedulerConfig(const GrowingRequestSpec &spec)
{
    if (spec.algorithm != "bbscheduler")
        return growingError(growing::kInvalidConfig, "algorithm",
                            "a session runs 'bbscheduler' streams (bbimprover and pmwg run in the lab: "
                            "pbx-cli simulate growing)");
    growing::SchedulerConfig c;
    c.startSize = spec.startSize;
    c.gamma = spec.gamma;
    auto budget = budgetOf(spec);
    if (!budget)
        return budget.error();
    c.budget = *budget;
    auto kind = growing::parseScheduleKind(spec.schedule);
    if (!kind)
        return kind.error();
    c.schedule = *kind;
    if (growing::scheduleIsZcdp(c.schedule) != growing::isZcdp(c.budget))
        return growingError(
            growing::kInvalidSchedule, "schedule.kind",
            "'" + spec.schedule + "' needs "
                + (growing::scheduleIsZcdp(c.schedule) ? "a zcdp or approx budget" : "a pure budget")
                + " (budget.kind is '" + spec.budgetKind + "')");
    c.beta = spec.beta;
    if (spec.queries.empty())
        return growingError(growing::kInvalidBlackBox, "black_box.queries",
                            "a session's laplace-k box needs at least one predicate");
    c.box.kind = growing::BlackBoxKind::LaplaceK;
    c.box.queries = spec.queries.size();
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
    auto config = growingSchedulerConfig(spec);
    if (!config)
        return config.error();
    auto end = growingStreamEnd(spec, table);
    if (!end)
        return end.error();
    // The number of epochs is known before they are planned: refuse huge plans before building them.
    std::uint64_t count = 1;
    for (std::uint64_t t = spec.startSize, i = 0;; ++i) {
        auto next = growing::nextEpochStart(spec.startSize, spec.gamma, i, t);
        if (!next)
            return next.error();
        if (*next > *end)
            break;
        t = *next;
        if (++count > kMaxGrowingEpochs)
            return growingError(growing::kInvalidConfig, "schedule.gamma",
                                "the stream would have more than " + std::to_string(kMaxGrowingEpochs)
                                    + " epochs (every answer is recorded); choose a larger γ");
    }
    if (count * spec.queries.size() > kMaxGrowingAnswers)
        return growingError(growing::kInvalidConfig, "black_box.queries",
                            std::to_string(count) + " epochs × " + std::to_string(spec.queries.size())
                                + " queries exceed " + std::to_string(kMaxGrowingAnswers)
                                + " recorded answers");
    auto plan = growing::planEpochs(*config, *end);
    if (!plan)
        return plan.error();
    for (const auto &e : *plan)
        if (!(e.privacy.epsilon > 0.0))
            return growingError(growing::kInvalidConfig, "schedule.gamma",
                                "epoch " + std::to_string(e.privacy.index)
                                    + "'s ε underflows to 0 (no useful run); shorten the stream");
    return plan;
}

filters::Charge growingEpochCharge(const GrowingRequestSpec &spec, const growing::EpochPlan &epoch)
{
    const bool zcdp = spec.schedule == "zcdp-equalised" || spec.schedule == "zcdp-geometric";
    return zcdp ? filters::Charge{filters::ChargeKind::Rho, epoch.privacy.rho, 0.0}
                : filters::Charge{filters::ChargeKind::PureEpsilon, epoch.privacy.epsilon, 0.0};
}

Result<void> checkGrowingRequest(const QueryRequest &request, const data::Table &table,
                                 const SessionSettings &settings)
{
    if (!request.growing)
        return makeError(ErrorCode::InvalidArgument, "not a growing-database request");
    const GrowingRequestSpec &spec = *request.growing;
    if (settings.neighbours != data::Neighbouring::Replace)
        return growingError(growing::kNeighboursUnsupported, "neighbours",
                            "growing-database mechanisms are analysed for replace-one neighbouring streams "
                            "(use --neighbours replace)");
    auto plan = growingEpochPlan(spec, table);
    if (!plan)
        return plan.error();
    auto masks = queryMasks(spec, table);
    if (!masks)
        return masks.error();
    if (spec.order != "random") {
        auto order = growing::arrivalOrder(table, spec.order, 0);
        if (!order)
            return order.error();
    }
    // Whether the filter can account this kind of charge at all (a zero charge of the kind on a
    // fresh filter of the session's kind): a refusal for budget comes later, epoch by epoch.
    auto probe
        = filters::PrivacyFilter::create(settings.filter, settings.epsilon, settings.delta, settings.split);
    if (!probe)
        return probe.error();
    filters::Charge charge = growingEpochCharge(spec, plan->front());
    charge.amount = 0.0;
    if (auto ok = (*probe)->canCharge(charge); !ok)
        return makeError(ok.error().code, "schedule.kind: '" + spec.schedule + "' charges "
                                              + std::string(filters::chargeUnitSymbol(charge.kind)) + ", but "
                                              + ok.error().message);
    return {};
}

std::string growingEpochLabel(const LedgerEvent &e, std::size_t epoch)
{
    const GrowingRecord &r = *e.growingRecord;
    const GrowingEpochRecord &x = r.epochs[epoch];
    const bool zcdp = e.costKind == filters::ChargeKind::Rho;
    return "BBScheduler epoch " + std::to_string(x.index) + " of " + std::to_string(r.plannedEpochs)
           + ": t = " + std::to_string(x.start) + ", "
           + (zcdp ? "ρ = " + format(x.rho) : "ε = " + format(x.epsilon));
}

std::string describeGrowingRequest(const QueryRequest &request)
{
    const GrowingRequestSpec &s = *request.growing;
    const std::string budget = s.budgetKind == "zcdp" ? "ρ ≤ " + format(s.rho)
                               : s.budgetKind == "approx"
                                   ? "(" + format(s.epsilon) + ", " + format(s.delta) + ")"
                                   : "ε ≤ " + format(s.epsilon);
    return "BBScheduler stream, t = " + std::to_string(s.startSize) + " … "
           + (s.end ? std::to_string(*s.end) : std::string("all rows")) + ", " + s.schedule
           + " γ = " + format(s.gamma) + ", " + budget + ", " + std::to_string(s.queries.size())
           + (s.queries.size() == 1 ? " query" : " queries");
}

Result<LedgerEvent> Session::askGrowing(QueryRequest request)
{
    PBX_RETURN_IF_ERROR(checkGrowingRequest(request, *m_table, m_settings));
    if (request.id.empty())
        request.id = "q" + std::to_string(m_events.size() + 1);
    const GrowingRequestSpec &spec = *request.growing;
    const auto config = *growingSchedulerConfig(spec);
    const auto plan = *growingEpochPlan(spec, *m_table);
    const std::uint64_t end = *growingStreamEnd(spec, *m_table);
    // The random source is opened before anything is charged: no bits, nothing spent.
    auto source = nextNoiseSource();
    if (!source)
        return source.error();
    mechanisms::NoiseSource &noise = *source;
    // The arrival order is a public coin (it does not depend on the data's values beyond the
    // sorted teaching order, which the request names): drawn from the event's stream when unset.
    const std::uint64_t orderSeed = spec.orderSeed ? *spec.orderSeed : noise.bits().nextU64();
    if (noise.bits().failed())
        return makeError(ErrorCode::Io, "the random source failed before the stream started; nothing spent");
    auto order = growing::arrivalOrder(*m_table, spec.order, orderSeed);
    if (!order)
        return order.error();
    auto masks = queryMasks(spec, *m_table);
    if (!masks)
        return masks.error();
    const growing::PrefixCounts counts(*masks, std::span<const std::uint32_t>(*order).first(end));
    const std::size_t k = spec.queries.size();

    LedgerEvent event;
    event.request = request;
    event.mechanism = spec.algorithm;
    const filters::Charge first = growingEpochCharge(spec, plan.front());
    event.costKind = first.kind;
    GrowingRecord record;
    record.orderSeed = orderSeed;
    record.end = end;
    record.plannedEpochs = plan.size();
    record.seriesTotal = growing::BBScheduler::create(config)->total();
    for (const auto &epoch : plan) {
        const filters::Charge charge = growingEpochCharge(spec, epoch);
        // Each epoch is its own charge, made when the epoch starts (before its noise is drawn);
        // a refusal stops the stream and leaves every earlier epoch released and charged.
        if (auto charged = m_filter->charge(charge); !charged) {
            if (charged.error().code != ErrorCode::BudgetExceeded && record.epochs.empty())
                return charged.error(); // nothing spent yet
            record.refusedEpoch = epoch.privacy.index;
            event.reason = "epoch " + std::to_string(epoch.privacy.index)
                           + " (t = " + std::to_string(epoch.start) + ") refused: " + charged.error().message
                           + (record.epochs.empty() ? std::string("; nothing was released")
                                                    : "; the " + std::to_string(record.epochs.size())
                                                          + " epochs before it stay released and charged");
            break;
        }
        GrowingEpochRecord x;
        x.index = epoch.privacy.index;
        x.start = epoch.start;
        x.last = epoch.last;
        x.epsilon = epoch.privacy.epsilon;
        x.rho = epoch.privacy.rho;
        x.beta = epoch.privacy.beta;
        x.scale = growing::laplaceKScale(k, epoch.privacy.epsilon, double(epoch.start));
        x.bound = epoch.bound;
        Attempt attempt;
        attempt.cost = charge.amount;
        attempt.halfWidth = epoch.bound;
        attempt.accepted = true;
        for (std::size_t j = 0; j < k; ++j) {
            const double value = counts.fraction(j, epoch.start) + noise.laplace(x.scale);
            x.answers.push_back(value);
            attempt.releases.push_back({"fraction", x.scale, value, charge.amount});
        }
        attempt.estimate = x.answers.front();
        event.cost = math::addRoundUp(event.cost, charge.amount);
        event.attempts.push_back(std::move(attempt));
        record.epochs.push_back(std::move(x));
    }
    if (record.epochs.empty()) {
        event.status = EventStatus::Refused;
    } else {
        event.status = EventStatus::Released;
        event.answer = record.epochs.back().answers.front();
        event.errorBound = record.epochs.back().bound;
        event.targetMet = !record.refusedEpoch;
        event.accounting
            = "growing database (Cummings et al. 2018, BBScheduler): " + std::to_string(record.epochs.size())
              + " of " + std::to_string(plan.size()) + " epochs, each its own "
              + std::string(filters::chargeUnitSymbol(event.costKind))
              + " charge; the whole series sums to at most "
              + std::string(filters::chargeUnitSymbol(event.costKind)) + " = " + format(record.seriesTotal);
    }
    event.growingRecord = std::move(record);
    return append(std::move(event));
}

Result<void> auditGrowingEvent(const LedgerEvent &e, const data::Table &table,
                               const SessionSettings &settings)
{
    const std::string where = "event " + std::to_string(e.index) + " ('" + e.request.id + "')";
    auto fail = [&](const std::string &what) { return makeError(ErrorCode::Parse, where + ": " + what); };
    if (!e.request.growing)
        return fail("a growing-database record without its request");
    const GrowingRequestSpec &spec = *e.request.growing;
    if (settings.neighbours != data::Neighbouring::Replace)
        return fail("a growing-database stream in a session whose neighbouring relation is not replace-one");
    auto plan = growingEpochPlan(spec, table);
    if (!plan)
        return fail(plan.error().message);
    const filters::ChargeKind kind = growingEpochCharge(spec, plan->front()).kind;
    if (e.costKind != kind)
        return fail("its cost is in " + std::string(filters::chargeKindName(e.costKind))
                    + ", but its schedule charges " + std::string(filters::chargeKindName(kind)));
    if (!e.growingRecord)
        return fail("a growing-database event without its epochs");
    const GrowingRecord &r = *e.growingRecord;
    if (r.plannedEpochs != plan->size() || r.end != *growingStreamEnd(spec, table))
        return fail("its plan (" + std::to_string(r.plannedEpochs) + " epochs to t = " + std::to_string(r.end)
                    + ") is not the one its parameters give (" + std::to_string(plan->size()) + " epochs)");
    if (r.epochs.size() != e.attempts.size())
        return fail("it records " + std::to_string(r.epochs.size()) + " epochs but "
                    + std::to_string(e.attempts.size()) + " charges");
    if (r.epochs.size() > plan->size())
        return fail("it records more epochs than its plan has");
    // Cut short only by a recorded refusal of the next epoch.
    if (r.epochs.size() < plan->size() ? r.refusedEpoch != r.epochs.size() : r.refusedEpoch.has_value())
        return fail("its stream stops after " + std::to_string(r.epochs.size()) + " of "
                    + std::to_string(plan->size()) + " epochs without a refusal of the next one");
    if ((e.status == EventStatus::Refused) != r.epochs.empty())
        return fail("its status does not match the epochs it released");
    const std::size_t k = spec.queries.size();
    double total = 0.0;
    for (std::size_t i = 0; i < r.epochs.size(); ++i) {
        const GrowingEpochRecord &x = r.epochs[i];
        const growing::EpochPlan &p = (*plan)[i];
        const std::string epoch = "epoch " + std::to_string(i);
        if (x.index != i || x.start != p.start || x.last != p.last)
            return fail(epoch + ": its times are not t_" + std::to_string(i) + " = " + std::to_string(p.start)
                        + " … " + std::to_string(p.last));
        const filters::Charge charge = growingEpochCharge(spec, p);
        if (x.epsilon != p.privacy.epsilon || x.rho != p.privacy.rho || x.beta != p.privacy.beta)
            return fail(epoch + ": it records ε = " + format(x.epsilon) + ", ρ = " + format(x.rho)
                        + ", but its schedule gives ε = " + format(p.privacy.epsilon)
                        + ", ρ = " + format(p.privacy.rho));
        const double scale = growing::laplaceKScale(k, p.privacy.epsilon, double(p.start));
        if (x.scale != scale || x.bound != p.bound)
            return fail(epoch + ": its noise scale or bound is not the one ε_" + std::to_string(i)
                        + " gives");
        const Attempt &a = e.attempts[i];
        if (a.cost != charge.amount)
            return fail(epoch + ": it charged " + std::string(filters::chargeUnitSymbol(kind)) + " = "
                        + filters::formatAmount(a.cost) + ", but its schedule gives "
                        + filters::formatAmount(charge.amount));
        if (x.answers.size() != k || a.releases.size() != k)
            return fail(epoch + ": it does not release one answer per query");
        for (std::size_t j = 0; j < k; ++j)
            if (a.releases[j].value != x.answers[j] || a.releases[j].scale != scale)
                return fail(epoch + ": its released answers differ from its record");
        total = math::addRoundUp(total, a.cost);
    }
    if (total != e.cost)
        return fail("its epochs charge " + filters::formatAmount(total) + ", not the recorded cost "
                    + filters::formatAmount(e.cost));
    return {};
}

} // namespace pbx::session
