// SPDX-License-Identifier: MIT
#include "core/session/odp_release.h"

#include "core/filters/odp_privacy_filter.h"
#include "core/math/directed_rounding.h"
#include "core/mechanisms/noise_source.h"
#include "core/odp/column_counts.h"
#include "core/util/parameter_checks.h"

#include <algorithm>
#include <cmath>

namespace pbx::session {

namespace {

Error invalid(const std::string &message)
{
    return makeError(ErrorCode::InvalidArgument, message);
}

/// ε of the releases after j ⊤ (0 for j = 0), as releaseLargeEntries charges it.
double releaseEpsilon(const odp::SvtParameters &p, double epsilonRelease, int j)
{
    if (j == 0)
        return 0.0;
    const double scale = odp::releaseScale(odp::ReleaseAnalysis::Odp, p, epsilonRelease, j);
    return math::nudgeUp(j * p.sensitivity / scale);
}

/// ε − (ε₁ + ε₂), the release budget of the c-th cell, rounded down.
double releaseBudget(const SvtRequestSpec &spec, const odp::SvtParameters &p)
{
    return math::subtractRoundDown(spec.epsilon, math::addRoundUp(p.epsilon1, p.epsilon2));
}

} // namespace

Result<odp::SvtParameters> svtParametersFor(const SvtRequestSpec &spec)
{
    if (!std::isfinite(spec.epsilon) || !(spec.epsilon > 0.0))
        return invalid("epsilon: must be a finite number > 0");
    if (!(spec.svtShare > 0.0 && spec.svtShare < 1.0))
        return invalid("svt_share: must lie in (0, 1)");
    if (spec.cutoff < 1 || spec.cutoff > 1000000)
        return invalid("c: must be a whole number in [1, 10^6]");
    if (!(spec.sensitivity >= 1.0) || spec.sensitivity > 1099511627776.0
        || spec.sensitivity != std::floor(spec.sensitivity))
        return invalid("sensitivity: must be a whole number in [1, 2^40] (one row moves a count by up "
                       "to 1, so Δ < 1 would under-report the loss)");
    if (spec.epsilon1.has_value() != spec.epsilon2.has_value())
        return invalid("epsilon1, epsilon2: give both or neither");
    odp::SvtParameters p;
    p.cutoff = spec.cutoff;
    p.sensitivity = spec.sensitivity;
    if (spec.epsilon1) {
        p.epsilon1 = *spec.epsilon1;
        p.epsilon2 = *spec.epsilon2;
    } else {
        auto split = odp::lyuSplit(spec.epsilon * spec.svtShare, spec.cutoff);
        if (!split)
            return split.error();
        p.epsilon1 = split->epsilon1;
        p.epsilon2 = split->epsilon2;
    }
    PBX_RETURN_IF_ERROR(odp::validate(p));
    if (!(releaseBudget(spec, p) > 0.0))
        return invalid("epsilon: must exceed epsilon1 + epsilon2 (the releases need a share)");
    return p;
}

Result<odp::OdpGuarantee> svtRequestGuarantee(const SvtRequestSpec &spec)
{
    auto p = svtParametersFor(spec);
    if (!p)
        return p.error();
    // releaseLargeEntries's own release budget: ε − (ε₁ + ε₂) in plain arithmetic.
    const double epsilonRelease = spec.epsilon - (p->epsilon1 + p->epsilon2);
    odp::OdpGuarantee g;
    for (int j = 0; j <= p->cutoff; ++j)
        g.cells.push_back({j, "j = " + std::to_string(j),
                           math::addRoundUp(odp::svtCellCost(*p, j), releaseEpsilon(*p, epsilonRelease, j))});
    return g;
}

Result<void> checkOdpRequest(const QueryRequest &request, const data::Table &table,
                             filters::FilterKind filter)
{
    if (!request.odp)
        return invalid("not an output-DP request");
    if (filter != filters::FilterKind::Odp)
        return makeError(
            ErrorCode::Unsupported,
            "mechanism: '" + request.odp->mechanism
                + "' is an output-DP mechanism charged by its realised cell; only the odp filter "
                  "can settle that (use --filter odp)");
    if (request.odp->mechanism != "svt")
        return invalid("mechanism: unknown output-DP mechanism '" + request.odp->mechanism + "'");
    auto p = svtParametersFor(request.odp->svt);
    if (!p)
        return p.error();
    auto counts = odp::columnCounts(table, request.odp->svt.column);
    if (!counts)
        return counts.error();
    return {};
}

Result<LedgerEvent> Session::askOdp(QueryRequest request)
{
    PBX_RETURN_IF_ERROR(checkOdpRequest(request, *m_table, m_settings.filter));
    auto *filter = dynamic_cast<filters::OdpPrivacyFilter *>(m_filter.get());
    if (!filter)
        return makeError(ErrorCode::Unsupported, "the session's filter is not the odp filter");
    if (request.id.empty())
        request.id = "q" + std::to_string(m_events.size() + 1);
    const SvtRequestSpec &spec = request.odp->svt;
    const odp::SvtParameters p = *svtParametersFor(spec);
    const odp::OdpGuarantee guarantee = *svtRequestGuarantee(spec);
    auto counts = odp::columnCounts(*m_table, spec.column);
    if (!counts)
        return counts.error();

    LedgerEvent event;
    event.request = request;
    event.mechanism = request.odp->mechanism;
    event.costKind = filters::ChargeKind::ExPost;
    OdpRecord record;
    record.guarantee = guarantee;
    record.reservedEpsilon = guarantee.worstEpsilon();
    record.epsilon1 = p.epsilon1;
    record.epsilon2 = p.epsilon2;
    // Admission by the worst case (R1); a refusal is recorded and costs nothing.
    if (auto admitted = filter->odp().admits(guarantee); !admitted) {
        if (admitted.error().code != ErrorCode::BudgetExceeded)
            return admitted.error();
        event.status = EventStatus::Refused;
        event.reason = admitted.error().message;
        return append(std::move(event));
    }
    // The random source is opened before anything is reserved: no bits, nothing spent.
    const std::size_t index = m_events.size();
    auto source = nextNoiseSource();
    if (!source)
        return source.error();
    // The reservation is made durable before any noise is drawn, so that a crash is charged the
    // worst case (the output may have been drawn; docs/output-dp.md §2).
    record.reservation = static_cast<int>(filter->odp().history().size()) + 1;
    event.odpRecord = record;
    event.index = index;
    if (m_reservationHook)
        PBX_RETURN_IF_ERROR(m_reservationHook(event));
    auto id = filter->reserve(guarantee, "sparse vector");
    if (!id)
        return id.error(); // cannot happen: admits() has just accepted it
    auto run = odp::releaseLargeEntries(counts->counts, spec.threshold, p, spec.epsilon, source->bits());
    if (!run) {
        // Noise may have been drawn: never a refund.
        (void)filter->settleWorstCase(*id);
        event.odpRecord->settledEpsilon = record.reservedEpsilon;
        event.status = EventStatus::Released;
        event.reason = "the mechanism failed (" + run.error().message + "); charged its worst case";
        event.cost = record.reservedEpsilon;
        return append(std::move(event));
    }
    // R3: the cell is the number of ⊤ in the released answers.
    const int j = static_cast<int>(std::count(run->answers.begin(), run->answers.end(), true));
    auto settled = filter->settle(*id, j);
    if (!settled)
        return settled.error(); // j ≤ c always; settled at the worst case otherwise
    OdpRecord &r = *event.odpRecord;
    r.cell = j;
    r.settledEpsilon = *settled;
    r.answers = run->answers;
    r.releaseScale = run->releaseScale;
    for (std::size_t k = 0; k < run->flagged.size(); ++k)
        r.releases.push_back(OdpReleasedEntry{run->flagged[k], counts->labels[run->flagged[k]],
                                              static_cast<std::int64_t>(run->released[k])});
    event.status = EventStatus::Released;
    event.answer = j;
    event.errorBound = 0.0;
    event.targetMet = true;
    event.cost = *settled;
    event.accounting = "output DP (Hartmann et al. 2023, Lemma 8, Theorem 7): reserved ε = "
                       + filters::formatAmount(r.reservedEpsilon)
                       + ", settled in cell j = " + std::to_string(j);
    return append(std::move(event));
}

Result<void> auditOdpEvent(const LedgerEvent &e, const data::Table &table, const SessionSettings &settings)
{
    const std::string where = "event " + std::to_string(e.index) + " ('" + e.request.id + "')";
    auto fail = [&](const std::string &what) { return makeError(ErrorCode::Parse, where + ": " + what); };
    if (settings.filter != filters::FilterKind::Odp)
        return fail("an output-DP request in a session under the "
                    + std::string(filters::filterKindName(settings.filter)) + " filter");
    if (!e.request.odp)
        return fail("an output-DP record without its request");
    if (e.status == EventStatus::Refused) {
        if (e.cost != 0.0 || e.odpRecord)
            return fail("a refused request has a cost or a reservation");
        return {};
    }
    if (!e.odpRecord)
        return fail("a released output-DP mechanism without its reservation");
    const OdpRecord &r = *e.odpRecord;
    const SvtRequestSpec &spec = e.request.odp->svt;
    auto p = svtParametersFor(spec);
    auto g = svtRequestGuarantee(spec);
    if (!p || !g)
        return fail((p ? g.error() : p.error()).message);
    if (r.epsilon1 != p->epsilon1 || r.epsilon2 != p->epsilon2)
        return fail("its ε₁, ε₂ are not those of its parameters");
    // R5: the partition recorded is the one its parameters give.
    if (r.guarantee.delta != g->delta || r.guarantee.cells.size() != g->cells.size())
        return fail("its partition is not the one its parameters give");
    for (std::size_t k = 0; k < g->cells.size(); ++k)
        if (r.guarantee.cells[k].id != g->cells[k].id || r.guarantee.cells[k].epsilon != g->cells[k].epsilon)
            return fail("cell " + std::to_string(g->cells[k].id)
                        + " costs ε = " + filters::formatAmount(g->cells[k].epsilon) + ", not the recorded "
                        + filters::formatAmount(r.guarantee.cells[k].epsilon));
    if (r.reservedEpsilon != g->worstEpsilon())
        return fail("it reserved ε = " + filters::formatAmount(r.reservedEpsilon) + ", not its worst case "
                    + filters::formatAmount(g->worstEpsilon()));
    if (!r.cell) { // settled at the worst case (a crash or a failed run): never less
        if (r.settledEpsilon != r.reservedEpsilon || e.cost != r.reservedEpsilon)
            return fail("an unsettled reservation must be charged its worst case");
        return {};
    }
    // R3: the cell is recomputed from the released answers.
    const int j = static_cast<int>(std::count(r.answers.begin(), r.answers.end(), true));
    if (*r.cell != j)
        return fail("it settled in cell " + std::to_string(*r.cell) + " but its answers hold "
                    + std::to_string(j) + " ⊤");
    auto counts = odp::columnCounts(table, spec.column);
    if (!counts)
        return fail(counts.error().message);
    // It halts right after the c-th ⊤; otherwise it scans every count.
    const bool halted = j == p->cutoff;
    if (r.answers.size() > counts->counts.size() || (halted && !r.answers.back())
        || (!halted && r.answers.size() != counts->counts.size()))
        return fail("its answers do not scan the column's counts up to the c-th ⊤");
    if (r.releases.size() != static_cast<std::size_t>(j))
        return fail("it released " + std::to_string(r.releases.size())
                    + " entries, not j = " + std::to_string(j));
    const double expectedScale = j == 0 ? 0.0
                                        : odp::releaseScale(odp::ReleaseAnalysis::Odp, *p,
                                                            spec.epsilon - (p->epsilon1 + p->epsilon2), j);
    if (r.releaseScale != expectedScale)
        return fail("its releases used scale " + filters::formatAmount(r.releaseScale)
                    + ", not b_ODP(j) = " + filters::formatAmount(expectedScale));
    const double cost = g->cell(j)->epsilon;
    if (r.settledEpsilon != cost || e.cost != cost)
        return fail("it records ε = " + filters::formatAmount(e.cost) + " but cell j = " + std::to_string(j)
                    + " costs " + filters::formatAmount(cost));
    return {};
}

Result<void> replayOdpEvent(filters::PrivacyFilter &filter, const LedgerEvent &e)
{
    const std::string where = "event " + std::to_string(e.index) + " ('" + e.request.id + "')";
    auto *odpFilter = dynamic_cast<filters::OdpPrivacyFilter *>(&filter);
    if (!odpFilter)
        return makeError(ErrorCode::Parse, where + ": an output-DP event needs the odp filter");
    if (e.status == EventStatus::Refused || !e.odpRecord)
        return {};
    auto id = odpFilter->reserve(e.odpRecord->guarantee, e.mechanism);
    if (!id)
        return makeError(ErrorCode::Parse, where + ": " + id.error().message);
    auto settled
        = e.odpRecord->cell ? odpFilter->settle(*id, *e.odpRecord->cell) : odpFilter->settleWorstCase(*id);
    if (!settled)
        return makeError(ErrorCode::Parse, where + ": " + settled.error().message);
    if (*settled != e.cost)
        return makeError(ErrorCode::Parse, where + ": it settles at ε = " + filters::formatAmount(*settled)
                                               + ", not the recorded cost " + filters::formatAmount(e.cost));
    return {};
}

} // namespace pbx::session
