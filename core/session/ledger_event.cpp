// SPDX-License-Identifier: MIT
#include "core/session/ledger_event.h"

namespace pbx::session {

namespace {

constexpr EventMechanism kAllMechanisms[] = {
    EventMechanism::None,
    EventMechanism::Laplace,
    EventMechanism::Gaussian,
    EventMechanism::DoublingLaplace,
    EventMechanism::DoublingGaussian,
    EventMechanism::LaplaceNr,
    EventMechanism::Brownian,
    EventMechanism::PostProcessing,
    EventMechanism::Histogram,
    EventMechanism::ExponentialMechanism,
    EventMechanism::Workload,
    EventMechanism::Svt,
    EventMechanism::PtrIqr,
    EventMechanism::EarlyStop,
    EventMechanism::Recover,
    EventMechanism::BBScheduler,
    EventMechanism::BBImprover,
    EventMechanism::Nsg,
    EventMechanism::Pmwg,
    EventMechanism::Ermg,
    EventMechanism::SmallDb,
    EventMechanism::ReportNoisyMax,
};

std::optional<OdpMechanism> odpMechanismOf(EventMechanism mechanism)
{
    for (OdpMechanism m :
         {OdpMechanism::Svt, OdpMechanism::PtrIqr, OdpMechanism::EarlyStop, OdpMechanism::Recover})
        if (eventMechanism(m) == mechanism)
            return m;
    return std::nullopt;
}

std::optional<GrowingAlgorithm> growingAlgorithmOf(EventMechanism mechanism)
{
    for (GrowingAlgorithm a :
         {GrowingAlgorithm::BBScheduler, GrowingAlgorithm::BBImprover, GrowingAlgorithm::Nsg,
          GrowingAlgorithm::Pmwg, GrowingAlgorithm::Ermg, GrowingAlgorithm::SmallDb})
        if (eventMechanism(a) == mechanism)
            return a;
    return std::nullopt;
}

} // namespace

EventMechanism eventMechanism(ReleaseMethod method)
{
    switch (method) {
    case ReleaseMethod::Laplace:
        return EventMechanism::Laplace;
    case ReleaseMethod::Gaussian:
        return EventMechanism::Gaussian;
    case ReleaseMethod::DoublingLaplace:
        return EventMechanism::DoublingLaplace;
    case ReleaseMethod::DoublingGaussian:
        return EventMechanism::DoublingGaussian;
    case ReleaseMethod::LaplaceNr:
        return EventMechanism::LaplaceNr;
    case ReleaseMethod::Brownian:
        return EventMechanism::Brownian;
    }
    return EventMechanism::None;
}

EventMechanism eventMechanism(OdpMechanism mechanism)
{
    switch (mechanism) {
    case OdpMechanism::Svt:
        return EventMechanism::Svt;
    case OdpMechanism::PtrIqr:
        return EventMechanism::PtrIqr;
    case OdpMechanism::EarlyStop:
        return EventMechanism::EarlyStop;
    case OdpMechanism::Recover:
        return EventMechanism::Recover;
    }
    return EventMechanism::None;
}

EventMechanism eventMechanism(GrowingAlgorithm algorithm)
{
    switch (algorithm) {
    case GrowingAlgorithm::BBScheduler:
        return EventMechanism::BBScheduler;
    case GrowingAlgorithm::BBImprover:
        return EventMechanism::BBImprover;
    case GrowingAlgorithm::Nsg:
        return EventMechanism::Nsg;
    case GrowingAlgorithm::Pmwg:
        return EventMechanism::Pmwg;
    case GrowingAlgorithm::Ermg:
        return EventMechanism::Ermg;
    case GrowingAlgorithm::SmallDb:
        return EventMechanism::SmallDb;
    }
    return EventMechanism::None;
}

std::optional<ReleaseMethod> releaseMethodOf(EventMechanism mechanism)
{
    for (ReleaseMethod m :
         {ReleaseMethod::Laplace, ReleaseMethod::Gaussian, ReleaseMethod::DoublingLaplace,
          ReleaseMethod::DoublingGaussian, ReleaseMethod::LaplaceNr, ReleaseMethod::Brownian})
        if (eventMechanism(m) == mechanism)
            return m;
    return std::nullopt;
}

std::string eventMechanismName(EventMechanism mechanism, const QueryRequest &request)
{
    if (auto method = releaseMethodOf(mechanism))
        return std::string(releaseMethodName(*method));
    if (auto odp = odpMechanismOf(mechanism))
        return std::string(odpMechanismName(*odp));
    if (auto growing = growingAlgorithmOf(mechanism))
        return std::string(growingAlgorithmName(*growing));
    switch (mechanism) {
    case EventMechanism::PostProcessing:
        return "post-processing";
    case EventMechanism::Histogram:
        return "histogram (discrete-laplace)";
    case EventMechanism::ExponentialMechanism:
        return "exponential-mechanism";
    case EventMechanism::ReportNoisyMax:
        return "report-noisy-max";
    case EventMechanism::Workload:
        return "workload (" + (request.strategy() ? request.strategy()->strategy.label() : std::string())
               + ", discrete-laplace)";
    default:
        return {};
    }
}

Result<EventMechanism> parseEventMechanism(std::string_view name, const QueryRequest &request)
{
    for (EventMechanism m : kAllMechanisms)
        if (eventMechanismName(m, request) == name)
            return m;
    return makeError(ErrorCode::Parse, "mechanism: '" + std::string(name)
                                           + "' is not a mechanism a session records for this request");
}

filters::Charge attemptCharge(const LedgerEvent &event, std::size_t k)
{
    const Attempt &attempt = event.attempts[k];
    if (event.costKind == filters::ChargeKind::BoundedRange && !attempt.releases.empty())
        return {filters::ChargeKind::BoundedRange, attempt.releases.front().cost, 0.0,
                attempt.releases.size()};
    return {event.costKind, attempt.cost, k == 0 ? event.costDelta : 0.0};
}

} // namespace pbx::session
