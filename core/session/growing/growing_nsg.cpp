// SPDX-License-Identifier: MIT
#include "core/session/growing/growing_nsg.h"

#include "core/growing/growing_error.h"
#include "core/math/directed_rounding.h"
#include "core/session/growing/growing_exact_noise.h"
#include "core/session/growing/growing_planned.h"
#include "core/session/growing/growing_release.h"
#include "core/util/number_format.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace pbx::session {

namespace {

using growing::growingError;

bool zcdpBudget(const GrowingRequestSpec &spec)
{
    return spec.budgetKind != growing::BudgetKind::Pure;
}

/// (7/3)·x rounded up.
double sevenThirds(double x)
{
    return math::divideRoundUp(math::multiplyRoundUp(7.0, x), 3.0);
}

} // namespace

Result<growing::NsgConfig> growingNsgConfig(const GrowingRequestSpec &spec)
{
    if (spec.algorithm != GrowingAlgorithm::Nsg)
        return growingError(growing::kInvalidConfig, "algorithm", "expected nsg here");
    if (spec.nsgCheckpoints < 1 || spec.nsgCheckpoints > kMaxGrowingEpochs)
        return growingError(growing::kInvalidConfig, "nsg.checkpoints",
                            "a session asks at 1 to " + std::to_string(kMaxGrowingEpochs) + " checkpoints");
    if (spec.queries.empty())
        return growingError(growing::kInvalidConfig, "nsg.queries",
                            "needs at least one counting query (a predicate)");
    if (spec.nsgCheckpoints * spec.queries.size() > kMaxGrowingAnswers)
        return growingError(growing::kInvalidConfig, "nsg.queries",
                            "checkpoints × queries exceed " + std::to_string(kMaxGrowingAnswers)
                                + " questions");
    growing::NsgConfig c;
    c.startSize = spec.startSize;
    c.exponent = spec.nsgExponent;
    c.cap = growing::HardQueryCap{spec.nsgCapKind == NsgCapKind::Time, spec.nsgCap};
    c.threshold = spec.nsgThreshold;
    PBX_TRY(budget, growingStreamBudget(spec));
    c.budget = budget;
    PBX_RETURN_IF_ERROR(growing::validate(c));
    return c;
}

Result<growing::NoiseUnit> growingNsgUnit(const GrowingRequestSpec &spec)
{
    PBX_TRY(config, growingNsgConfig(spec));
    PBX_TRY(unit, growing::nsgNoiseUnit(config));
    if (zcdpBudget(spec))
        return unit;
    // Pure: the first round is charged (7/3)f(n) where the lab's worst case counts f(n) + (4/3)f(e_1)
    // ≤ f(n) + (4/3)·(its share of C f(n)); scaling σ_n (hence every f(t)) down by the ratio of the
    // two worst cases makes the charges' worst case the budget. Rounded up: more noise is safe.
    const double w = growing::nsgWorstCaseEpsilon(unit, *config.cap);
    const double factor = math::nudgeUp(math::divideRoundUp(
        math::addRoundUp(
            w, math::divideRoundUp(math::multiplyRoundUp(4.0, unit.f(double(spec.startSize))), 3.0)),
        w));
    unit.sigmaN = math::multiplyRoundUp(unit.sigmaN, factor);
    return unit;
}

filters::Charge nsgRoundCharge(const GrowingRequestSpec &spec, const growing::NoiseUnit &unit,
                               std::uint64_t start)
{
    const double epsilon = sevenThirds(unit.f(double(start)));
    if (!zcdpBudget(spec))
        return {filters::ChargeKind::PureEpsilon, epsilon, 0.0};
    return {filters::ChargeKind::Rho, math::divideRoundUp(math::multiplyRoundUp(epsilon, epsilon), 2.0), 0.0};
}

double nsgChargeWorstCase(const GrowingRequestSpec &spec, const growing::NoiseUnit &unit)
{
    const growing::HardQueryCap cap{spec.nsgCapKind == NsgCapKind::Time, spec.nsgCap};
    if (zcdpBudget(spec))
        return growing::nsgWorstCaseRho(unit, cap);
    // (7/3)f(n)(1 + C) = W + (4/3)f(n), W = f(n)(1 + (7/3)C).
    return math::addRoundUp(
        growing::nsgWorstCaseEpsilon(unit, cap),
        math::divideRoundUp(math::multiplyRoundUp(4.0, unit.f(double(unit.startSize))), 3.0));
}

