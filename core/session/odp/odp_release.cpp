// SPDX-License-Identifier: MIT
#include "core/session/odp/odp_release.h"

#include "core/filters/odp_privacy_filter.h"
#include "core/math/directed_rounding.h"
#include "core/mechanisms/noise_source.h"
#include "core/odp/column_counts.h"
#include "core/session/odp/odp_mechanisms.h"
#include "core/util/parameter_checks.h"
#include "core/util/try.h"

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
        PBX_TRY(split, odp::lyuSplit(spec.epsilon * spec.svtShare, spec.cutoff));
        p.epsilon1 = split.epsilon1;
        p.epsilon2 = split.epsilon2;
    }
    PBX_RETURN_IF_ERROR(odp::validate(p));
    if (!(releaseBudget(spec, p) > 0.0))
        return invalid("epsilon: must exceed epsilon1 + epsilon2 (the releases need a share)");
    return p;
}

Result<odp::OdpGuarantee> svtRequestGuarantee(const SvtRequestSpec &spec)
{
    PBX_TRY(p, svtParametersFor(spec));
    // releaseLargeEntries's own release budget: ε − (ε₁ + ε₂) in plain arithmetic.
    const double epsilonRelease = spec.epsilon - (p.epsilon1 + p.epsilon2);
    odp::OdpGuarantee g;
    for (int j = 0; j <= p.cutoff; ++j)
        g.cells.push_back({j, "j = " + std::to_string(j),
                           math::addRoundUp(odp::svtCellCost(p, j), releaseEpsilon(p, epsilonRelease, j))});
    return g;
}

Result<odp::OdpGuarantee> odpRequestGuarantee(const OdpRequestSpec &spec, const data::Table &table)
{
    switch (spec.mechanism) {
    case OdpMechanism::Svt:
        return svtRequestGuarantee(spec.svt);
    case OdpMechanism::PtrIqr:
        return ptrIqrRequestGuarantee(spec.ptrIqr);
    case OdpMechanism::EarlyStop:
        return earlyStopRequestGuarantee(spec.earlyStop);
    case OdpMechanism::Recover:
        return recoverRequestGuarantee(spec.recover, table);
    }
    return invalid("mechanism: unknown output-DP mechanism");
}

Result<void> checkOdpRequest(const QueryRequest &request, const data::Table &table,
                             filters::FilterKind filter)
{
    if (!request.odp())
        return invalid("not an output-DP request");
    if (filter != filters::FilterKind::Odp)
        return makeError(
            ErrorCode::Unsupported,
            "mechanism: '" + std::string(odpMechanismName(request.odp()->mechanism))
                + "' is an output-DP mechanism charged by its realised cell; only the odp filter "
                  "can settle that (use --filter odp)");
    const OdpRequestSpec &spec = *request.odp();
    if (spec.mechanism == OdpMechanism::Svt) {
        PBX_RETURN_IF_ERROR(svtParametersFor(spec.svt));
        PBX_RETURN_IF_ERROR(odp::columnCountLabels(table, spec.svt.column));
        return {};
    }
    if (spec.mechanism == OdpMechanism::PtrIqr)
        return checkPtrIqrRequest(spec.ptrIqr, table);
    if (spec.mechanism == OdpMechanism::EarlyStop)
        return checkEarlyStopRequest(spec.earlyStop, table);
    return checkRecoverRequest(spec.recover, table);
}

Result<void> checkOdpRequest(const QueryRequest &request, const data::Table &table,
                             const SessionSettings &settings)
{
    PBX_RETURN_IF_ERROR(checkOdpRequest(request, table, settings.filter));
    if (request.odp()->mechanism != OdpMechanism::Svt)
        PBX_RETURN_IF_ERROR(
            requireReplaceOne(settings.neighbours, std::string(odpMechanismName(request.odp()->mechanism))));
    return {};
}

