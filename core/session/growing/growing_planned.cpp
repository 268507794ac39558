// SPDX-License-Identifier: MIT
#include "core/session/growing/growing_planned.h"

#include "core/growing/growing_error.h"
#include "core/math/directed_rounding.h"
#include "core/util/number_format.h"
#include "core/util/try.h"

#include <cstdio>

namespace pbx::session {

namespace {} // namespace

Result<growing::Budget> growingStreamBudget(const GrowingRequestSpec &spec)
{
    growing::Budget b;
    b.kind = spec.budgetKind;
    switch (spec.budgetKind) {
    case growing::BudgetKind::Pure:
        b.epsilon = spec.epsilon;
        break;
    case growing::BudgetKind::Zcdp:
        b.rho = spec.rho;
        break;
    case growing::BudgetKind::Approx:
        b.epsilon = spec.epsilon;
        b.delta = spec.delta;
        b.conversion = spec.conversion;
        break;
    }
    PBX_RETURN_IF_ERROR(growing::validate(b));
    return b;
}

Result<std::uint64_t> checkEpochCount(const GrowingRequestSpec &spec, std::uint64_t end, std::uint64_t limit,
                                      const std::string &what)
{
    std::uint64_t count = 1;
    for (std::uint64_t t = spec.startSize, i = 0;; ++i) {
        PBX_TRY(next, growing::nextEpochStart(spec.startSize, spec.gamma, i, t));
        if (next > end)
            return count;
        t = next;
        if (++count > limit)
            return growing::growingError(growing::kInvalidConfig, "schedule.gamma",
                                         "the stream would have more than " + std::to_string(limit) + " "
                                             + what + "; choose a larger γ");
    }
}

Result<void> runPlannedStream(const std::vector<GrowingRunPlan> &plan, const std::string &title,
                              const std::string &unit, const std::string &quantity,
                              filters::PrivacyFilter &filter,
                              const std::function<Result<PlannedRelease>(const GrowingRunPlan &)> &release,
                              LedgerEvent &event, GrowingRecord &record)
{
    for (const GrowingRunPlan &run : plan) {
        // The charge is made before the release's noise or sampling (a filter must know each
        // charge before the output it covers exists); a refusal keeps every earlier release.
        if (auto charged = filter.charge(run.charge); !charged) {
            if (charged.error().code != ErrorCode::BudgetExceeded && record.epochs.empty())
                return charged.error(); // nothing spent yet
            record.refusedEpoch = run.index;
            event.reason = unit + " " + std::to_string(run.index) + " (t = " + std::to_string(run.start)
                           + ") refused: " + charged.error().message
                           + (record.epochs.empty() ? std::string("; nothing was released")
                                                    : "; " + releasedBefore(record.epochs.size(), unit));
            break;
        }
        event.cost = math::addRoundUp(event.cost, run.charge.amount);
        PBX_TRY(out, release(run));
        GrowingEpochRecord x;
        x.index = run.index;
        x.start = run.start;
        x.last = run.last;
        x.epsilon = run.epsilon;
        x.rho = run.rho;
        x.beta = run.beta;
        x.scale = run.scale;
        x.bound = run.bound;
        x.answers = std::move(out.values);
        x.cells = std::move(out.cells);
        Attempt attempt;
        attempt.cost = run.charge.amount;
        attempt.halfWidth = run.bound;
        attempt.accepted = true;
        for (const double value : x.answers)
            attempt.releases.push_back({quantity, run.scale, value, run.charge.amount});
        attempt.estimate = x.answers.empty() ? 0.0 : x.answers.front();
        event.attempts.push_back(std::move(attempt));
        record.epochs.push_back(std::move(x));
    }
    if (record.epochs.empty()) {
        event.status = EventStatus::Refused;
        return {};
    }
    event.status = EventStatus::Released;
    event.answer = record.epochs.back().answers.empty() ? 0.0 : record.epochs.back().answers.front();
    event.errorBound = record.epochs.back().bound;
    event.targetMet = !record.refusedEpoch;
    const std::string symbol(filters::chargeUnitSymbol(event.costKind));
    event.accounting = "growing database (Cummings et al. 2018, " + title
                       + "): " + std::to_string(record.epochs.size()) + " of " + std::to_string(plan.size())
                       + " " + unit + "s, each its own " + symbol
                       + " charge made before its noise; the whole series sums to at most " + symbol + " = "
                       + formatSignificant(record.seriesTotal);
    return {};
}

Result<void> auditPlannedEvent(const LedgerEvent &e, const std::vector<GrowingRunPlan> &plan,
                               std::uint64_t end, double seriesTotal, const std::string &unit,
                               std::size_t values, const std::function<Result<void>(std::size_t)> &check)
{
    const std::string where = "event " + std::to_string(e.index) + " ('" + e.request.id + "')";
    auto fail = [&](const std::string &what) { return makeError(ErrorCode::Parse, where + ": " + what); };
    if (plan.empty())
        return fail("its parameters give no " + unit + "s");
    const filters::ChargeKind kind = plan.front().charge.kind;
    if (e.costKind != kind)
        return fail("its cost is in " + std::string(filters::chargeKindName(e.costKind))
                    + ", but its schedule charges " + std::string(filters::chargeKindName(kind)));
    if (!e.growingRecord() || e.growingRecord()->nsg || e.growingRecord()->pmwg)
        return fail("a growing-database event without its " + unit + "s");
    const GrowingRecord &r = *e.growingRecord();
    if (r.plannedEpochs != plan.size() || r.end != end)
        return fail("its plan (" + std::to_string(r.plannedEpochs) + " " + unit
                    + "s to t = " + std::to_string(r.end) + ") is not the one its parameters give ("
                    + std::to_string(plan.size()) + " " + unit + "s to t = " + std::to_string(end) + ")");
    if (r.seriesTotal != seriesTotal)
        return fail("its series total " + formatSignificant(r.seriesTotal)
                    + " is not the one its parameters give (" + formatSignificant(seriesTotal) + ")");
    if (r.epochs.size() != e.attempts.size())
        return fail("it records " + std::to_string(r.epochs.size()) + " " + unit + "s but "
                    + std::to_string(e.attempts.size()) + " charges");
    if (r.epochs.size() > plan.size())
        return fail("it records more " + unit + "s than its plan has");
    if (r.epochs.size() < plan.size() ? r.refusedEpoch != r.epochs.size() : r.refusedEpoch.has_value())
        return fail("its stream stops after " + std::to_string(r.epochs.size()) + " of "
                    + std::to_string(plan.size()) + " " + unit + "s without a refusal of the next one");
    if ((e.status == EventStatus::Refused) != r.epochs.empty())
        return fail("its status does not match the " + unit + "s it released");
    double total = 0.0;
    for (std::size_t i = 0; i < r.epochs.size(); ++i) {
        const GrowingEpochRecord &x = r.epochs[i];
        const GrowingRunPlan &p = plan[i];
        const std::string run = unit + " " + std::to_string(i);
        if (x.index != i || x.start != p.start || x.last != p.last)
            return fail(run + ": its times are not t = " + std::to_string(p.start) + " … "
                        + std::to_string(p.last));
        if (x.epsilon != p.epsilon || x.rho != p.rho || x.beta != p.beta)
            return fail(run + ": it records ε = " + formatSignificant(x.epsilon)
                        + ", ρ = " + formatSignificant(x.rho) + ", but its schedule gives ε = "
                        + formatSignificant(p.epsilon) + ", ρ = " + formatSignificant(p.rho));
        if (x.scale != p.scale || x.bound != p.bound)
            return fail(run + ": its noise scale or bound is not the one its schedule gives");
        const Attempt &a = e.attempts[i];
        if (a.cost != p.charge.amount)
            return fail(run + ": it charged " + std::string(filters::chargeUnitSymbol(kind)) + " = "
                        + filters::formatAmount(a.cost) + ", but its schedule gives "
                        + filters::formatAmount(p.charge.amount));
        if (x.answers.size() != values || a.releases.size() != values)
            return fail(run + ": it does not release " + std::to_string(values) + " values");
        for (std::size_t j = 0; j < values; ++j)
            if (a.releases[j].value != x.answers[j] || a.releases[j].scale != p.scale)
                return fail(run + ": its released values differ from its record");
        if (auto ok = check(i); !ok)
            return fail(run + ": " + ok.error().message);
        total = math::addRoundUp(total, a.cost);
    }
    if (total != e.cost)
        return fail("its " + unit + "s charge " + filters::formatAmount(total) + ", not the recorded cost "
                    + filters::formatAmount(e.cost));
    return {};
}

} // namespace pbx::session
