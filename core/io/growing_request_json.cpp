// SPDX-License-Identifier: MIT
#include "core/io/growing_request_json.h"

#include "core/growing/growing_lab.h"
#include "core/io/growing_lab_json.h"
#include "core/io/growing_pmwg_json.h"
#include "core/io/json_fields.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>

namespace pbx::io {

using json::Json;

namespace {

constexpr const char *kTopKeys[]
    = {"id", "type", "algorithm", "stream", "budget", "schedule", "black_box", "beta", "nsg", "pmwg", "erm"};
constexpr const char *kStreamKeys[] = {"start_size", "end", "order", "seed"};
constexpr const char *kScheduleKeys[] = {"kind", "gamma"};
constexpr const char *kImproverScheduleKeys[] = {"a", "every"};
constexpr const char *kNsgKeys[] = {"p", "T", "cap", "queries", "checkpoints"};
constexpr const char *kNsgCapKeys[] = {"kind", "c0", "c"};
constexpr const char *kBlackBoxKeys[] = {"kind", "queries"};
constexpr const char *kErmgScheduleKeys[] = {"kind", "a", "every", "gamma"};
constexpr const char *kErmKeys[] = {"lambda", "tol"};    // "draws" is the lab's simulation only
constexpr const char *kSmallDbBoxKeys[] = {"kind", "m"}; // the teaching instance fixes N and Q
constexpr const char *kBudgetKeys[] = {"kind", "epsilon", "rho", "delta", "conversion"};

/// json::refuseUnknownFields with the growing reader's suffix.
template<std::size_t N>
Result<void> refuseUnknown(const Json &object, const std::string &path, const char *const (&keys)[N],
                           std::initializer_list<const char *> extraKeys = {})
{
    return json::refuseUnknownFields(object, path, keys, extraKeys, " for a growing request");
}

Error withPath(const std::string &path, const Error &e)
{
    return makeError(e.code, path + ": " + e.message);
}

Result<std::uint64_t> readUnsigned(const Json &o, const char *key, const std::string &path)
{
    return json::unsignedInteger(o, key, path);
}

Result<session::NsgRecord> nsgRecordFromJson(const Json &o, const std::string &path)
{
    if (!o.is_object())
        return makeError(ErrorCode::Parse, path + ": expected an object");
    session::NsgRecord r;
    PBX_TRY(sigma, json::number(o, "sigma_n", path));
    PBX_TRY(worst, json::number(o, "worst_case", path));
    r.sigmaN = sigma;
    r.worstCase = worst;
    auto rounds = json::objects<session::NsgRoundRecord>(
        o, "rounds", path, [](const Json &e, const std::string &p) -> Result<session::NsgRoundRecord> {
            session::NsgRoundRecord x;
            PBX_TRY(index, readUnsigned(e, "index", p));
            PBX_TRY(start, readUnsigned(e, "start", p));
            PBX_TRY(charge, json::number(e, "charge", p));
            x.index = index;
            x.start = start;
            x.charge = charge;
            if (e.contains("halt") && !e["halt"].is_null()) {
                PBX_TRY(halt, readUnsigned(e, "halt", p));
                x.halt = halt;
            }
            return x;
        });
    if (!rounds)
        return rounds.error();
    r.rounds = std::move(*rounds);
    auto hard = json::objects<session::NsgHardRecord>(
        o, "hard", path, [](const Json &e, const std::string &p) -> Result<session::NsgHardRecord> {
            session::NsgHardRecord x;
            PBX_TRY(time, readUnsigned(e, "time", p));
            PBX_TRY(query, readUnsigned(e, "query", p));
            PBX_TRY(answer, json::number(e, "answer", p));
            PBX_TRY(scale, json::number(e, "scale", p));
            x.time = time;
            x.query = query;
            x.answer = answer;
            x.scale = scale;
            return x;
        });
    if (!hard)
        return hard.error();
    r.hard = std::move(*hard);
    auto checkpoints = json::objects<session::NsgCheckpointRecord>(
        o, "checkpoints", path,
        [](const Json &e, const std::string &p) -> Result<session::NsgCheckpointRecord> {
            session::NsgCheckpointRecord x;
            PBX_TRY(time, readUnsigned(e, "time", p));
            PBX_TRY(cap, readUnsigned(e, "cap", p));
            PBX_TRY(hardSoFar, readUnsigned(e, "hard", p));
            PBX_TRY(capped, readUnsigned(e, "capped", p));
            x.time = time;
            x.cap = cap;
            x.hard = hardSoFar;
            x.capped = capped;
            return x;
        });
    if (!checkpoints)
        return checkpoints.error();
    r.checkpoints = std::move(*checkpoints);
    return r;
}

/// The session's algorithm for a lab algorithm a session runs (the caller refuses the others).
session::GrowingAlgorithm sessionAlgorithm(growing::LabAlgorithm algorithm)
{
    switch (algorithm) {
    case growing::LabAlgorithm::BBScheduler:
        return session::GrowingAlgorithm::BBScheduler;
    case growing::LabAlgorithm::BBImprover:
        return session::GrowingAlgorithm::BBImprover;
    case growing::LabAlgorithm::Nsg:
        return session::GrowingAlgorithm::Nsg;
    case growing::LabAlgorithm::Pmwg:
        return session::GrowingAlgorithm::Pmwg;
    case growing::LabAlgorithm::Ermg:
        return session::GrowingAlgorithm::Ermg;
    }
    return session::GrowingAlgorithm::BBScheduler;
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
    // The algorithm named, if it is one a session runs (anything else is refused by the lab's reader).
    const auto algorithmField = object.find("algorithm");
    const std::string algorithmText = algorithmField != object.end() && algorithmField->is_string()
                                          ? algorithmField->get<std::string>()
                                          : std::string();
    const auto named
        = [&](session::GrowingAlgorithm a) { return algorithmText == session::growingAlgorithmName(a); };
    const bool improver = named(session::GrowingAlgorithm::BBImprover);
    const bool ermg = named(session::GrowingAlgorithm::Ermg),
               smalldb = named(session::GrowingAlgorithm::SmallDb);
    for (const auto &[key, keys] : {std::pair{"stream", 0}, std::pair{"schedule", 1},
                                    std::pair{"black_box", 2}, std::pair{"budget", 3}}) {
        auto it = object.find(key);
        if (it == object.end())
            continue;
        const std::string sub = path + "." + key;
        PBX_RETURN_IF_ERROR(keys == 0   ? refuseUnknown(*it, sub, kStreamKeys)
                            : keys == 1 ? (improver ? refuseUnknown(*it, sub, kImproverScheduleKeys)
                                           : ermg   ? refuseUnknown(*it, sub, kErmgScheduleKeys)
                                                    : refuseUnknown(*it, sub, kScheduleKeys))
                            : keys == 2 ? refuseUnknown(*it, sub, smalldb ? kSmallDbBoxKeys : kBlackBoxKeys)
                                        : refuseUnknown(*it, sub, kBudgetKeys));
    }
    const bool nsg = named(session::GrowingAlgorithm::Nsg);
    if (auto it = object.find("nsg"); it != object.end()) {
        if (!nsg)
            return makeError(ErrorCode::Parse, path + ": unknown field 'nsg' for a growing request");
        PBX_RETURN_IF_ERROR(refuseUnknown(*it, path + ".nsg", kNsgKeys));
        if (it->is_object() && it->contains("cap"))
            PBX_RETURN_IF_ERROR(refuseUnknown((*it)["cap"], path + ".nsg.cap", kNsgCapKeys));
    }
    // NSG asks its own predicates at checkpoints: no black box, no schedule.
    if (nsg && object.contains("black_box"))
        return makeError(ErrorCode::Parse, path
                                               + ": unknown field 'black_box' for an nsg request (its "
                                                 "predicates are \"nsg.queries\")");
    if (auto it = object.find("erm"); it != object.end()) {
        if (!ermg)
            return makeError(ErrorCode::Parse, path + ": unknown field 'erm' for a growing request");
        PBX_RETURN_IF_ERROR(refuseUnknown(*it, path + ".erm", kErmKeys));
    }
    // ERMG's box is the lab's logistic regression: its parameters are "erm".
    if (ermg && object.contains("black_box"))
        return makeError(ErrorCode::Parse,
                         path + ": unknown field 'black_box' for an ermg request (its model is \"erm\")");
    PBX_RETURN_IF_ERROR(checkPmwgRequestFields(object, path, named(session::GrowingAlgorithm::Pmwg)));
    session::QueryRequest r;
    PBX_TRY(id, json::optionalString(object, "id", path, {}, session::maxRequestIdBytes));
    r.id = id;
    // The lab's reader checks every field with the lab's codes and ranges.
    Json lab{{"format", "pbx-growing-lab"}, {"version", std::uint64_t{1}}};
    for (const char *key :
         {"algorithm", "stream", "budget", "schedule", "black_box", "beta", "nsg", "pmwg", "erm"})
        if (auto it = object.find(key); it != object.end())
            lab[key] = *it;
    if (smalldb) { // the lab runs SmallDBG as BBScheduler with the smalldb box
        lab["algorithm"] = "bbscheduler";
        if (!lab.contains("black_box") || !lab["black_box"].is_object() || !lab["black_box"].contains("m"))
            return makeError(ErrorCode::InvalidArgument,
                             path
                                 + ": INVALID_BLACK_BOX: black_box.m: a smalldb request needs the synthetic "
                                   "database's size m");
        if (!lab["black_box"].contains("kind"))
            lab["black_box"]["kind"] = "smalldb";
        else if (lab["black_box"]["kind"] != "smalldb")
            return makeError(
                ErrorCode::InvalidArgument,
                path + ": INVALID_BLACK_BOX: black_box.kind: a smalldb request runs the smalldb box");
    }
    if (lab.contains("stream") && lab["stream"].is_object())
        lab["stream"].erase("seed");
    auto config = growing::parseGrowingLab(lab);
    if (!config)
        return withPath(path, config.error());
    const growing::GrowingLabConfig &c = *config;
    session::GrowingRequestSpec spec;
    if (c.algorithm != growing::LabAlgorithm::BBScheduler && c.algorithm != growing::LabAlgorithm::BBImprover
        && c.algorithm != growing::LabAlgorithm::Nsg && c.algorithm != growing::LabAlgorithm::Pmwg
        && c.algorithm != growing::LabAlgorithm::Ermg)
        return withPath(path, makeError(ErrorCode::InvalidArgument,
                                        "INVALID_CONFIG: algorithm: a session runs 'bbscheduler', "
                                        "'bbimprover', 'nsg', 'pmwg', 'ermg' and 'smalldb' streams ('"
                                            + std::string(growing::labAlgorithmName(c.algorithm))
                                            + "' runs in the lab: pbx-cli simulate growing)"));
    if (c.algorithm == growing::LabAlgorithm::BBScheduler && !c.gamma)
        return withPath(path,
                        makeError(ErrorCode::InvalidArgument,
                                  "INVALID_GAMMA: schedule.gamma: a session needs a number (\"optimal\" is "
                                  "a lab setting; the lab document reports the γ it chose)"));
    if (c.algorithm == growing::LabAlgorithm::Nsg && c.queries.empty())
        return withPath(path, makeError(ErrorCode::InvalidArgument,
                                        "INVALID_CONFIG: nsg.queries: a session's NSG stream needs at least "
                                        "one counting predicate"));
    if (c.algorithm != growing::LabAlgorithm::Nsg && c.algorithm != growing::LabAlgorithm::Pmwg
        && c.algorithm != growing::LabAlgorithm::Ermg && !smalldb
        && (c.box.kind != growing::BlackBoxKind::LaplaceK || c.queries.empty()))
        return withPath(path,
                        makeError(ErrorCode::InvalidArgument,
                                  "INVALID_BLACK_BOX: black_box.queries: a session runs a laplace-k box "
                                  "with a list of predicates"));
    spec.algorithm = smalldb ? session::GrowingAlgorithm::SmallDb : sessionAlgorithm(c.algorithm);
    spec.decay = c.decay;
    spec.every = c.every;
    if (c.algorithm == growing::LabAlgorithm::Nsg) {
        spec.nsgExponent = c.nsg.exponent;
        spec.nsgThreshold = c.nsg.threshold;
        spec.nsgCapKind = c.nsg.cap->timeCap ? session::NsgCapKind::Time : session::NsgCapKind::Constant;
        spec.nsgCap = c.nsg.cap->c;
        spec.nsgCheckpoints = std::uint64_t(c.checkpoints);
    }
    if (c.algorithm == growing::LabAlgorithm::Pmwg)
        spec.pmwg = pmwgSpecFromLab(c);
    spec.startSize = c.startSize;
    spec.end = c.end;
    spec.order = c.order;
    if (const auto &s = object["stream"]; s.contains("seed")) {
        PBX_TRY(seed, readUnsigned(s, "seed", path + ".stream"));
        spec.orderSeed = seed;
    }
    spec.budgetKind = c.budget.kind;
    spec.epsilon = c.budget.kind == growing::BudgetKind::Zcdp ? 0.0 : c.budget.epsilon;
    spec.rho = c.budget.kind == growing::BudgetKind::Zcdp ? c.budget.rho : 0.0;
    spec.delta = c.budget.kind == growing::BudgetKind::Approx ? c.budget.delta : 0.0;
    spec.conversion = c.budget.conversion;
    spec.schedule = c.schedule;
    spec.gamma = c.gamma.value_or(1.0); // bbimprover: unused (its schedule is a and m)
    if (c.algorithm == growing::LabAlgorithm::Ermg) {
        spec.ermgImprover = !c.ermScheduler;
        spec.ermLambda = c.ermLambda;
        spec.ermTol = c.ermTol;
    }
    if (smalldb)
        spec.smallDbSize = c.smallDbSize;
    spec.queries = c.queries;
    spec.beta = c.beta;
    r.spec = std::move(spec);
    return r;
}

void writeGrowingRequest(const session::QueryRequest &request, Json &object)
{
    const session::GrowingRequestSpec &s = *request.growing();
    if (!request.id.empty())
        object["id"] = request.id;
    object["type"] = "growing";
    object["algorithm"] = session::growingAlgorithmName(s.algorithm);
    Json stream{{"start_size", s.startSize}, {"order", s.order}};
    if (s.end)
        stream["end"] = *s.end;
    if (s.orderSeed)
        stream["seed"] = *s.orderSeed;
    object["stream"] = std::move(stream);
    Json budget{{"kind", growing::budgetKindName(s.budgetKind)}};
    if (s.budgetKind == growing::BudgetKind::Zcdp) {
        budget["rho"] = s.rho;
    } else {
        budget["epsilon"] = s.epsilon;
    }
    if (s.budgetKind == growing::BudgetKind::Approx) {
        budget["delta"] = s.delta;
        budget["conversion"] = session::zcdpConversionName(s.conversion);
    }
    object["budget"] = std::move(budget);
    if (s.algorithm == session::GrowingAlgorithm::Pmwg) {
        object["pmwg"] = pmwgRequestToJson(s.pmwg);
    } else if (s.algorithm == session::GrowingAlgorithm::Nsg) {
        object["nsg"] = Json{{"p", s.nsgExponent},
                             {"T", s.nsgThreshold},
                             {"cap", s.nsgCapKind == session::NsgCapKind::Time
                                         ? Json{{"kind", "time"}, {"c0", s.nsgCap}}
                                         : Json{{"kind", "constant"}, {"c", s.nsgCap}}},
                             {"queries", s.queries},
                             {"checkpoints", s.nsgCheckpoints}};
    } else if (s.algorithm == session::GrowingAlgorithm::Ermg) {
        object["schedule"] = s.ermgImprover
                                 ? Json{{"kind", "improver"}, {"a", s.decay}, {"every", s.every}}
                                 : Json{{"kind", growing::scheduleKindName(s.schedule)}, {"gamma", s.gamma}};
        object["erm"] = Json{{"lambda", s.ermLambda}, {"tol", s.ermTol}};
    } else if (s.algorithm == session::GrowingAlgorithm::SmallDb) {
        object["schedule"] = Json{{"kind", growing::scheduleKindName(s.schedule)}, {"gamma", s.gamma}};
        object["black_box"] = Json{{"kind", "smalldb"}, {"m", s.smallDbSize}};
    } else {
        object["schedule"] = s.algorithm == session::GrowingAlgorithm::BBImprover
                                 ? Json{{"a", s.decay}, {"every", s.every}}
                                 : Json{{"kind", growing::scheduleKindName(s.schedule)}, {"gamma", s.gamma}};
        object["black_box"] = Json{{"kind", "laplace-k"}, {"queries", s.queries}};
    }
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
        if (!x.cells.empty())
            epochs.back()["cells"] = x.cells;
    }
    Json o{{"order_seed", r.orderSeed},
           {"end", r.end},
           {"planned_epochs", r.plannedEpochs},
           {"series_total", r.seriesTotal},
           {"epochs", std::move(epochs)}};
    if (r.refusedEpoch)
        o["refused_epoch"] = *r.refusedEpoch;
    if (r.pmwg)
        o["pmwg"] = pmwgRecordToJson(*r.pmwg);
    if (r.nsg) {
        Json rounds = Json::array();
        for (const auto &x : r.nsg->rounds) {
            Json round{{"index", x.index}, {"start", x.start}, {"charge", x.charge}};
            round["halt"] = x.halt ? Json(*x.halt) : Json(nullptr);
            rounds.push_back(std::move(round));
        }
        Json hard = Json::array();
        for (const auto &h : r.nsg->hard)
            hard.push_back(
                Json{{"time", h.time}, {"query", h.query}, {"answer", h.answer}, {"scale", h.scale}});
        Json checkpoints = Json::array();
        for (const auto &c : r.nsg->checkpoints)
            checkpoints.push_back(
                Json{{"time", c.time}, {"cap", c.cap}, {"hard", c.hard}, {"capped", c.capped}});
        o["nsg"] = Json{{"sigma_n", r.nsg->sigmaN},
                        {"worst_case", r.nsg->worstCase},
                        {"rounds", std::move(rounds)},
                        {"hard", std::move(hard)},
                        {"checkpoints", std::move(checkpoints)}};
    }
    return o;
}

Result<session::GrowingRecord> growingRecordFromJson(const Json &o, const std::string &path)
{
    if (!o.is_object())
        return makeError(ErrorCode::Parse, path + ": expected an object");
    session::GrowingRecord r;
    PBX_TRY(seed, readUnsigned(o, "order_seed", path));
    PBX_TRY(end, readUnsigned(o, "end", path));
    PBX_TRY(planned, readUnsigned(o, "planned_epochs", path));
    PBX_TRY(total, json::number(o, "series_total", path));
    r.orderSeed = seed;
    r.end = end;
    r.plannedEpochs = planned;
    r.seriesTotal = total;
    if (o.contains("refused_epoch") && !o["refused_epoch"].is_null()) {
        PBX_TRY(refused, readUnsigned(o, "refused_epoch", path));
        r.refusedEpoch = refused;
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
        PBX_TRY(index, readUnsigned(e, "index", p));
        PBX_TRY(start, readUnsigned(e, "start", p));
        PBX_TRY(last, readUnsigned(e, "last", p));
        x.index = index;
        x.start = start;
        x.last = last;
        for (const auto &[key, target] :
             {std::pair{"epsilon", &x.epsilon}, std::pair{"rho", &x.rho}, std::pair{"beta", &x.beta},
              std::pair{"scale", &x.scale}, std::pair{"bound", &x.bound}}) {
            PBX_TRY(v, json::number(e, key, p));
            *target = v;
        }
        auto answers = e.find("answers");
        if (answers == e.end() || !answers->is_array())
            return makeError(ErrorCode::Parse, p + ".answers: expected an array of numbers");
        for (const auto &a : *answers) {
            if (!a.is_number() || !std::isfinite(a.get<double>()))
                return makeError(ErrorCode::Parse, p + ".answers: expected finite numbers");
            x.answers.push_back(a.get<double>());
        }
        if (auto cells = e.find("cells"); cells != e.end()) { // smalldb: the synthetic database
            if (!cells->is_array())
                return makeError(ErrorCode::Parse, p + ".cells: expected an array of counts");
            for (const auto &count : *cells) {
                if (!count.is_number_unsigned() || count.get<std::uint64_t>() > 0xffffffffu)
                    return makeError(ErrorCode::Parse, p + ".cells: expected counts (integers ≥ 0)");
                x.cells.push_back(std::uint32_t(count.get<std::uint64_t>()));
            }
        }
        r.epochs.push_back(std::move(x));
    }
    if (auto n = o.find("nsg"); n != o.end()) {
        PBX_TRY(nsg, nsgRecordFromJson(*n, path + ".nsg"));
        r.nsg = std::move(nsg);
    }
    if (auto m = o.find("pmwg"); m != o.end()) {
        PBX_TRY(pmwg, pmwgRecordFromJson(*m, path + ".pmwg"));
        r.pmwg = std::move(pmwg);
    }
    return r;
}

} // namespace pbx::io