namespace {

/// Runs the admitted mechanism: fills the record's output and returns the realised cell, which is
/// computed from that output alone (rule R3).
Result<int> runOdpMechanism(const OdpRequestSpec &spec, const data::Rows &table, mechanisms::RandomBits &bits,
                            OdpRecord &record)
{
    if (spec.mechanism == OdpMechanism::Svt) {
        const odp::SvtParameters p = *svtParametersFor(spec.svt);
        PBX_TRY(counts, odp::columnCounts(table, spec.svt.column));
        PBX_TRY(run, odp::releaseLargeEntries(counts.counts, spec.svt.threshold, p, spec.svt.epsilon, bits));
        record.answers = run.answers;
        record.releaseScale = run.releaseScale;
        for (std::size_t k = 0; k < run.flagged.size(); ++k)
            record.releases.push_back(OdpReleasedEntry{run.flagged[k], counts.labels[run.flagged[k]],
                                                       static_cast<std::int64_t>(run.released[k])});
        // R3: the cell is the number of ⊤ in the released answers.
        return static_cast<int>(std::count(run.answers.begin(), run.answers.end(), true));
    }
    if (spec.mechanism == OdpMechanism::PtrIqr)
        return runPtrIqrRequest(spec.ptrIqr, table, bits, record);
    if (spec.mechanism == OdpMechanism::EarlyStop)
        return runEarlyStopRequest(spec.earlyStop, table, bits, record);
    return runRecoverRequest(spec.recover, table, bits, record);
}

/// The event's answer: a number summarising the released output.
double odpAnswer(const OdpRecord &r, int cell)
{
    if (r.ptrIqr)
        return r.ptrIqr->median.value_or(r.ptrIqr->iqr.value_or(0.0));
    if (r.earlyStop)
        return r.earlyStop->estimate;
    if (r.recovery)
        return r.recovery->noisyError;
    return cell;
}

const char *odpSource(OdpMechanism mechanism)
{
    switch (mechanism) {
    case OdpMechanism::PtrIqr:
        return "Definition 9, Lemmas 6 and 10";
    case OdpMechanism::EarlyStop:
        return "Lemma 11";
    case OdpMechanism::Recover:
        return "Algorithm 5, Theorem 17";
    case OdpMechanism::Svt:
        break;
    }
    return "Lemma 8";
}

const char *odpLabel(OdpMechanism mechanism)
{
    switch (mechanism) {
    case OdpMechanism::PtrIqr:
        return "PTR-IQR";
    case OdpMechanism::EarlyStop:
        return "early-stopped mean";
    case OdpMechanism::Recover:
        return "budget recovery";
    case OdpMechanism::Svt:
        break;
    }
    return "sparse vector";
}

} // namespace

Result<LedgerEvent> Session::askOdp(QueryRequest request)
{
    PBX_RETURN_IF_ERROR(checkOdpRequest(request, *m_table, m_settings));
    auto *filter = dynamic_cast<filters::OdpPrivacyFilter *>(m_filter.get());
    if (!filter)
        return makeError(ErrorCode::Unsupported, "the session's filter is not the odp filter");
    if (request.id.empty())
        request.id = "q" + std::to_string(m_events.size() + 1);
    const OdpRequestSpec &spec = *request.odp();
    PBX_TRY(guarantee, odpRequestGuarantee(spec, *m_table));

    LedgerEvent event;
    event.request = request;
    event.mechanism = eventMechanism(spec.mechanism);
    event.costKind = filters::ChargeKind::ExPost;
    OdpRecord record;
    record.guarantee = guarantee;
    record.reservedEpsilon = guarantee.worstEpsilon();
    if (spec.mechanism == OdpMechanism::Svt) {
        const odp::SvtParameters p = *svtParametersFor(spec.svt);
        record.epsilon1 = p.epsilon1;
        record.epsilon2 = p.epsilon2;
    }
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
    PBX_TRY(source, nextNoiseSource());
    // The reservation is made durable before any noise is drawn, so that a crash is charged the
    // worst case (the output may have been drawn; docs/output-dp.md §2).
    record.reservation = static_cast<int>(filter->odp().history().size()) + 1;
    event.record = record;
    event.index = index;
    if (m_reservationHook)
        PBX_RETURN_IF_ERROR(m_reservationHook(event));
    auto id = filter->reserve(guarantee, odpLabel(spec.mechanism));
    if (!id)
        return id.error(); // cannot happen: admits() has just accepted it
    OdpRecord &r = *event.odpRecord();
    auto cell = runOdpMechanism(spec, privateRows(), source.bits(), r);
    if (!cell) {
        // Noise may have been drawn: never a refund, and nothing of a partial output is shown.
        (void)filter->settleWorstCase(*id);
        r = record;
        r.settledEpsilon = record.reservedEpsilon;
        event.status = EventStatus::Released;
        event.reason = "the mechanism failed (" + cell.error().message + "); charged its worst case";
        event.cost = record.reservedEpsilon;
        return append(std::move(event));
    }
    auto settled = filter->settle(*id, *cell);
    if (!settled)
        return settled.error(); // every mechanism's cell is in its partition; else settled at the worst case
    r.cell = *cell;
    r.settledEpsilon = *settled;
    event.status = EventStatus::Released;
    event.answer = odpAnswer(r, *cell);
    event.errorBound = 0.0;
    event.targetMet = true;
    event.cost = *settled;
    event.accounting = std::string("output DP (Hartmann et al. 2023, ") + odpSource(spec.mechanism)
                       + ", Theorem 7): reserved ε = " + filters::formatAmount(r.reservedEpsilon)
                       + ", settled in cell " + std::to_string(*cell);
    return append(std::move(event));
}

