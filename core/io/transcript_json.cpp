// SPDX-License-Identifier: MIT
#include "core/io/transcript_json.h"

#include "core/io/request_json.h"

namespace pbx::io {

using json::Json;
using session::EventStatus;

namespace {

constexpr const char *kFormat = "pbx-transcript";
constexpr const char *kOutcomeKeys[] = {"index",      "status", "mechanism", "reason",   "answer",     "error_bound",
                                        "target_met", "cost",   "attempts",  "accounting", "spent_after", "requested_mechanism"};

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

Json writeEvent(const session::LedgerEvent &e, const filters::PrivacyFilter &filter)
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
    o["mechanism"] = e.mechanism;
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
    o["spent_after"] = {{std::string(filter.unitName()), e.spentAfter},
                        {"epsilon", json::finiteOrNull(e.epsilonSpentAfter)}};
    if (filter.kind() == filters::FilterKind::Unified)
        o["spent_after"]["expost"] = e.expostSpentAfter;
    return o;
}

Result<session::Attempt> readAttempt(const Json &o, const std::string &path)
{
    session::Attempt a;
    if (!o.is_object())
        return makeError(ErrorCode::Parse, path + ": expected an object");
    auto estimate = json::optionalNumber(o, "estimate", path);
    auto halfWidth = json::optionalNumber(o, "half_width", path);
    auto cost = json::number(o, "cost", path);
    if (!estimate)
        return estimate.error();
    if (!halfWidth)
        return halfWidth.error();
    if (!cost)
        return cost.error();
    a.estimate = estimate->value_or(0.0);
    a.halfWidth = halfWidth->value_or(std::numeric_limits<double>::infinity());
    a.cost = *cost;
    a.accepted = o.value("accepted", false);
    if (auto it = o.find("releases"); it != o.end() && it->is_array()) {
        for (std::size_t i = 0; i < it->size(); ++i) {
            const Json &r = (*it)[i];
            const std::string rpath = path + ".releases[" + std::to_string(i) + "]";
            auto quantity = json::string(r, "quantity", rpath);
            auto scale = json::number(r, "scale", rpath);
            auto value = json::number(r, "value", rpath);
            auto rcost = json::number(r, "cost", rpath);
            if (!quantity)
                return quantity.error();
            if (!scale)
                return scale.error();
            if (!value)
                return value.error();
            if (!rcost)
                return rcost.error();
            a.releases.push_back({*quantity, *scale, *value, *rcost});
        }
    }
    return a;
}

Result<session::LedgerEvent> readEvent(const Json &o, std::size_t i)
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
    auto request = readRequest(requestPart, path);
    if (!request)
        return request.error();
    session::LedgerEvent e;
    e.request = std::move(request.value());
    auto index = json::unsignedInteger(o, "index", path);
    if (!index)
        return index.error();
    e.index = static_cast<std::size_t>(*index);
    auto status = json::string(o, "status", path);
    if (!status)
        return status.error();
    if (*status == "released")
        e.status = EventStatus::Released;
    else if (*status == "refused")
        e.status = EventStatus::Refused;
    else
        return makeError(ErrorCode::Parse, path + ".status: expected \"released\" or \"refused\"");
    auto mechanism = json::optionalString(o, "mechanism", path);
    auto reason = json::optionalString(o, "reason", path);
    auto accounting = json::optionalString(o, "accounting", path);
    if (!mechanism)
        return mechanism.error();
    if (!reason)
        return reason.error();
    if (!accounting)
        return accounting.error();
    e.mechanism = *mechanism;
    e.reason = *reason;
    e.accounting = *accounting;
    if (e.status == EventStatus::Released) {
        auto answer = json::number(o, "answer", path);
        auto bound = json::number(o, "error_bound", path);
        if (!answer)
            return answer.error();
        if (!bound)
            return bound.error();
        e.answer = *answer;
        e.errorBound = *bound;
        e.targetMet = o.value("target_met", false);
    }
    auto costIt = o.find("cost");
    if (costIt == o.end() || !costIt->is_object())
        return makeError(ErrorCode::Parse, path + ".cost: missing (an object like {\"rho\": …})");
    bool found = false;
    for (filters::ChargeKind kind : {filters::ChargeKind::PureEpsilon, filters::ChargeKind::Rho, filters::ChargeKind::ExPost}) {
        const std::string unit(filters::chargeKindName(kind));
        if (!costIt->contains(unit))
            continue;
        auto cost = json::number(*costIt, unit.c_str(), path + ".cost");
        if (!cost)
            return cost.error();
        if (*cost < 0.0)
            return makeError(ErrorCode::Parse, path + ".cost." + unit + ": must be ≥ 0");
        e.costKind = kind;
        e.cost = *cost;
        found = true;
    }
    if (!found)
        return makeError(ErrorCode::Parse, path + ".cost: expected one of epsilon, rho or expost");
    auto costDelta = json::optionalNumber(*costIt, "delta", path + ".cost");
    if (!costDelta)
        return costDelta.error();
    e.costDelta = costDelta->value_or(0.0);
    if (e.costDelta < 0.0)
        return makeError(ErrorCode::Parse, path + ".cost.delta: must be ≥ 0");
    if (auto it = o.find("attempts"); it != o.end() && it->is_array())
        for (std::size_t k = 0; k < it->size(); ++k) {
            auto a = readAttempt((*it)[k], path + ".attempts[" + std::to_string(k) + "]");
            if (!a)
                return a.error();
            e.attempts.push_back(std::move(a.value()));
        }
    return e;
}

} // namespace

