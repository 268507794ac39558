// SPDX-License-Identifier: MIT
#include "core/session/ledger/cost_audit.h"

#include "core/session/growing/cost_audit_growing.h"
#include "core/session/growing/growing_release.h"
#include "core/session/odp/odp_release.h"
#include "core/session/release/query_shape.h"
#include "core/session/source_support.h"
#include "core/session/strategies/strategy_release.h"

#include "core/filters/odp_privacy_filter.h"
#include "core/filters/zcdp_filter.h"
#include "core/math/directed_rounding.h"
#include "core/util/try.h"

#include <cmath>
#include <numbers>
#include <span>

namespace pbx::session {

namespace {

/// Relative slack for "not below": the recorded cost may exceed the recomputed one by rounding,
/// but may not fall below it by more than a few ulps.
constexpr double kSlack = 1e-12;

Result<double> channelSensitivity(const NoisyRelease &release, const LedgerEvent &e, const data::Table &table,
                                  std::size_t publicRows, data::Neighbouring neighbours)
{
    if (release.quantity == "count")
        return data::countSensitivity(neighbours).l1;
    PBX_TRY(compiled, data::CompiledQuery::compile(e.request.query, table));
    if (release.quantity == "sum" || release.quantity == "centred-sum")
        return sumChannelSensitivity(release.quantity, compiled.bounds(), neighbours,
                                     static_cast<double>(publicRows));
    return makeError(ErrorCode::Parse, "unknown released quantity '" + release.quantity + "'");
}

double costAtScale(bool laplace, double sensitivity, double scale)
{
    return laplace ? sensitivity / scale : sensitivity * sensitivity / (2.0 * scale * scale);
}

} // namespace

double rhoChargedForPureEvent(const LedgerEvent &event)
{
    double rho = 0.0;
    for (const auto &a : event.attempts)
        rho = math::addRoundUp(rho, filters::ZcdpFilter::rhoOfPureEpsilon(a.cost));
    return rho;
}

Result<void> auditEventCost(const LedgerEvent &e, const data::Table &table, const SessionSettings &settings,
                            std::optional<std::size_t> publicRows)
{
    switch (e.request.family()) {
    case RequestFamily::Strategy:
        return auditStrategyEvent(e, table, settings);
    case RequestFamily::Odp:
        return auditOdpEvent(e, table, settings);
    case RequestFamily::Growing:
        return auditGrowingEvent(e, table, settings);
    case RequestFamily::Release:
        break;
    }
    const std::string where = "event " + std::to_string(e.index) + " ('" + e.request.id + "')";
    auto fail = [&](const std::string &what) { return makeError(ErrorCode::Parse, where + ": " + what); };
    if (e.status == EventStatus::Refused) {
        if (e.cost != 0.0 || !e.attempts.empty())
            return fail("a refused request has a cost or releases");
        return {};
    }
    if (e.attempts.empty())
        return fail("a released answer without any release");
    double total = 0.0;
    for (const auto &a : e.attempts)
        total = math::addRoundUp(total, a.cost);
    if (total != e.cost)
        return fail("its attempts charge " + filters::formatAmount(total) + ", not "
                    + filters::formatAmount(e.cost));

    auto mechanism
        = parseReleaseMethod(e.mechanismName()); // a release method's event (the others are audited apart)
    if (!mechanism)
        return fail(mechanism.error().message);
    const bool routed = *mechanism == ReleaseMethod::Brownian
                        && settings.filter == filters::FilterKind::Unified
                        && e.costKind == filters::ChargeKind::Rho; // paid by the unified filter's zCDP side
    if (!routed && chargeKindFor(*mechanism, settings.filter) != e.costKind)
        return fail("the " + std::string(filters::filterKindName(settings.filter)) + " filter charges '"
                    + e.mechanismName() + "' in another unit than recorded");
    const bool laplace = usesLaplaceNoise(*mechanism);
    const bool expostBrownian
        = *mechanism == ReleaseMethod::Brownian && e.costKind == filters::ChargeKind::ExPost;
    if (expostBrownian) {
        const double firstShare = math::nudgeUp(settings.delta * 6.0 / (std::numbers::pi * std::numbers::pi));
        if (!(e.costDelta > 0.0) || e.costDelta > firstShare)
            return fail("an ex-post Brownian run records δ = " + filters::formatAmount(e.costDelta)
                        + ", outside the schedule (0, δ·6/π²]");
        return {};
    }
    if (e.costDelta != 0.0)
        return fail("only ex-post Brownian runs pay a δ");

    // What the releases imply: every level for single releases and doubling, the last level for
    // noise reduction (its earlier levels are post-processing of the last one).
    double implied = 0.0;
    const auto &levels = isNoiseReduction(*mechanism) ? std::vector<Attempt>{e.attempts.back()} : e.attempts;
    for (const auto &a : levels)
        for (const auto &r : a.releases) {
            auto sensitivity
                = channelSensitivity(r, e, table, publicRows.value_or(table.rowCount()), settings.neighbours);
            if (!sensitivity)
                return fail(sensitivity.error().message);
            if (!(r.scale > 0.0) || !std::isfinite(r.scale))
                return fail("a release has no valid noise scale");
            implied += costAtScale(laplace, *sensitivity, r.scale);
        }
    if (e.cost < implied * (1.0 - kSlack))
        return fail("records " + std::string(e.costKind == filters::ChargeKind::Rho ? "ρ" : "ε") + " = "
                    + filters::formatAmount(e.cost) + " but its releases cost "
                    + filters::formatAmount(implied));
    return {};
}

namespace {

/// The ledger charged again into a fresh filter, as Session::restore does, stopping at every
/// recorded refusal of a growing stream's epoch or round and at every refused output-DP request to
/// ask the filter whether it truly refuses that charge then (a refusal invented while budget
/// remained, e.g. to hide dropped epochs, fails).
Result<void> replayRefusals(const data::Table &table, const SessionSettings &settings,
                            const std::vector<LedgerEvent> &events)
{
    PBX_TRY(filter, filters::PrivacyFilter::create(settings.filter, settings.epsilon, settings.delta,
                                                   settings.split));
    filters::PrivacyFilter &f = *filter;
    for (const LedgerEvent &e : events) {
        const std::string where = "event " + std::to_string(e.index) + " ('" + e.request.id + "')";
        if (e.request.odp()) {
            if (e.status == EventStatus::Refused) {
                auto *odp = dynamic_cast<filters::OdpPrivacyFilter *>(&f);
                auto guarantee = odpRequestGuarantee(*e.request.odp(), table);
                if (odp && guarantee && odp->odp().admits(*guarantee))
                    return makeError(
                        ErrorCode::Parse,
                        where + ": it records a refusal, but the filter has "
                            + filters::formatAmount(f.remainingFor(filters::ChargeKind::PureEpsilon))
                            + " left and admits its worst case "
                            + filters::formatAmount(guarantee->worstEpsilon()));
            }
            PBX_RETURN_IF_ERROR(replayOdpEvent(f, e));
            continue;
        }
        for (std::size_t k = 0; k < e.attempts.size(); ++k)
            if (auto charged = f.charge(attemptCharge(e, k)); !charged)
                return makeError(ErrorCode::Parse, where + ": " + charged.error().message);
        PBX_TRY(refused, growingRefusedCharge(e, table));
        if (refused && f.canCharge(*refused))
            return makeError(ErrorCode::Parse,
                             where + ": it records its "
                                 + (e.growingRecord()->nsg || e.growingRecord()->pmwg ? "round " : "epoch ")
                                 + std::to_string(*e.growingRecord()->refusedEpoch)
                                 + " as refused, but the filter has "
                                 + filters::formatAmount(f.remainingFor((refused)->kind)) + " "
                                 + std::string(filters::chargeUnitSymbol((refused)->kind)) + " left for its "
                                 + filters::formatAmount((refused)->amount) + " (the replay admits it)");
    }
    return {};
}

} // namespace

Result<std::unique_ptr<Session>> auditLedger(std::shared_ptr<const data::Table> table,
                                             const SessionSettings &settings,
                                             const std::vector<LedgerEvent> &events)
{
    if (!table)
        return makeError(ErrorCode::InvalidArgument, "no dataset to audit the session against");
    return auditLedger(std::make_shared<const data::TableSource>(std::move(table)), settings, events);
}

Result<std::unique_ptr<Session>> auditLedger(std::shared_ptr<const data::Source> source,
                                             const SessionSettings &settings,
                                             const std::vector<LedgerEvent> &events)
{
    if (!source)
        return makeError(ErrorCode::InvalidArgument, "no dataset to audit the session against");
    const data::Table *table = &source->schema();
    for (std::size_t i = 0; i < events.size(); ++i) {
        const LedgerEvent &e = events[i];
        // A database source answers only what it pushes down: an event of another kind was not
        // asked of it (the file was edited, or is not this source's).
        if (auto onSource = checkRequestOnSource(e.request, *table, source->kind()); !onSource)
            return makeError(ErrorCode::Parse, "event " + std::to_string(i) + " ('" + e.request.id
                                                   + "'): " + onSource.error().message);
        // The row count the release planned with: declared, or a public table's COUNT(*) (run
        // here, on the first released count, sum or mean; a failure refuses the audit in one line).
        std::size_t publicRows = source->knownPublicRowCount().value_or(0);
        if (e.request.family() == RequestFamily::Release && e.status != EventStatus::Refused) {
            PBX_TRY(counted, source->publicRowCount());
            publicRows = counted.value_or(0);
        }
        PBX_RETURN_IF_ERROR(auditEventCost(e, *table, settings, publicRows));
        PBX_RETURN_IF_ERROR(auditDerivedEvent(e, std::span<const LedgerEvent>(events).first(i), settings));
        PBX_RETURN_IF_ERROR(auditNsgRoundOpenings(e, *table));
    }
    // Session::restore checks indices and costs; the refusals need the filter at each step.
    PBX_TRY(restored, Session::restore(source, settings, events));
    PBX_RETURN_IF_ERROR(replayRefusals(*table, settings, events));
    return std::move(restored);
}

} // namespace pbx::session