namespace {

/// The svt part of the audit: the cell is the number of ⊤, the answers scan the counts up to the
/// c-th ⊤, j entries are released at scale b_ODP(j).
Result<void> auditSvtOutput(const SvtRequestSpec &spec, const OdpRecord &r, const data::Table &table)
{
    const odp::SvtParameters p = *svtParametersFor(spec);
    const int j = static_cast<int>(std::count(r.answers.begin(), r.answers.end(), true));
    if (*r.cell != j)
        return invalid("it settled in cell " + std::to_string(*r.cell) + " but its answers hold "
                       + std::to_string(j) + " ⊤");
    PBX_TRY(labels, odp::columnCountLabels(table, spec.column));
    // It halts right after the c-th ⊤; otherwise it scans every count.
    const bool halted = j == p.cutoff;
    if (r.answers.size() > labels.size() || (halted && !r.answers.back())
        || (!halted && r.answers.size() != labels.size()))
        return invalid("its answers do not scan the column's counts up to the c-th ⊤");
    if (r.releases.size() != static_cast<std::size_t>(j))
        return invalid("it released " + std::to_string(r.releases.size())
                       + " entries, not j = " + std::to_string(j));
    const double expectedScale = j == 0 ? 0.0
                                        : odp::releaseScale(odp::ReleaseAnalysis::Odp, p,
                                                            spec.epsilon - (p.epsilon1 + p.epsilon2), j);
    if (r.releaseScale != expectedScale)
        return invalid("its releases used scale " + filters::formatAmount(r.releaseScale)
                       + ", not b_ODP(j) = " + filters::formatAmount(expectedScale));
    return {};
}

} // namespace

Result<void> auditOdpEvent(const LedgerEvent &e, const data::Table &table, const SessionSettings &settings)
{
    const std::string where = "event " + std::to_string(e.index) + " ('" + e.request.id + "')";
    auto fail = [&](const std::string &what) { return makeError(ErrorCode::Parse, where + ": " + what); };
    if (settings.filter != filters::FilterKind::Odp)
        return fail("an output-DP request in a session under the "
                    + std::string(filters::filterKindName(settings.filter)) + " filter");
    if (!e.request.odp())
        return fail("an output-DP record without its request");
    if (e.status == EventStatus::Refused) {
        if (e.cost != 0.0 || e.odpRecord())
            return fail("a refused request has a cost or a reservation");
        return {};
    }
    if (!e.odpRecord())
        return fail("a released output-DP mechanism without its reservation");
    const OdpRecord &r = *e.odpRecord();
    const OdpRequestSpec &spec = *e.request.odp();
    if (spec.mechanism != OdpMechanism::Svt)
        if (auto ok = requireReplaceOne(settings.neighbours, std::string(odpMechanismName(spec.mechanism)));
            !ok)
            return fail(ok.error().message);
    auto g = odpRequestGuarantee(spec, table);
    if (!g)
        return fail(g.error().message);
    if (spec.mechanism == OdpMechanism::Svt) {
        auto p = svtParametersFor(spec.svt);
        if (r.epsilon1 != p->epsilon1 || r.epsilon2 != p->epsilon2)
            return fail("its ε₁, ε₂ are not those of its parameters");
    }
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
        if (r.ptrIqr || r.earlyStop || r.recovery || !r.answers.empty())
            return fail("an unsettled reservation shows an output");
        return {};
    }
    if (!g->cell(*r.cell))
        return fail("it settled in cell " + std::to_string(*r.cell) + ", which is not in its partition");
    // R3: the cell is recomputed from the released output.
    if (spec.mechanism == OdpMechanism::Svt) {
        if (auto ok = auditSvtOutput(spec.svt, r, table); !ok)
            return fail(ok.error().message);
    } else {
        auto ok = spec.mechanism == OdpMechanism::PtrIqr      ? auditPtrIqrOutput(spec.ptrIqr, r, table)
                  : spec.mechanism == OdpMechanism::EarlyStop ? auditEarlyStopOutput(spec.earlyStop, r, table)
                                                              : auditRecoverOutput(spec.recover, r, table);
        if (!ok)
            return fail(ok.error().message);
    }
    const double cost = g->cell(*r.cell)->epsilon;
    if (r.settledEpsilon != cost || e.cost != cost)
        return fail("it records ε = " + filters::formatAmount(e.cost) + " but cell " + std::to_string(*r.cell)
                    + " costs " + filters::formatAmount(cost));
    return {};
}

Result<void> replayOdpEvent(filters::PrivacyFilter &filter, const LedgerEvent &e)
{
    const std::string where = "event " + std::to_string(e.index) + " ('" + e.request.id + "')";
    auto *odpFilter = dynamic_cast<filters::OdpPrivacyFilter *>(&filter);
    if (!odpFilter)
        return makeError(ErrorCode::Parse, where + ": an output-DP event needs the odp filter");
    if (e.status == EventStatus::Refused || !e.odpRecord())
        return {};
    auto id = odpFilter->reserve(e.odpRecord()->guarantee, e.mechanismName());
    if (!id)
        return makeError(ErrorCode::Parse, where + ": " + id.error().message);
    auto settled = e.odpRecord()->cell ? odpFilter->settle(*id, *e.odpRecord()->cell)
                                       : odpFilter->settleWorstCase(*id);
    if (!settled)
        return makeError(ErrorCode::Parse, where + ": " + settled.error().message);
    if (*settled != e.cost)
        return makeError(ErrorCode::Parse, where + ": it settles at ε = " + filters::formatAmount(*settled)
                                               + ", not the recorded cost " + filters::formatAmount(e.cost));
    return {};
}

} // namespace pbx::session
