// SPDX-License-Identifier: MIT
#include "core/session/growing/growing_pmwg.h"
#include "core/datasets/cps1988_pmwg.h"

#include "core/growing/growing_error.h"
#include "core/math/directed_rounding.h"
#include "core/session/growing/growing_exact_noise.h"
#include "core/session/growing/growing_nsg.h"
#include "core/session/growing/growing_planned.h"
#include "core/session/growing/growing_release.h"
#include "core/util/number_format.h"
#include "core/util/try.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>

namespace pbx::session {

namespace {

using growing::growingError;

/// The request seen as an NSG request with PMWG's sparse vector: time cap c₀, threshold T, exponent
/// p and the same budget — so the noise unit, the round charges and their worst case are NSG's,
/// computed by the same code (growing_nsg.h). One placeholder query: NSG's config only counts them.
GrowingRequestSpec nsgView(const GrowingRequestSpec &spec, const growing::PmwgConfig &resolved)
{
    GrowingRequestSpec v = spec;
    v.algorithm = GrowingAlgorithm::Nsg;
    v.nsgExponent = resolved.exponent;
    v.nsgThreshold = resolved.threshold;
    v.nsgCapKind = NsgCapKind::Time;
    v.nsgCap = resolved.c0;
    v.nsgCheckpoints = spec.pmwg.checkpoints;
    v.queries = {"pmwg hardness"};
    return v;
}

growing::HardQueryCap capOf(const growing::PmwgConfig &resolved)
{
    return growing::HardQueryCap{true, resolved.c0};
}

/// ⟨q, x̂⟩ clamped to [0, 1], as growing::Pmwg::query computes it.
double estimateOf(std::span<const double> q, std::span<const double> histogram)
{
    double estimate = 0.0;
    for (std::size_t j = 0; j < q.size(); ++j)
        estimate += q[j] * histogram[j];
    return std::clamp(estimate, 0.0, 1.0);
}

struct AttributeLabels
{
    const char *name;
    std::vector<const char *> values;
};

const std::array<AttributeLabels, 7> &attributeLabels()
{
    static const std::array<AttributeLabels, 7> labels{{
        {"region", {"northeast", "midwest", "south", "west"}},
        {"ethnicity", {"cauc", "afam"}},
        {"smsa", {"no", "yes"}},
        {"parttime", {"no", "yes"}},
        {"education", {"0–8", "9–11", "12", "13–15", "16–20"}},
        {"experience", {"−8…4", "5–14", "15–24", "25–34", "35–64"}},
        {"wage", {"<250", "250–399", "400–599", "600–849", "850–1199", "≥1200"}},
    }};
    return labels;
}

} // namespace

Result<growing::PmwgConfig> growingPmwgConfig(const GrowingRequestSpec &spec)
{
    if (spec.algorithm != GrowingAlgorithm::Pmwg)
        return growingError(growing::kInvalidConfig, "algorithm", "expected pmwg here");
    const PmwgRequestSpec &p = spec.pmwg;
    if (p.checkpoints < 1 || p.checkpoints > kMaxGrowingEpochs)
        return growingError(growing::kInvalidConfig, "pmwg.checkpoints",
                            "a session asks at 1 to " + std::to_string(kMaxGrowingEpochs) + " checkpoints");
    if (p.perCheckpoint < 1 || p.perCheckpoint > kMaxPmwgQuestions / p.checkpoints)
        return growingError(growing::kInvalidConfig, "pmwg.per_checkpoint",
                            "needs 1 ≤ checkpoints × per_checkpoint ≤ " + std::to_string(kMaxPmwgQuestions)
                                + " (every answer is recorded)");
    if (p.mode != "practical" && p.mode != "theory")
        return growingError(growing::kInvalidConfig, "pmwg.mode", "expected theory or practical");
    PBX_TRY(universe, growing::universeShape(p.universe));
    growing::PmwgConfig c;
    c.startSize = spec.startSize;
    c.universeSize = universe.cells;
    c.mode = p.mode == "theory" ? growing::PmwgMode::Theory : growing::PmwgMode::Practical;
    c.alpha = p.alpha;
    c.exponent = p.exponent;
    c.c0 = p.c0;
    c.threshold = p.threshold;
    c.eta = p.eta;
    PBX_TRY(budget, growingStreamBudget(spec));
    c.budget = budget;
    c.uniformArrivals = true; // the potential bound (docs §5) and so the analysis need it
    PBX_RETURN_IF_ERROR(growing::validate(c));
    return c;
}

Result<growing::NoiseUnit> growingPmwgUnit(const GrowingRequestSpec &spec)
{
    PBX_TRY(config, growingPmwgConfig(spec));
    return growingNsgUnit(nsgView(spec, config.resolved()));
}

filters::Charge pmwgRoundCharge(const GrowingRequestSpec &spec, const growing::NoiseUnit &unit,
                                std::uint64_t start)
{
    // nsgRoundCharge reads only the budget kind: PMWG's rounds are NSG's rounds.
    return nsgRoundCharge(spec, unit, start);
}

double pmwgChargeWorstCase(const GrowingRequestSpec &spec, const growing::NoiseUnit &unit)
{
    auto config = growingPmwgConfig(spec);
    return nsgChargeWorstCase(nsgView(spec, config->resolved()), unit);
}

std::uint64_t pmwgQuerySeed(std::uint64_t orderSeed)
{
    return orderSeed ^ 0x706d7767u;
}

std::vector<std::pair<std::size_t, std::size_t>> pmwgNextQuery(const growing::Universe &universe,
                                                               std::mt19937_64 &rng)
{
    const std::size_t m = 2 + rng() % 2;
    std::vector<std::size_t> attributes(universe.sizes.size());
    for (std::size_t a = 0; a < attributes.size(); ++a)
        attributes[a] = a;
    for (std::size_t i = attributes.size(); i-- > 1;)
        std::swap(attributes[i], attributes[rng() % (i + 1)]);
    std::vector<std::pair<std::size_t, std::size_t>> terms;
    for (std::size_t a = 0; a < m && a < attributes.size(); ++a)
        terms.emplace_back(attributes[a], rng() % universe.sizes[attributes[a]]);
    return terms;
}

std::string pmwgQueryText(std::span<const std::pair<std::size_t, std::size_t>> terms)
{
    std::string text;
    for (const auto &term : terms) {
        const auto &labels = attributeLabels();
        if (!text.empty())
            text += " ∧ ";
        if (term.first < labels.size() && term.second < labels[term.first].values.size())
            text += std::string(labels[term.first].name) + " = " + labels[term.first].values[term.second];
        else
            text += "?";
    }
    return text;
}

Result<void> runPmwgStream(const GrowingRequestSpec &spec, const data::Rows &table,
                           std::span<const std::uint32_t> order, std::uint64_t end,
                           filters::PrivacyFilter &filter, mechanisms::NoiseSource &noise, LedgerEvent &event,
                           GrowingRecord &record)
{
    PBX_TRY(config, growingPmwgConfig(spec));
    const growing::PmwgConfig c = config.resolved();
    PBX_TRY(unit, growingPmwgUnit(spec));
    PBX_TRY(universe, growing::cpsUniverse(table, spec.pmwg.universe));
    const growing::HardQueryCap cap = capOf(c);
    const std::size_t N = universe.cells;
    PmwgRecord pmwg;
    pmwg.universe = N;
    pmwg.sigmaN = unit.sigmaN;
    pmwg.worstCase = pmwgChargeWorstCase(spec, unit);
    std::vector<double> histogram(N, 1.0 / double(N)); // x̂ at t = n: uniform (public)
    std::vector<double> cellCounts(N, 0.0);            // the true histogram of the first t rows (counts)
    std::uint64_t t = 0;
    auto advance = [&](std::uint64_t to) {
        for (; t < to; ++t)
            cellCounts[universe.rowCells[order[t]]] += 1.0;
    };
    advance(spec.startSize);
    const auto times = nsgCheckpointTimes(spec.startSize, end, spec.pmwg.checkpoints);
    // Every checkpoint's exact noise scales, before the first charge (nothing spent on a refusal).
    PBX_TRY(scales, svtNoiseAtEach(unit, times));
    std::mt19937_64 queries(pmwgQuerySeed(record.orderSeed));
    bool open = false;          // a round is open
    std::int64_t threshold = 0; // its threshold draw (counts)
    bool refused = false;
    std::uint64_t asked = 0;
    for (std::size_t ci = 0; ci < times.size(); ++ci) {
        const std::uint64_t target = times[ci];
        const SvtNoise &scale = (scales)[ci];
        if (target > t) {
            growing::uniformUpdate(histogram, t, target - t); // data-independent: no cost
            advance(target);
        }
        PmwgCheckpointRecord cp;
        cp.time = t;
        cp.cap = cap.at(spec.startSize, t);
        const double time = double(t);
        for (std::uint64_t k = 0; k < spec.pmwg.perCheckpoint; ++k, ++asked) {
            const auto q = growing::conjunctionQuery(universe, pmwgNextQuery(universe, queries));
            const double estimate = estimateOf(q, histogram);
            if (pmwg.hard.size() >= cp.cap) { // the cap binds: answered from x̂, the data untouched
                ++cp.capped;
                cp.answers.push_back(estimate);
                continue;
            }
            if (!open) { // a round opens: charged before its threshold is drawn
                const filters::Charge charge = pmwgRoundCharge(spec, unit, t);
                PBX_TRY(opened, chargeSvtRound(charge, pmwg.rounds.size(), t, filter, event, record));
                if (!opened) {
                    refused = true;
                    break;
                }
                pmwg.rounds.push_back({pmwg.rounds.size(), t, std::nullopt, charge.amount});
                auto rho = discreteLaplaceDraw(scale.threshold, noise.bits());
                if (!rho)
                    return streamNoiseFailed(rho.error());
                threshold = *rho;
                open = true;
            }
            double sum = 0.0; // q is a 0/1 vector and the cell counts are integers: exact
            for (std::size_t j = 0; j < N; ++j)
                sum += q[j] * cellCounts[j];
            const auto count = static_cast<std::uint64_t>(sum);
            // Hardness |t·q(x_t) − t·⟨q, x̂⟩| on the count scale: sensitivity 1, as x̂ is public.
            auto nu = discreteLaplaceDraw(scale.query, noise.bits());
            if (!nu)
                return streamNoiseFailed(nu.error());
            PBX_TRY(hard, svtAbove(count, growing::toCountScale(estimate, time), *nu, threshold,
                                   growing::toCountScale(c.threshold, time)));
            if (!hard) {
                cp.answers.push_back(estimate); // ⊥: answered from x̂
                continue;
            }
            PmwgHardRecord h;
            h.time = t;
            h.query = asked;
            h.scale = scale.numeric;
            auto answer = noisyCountFraction(count, t, scale.numericCount, noise.bits());
            if (!answer)
                return streamNoiseFailed(answer.error());
            h.answer = *answer;
            growing::multiplicativeWeightsUpdate(histogram, q, h.answer, c.eta);
            pmwg.rounds.back().halt = t;
            Attempt &attempt = event.attempts.back();
            attempt.estimate = h.answer;
            attempt.accepted = true;
            attempt.releases.push_back({"fraction", h.scale, h.answer, attempt.cost});
            cp.answers.push_back(h.answer);
            pmwg.hard.push_back(h);
            open = false; // the next round draws a fresh threshold
        }
        cp.hard = pmwg.hard.size();
        pmwg.checkpoints.push_back(std::move(cp));
        if (refused)
            break;
    }
    if (noise.bits().failed())
        return makeError(ErrorCode::Io, "the random source failed during the stream");
    record.plannedEpochs = spec.pmwg.checkpoints;
    record.seriesTotal = pmwg.worstCase;
    event.costKind = pmwgRoundCharge(spec, unit, spec.startSize).kind;
    if (pmwg.rounds.empty()) {
        event.status = EventStatus::Refused;
    } else {
        event.status = EventStatus::Released;
        event.answer = pmwg.hard.empty() ? 0.0 : pmwg.hard.back().answer;
        // The last ⊤ answer's exact discrete Laplace tail: |Z|/t ≤ w/t with probability ≥ 1 − β.
        event.errorBound = 0.0;
        if (!pmwg.hard.empty()) {
            auto bound = fractionLaplaceBound(pmwg.hard.back().scale, pmwg.hard.back().time, spec.beta);
            event.errorBound = bound ? *bound : INFINITY;
        }
        event.targetMet = !record.refusedEpoch;
        const std::string symbol(filters::chargeUnitSymbol(event.costKind));
        std::size_t answers = 0;
        for (const auto &cp : pmwg.checkpoints)
            answers += cp.answers.size();
        event.accounting = "growing database (Cummings et al. 2018, PMWG): " + std::to_string(answers)
                           + " answers, " + std::to_string(pmwg.hard.size()) + " hard; "
                           + std::to_string(pmwg.rounds.size()) + " sparse-vector rounds, each charged "
                           + symbol
                           + " for its whole worst case when it opened; the charges' worst case over "
                           + "all transcripts is " + symbol + " = " + formatSignificant(pmwg.worstCase);
    }
    record.pmwg = std::move(pmwg);
    return {};
}

std::string pmwgRoundLabel(const LedgerEvent &e, std::size_t round)
{
    const PmwgRecord &p = *e.growingRecord()->pmwg;
    const PmwgRoundRecord &r = p.rounds[round];
    const bool zcdp = e.costKind == filters::ChargeKind::Rho;
    std::string halt = ", open at the end";
    if (r.halt && round < p.hard.size())
        halt = ", ⊤ at t = " + std::to_string(*r.halt) + " (query " + std::to_string(p.hard[round].query)
               + ")";
    return "PMWG round " + std::to_string(r.index) + ": opened at t = " + std::to_string(r.start) + halt
           + ", " + (zcdp ? "ρ = " : "ε = ") + formatSignificant(r.charge);
}

std::string describePmwgRequest(const GrowingRequestSpec &s)
{
    const PmwgRequestSpec &p = s.pmwg;
    const std::string budget
        = s.budgetKind == growing::BudgetKind::Zcdp ? "ρ ≤ " + formatSignificant(s.rho)
          : s.budgetKind == growing::BudgetKind::Approx
              ? "(" + formatSignificant(s.epsilon) + ", " + formatSignificant(s.delta) + ")"
              : "ε ≤ " + formatSignificant(s.epsilon);
    auto shape = growing::universeShape(p.universe);
    const std::string constants = p.mode == "theory" ? "theory α = " + formatSignificant(p.alpha)
                                                     : "practical T = " + formatSignificant(p.threshold)
                                                           + ", η = " + formatSignificant(p.eta)
                                                           + ", c₀ = " + formatSignificant(p.c0);
    return "PMWG stream, t = " + std::to_string(s.startSize) + " … "
           + (s.end ? std::to_string(*s.end) : std::string("all rows")) + ", universe " + p.universe
           + (shape ? " (N = " + std::to_string(shape->cells) + ")" : std::string()) + ", " + constants
           + ", p = " + formatSignificant(p.exponent) + ", " + std::to_string(p.checkpoints) + " × "
           + std::to_string(p.perCheckpoint) + " queries, " + budget;
}

Result<void> auditPmwgEvent(const LedgerEvent &e, const GrowingRequestSpec &spec, std::uint64_t end)
{
    const std::string where = "event " + std::to_string(e.index) + " ('" + e.request.id + "')";
    auto fail = [&](const std::string &what) { return makeError(ErrorCode::Parse, where + ": " + what); };
    auto config = growingPmwgConfig(spec);
    if (!config)
        return fail(config.error().message);
    const growing::PmwgConfig c = config->resolved();
    auto unit = growingPmwgUnit(spec);
    if (!unit)
        return fail(unit.error().message);
    auto universe = growing::universeShape(spec.pmwg.universe);
    if (!universe)
        return fail(universe.error().message);
    if (!e.growingRecord() || !e.growingRecord()->pmwg || !e.growingRecord()->epochs.empty()
        || e.growingRecord()->nsg)
        return fail("a PMWG event without its rounds");
    const GrowingRecord &r = *e.growingRecord();
    const PmwgRecord &p = *r.pmwg;
    const filters::ChargeKind kind = pmwgRoundCharge(spec, *unit, spec.startSize).kind;
    if (e.costKind != kind)
        return fail("its cost is in " + std::string(filters::chargeKindName(e.costKind))
                    + ", but its budget charges " + std::string(filters::chargeKindName(kind)));
    if (p.universe != universe->cells || p.sigmaN != unit->sigmaN
        || p.worstCase != pmwgChargeWorstCase(spec, *unit) || r.seriesTotal != p.worstCase)
        return fail("its universe, noise unit σ_n = " + formatSignificant(p.sigmaN)
                    + " or worst case is not the one its request gives (σ_n = "
                    + formatSignificant(unit->sigmaN) + ")");
    if (r.end != end || r.plannedEpochs != spec.pmwg.checkpoints)
        return fail("its plan (" + std::to_string(r.plannedEpochs) + " checkpoints to t = "
                    + std::to_string(r.end) + ") is not the one its parameters give");
    const auto times = nsgCheckpointTimes(spec.startSize, end, spec.pmwg.checkpoints);
    if (p.checkpoints.size() > times.size() || (!r.refusedEpoch && p.checkpoints.size() != times.size()))
        return fail("its stream stops after " + std::to_string(p.checkpoints.size()) + " of "
                    + std::to_string(times.size()) + " checkpoints without a refused round");
    if (r.refusedEpoch && *r.refusedEpoch != p.rounds.size())
        return fail("its refused round is not the one after its last");
    if (p.rounds.size() != e.attempts.size())
        return fail("it records " + std::to_string(p.rounds.size()) + " rounds but "
                    + std::to_string(e.attempts.size()) + " charges");
    if (p.rounds.size() < p.hard.size() || p.rounds.size() > p.hard.size() + 1)
        return fail("its rounds do not match its ⊤ answers (each round halts at one)");
    if ((e.status == EventStatus::Refused) != p.rounds.empty())
        return fail("its status does not match the rounds it ran");
    const growing::HardQueryCap cap = capOf(c);
    // Replay the public half: x̂, the queries, the cap and where each round opens.
    std::vector<double> histogram(universe->cells, 1.0 / double(universe->cells));
    std::mt19937_64 queries(pmwgQuerySeed(r.orderSeed));
    std::uint64_t t = spec.startSize, asked = 0;
    std::size_t hardSoFar = 0, roundsSoFar = 0;
    bool open = false;
    double total = 0.0;
    for (std::size_t ci = 0; ci < p.checkpoints.size(); ++ci) {
        const PmwgCheckpointRecord &cp = p.checkpoints[ci];
        const std::string at = "checkpoint " + std::to_string(ci);
        if (cp.time != times[ci] || cp.cap != cap.at(spec.startSize, times[ci]))
            return fail(at + ": its time or cap is not the planned one");
        const bool last = ci + 1 == p.checkpoints.size();
        if (cp.answers.size() > spec.pmwg.perCheckpoint
            || (cp.answers.size() < spec.pmwg.perCheckpoint && !(last && r.refusedEpoch)))
            return fail(at + ": it records " + std::to_string(cp.answers.size()) + " answers, not "
                        + std::to_string(spec.pmwg.perCheckpoint));
        if (times[ci] > t) {
            growing::uniformUpdate(histogram, t, times[ci] - t);
            t = times[ci];
        }
        std::uint64_t capped = 0;
        for (std::size_t k = 0; k < spec.pmwg.perCheckpoint; ++k, ++asked) {
            const auto q = growing::conjunctionQuery(*universe, pmwgNextQuery(*universe, queries));
            const double estimate = estimateOf(q, histogram);
            const std::string name = "query " + std::to_string(asked);
            const bool isCapped = hardSoFar >= cp.cap;
            if (!isCapped && !open) { // a round opens here (or was refused here)
                if (roundsSoFar == p.rounds.size()) {
                    if (!r.refusedEpoch || k != cp.answers.size() || !last)
                        return fail(name + ": a round should open here, but none is recorded");
                    break; // the refused round: the stream stopped
                }
                const PmwgRoundRecord &round = p.rounds[roundsSoFar];
                const filters::Charge charge = pmwgRoundCharge(spec, *unit, t);
                if (round.index != roundsSoFar || round.start != t)
                    return fail("round " + std::to_string(roundsSoFar) + ": it does not open at t = "
                                + std::to_string(t) + " (" + name + ", the first uncapped query after a ⊤)");
                if (round.charge != charge.amount || e.attempts[roundsSoFar].cost != charge.amount)
                    return fail("round " + std::to_string(roundsSoFar) + ": it charged "
                                + std::string(filters::chargeUnitSymbol(kind)) + " = "
                                + filters::formatAmount(e.attempts[roundsSoFar].cost)
                                + ", but opening at t = " + std::to_string(t) + " gives "
                                + filters::formatAmount(charge.amount));
                total = math::addRoundUp(total, charge.amount);
                ++roundsSoFar;
                open = true;
            }
            if (k >= cp.answers.size())
                return fail(at + ": its answers stop before query " + std::to_string(asked)
                            + " without a refused round");
            const bool hard = hardSoFar < p.hard.size() && p.hard[hardSoFar].query == asked;
            if (isCapped && hard)
                return fail(name + ": a ⊤ answer beyond the cap H(t) = " + std::to_string(cp.cap));
            if (isCapped)
                ++capped;
            if (!hard) {
                if (cp.answers[k] != estimate)
                    return fail(name + ": its answer " + formatSignificant(cp.answers[k])
                                + " is not ⟨q, x̂⟩ = " + formatSignificant(estimate)
                                + " of the replayed public histogram");
                continue;
            }
            const PmwgHardRecord &h = p.hard[hardSoFar];
            const std::size_t i = hardSoFar; // the round it halts
            const double scale = math::nudgeUp(growing::kNumericMultiplier * unit->sigma(double(t)));
            if (h.time != t || h.scale != scale)
                return fail(name + ": its ⊤ time or noise scale (3σ(t)) is not the one the plan gives");
            if (!p.rounds[i].halt || *p.rounds[i].halt != t)
                return fail("round " + std::to_string(i) + ": its ⊤ time is not its ⊤ answer's");
            const Attempt &a = e.attempts[i];
            if (a.releases.size() != 1 || a.releases[0].value != h.answer || a.releases[0].scale != scale
                || cp.answers[k] != h.answer)
                return fail("round " + std::to_string(i) + ": its released answer differs from its record");
            growing::multiplicativeWeightsUpdate(histogram, q, h.answer, c.eta);
            ++hardSoFar;
            open = false;
        }
        if (capped != cp.capped || cp.hard != hardSoFar)
            return fail(at + ": its capped or ⊤ counts are not the replayed ones");
    }
    if (hardSoFar != p.hard.size() || roundsSoFar != p.rounds.size())
        return fail("it records ⊤ answers or rounds the replay never reaches");
    for (std::size_t i = hardSoFar; i < p.rounds.size(); ++i)
        if (p.rounds[i].halt || !e.attempts[i].releases.empty())
            return fail("round " + std::to_string(i) + ": an open round released an answer");
    if (total != e.cost)
        return fail("its rounds charge " + filters::formatAmount(total) + ", not the recorded cost "
                    + filters::formatAmount(e.cost));
    return {};
}

} // namespace pbx::session
