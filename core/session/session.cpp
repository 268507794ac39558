// SPDX-License-Identifier: MIT
#include "core/session/session.h"

#include "core/math/directed_rounding.h"
#include "core/session/odp/odp_release.h"
#include "core/session/release/release_plan.h"
#include "core/session/source_support.h"
#include "core/util/given_parameters.h"
#include "core/util/parameter_checks.h"
#include "core/util/try.h"

#include <cmath>
#include <limits>
#include <string>

namespace pbx::session {

std::string_view eventStatusName(EventStatus status)
{
    return status == EventStatus::Released ? "released" : "refused";
}

Result<void> SessionSettings::validate() const
{
    if (filter != filters::FilterKind::Odometer) { // an odometer has no ε budget (ε is ignored)
        PBX_RETURN_IF_ERROR(checkEpsilon(epsilon, "ε", Zero::Excluded));
        PBX_RETURN_IF_ERROR(checkGivenEpsilon(epsilon, "ε"));
    }
    PBX_RETURN_IF_ERROR(checkGivenDelta(delta, "δ"));
    const bool needsDelta = filter != filters::FilterKind::Basic && filter != filters::FilterKind::ExPost
                            && filter != filters::FilterKind::Odp;
    if (needsDelta)
        PBX_RETURN_IF_ERROR(
            checkDelta(delta, "δ", UnitInterval::Open,
                       " for the " + std::string(filters::filterKindName(filter)) + " filter"));
    PBX_RETURN_IF_ERROR(checkDelta(delta, "δ", UnitInterval::ClosedOpen));
    if (filter == filters::FilterKind::Unified)
        return split.validate();
    return {};
}

Session::Session(std::shared_ptr<const data::Source> source, SessionSettings settings,
                 std::unique_ptr<filters::PrivacyFilter> filter)
    : m_source(std::move(source)), m_table(m_source, &m_source->schema()), m_settings(settings),
      m_filter(std::move(filter))
{}

Result<std::unique_ptr<Session>> Session::create(std::shared_ptr<const data::Table> table,
                                                 SessionSettings settings)
{
    if (!table)
        return makeError(ErrorCode::InvalidArgument, "a session needs a dataset");
    return create(std::make_shared<const data::TableSource>(std::move(table)), settings);
}

Result<std::unique_ptr<Session>> Session::create(std::shared_ptr<const data::Source> source,
                                                 SessionSettings settings)
{
    if (!source)
        return makeError(ErrorCode::InvalidArgument, "a session needs a dataset");
    PBX_RETURN_IF_ERROR(settings.validate());
    if (settings.filter == filters::FilterKind::Odometer)
        settings.epsilon = std::numeric_limits<double>::infinity(); // no ε budget, recorded as such
    PBX_TRY(filter, filters::PrivacyFilter::create(settings.filter, settings.epsilon, settings.delta,
                                                   settings.split));
    return std::unique_ptr<Session>(new Session(std::move(source), settings, std::move(filter)));
}

Result<std::unique_ptr<Session>> Session::restore(std::shared_ptr<const data::Table> table,
                                                  SessionSettings settings, std::vector<LedgerEvent> events)
{
    if (!table)
        return makeError(ErrorCode::InvalidArgument, "a session needs a dataset");
    return restore(std::make_shared<const data::TableSource>(std::move(table)), settings, std::move(events));
}

Result<std::unique_ptr<Session>> Session::restore(std::shared_ptr<const data::Source> source,
                                                  SessionSettings settings, std::vector<LedgerEvent> events)
{
    PBX_TRY(created, create(std::move(source), settings));
    Session &s = *created;
    for (std::size_t i = 0; i < events.size(); ++i) {
        LedgerEvent &e = events[i];
        const std::string where = "event " + std::to_string(i) + " ('" + e.request.id + "')";
        if (e.index != i)
            return makeError(ErrorCode::Parse,
                             where + ": index " + std::to_string(e.index) + " is out of order");
        if (e.status == EventStatus::Refused && e.cost != 0.0)
            return makeError(ErrorCode::Parse, where + ": a refused request cannot have a cost");
        if (e.request.odp()) { // reserve and settle again (odp_release.h)
            PBX_RETURN_IF_ERROR(replayOdpEvent(*s.m_filter, e));
            s.append(std::move(e));
            continue;
        }
        // Every recorded charge is paid again, attempt by attempt in the original order, so the
        // restored spend is bit-identical; a ledger that no longer fits, or whose attempts do not
        // add up to its cost, is corrupt.
        double total = 0.0;
        for (std::size_t k = 0; k < e.attempts.size(); ++k) {
            const filters::Charge charge = attemptCharge(e, k);
            if (auto charged = s.m_filter->charge(charge); !charged)
                return makeError(ErrorCode::Parse, where + ": " + charged.error().message);
            total = math::addRoundUp(total, e.attempts[k].cost);
        }
        if (total != e.cost)
            return makeError(ErrorCode::Parse, where + ": its attempts charge " + filters::formatAmount(total)
                                                   + ", not the recorded cost "
                                                   + filters::formatAmount(e.cost));
        s.append(std::move(e));
    }
    return std::move(created);
}

Result<mechanisms::NoiseSource> Session::nextNoiseSource() const
{
    if (m_settings.seed)
        return mechanisms::NoiseSource::seeded(*m_settings.seed, m_events.size());
    return mechanisms::NoiseSource::fromOperatingSystem();
}

LedgerEvent &Session::append(LedgerEvent event)
{
    event.index = m_events.size();
    event.spentAfter = m_filter->spent();
    event.epsilonSpentAfter = m_filter->epsilonSpent();
    const auto systems = m_filter->systems();
    event.expostSpentAfter = systems.size() > 1 ? systems.back().spent : 0.0;
    m_expostBrownianRuns += event.costKind == filters::ChargeKind::ExPost && event.costDelta > 0.0;
    m_events.push_back(std::move(event));
    return m_events.back();
}

Result<void> checkTargetAndCap(const QueryRequest &request)
{
    PBX_RETURN_IF_ERROR(request.target.validate());
    if (request.maxCost)
        PBX_RETURN_IF_ERROR(checkPositive(*request.maxCost, "the per-query maximum"));
    return {};
}

Result<ReleaseMethod> releaseMethodFor(const QueryRequest &request, const SessionSettings &settings)
{
    const ReleaseMethod method = request.mechanism.value_or(
        defaultMechanism(settings.filter, request.query.aggregate, request.target.kind));
    PBX_RETURN_IF_ERROR(
        checkMechanism(method, settings.filter, request.query.aggregate, request.target.kind));
    return method;
}

Result<LedgerEvent> Session::ask(QueryRequest request)
{
    if (request.id.size() > maxRequestIdBytes)
        return makeError(ErrorCode::InvalidArgument,
                         "the request id is longer than " + std::to_string(maxRequestIdBytes) + " bytes");
    // A request kind that reads rows a database source cannot push down is refused here, before
    // any reservation or charge (docs/data-sources.md).
    PBX_RETURN_IF_ERROR(checkRequestOnSource(request, *m_table, m_source->kind()));
    switch (request.family()) {
    case RequestFamily::Odp:
        return askOdp(std::move(request));
    case RequestFamily::Growing:
        return askGrowing(std::move(request));
    case RequestFamily::Strategy:
        PBX_RETURN_IF_ERROR(checkTargetAndCap(request));
        return askStrategy(std::move(request));
    case RequestFamily::Release:
        PBX_RETURN_IF_ERROR(checkTargetAndCap(request));
        return askRelease(std::move(request));
    }
    return makeError(ErrorCode::InvalidArgument, "unknown request family");
}

Result<LedgerEvent> Session::askRelease(QueryRequest request)
{
    PBX_TRY(query, data::CompiledQuery::compile(request.query, *m_table));
    if (request.id.empty())
        request.id = "q" + std::to_string(m_events.size() + 1);

    PBX_TRY(method, releaseMethodFor(request, m_settings));
    const ReleaseMethod mechanism = method;
    PBX_TRY(publicRows, releaseRowCount(*m_source));

    // The random source is opened before anything is charged: if the OS cannot give us bits, the
    // request is refused with nothing spent.
    PBX_TRY(source, nextNoiseSource());
    auto &noise = source;
    // The true answer first, whole, before anything is charged: a failed database call (a lost
    // connection, a timeout) returns here with nothing appended and nothing spent, and the paths
    // below, which charge, read no database.
    PBX_TRY(truth, privateAggregates().statistics(query));
    const ReleaseContext context{QueryShape::of(request.query.aggregate, query.bounds(), truth,
                                                m_settings.neighbours, static_cast<double>(publicRows)),
                                 *m_filter,
                                 noise,
                                 mechanism,
                                 m_expostBrownianRuns + 1,
                                 request.plannedQueries};
    ReleaseOutcome outcome
        = isSingleRelease(mechanism)    ? releaseOnce(context, request.target, request.maxCost)
          : isNoiseReduction(mechanism) ? releaseByNoiseReduction(context, request.target, request.maxCost)
                                        : releaseByDoubling(context, request.target, request.maxCost);

    return append(ledgerEventFor(std::move(request), std::move(outcome)));
}

} // namespace pbx::session
