// SPDX-License-Identifier: MIT
#include "core/io/growing_pmwg_json.h"

#include "core/io/json_fields.h"
#include "core/util/try.h"

#include <algorithm>

namespace pbx::io {

using json::Json;

namespace {

constexpr const char *kPmwgKeys[]
    = {"universe", "mode", "alpha", "p", "c0", "T", "eta", "checkpoints", "per_checkpoint"};

/// Reads the unsigned fields `keys` of `o` into `targets`, in order. Errors: Parse naming the field.
Result<void> unsignedFields(const Json &o, const std::string &path, std::initializer_list<const char *> keys,
                            std::initializer_list<std::uint64_t *> targets)
{
    auto target = targets.begin();
    for (const char *key : keys) {
        PBX_TRY(v, json::unsignedInteger(o, key, path));
        **target++ = v;
    }
    return {};
}

Result<void> numberFields(const Json &o, const std::string &path, std::initializer_list<const char *> keys,
                          std::initializer_list<double *> targets)
{
    auto target = targets.begin();
    for (const char *key : keys) {
        PBX_TRY(v, json::number(o, key, path));
        **target++ = v;
    }
    return {};
}

} // namespace

Result<void> checkPmwgRequestFields(const Json &object, const std::string &path, bool pmwg)
{
    auto it = object.find("pmwg");
    if (it != object.end()) {
        if (!pmwg)
            return makeError(ErrorCode::Parse, path + ": unknown field 'pmwg' for a growing request");
        // The first key outside kPmwgKeys is refused; "uniform_update" with the reason why.
        const std::string pmwgPath = path + ".pmwg";
        const std::string suffix = " for a growing request";
        if (auto known = json::refuseUnknownFields(*it, pmwgPath, kPmwgKeys, {}, suffix); !known) {
            if (known.error().message == pmwgPath + ": unknown field 'uniform_update'" + suffix)
                return makeError(ErrorCode::Parse,
                                 pmwgPath
                                     + ".uniform_update: a session always moves x̂ towards the "
                                       "uniform distribution on every arrival (switching it off is "
                                       "a lab-only demonstration, not private as analysed)");
            return known.error();
        }
    }
    if (pmwg && object.contains("black_box"))
        return makeError(ErrorCode::Parse, path
                                               + ": unknown field 'black_box' for a pmwg request (its "
                                                 "queries are random conjunctions over \"pmwg.universe\")");
    return {};
}

session::PmwgRequestSpec pmwgSpecFromLab(const growing::GrowingLabConfig &c)
{
    session::PmwgRequestSpec p;
    p.universe = c.universe;
    p.mode = c.pmwg.mode == growing::PmwgMode::Theory ? "theory" : "practical";
    p.alpha = c.pmwg.alpha;
    p.exponent = c.pmwg.exponent;
    p.c0 = c.pmwg.c0;
    p.threshold = c.pmwg.threshold;
    p.eta = c.pmwg.eta;
    p.checkpoints = std::uint64_t(c.checkpoints);
    p.perCheckpoint = std::uint64_t(c.perCheckpoint);
    return p;
}

Json pmwgRequestToJson(const session::PmwgRequestSpec &p)
{
    return Json{{"universe", p.universe},
                {"mode", p.mode},
                {"alpha", p.alpha},
                {"p", p.exponent},
                {"c0", p.c0},
                {"T", p.threshold},
                {"eta", p.eta},
                {"checkpoints", p.checkpoints},
                {"per_checkpoint", p.perCheckpoint}};
}

Json pmwgRecordToJson(const session::PmwgRecord &r)
{
    Json rounds = Json::array();
    for (const auto &x : r.rounds) {
        Json round{{"index", x.index}, {"start", x.start}, {"charge", x.charge}};
        round["halt"] = x.halt ? Json(*x.halt) : Json(nullptr);
        rounds.push_back(std::move(round));
    }
    Json hard = Json::array();
    for (const auto &h : r.hard)
        hard.push_back(Json{{"time", h.time}, {"query", h.query}, {"answer", h.answer}, {"scale", h.scale}});
    Json checkpoints = Json::array();
    for (const auto &c : r.checkpoints) {
        Json answers = Json::array();
        for (const double a : c.answers)
            answers.push_back(json::finiteOrNull(a));
        checkpoints.push_back(Json{{"time", c.time},
                                   {"cap", c.cap},
                                   {"hard", c.hard},
                                   {"capped", c.capped},
                                   {"answers", std::move(answers)}});
    }
    return Json{{"universe", r.universe},    {"sigma_n", r.sigmaN},
                {"worst_case", r.worstCase}, {"rounds", std::move(rounds)},
                {"hard", std::move(hard)},   {"checkpoints", std::move(checkpoints)}};
}

Result<session::PmwgRecord> pmwgRecordFromJson(const Json &o, const std::string &path)
{
    if (!o.is_object())
        return makeError(ErrorCode::Parse, path + ": expected an object");
    session::PmwgRecord r;
    PBX_RETURN_IF_ERROR(unsignedFields(o, path, {"universe"}, {&r.universe}));
    PBX_RETURN_IF_ERROR(numberFields(o, path, {"sigma_n", "worst_case"}, {&r.sigmaN, &r.worstCase}));
    auto rounds = json::objects<session::PmwgRoundRecord>(
        o, "rounds", path, [](const Json &e, const std::string &p) -> Result<session::PmwgRoundRecord> {
            session::PmwgRoundRecord x;
            PBX_RETURN_IF_ERROR(unsignedFields(e, p, {"index", "start"}, {&x.index, &x.start}));
            PBX_RETURN_IF_ERROR(numberFields(e, p, {"charge"}, {&x.charge}));
            if (e.contains("halt") && !e["halt"].is_null()) {
                PBX_TRY(halt, json::unsignedInteger(e, "halt", p));
                x.halt = halt;
            }
            return x;
        });
    if (!rounds)
        return rounds.error();
    r.rounds = std::move(*rounds);
    auto hard = json::objects<session::PmwgHardRecord>(
        o, "hard", path, [](const Json &e, const std::string &p) -> Result<session::PmwgHardRecord> {
            session::PmwgHardRecord x;
            PBX_RETURN_IF_ERROR(unsignedFields(e, p, {"time", "query"}, {&x.time, &x.query}));
            PBX_RETURN_IF_ERROR(numberFields(e, p, {"answer", "scale"}, {&x.answer, &x.scale}));
            return x;
        });
    if (!hard)
        return hard.error();
    r.hard = std::move(*hard);
    auto checkpoints = json::objects<session::PmwgCheckpointRecord>(
        o, "checkpoints", path,
        [](const Json &e, const std::string &p) -> Result<session::PmwgCheckpointRecord> {
            session::PmwgCheckpointRecord x;
            PBX_RETURN_IF_ERROR(unsignedFields(e, p, {"time", "cap", "hard", "capped"},
                                               {&x.time, &x.cap, &x.hard, &x.capped}));
            auto answers = e.find("answers");
            if (answers == e.end() || !answers->is_array())
                return makeError(ErrorCode::Parse, p + ".answers: expected an array");
            for (std::size_t i = 0; i < answers->size(); ++i) {
                if (!(*answers)[i].is_number())
                    return makeError(ErrorCode::Parse,
                                     p + ".answers[" + std::to_string(i) + "]: expected a number");
                x.answers.push_back((*answers)[i].get<double>());
            }
            return x;
        });
    if (!checkpoints)
        return checkpoints.error();
    r.checkpoints = std::move(*checkpoints);
    return r;
}

} // namespace pbx::io
