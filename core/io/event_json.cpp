// SPDX-License-Identifier: MIT
#include "core/io/event_json.h"

#include "core/io/growing_request_json.h"
#include "core/io/odp_request_json.h"
#include "core/io/request_json.h"
#include "core/io/strategy_request_json.h"
#include "core/util/try.h"

#include <algorithm>
#include <limits>
#include <type_traits>
#include <variant>

namespace pbx::io {

using json::Json;
using session::EventStatus;

namespace {

constexpr const char *kOutcomeKeys[]
    = {"index",           "status",     "mechanism",     "reason",     "answer",      "error_bound",
       "target_met",      "cost",       "attempts",      "accounting", "spent_after", "requested_mechanism",
       "strategy_record", "odp_record", "growing_record"};

Json writeAttempt(const session::Attempt &a)
{
    Json releases = Json::array();
    for (const auto &r : a.releases)
        releases.push_back({{"quantity", r.quantity},
                            {"scale", json::finiteOrNull(r.scale)},
                            {"value", json::finiteOrNull(r.value)},
                            {"cost", json::finiteOrNull(r.cost)}});
    return {{"estimate", json::finiteOrNull(a.estimate)},
            {"half_width", json::finiteOrNull(a.halfWidth)},
            {"cost", json::finiteOrNull(a.cost)},
            {"accepted", a.accepted},
            {"releases", releases}};
}

Result<session::Attempt> readAttempt(const Json &o, const std::string &path)
{
    session::Attempt a;
    if (!o.is_object())
        return makeError(ErrorCode::Parse, path + ": expected an object");
    PBX_TRY(estimate, json::optionalNumber(o, "estimate", path));
    PBX_TRY(halfWidth, json::optionalNumber(o, "half_width", path));
    PBX_TRY(cost, json::number(o, "cost", path));
    a.estimate = estimate.value_or(0.0);
    a.halfWidth = halfWidth.value_or(std::numeric_limits<double>::infinity());
    a.cost = cost;
    // Not o.value("accepted", false): it throws when the key holds another type (found by fuzzing).
    PBX_TRY(accepted, json::optionalBool(o, "accepted", path));
    a.accepted = accepted;
    if (auto it = o.find("releases"); it != o.end() && it->is_array()) {
        for (std::size_t i = 0; i < it->size(); ++i) {
            const Json &r = (*it)[i];
            const std::string rpath = path + ".releases[" + std::to_string(i) + "]";
            PBX_TRY(quantity, json::string(r, "quantity", rpath));
            PBX_TRY(scale, json::number(r, "scale", rpath));
            PBX_TRY(value, json::number(r, "value", rpath));
            PBX_TRY(rcost, json::number(r, "cost", rpath));
            a.releases.push_back({quantity, scale, value, rcost});
        }
    }
    return a;
}

} // namespace

Json eventToJson(const session::LedgerEvent &e, const filters::PrivacyFilter &filter)
{
    Json o = Json::object();
    o["index"] = e.index;
    writeRequest(e.request, o);
    // "mechanism" names the mechanism used; what the request asked for, if anything, is kept apart.
    if (o.contains("mechanism")) {
        o["requested_mechanism"] = o["mechanism"];
        o.erase("mechanism");
    }
    o["status"] = std::string(session::eventStatusName(e.status));
    o["mechanism"] = e.mechanismName();
    if (!e.accounting.empty())
        o["accounting"] = e.accounting;
    if (!e.reason.empty())
        o["reason"] = e.reason;
    if (e.status == EventStatus::Released) {
        o["answer"] = json::finiteOrNull(e.answer);
        o["error_bound"] = json::finiteOrNull(e.errorBound);
        o["target_met"] = e.targetMet;
    }
    Json cost = {{std::string(filters::chargeKindName(e.costKind)), e.cost}};
    if (e.costDelta > 0.0)
        cost["delta"] = e.costDelta;
    o["cost"] = cost;
    Json attempts = Json::array();
    for (const auto &a : e.attempts)
        attempts.push_back(writeAttempt(a));
    o["attempts"] = attempts;
    std::visit(
        [&o](const auto &record) {
            using T = std::decay_t<decltype(record)>;
            if constexpr (std::is_same_v<T, session::StrategyRecord>)
                o["strategy_record"] = strategyRecordToJson(record);
            else if constexpr (std::is_same_v<T, session::OdpRecord>)
                o["odp_record"] = odpRecordToJson(record);
            else if constexpr (std::is_same_v<T, session::GrowingRecord>)
                o["growing_record"] = growingRecordToJson(record);
        },
        e.record);
    o["spent_after"] = {{std::string(filter.unitName()), e.spentAfter},
                        {"epsilon", json::finiteOrNull(e.epsilonSpentAfter)}};
    if (filter.kind() == filters::FilterKind::Unified)
        o["spent_after"]["expost"] = e.expostSpentAfter;
    return o;
}

Result<session::LedgerEvent> eventFromJson(const Json &o, std::size_t i)
{
    const std::string path = "events[" + std::to_string(i) + "]";
    if (!o.is_object())
        return makeError(ErrorCode::Parse, path + ": expected an object");
    Json requestPart = Json::object();
    for (const auto &item : o.items())
        if (std::none_of(std::begin(kOutcomeKeys), std::end(kOutcomeKeys),
                         [&](const char *k) { return item.key() == k; }))
            requestPart[item.key()] = item.value();
    if (auto requested = o.find("requested_mechanism"); requested != o.end())
        requestPart["mechanism"] = *requested;
    PBX_TRY(request, readRequest(requestPart, path));
    session::LedgerEvent e;
    e.request = std::move(request);
    PBX_TRY(index, json::unsignedInteger(o, "index", path));
    e.index = static_cast<std::size_t>(index);
    PBX_TRY(status, json::string(o, "status", path));
    if (status == "released")
        e.status = EventStatus::Released;
    else if (status == "refused")
        e.status = EventStatus::Refused;
    else
        return makeError(ErrorCode::Parse, path + ".status: expected \"released\" or \"refused\"");
    PBX_TRY(mechanism, json::optionalString(o, "mechanism", path));
    PBX_TRY(reason, json::optionalString(o, "reason", path));
    PBX_TRY(accounting, json::optionalString(o, "accounting", path));
    auto mechanismKind = session::parseEventMechanism(mechanism, e.request);
    if (!mechanismKind)
        return makeError(ErrorCode::Parse, path + "." + mechanismKind.error().message);
    e.mechanism = *mechanismKind;
    e.reason = reason;
    e.accounting = accounting;
    if (e.status == EventStatus::Released) {
        PBX_TRY(answer, json::number(o, "answer", path));
        PBX_TRY(bound, json::number(o, "error_bound", path));
        e.answer = answer;
        e.errorBound = bound;
        PBX_TRY(targetMet, json::optionalBool(o, "target_met", path));
        e.targetMet = targetMet;
    }
    auto costIt = o.find("cost");
    if (costIt == o.end() || !costIt->is_object())
        return makeError(ErrorCode::Parse, path + ".cost: missing (an object like {\"rho\": …})");
    bool found = false;
    for (filters::ChargeKind kind : {filters::ChargeKind::PureEpsilon, filters::ChargeKind::Rho,
                                     filters::ChargeKind::ExPost, filters::ChargeKind::BoundedRange}) {
        const std::string unit(filters::chargeKindName(kind));
        if (!costIt->contains(unit))
            continue;
        PBX_TRY(cost, json::number(*costIt, unit.c_str(), path + ".cost"));
        if (cost < 0.0)
            return makeError(ErrorCode::Parse, path + ".cost." + unit + ": must be ≥ 0");
        e.costKind = kind;
        e.cost = cost;
        found = true;
    }
    if (!found)
        return makeError(ErrorCode::Parse,
                         path + ".cost: expected one of epsilon, rho, expost or bounded-range");
    PBX_TRY(costDelta, json::optionalNumber(*costIt, "delta", path + ".cost"));
    e.costDelta = costDelta.value_or(0.0);
    if (e.costDelta < 0.0)
        return makeError(ErrorCode::Parse, path + ".cost.delta: must be ≥ 0");
    if (auto it = o.find("attempts"); it != o.end() && it->is_array())
        for (std::size_t k = 0; k < it->size(); ++k) {
            PBX_TRY(a, readAttempt((*it)[k], path + ".attempts[" + std::to_string(k) + "]"));
            e.attempts.push_back(std::move(a));
        }
    // One record at most (LedgerEvent::record holds one); writers never write two.
    if (o.contains("strategy_record") + o.contains("odp_record") + o.contains("growing_record") > 1)
        return makeError(ErrorCode::Parse,
                         path + ": more than one of strategy_record, odp_record and growing_record");
    if (auto it = o.find("strategy_record"); it != o.end()) {
        PBX_TRY(record, strategyRecordFromJson(*it, path + ".strategy_record"));
        e.record = std::move(record);
    }
    if (auto it = o.find("odp_record"); it != o.end()) {
        PBX_TRY(record, odpRecordFromJson(*it, path + ".odp_record"));
        e.record = std::move(record);
    }
    if (auto it = o.find("growing_record"); it != o.end()) {
        PBX_TRY(record, growingRecordFromJson(*it, path + ".growing_record"));
        e.record = std::move(record);
    }
    return e;
}

} // namespace pbx::io
