// SPDX-License-Identifier: MIT
#include "core/io/growing_request_json.h"

#include "core/growing/growing_lab.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>

namespace pbx::io {

using json::Json;

namespace {

constexpr const char *kTopKeys[]
    = {"id", "type", "algorithm", "stream", "budget", "schedule", "black_box", "beta"};
constexpr const char *kStreamKeys[] = {"start_size", "end", "order", "seed"};
constexpr const char *kScheduleKeys[] = {"kind", "gamma"};
constexpr const char *kImproverScheduleKeys[] = {"a", "every"};
constexpr const char *kBlackBoxKeys[] = {"kind", "queries"};
constexpr const char *kBudgetKeys[] = {"kind", "epsilon", "rho", "delta", "conversion"};

template<std::size_t N>
Result<void> refuseUnknown(const Json &object, const std::string &path, const char *const (&keys)[N],
                           std::initializer_list<const char *> extraKeys = {})
{
    if (!object.is_object())
        return {};
    for (const auto &item : object.items()) {
        const auto known = [&](const char *k) { return item.key() == k; };
        if (std::none_of(std::begin(keys), std::end(keys), known)
            && std::none_of(extraKeys.begin(), extraKeys.end(), known))
            return makeError(ErrorCode::Parse,
                             path + ": unknown field '" + item.key() + "' for a growing request");
    }
    return {};
}

Error withPath(const std::string &path, const Error &e)
{
    return makeError(e.code, path + ": " + e.message);
}

Result<std::uint64_t> readUnsigned(const Json &o, const char *key, const std::string &path)
{
    return json::unsignedInteger(o, key, path);
}

} // namespace

bool isGrowingRequest(const Json &object)
{
    auto it = object.find("type");
    return object.is_object() && it != object.end() && it->is_string() && it->get<std::string>() == "growing";
}

Result<session::QueryRequest> readGrowingRequest(const Json &object, const std::string &path,
                                                 std::initializer_list<const char *> extraKeys)
{
    if (!isGrowingRequest(object))
        return makeError(ErrorCode::Parse, path + ".type: expected \"growing\"");
    PBX_RETURN_IF_ERROR(refuseUnknown(object, path, kTopKeys, extraKeys));
    const auto algorithmField = object.find("algorithm");
    const bool improver = algorithmField != object.end() && algorithmField->is_string()
                          && algorithmField->get<std::string>() == "bbimprover";
    for (const auto &[key, keys] : {std::pair{"stream", 0}, std::pair{"schedule", 1},
                                    std::pair{"black_box", 2}, std::pair{"budget", 3}}) {
        auto it = object.find(key);
        if (it == object.end())
            continue;
        const std::string sub = path + "." + key;
        auto ok = keys == 0   ? refuseUnknown(*it, sub, kStreamKeys)
                  : keys == 1 ? (improver ? refuseUnknown(*it, sub, kImproverScheduleKeys)
                                          : refuseUnknown(*it, sub, kScheduleKeys))
                  : keys == 2 ? refuseUnknown(*it, sub, kBlackBoxKeys)
                              : refuseUnknown(*it, sub, kBudgetKeys);
        if (!ok)
            return ok.error();
    }
    session::QueryRequest r;
    auto id = json::optionalString(object, "id", path, {}, session::maxRequestIdBytes);
    if (!id)
        return id.error();
    r.id = *id;
    // The lab's reader checks every field with the lab's codes and ranges.
    Json lab{{"format", "pbx-growing-lab"}, {"version", std::uint64_t{1}}};
    for (const char *key : {"algorithm", "stream", "budget", "schedule", "black_box", "beta"})
        if (auto it = object.find(key); it != object.end())
            lab[key] = *it;
    if (lab.contains("stream") && lab["stream"].is_object())
        lab["stream"].erase("seed");
    auto config = growing::parseGrowingLab(lab);
    if (!config)
        return withPath(path, config.error());
    const growing::GrowingLabConfig &c = *config;
    session::GrowingRequestSpec spec;
    if (c.algorithm != growing::LabAlgorithm::BBScheduler && c.algorithm != growing::LabAlgorithm::BBImprover)
        return withPath(path, makeError(ErrorCode::InvalidArgument,
                                        "INVALID_CONFIG: algorithm: a session runs 'bbscheduler' and "
                                        "'bbimprover' streams ('"
                                            + std::string(growing::labAlgorithmName(c.algorithm))
                                            + "' runs in the lab: pbx-cli simulate growing)"));
    if (c.algorithm == growing::LabAlgorithm::BBScheduler && !c.gamma)
        return withPath(path,
                        makeError(ErrorCode::InvalidArgument,
                                  "INVALID_GAMMA: schedule.gamma: a session needs a number (\"optimal\" is "
                                  "a lab setting; the lab document reports the γ it chose)"));
    if (c.box.kind != growing::BlackBoxKind::LaplaceK || c.queries.empty())
        return withPath(path,
                        makeError(ErrorCode::InvalidArgument,
                                  "INVALID_BLACK_BOX: black_box.queries: a session runs a laplace-k box "
                                  "with a list of predicates"));
    spec.algorithm = std::string(growing::labAlgorithmName(c.algorithm));
    spec.decay = c.decay;
    spec.every = c.every;
    spec.startSize = c.startSize;
    spec.end = c.end;
    spec.order = c.order;
    if (const auto &s = object["stream"]; s.contains("seed")) {
        auto seed = readUnsigned(s, "seed", path + ".stream");
        if (!seed)
            return seed.error();
        spec.orderSeed = *seed;
    }
    spec.budgetKind = std::string(growing::budgetKindName(c.budget.kind));
    spec.epsilon = c.budget.kind == growing::BudgetKind::Zcdp ? 0.0 : c.budget.epsilon;
    spec.rho = c.budget.kind == growing::BudgetKind::Zcdp ? c.budget.rho : 0.0;
    spec.delta = c.budget.kind == growing::BudgetKind::Approx ? c.budget.delta : 0.0;
    spec.conversion = c.budget.conversion == growing::ZcdpConversion::Cks ? "cks" : "simple";
    spec.schedule = std::string(growing::scheduleKindName(c.schedule));
    spec.gamma = c.gamma.value_or(1.0); // bbimprover: unused (its schedule is a and m)
    spec.queries = c.queries;
    spec.beta = c.beta;
    r.growing = std::move(spec);
    return r;
}

void writeGrowingRequest(const session::QueryRequest &request, Json &object)
{
    const session::GrowingRequestSpec &s = *request.growing;
    if (!request.id.empty())
        object["id"] = request.id;
    object["type"] = "growing";
    object["algorithm"] = s.algorithm;
    Json stream{{"start_size", s.startSize}, {"order", s.order}};
    if (s.end)
        stream["end"] = *s.end;
    if (s.orderSeed)
        stream["seed"] = *s.orderSeed;
    object["stream"] = std::move(stream);
    Json budget{{"kind", s.budgetKind}};
    if (s.budgetKind == "zcdp") {
        budget["rho"] = s.rho;
    } else {
        budget["epsilon"] = s.epsilon;
    }
    if (s.budgetKind == "approx") {
        budget["delta"] = s.delta;
        budget["conversion"] = s.conversion;
    }
    object["budget"] = std::move(budget);
    object["schedule"] = s.algorithm == "bbimprover" ? Json{{"a", s.decay}, {"every", s.every}}
                                                     : Json{{"kind", s.schedule}, {"gamma", s.gamma}};
    object["black_box"] = Json{{"kind", "laplace-k"}, {"queries", s.queries}};
    object["beta"] = s.beta;
}

Json growingRecordToJson(const session::GrowingRecord &r)
{
    Json epochs = Json::array();
    for (const auto &x : r.epochs) {
        Json answers = Json::array();
        for (double a : x.answers)
            answers.push_back(json::finiteOrNull(a));
        epochs.push_back(Json{{"index", x.index},
                              {"start", x.start},
                              {"last", x.last},
                              {"epsilon", x.epsilon},
                              {"rho", x.rho},
                              {"beta", x.beta},
                              {"scale", x.scale},
                              {"bound", json::finiteOrNull(x.bound)},
                              {"answers", std::move(answers)}});
    }
    Json o{{"order_seed", r.orderSeed},
           {"end", r.end},
           {"planned_epochs", r.plannedEpochs},
           {"series_total", r.seriesTotal},
           {"epochs", std::move(epochs)}};
    if (r.refusedEpoch)
        o["refused_epoch"] = *r.refusedEpoch;
    return o;
}

Result<session::GrowingRecord> growingRecordFromJson(const Json &o, const std::string &path)
{
    if (!o.is_object())
        return makeError(ErrorCode::Parse, path + ": expected an object");
    session::GrowingRecord r;
    auto seed = readUnsigned(o, "order_seed", path);
    auto end = readUnsigned(o, "end", path);
    auto planned = readUnsigned(o, "planned_epochs", path);
    auto total = json::number(o, "series_total", path);
    if (!seed)
        return seed.error();
    if (!end)
        return end.error();
    if (!planned)
        return planned.error();
    if (!total)
        return total.error();
    r.orderSeed = *seed;
    r.end = *end;
    r.plannedEpochs = *planned;
    r.seriesTotal = *total;
    if (o.contains("refused_epoch") && !o["refused_epoch"].is_null()) {
        auto refused = readUnsigned(o, "refused_epoch", path);
        if (!refused)
            return refused.error();
        r.refusedEpoch = *refused;
    }
    auto it = o.find("epochs");
    if (it == o.end() || !it->is_array())
        return makeError(ErrorCode::Parse, path + ".epochs: expected an array");
    for (std::size_t i = 0; i < it->size(); ++i) {
        const Json &e = (*it)[i];
        const std::string p = path + ".epochs[" + std::to_string(i) + "]";
        if (!e.is_object())
            return makeError(ErrorCode::Parse, p + ": expected an object");
        session::GrowingEpochRecord x;
        auto index = readUnsigned(e, "index", p);
        auto start = readUnsigned(e, "start", p);
        auto last = readUnsigned(e, "last", p);
        if (!index)
            return index.error();
        if (!start)
            return start.error();
        if (!last)
            return last.error();
        x.index = *index;
        x.start = *start;
        x.last = *last;
        for (const auto &[key, target] :
             {std::pair{"epsilon", &x.epsilon}, std::pair{"rho", &x.rho}, std::pair{"beta", &x.beta},
              std::pair{"scale", &x.scale}, std::pair{"bound", &x.bound}}) {
            auto v = json::number(e, key, p);
            if (!v)
                return v.error();
            *target = *v;
        }
        auto answers = e.find("answers");
        if (answers == e.end() || !answers->is_array())
            return makeError(ErrorCode::Parse, p + ".answers: expected an array of numbers");
        for (const auto &a : *answers) {
            if (!a.is_number() || !std::isfinite(a.get<double>()))
                return makeError(ErrorCode::Parse, p + ".answers: expected finite numbers");
            x.answers.push_back(a.get<double>());
        }
        r.epochs.push_back(std::move(x));
    }
    return r;
}

} // namespace pbx::io