std::string writeTranscriptJson(const session::Session &s)
{
    const auto &filter = s.filter();
    const auto &settings = s.settings();
    const std::string unit(filter.unitName());
    Json doc = Json::object();
    doc["format"] = kFormat;
    doc["version"] = kTranscriptVersion;
    doc["generator"] = "pbx 0.1.0";
    doc["dataset"] = {{"name", s.table().name()}, {"rows", s.table().rowCount()}};
    doc["budget"] = {{"epsilon", settings.epsilon}, {"delta", settings.delta}};
    doc["neighbours"] = std::string(data::neighboursName(settings.neighbours));
    doc["filter"] = {{"kind", std::string(filters::filterKindName(settings.filter))},
                     {"unit", unit},
                     {"budget", filter.budget()}};
    if (settings.filter == filters::FilterKind::Unified) {
        doc["filter"]["split"] = {{"expost_epsilon_share", settings.split.expostEpsilonShare},
                                  {"expost_delta_share", settings.split.expostDeltaShare}};
        Json systems = Json::array();
        for (const auto &sys : filter.systems())
            systems.push_back({{"name", sys.name},
                               {"unit", sys.unitSymbol},
                               {"budget", sys.budget},
                               {"spent", sys.spent},
                               {"epsilon", sys.epsilonBudget},
                               {"delta", sys.deltaBudget}});
        doc["filter"]["systems"] = systems;
    }
    if (settings.seed)
        doc["noise"] = {{"seeded", true},
                        {"seed", *settings.seed},
                        {"note", "seeded, reproducible noise: for teaching and tests, not for real releases"}};
    else
        doc["noise"] = {{"seeded", false}, {"source", "operating system (std::random_device)"}};
    doc["spent"] = {{"epsilon", json::finiteOrNull(filter.epsilonSpent())},
                    {"delta", filter.deltaSpent()},
                    {unit, filter.spent()}};
    doc["remaining"] = {{unit, filter.remaining()}};
    Json events = Json::array();
    for (const auto &e : s.events())
        events.push_back(writeEvent(e, filter));
    doc["events"] = events;
    return doc.dump(2) + "\n";
}

Result<TranscriptDocument> readTranscriptJson(std::string_view text)
{
    auto parsed = json::parse(text, "the transcript");
    if (!parsed)
        return parsed.error();
    const Json &doc = *parsed;
    if (!doc.is_object() || doc.value("format", std::string()) != kFormat)
        return makeError(ErrorCode::Parse, "not a pbx transcript (\"format\" must be \"pbx-transcript\")");
    auto version = json::unsignedInteger(doc, "version", "");
    if (!version)
        return version.error();
    if (*version > static_cast<std::uint64_t>(kTranscriptVersion))
        return makeError(ErrorCode::Unsupported, "transcript version " + std::to_string(*version)
                                                     + " is newer than this pbx understands ("
                                                     + std::to_string(kTranscriptVersion) + ")");
    TranscriptDocument out;
    const Json empty = Json::object();
    const Json &dataset = doc.contains("dataset") ? doc["dataset"] : empty;
    auto name = json::string(dataset, "name", "dataset");
    if (!name)
        return name.error();
    out.datasetName = *name;
    const Json &budget = doc.contains("budget") ? doc["budget"] : empty;
    auto epsilon = json::number(budget, "epsilon", "budget");
    auto delta = json::number(budget, "delta", "budget");
    if (!epsilon)
        return epsilon.error();
    if (!delta)
        return delta.error();
    out.settings.epsilon = *epsilon;
    out.settings.delta = *delta;
    auto neighbours = data::parseNeighbours(doc.value("neighbours", std::string("add-remove")));
    if (!neighbours)
        return makeError(ErrorCode::Parse, "neighbours: " + neighbours.error().message);
    out.settings.neighbours = *neighbours;
    const Json &filter = doc.contains("filter") ? doc["filter"] : empty;
    auto kindText = json::string(filter, "kind", "filter");
    if (!kindText)
        return kindText.error();
    auto kind = filters::parseFilterKind(*kindText);
    if (!kind)
        return makeError(ErrorCode::Parse, "filter.kind: " + kind.error().message);
    out.settings.filter = *kind;
    if (auto split = filter.find("split"); split != filter.end() && split->is_object()) {
        auto e = json::number(*split, "expost_epsilon_share", "filter.split");
        auto d = json::number(*split, "expost_delta_share", "filter.split");
        if (!e)
            return e.error();
        if (!d)
            return d.error();
        out.settings.split = {*e, *d};
    }
    if (auto noise = doc.find("noise"); noise != doc.end() && noise->is_object() && noise->value("seeded", false)) {
        auto seed = json::unsignedInteger(*noise, "seed", "noise");
        if (!seed)
            return seed.error();
        out.settings.seed = *seed;
    }
    if (auto valid = out.settings.validate(); !valid)
        return makeError(ErrorCode::Parse, "budget: " + valid.error().message);
    auto events = doc.find("events");
    if (events == doc.end() || !events->is_array())
        return makeError(ErrorCode::Parse, "events: missing (an array is required)");
    for (std::size_t i = 0; i < events->size(); ++i) {
        auto e = readEvent((*events)[i], i);
        if (!e)
            return e.error();
        out.events.push_back(std::move(e.value()));
    }
    return out;
}

} // namespace pbx::io
