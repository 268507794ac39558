// SPDX-License-Identifier: MIT
// One entry of a session's append-only ledger: a request and what happened to it.
#pragma once

#include "core/data/query.h"
#include "core/filters/privacy_filter.h"
#include "core/session/accuracy_target.h"
#include "core/session/growing/growing_request.h"
#include "core/session/mechanism_choice.h"
#include "core/session/odp/odp_request.h"
#include "core/session/strategies/strategy_request.h"

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace pbx::session {

/// Longest request id, in bytes: ids are labels shown in every ledger row (a 100 KB id took 33 s
/// and 5.9 GB to display). Readers refuse longer ids, and Session::ask refuses them too.
inline constexpr std::size_t maxRequestIdBytes = 256;

/// The plain release family: a single release, doubling or noise reduction, chosen by
/// QueryRequest::mechanism (session.h). Holds nothing of its own.
struct ReleaseRequestSpec
{
    friend bool operator==(const ReleaseRequestSpec &, const ReleaseRequestSpec &) = default;
};

/// The request families, in the order of RequestSpec's alternatives.
enum class RequestFamily {
    Release,  ///< ReleaseRequestSpec: single release, doubling, noise reduction
    Strategy, ///< StrategyRequestSpec: histogram, quantile, derived and workload requests
    Odp,      ///< OdpRequestSpec: output-DP mechanisms (only the odp filter runs them)
    Growing,  ///< GrowingRequestSpec: growing-database streams, one attempt per charged epoch
};

/// What a request asks for beyond its query and target: one alternative per RequestFamily.
using RequestSpec = std::variant<ReleaseRequestSpec, StrategyRequestSpec, OdpRequestSpec, GrowingRequestSpec>;

/// A query with an accuracy target, as the user issued it.
struct QueryRequest
{
    std::string id; ///< user's label; the session assigns "q<n>" when empty
    data::QuerySpec query;
    AccuracyTarget target;
    std::optional<double> maxCost;          ///< per-query cap in the unit the mechanism is charged in
    std::optional<ReleaseMethod> mechanism; ///< unset: the filter's default (defaultMechanism())
    /// Requests still to come, this one included (0: not planned). Caps doubling and noise
    /// reduction at remaining/plannedQueries in whichever unit pays (session/planned_cap.h). Set
    /// per ask by the caller; not part of the recorded request (the cap applied is max_cost, or,
    /// for a routed unified run, visible in the event's cost and unit).
    std::size_t plannedQueries = 0;
    /// The family's own fields (strategy_request.h, odp_request.h, growing_request.h).
    RequestSpec spec;

    RequestFamily family() const { return static_cast<RequestFamily>(spec.index()); }
    /// The strategy spec, or null for another family.
    const StrategyRequestSpec *strategy() const { return std::get_if<StrategyRequestSpec>(&spec); }
    StrategyRequestSpec *strategy() { return std::get_if<StrategyRequestSpec>(&spec); }
    /// The output-DP spec, or null for another family.
    const OdpRequestSpec *odp() const { return std::get_if<OdpRequestSpec>(&spec); }
    OdpRequestSpec *odp() { return std::get_if<OdpRequestSpec>(&spec); }
    /// The growing-stream spec, or null for another family.
    const GrowingRequestSpec *growing() const { return std::get_if<GrowingRequestSpec>(&spec); }
    GrowingRequestSpec *growing() { return std::get_if<GrowingRequestSpec>(&spec); }
};

/// One noisy value released by a mechanism (part of an attempt).
struct NoisyRelease
{
    std::string quantity; ///< "count", "sum" or "centred-sum"
    double scale = 0.0;   ///< Laplace b or Gaussian σ
    double value = 0.0;   ///< the released noisy value
    double cost = 0.0;    ///< cost of this release (noise reduction: its loss if stopped here)
};

/// One attempt of a request: the releases made at one noise level, the estimate they give and
/// its error bound, all computed from released values only.
struct Attempt
{
    std::vector<NoisyRelease> releases;
    double estimate = 0.0;  ///< the answer this attempt gives
    double halfWidth = 0.0; ///< error bound at the attempt's confidence (+∞ when none is known)
    double cost = 0.0;      ///< charged at this attempt (noise reduction: the increment)
    bool accepted = false;  ///< did this attempt prove the target met?
};

enum class EventStatus { Released, Refused };
std::string_view eventStatusName(EventStatus status); ///< "released" or "refused"

/// What released an event: one of the session's release methods (ReleaseMethod), a strategy's
/// mechanism, an output-DP mechanism (OdpMechanism) or a growing stream (GrowingAlgorithm); None
/// for a refusal before a mechanism was chosen. One flat enum so that call sites compare values.
enum class EventMechanism {
    None,
    Laplace,
    Gaussian,
    DoublingLaplace,
    DoublingGaussian,
    LaplaceNr,
    Brownian,
    PostProcessing,       ///< derived strategy answers (free)
    Histogram,            ///< a histogram by the discrete Laplace mechanism
    ExponentialMechanism, ///< a quantile, or a mode / top-k selection by the exponential mechanism
    Workload,             ///< range queries answered by a strategy with discrete Laplace noise
    Svt,
    PtrIqr,
    EarlyStop,
    Recover,
    BBScheduler,
    BBImprover,
    Nsg,
    Pmwg,
    Ermg,
    SmallDb,
    ReportNoisyMax, ///< a mode / top-k selection by report-noisy-max (exponential noise)
};

EventMechanism eventMechanism(ReleaseMethod method);
EventMechanism eventMechanism(OdpMechanism mechanism);
EventMechanism eventMechanism(GrowingAlgorithm algorithm);
/// The release method an event used; unset for strategies, output-DP mechanisms and streams.
std::optional<ReleaseMethod> releaseMethodOf(EventMechanism mechanism);

/// The name recorded in transcripts and shown to users: releaseMethodName, "post-processing",
/// "histogram (discrete-laplace)", "exponential-mechanism", "report-noisy-max", "workload (<strategy label>,
/// discrete-laplace)" (the label of `request`'s strategy), odpMechanismName, growingAlgorithmName;
/// "" for None.
std::string eventMechanismName(EventMechanism mechanism, const QueryRequest &request);

/// The mechanism eventMechanismName gives `name` for `request`. Errors: Parse naming "mechanism"
/// for any other text.
Result<EventMechanism> parseEventMechanism(std::string_view name, const QueryRequest &request);

/// An event's family record: none (plain releases, refusals before a record), or one of the
/// strategy, output-DP and growing-stream records.
using EventRecord = std::variant<std::monostate, StrategyRecord, OdpRecord, GrowingRecord>;

struct LedgerEvent
{
    std::size_t index = 0; ///< position in the ledger, from 0
    QueryRequest request;
    EventStatus status = EventStatus::Refused;
    EventMechanism mechanism = EventMechanism::None; ///< the mechanism used (mechanismName())
    std::string reason;      ///< refusals: why; releases: a note (e.g. why the target was not met)
    double answer = 0.0;     ///< released: the noisy answer
    double errorBound = 0.0; ///< released: half-width at the requested confidence
    bool targetMet = false;  ///< released: the release proves the target met at that confidence
    filters::ChargeKind costKind = filters::ChargeKind::PureEpsilon; ///< the unit of `cost`
    double cost = 0.0;      ///< total charged by this event (0 when refused)
    double costDelta = 0.0; ///< ex-post δ charged (Brownian noise reduction with a boundary)
    std::string accounting; ///< how the cost was accounted (e.g. the ex-post boundary)
    std::vector<Attempt> attempts;
    double spentAfter = 0.0;        ///< the filter's primary spend after this event (ε or ρ)
    double expostSpentAfter = 0.0;  ///< the unified filter's ex-post spend after this event
    double epsilonSpentAfter = 0.0; ///< ε-equivalent of spentAfter at the session δ
    /// What the family recorded beyond attempts, if anything: a strategy request's released values
    /// with their error bars (strategy_request.h), an output-DP mechanism's reservation, realised
    /// cell and settled cost (odp_request.h), or a growing stream's epochs (growing_request.h).
    EventRecord record;

    /// The strategy record, or null when the event has another record or none.
    const StrategyRecord *strategyRecord() const { return std::get_if<StrategyRecord>(&record); }
    StrategyRecord *strategyRecord() { return std::get_if<StrategyRecord>(&record); }
    /// The output-DP record, or null when the event has another record or none.
    const OdpRecord *odpRecord() const { return std::get_if<OdpRecord>(&record); }
    OdpRecord *odpRecord() { return std::get_if<OdpRecord>(&record); }
    /// The growing-stream record, or null when the event has another record or none.
    const GrowingRecord *growingRecord() const { return std::get_if<GrowingRecord>(&record); }
    GrowingRecord *growingRecord() { return std::get_if<GrowingRecord>(&record); }

    /// eventMechanismName(mechanism, request): the mechanism's recorded name.
    std::string mechanismName() const { return eventMechanismName(mechanism, request); }
};

/// The filter charge of attempt `k` of `event`, as it was paid: {costKind, the attempt's cost, the
/// event's δ on the first attempt}; a bounded-range attempt (a mode's picks) pays its releases'
/// ε each, count = the number of picks. Valid: k < event.attempts.size().
filters::Charge attemptCharge(const LedgerEvent &event, std::size_t k);

} // namespace pbx::session