Result<SvtNoise> svtNoiseAt(const growing::NoiseUnit &unit, std::uint64_t t)
{
    const double sigma = math::nudgeUp(unit.sigma(double(t)));
    SvtNoise out;
    PBX_TRY(threshold, countLaplaceScale(growing::kThresholdMultiplier * sigma, t));
    PBX_TRY(query, countLaplaceScale(growing::kQueryMultiplier * sigma, t));
    out.threshold = threshold;
    out.query = query;
    out.numeric = math::nudgeUp(growing::kNumericMultiplier * unit.sigma(double(t)));
    PBX_TRY(numeric, countLaplaceScale(out.numeric, t));
    out.numericCount = numeric;
    return out;
}

Result<std::vector<SvtNoise>> svtNoiseAtEach(const growing::NoiseUnit &unit,
                                             std::span<const std::uint64_t> times)
{
    std::vector<SvtNoise> out;
    out.reserve(times.size());
    for (const std::uint64_t t : times) {
        PBX_TRY(at, svtNoiseAt(unit, t));
        out.push_back(at);
    }
    return out;
}

std::vector<std::uint64_t> nsgCheckpointTimes(std::uint64_t n, std::uint64_t end, std::uint64_t checkpoints)
{
    std::vector<std::uint64_t> times;
    for (std::uint64_t c = 0; c < checkpoints; ++c)
        times.push_back(checkpoints == 1 ? end : n + (end - n) * c / (checkpoints - 1));
    return times;
}

Result<void> runNsgStream(const GrowingRequestSpec &spec, const growing::PrefixCounts &counts,
                          std::uint64_t end, filters::PrivacyFilter &filter, mechanisms::NoiseSource &noise,
                          LedgerEvent &event, GrowingRecord &record)
{
    PBX_TRY(unit, growingNsgUnit(spec));
    const growing::HardQueryCap cap{spec.nsgCapKind == NsgCapKind::Time, spec.nsgCap};
    const auto times = nsgCheckpointTimes(spec.startSize, end, spec.nsgCheckpoints);
    // Every checkpoint's exact noise scales, before the first charge: one out of the sampler's
    // range refuses the request with nothing spent.
    PBX_TRY(scales, svtNoiseAtEach(unit, times));
    NsgRecord nsg;
    nsg.sigmaN = unit.sigmaN;
    nsg.worstCase = nsgChargeWorstCase(spec, unit);
    bool open = false;          // a round is open
    std::int64_t threshold = 0; // its threshold draw (counts)
    bool refused = false;
    for (std::size_t c = 0; c < times.size(); ++c) {
        const std::uint64_t t = times[c];
        const SvtNoise &scale = (scales)[c];
        NsgCheckpointRecord cp;
        cp.time = t;
        cp.cap = cap.at(spec.startSize, t);
        const double time = double(t);
        for (std::size_t j = 0; j < spec.queries.size() && !refused; ++j) {
            if (nsg.hard.size() >= cp.cap) {
                ++cp.capped; // the cap binds: nothing about the data is released
                continue;
            }
            if (!open) { // a round opens: charged before its threshold is drawn
                const filters::Charge charge = nsgRoundCharge(spec, unit, t);
                PBX_TRY(opened, chargeSvtRound(charge, nsg.rounds.size(), t, filter, event, record));
                if (!opened) {
                    refused = true;
                    break;
                }
                nsg.rounds.push_back({nsg.rounds.size(), t, std::nullopt, charge.amount});
                auto rho = discreteLaplaceDraw(scale.threshold, noise.bits());
                if (!rho)
                    return streamNoiseFailed(rho.error());
                threshold = *rho;
                open = true;
            }
            auto nu = discreteLaplaceDraw(scale.query, noise.bits());
            if (!nu)
                return streamNoiseFailed(nu.error());
            PBX_TRY(above, svtAbove(counts.count(j, t), std::nullopt, *nu, threshold,
                                    growing::toCountScale(spec.nsgThreshold, time)));
            if (above) {
                NsgHardRecord h;
                h.time = t;
                h.query = j;
                h.scale = scale.numeric;
                auto answer = noisyCountFraction(counts.count(j, t), t, scale.numericCount, noise.bits());
                if (!answer)
                    return streamNoiseFailed(answer.error());
                h.answer = *answer;
                nsg.rounds.back().halt = t;
                Attempt &attempt = event.attempts.back();
                attempt.estimate = h.answer;
                attempt.accepted = true;
                attempt.releases.push_back({"fraction", h.scale, h.answer, attempt.cost});
                nsg.hard.push_back(h);
                open = false; // the next round draws a fresh threshold
            }
        }
        cp.hard = nsg.hard.size();
        nsg.checkpoints.push_back(cp);
        if (refused)
            break;
    }
    if (noise.bits().failed())
        return makeError(ErrorCode::Io, "the random source failed during the stream");
    record.plannedEpochs = spec.nsgCheckpoints;
    record.seriesTotal = nsg.worstCase;
    record.nsg = std::move(nsg);
    return {};
}

Result<bool> chargeSvtRound(const filters::Charge &charge, std::size_t index, std::uint64_t t,
                            filters::PrivacyFilter &filter, LedgerEvent &event, GrowingRecord &record)
{
    if (auto charged = filter.charge(charge); !charged) {
        if (charged.error().code != ErrorCode::BudgetExceeded && index == 0)
            return charged.error(); // nothing spent yet
        record.refusedEpoch = index;
        event.reason
            = "round " + std::to_string(index) + " (t = " + std::to_string(t)
              + ") refused: " + charged.error().message
              + (index == 0 ? std::string("; nothing was released") : "; " + releasedBefore(index, "round"));
        return false;
    }
    Attempt attempt;
    attempt.cost = charge.amount;
    attempt.halfWidth = std::numeric_limits<double>::infinity();
    event.attempts.push_back(std::move(attempt));
    event.cost = math::addRoundUp(event.cost, charge.amount);
    return true;
}

std::string nsgRoundLabel(const LedgerEvent &e, std::size_t round)
{
    const NsgRoundRecord &r = e.growingRecord()->nsg->rounds[round];
    const bool zcdp = e.costKind == filters::ChargeKind::Rho;
    return "NSG round " + std::to_string(r.index) + ": opened at t = " + std::to_string(r.start)
           + (r.halt ? ", ⊤ at t = " + std::to_string(*r.halt) : std::string(", open at the end")) + ", "
           + (zcdp ? "ρ = " : "ε = ") + formatSignificant(r.charge);
}

Result<void> auditNsgEvent(const LedgerEvent &e, const GrowingRequestSpec &spec, std::uint64_t end)
{
    const std::string where = "event " + std::to_string(e.index) + " ('" + e.request.id + "')";
    auto fail = [&](const std::string &what) { return makeError(ErrorCode::Parse, where + ": " + what); };
    auto unit = growingNsgUnit(spec);
    if (!unit)
        return fail(unit.error().message);
    if (!e.growingRecord() || !e.growingRecord()->nsg || !e.growingRecord()->epochs.empty()
        || e.growingRecord()->pmwg)
        return fail("an NSG event without its rounds");
    const GrowingRecord &r = *e.growingRecord();
    const NsgRecord &nsg = *r.nsg;
    const filters::ChargeKind kind = nsgRoundCharge(spec, *unit, spec.startSize).kind;
    if (e.costKind != kind)
        return fail("its cost is in " + std::string(filters::chargeKindName(e.costKind))
                    + ", but its budget charges " + std::string(filters::chargeKindName(kind)));
    if (nsg.sigmaN != unit->sigmaN || nsg.worstCase != nsgChargeWorstCase(spec, *unit)
        || r.seriesTotal != nsg.worstCase)
        return fail("its noise unit σ_n = " + formatSignificant(nsg.sigmaN)
                    + " or worst case is not the one its budget gives (" + formatSignificant(unit->sigmaN)
                    + ")");
    if (r.end != end || r.plannedEpochs != spec.nsgCheckpoints)
        return fail("its plan (" + std::to_string(r.plannedEpochs) + " checkpoints to t = "
                    + std::to_string(r.end) + ") is not the one its parameters give");
    const auto times = nsgCheckpointTimes(spec.startSize, end, spec.nsgCheckpoints);
    if (nsg.checkpoints.size() > times.size() || (!r.refusedEpoch && nsg.checkpoints.size() != times.size()))
        return fail("its stream stops after " + std::to_string(nsg.checkpoints.size()) + " of "
                    + std::to_string(times.size()) + " checkpoints without a refused round");
    if (r.refusedEpoch && *r.refusedEpoch != nsg.rounds.size())
        return fail("its refused round is not the one after its last");
    const growing::HardQueryCap cap{spec.nsgCapKind == NsgCapKind::Time, spec.nsgCap};
    for (std::size_t c = 0; c < nsg.checkpoints.size(); ++c)
        if (nsg.checkpoints[c].time != times[c] || nsg.checkpoints[c].cap != cap.at(spec.startSize, times[c]))
            return fail("checkpoint " + std::to_string(c) + ": its time or cap is not the planned one");
    const auto isCheckpoint = [&](std::uint64_t t) {
        return std::binary_search(times.begin(), times.begin() + std::ptrdiff_t(nsg.checkpoints.size()), t);
    };
    if (nsg.rounds.size() != e.attempts.size())
        return fail("it records " + std::to_string(nsg.rounds.size()) + " rounds but "
                    + std::to_string(e.attempts.size()) + " charges");
    if (nsg.rounds.size() < nsg.hard.size() || nsg.rounds.size() > nsg.hard.size() + 1)
        return fail("its rounds do not match its ⊤ answers (each round halts at one)");
    if ((e.status == EventStatus::Refused) != nsg.rounds.empty())
        return fail("its status does not match the rounds it ran");
    double total = 0.0;
    std::uint64_t previous = spec.startSize;
    for (std::size_t i = 0; i < nsg.rounds.size(); ++i) {
        const NsgRoundRecord &round = nsg.rounds[i];
        const std::string name = "round " + std::to_string(i);
        if (round.index != i || round.start < previous || !isCheckpoint(round.start))
            return fail(name + ": it does not open at a checkpoint after the previous round's ⊤");
        const bool halted = i < nsg.hard.size();
        if (halted != round.halt.has_value() || (halted && *round.halt != nsg.hard[i].time)
            || (halted && *round.halt < round.start))
            return fail(name + ": its ⊤ time is not its ⊤ answer's");
        const filters::Charge charge = nsgRoundCharge(spec, *unit, round.start);
        if (round.charge != charge.amount || e.attempts[i].cost != charge.amount)
            return fail(name + ": it charged " + std::string(filters::chargeUnitSymbol(kind)) + " = "
                        + filters::formatAmount(e.attempts[i].cost) + ", but opening at t = "
                        + std::to_string(round.start) + " gives " + filters::formatAmount(charge.amount));
        const Attempt &a = e.attempts[i];
        if (halted) {
            const NsgHardRecord &h = nsg.hard[i];
            if (h.query >= spec.queries.size())
                return fail(name + ": its ⊤ names no query");
            if (i + 1 > cap.at(spec.startSize, h.time))
                return fail(name + ": its ⊤ at t = " + std::to_string(h.time)
                            + " exceeds the cap H(t) = " + std::to_string(cap.at(spec.startSize, h.time)));
            const double scale = math::nudgeUp(growing::kNumericMultiplier * unit->sigma(double(h.time)));
            if (h.scale != scale)
                return fail(name + ": its numeric answer's noise scale is not 3σ(t)");
            if (a.releases.size() != 1 || a.releases[0].value != h.answer || a.releases[0].scale != scale)
                return fail(name + ": its released answer differs from its record");
            previous = h.time;
        } else if (!a.releases.empty()) {
            return fail(name + ": an open round released an answer");
        }
        total = math::addRoundUp(total, a.cost);
    }
    if (total != e.cost)
        return fail("its rounds charge " + filters::formatAmount(total) + ", not the recorded cost "
                    + filters::formatAmount(e.cost));
    return {};
}

} // namespace pbx::session
