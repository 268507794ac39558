// SPDX-License-Identifier: MIT
#include "core/io/odp_request_json.h"

#include <algorithm>
#include <cmath>

namespace pbx::io {

using json::Json;

namespace {
constexpr const char *kOdpKeys[] = {"id",      "mechanism", "column",      "threshold", "c",
                                    "epsilon", "svt_share", "sensitivity", "epsilon1",  "epsilon2"};

Result<double> wholeNumber(const Json &o, const char *key, const std::string &path, double limit)
{
    auto x = json::number(o, key, path);
    if (!x)
        return x.error();
    if (*x != std::floor(*x) || std::abs(*x) > limit)
        return makeError(ErrorCode::InvalidArgument, path + "." + key
                                                         + ": must be a whole number of magnitude ≤ "
                                                         + std::to_string(limit));
    return *x;
}
} // namespace

bool isOdpMechanism(std::string_view mechanism)
{
    return mechanism == "svt";
}

Result<session::QueryRequest> readOdpRequest(const Json &object, const std::string &path,
                                             std::initializer_list<const char *> extraKeys)
{
    if (!object.is_object())
        return makeError(ErrorCode::Parse, path + ": expected a JSON object");
    for (const auto &item : object.items()) {
        const auto known = [&](const char *k) { return item.key() == k; };
        if (std::none_of(std::begin(kOdpKeys), std::end(kOdpKeys), known)
            && std::none_of(extraKeys.begin(), extraKeys.end(), known))
            return makeError(ErrorCode::Parse,
                             path + ": unknown field '" + item.key()
                                 + "' for an output-DP request (expected column, threshold, "
                                   "c, epsilon, svt_share, sensitivity, epsilon1, epsilon2)");
    }
    session::QueryRequest r;
    auto id = json::optionalString(object, "id", path, {}, session::maxRequestIdBytes);
    if (!id)
        return id.error();
    r.id = *id;
    auto mechanism = json::string(object, "mechanism", path);
    if (!mechanism)
        return mechanism.error();
    if (!isOdpMechanism(*mechanism))
        return makeError(ErrorCode::InvalidArgument, path + ".mechanism: '" + *mechanism
                                                         + "' is not an output-DP mechanism (expected svt)");
    session::OdpRequestSpec spec;
    spec.mechanism = *mechanism;
    auto column = json::optionalString(object, "column", path, "education");
    if (!column)
        return column.error();
    spec.svt.column = *column;
    auto threshold = wholeNumber(object, "threshold", path, 1e15);
    if (!threshold)
        return threshold.error();
    spec.svt.threshold = static_cast<std::int64_t>(*threshold);
    auto c = wholeNumber(object, "c", path, 1e6);
    if (!c)
        return c.error();
    if (*c < 1)
        return makeError(ErrorCode::InvalidArgument, path + ".c: must be at least 1");
    spec.svt.cutoff = static_cast<int>(*c);
    auto epsilon = json::number(object, "epsilon", path);
    if (!epsilon)
        return epsilon.error();
    spec.svt.epsilon = *epsilon;
    auto share = json::optionalNumber(object, "svt_share", path);
    auto sensitivity = json::optionalNumber(object, "sensitivity", path);
    auto epsilon1 = json::optionalNumber(object, "epsilon1", path);
    auto epsilon2 = json::optionalNumber(object, "epsilon2", path);
    for (const auto *field : {&share, &sensitivity, &epsilon1, &epsilon2})
        if (!*field)
            return field->error();
    spec.svt.svtShare = share->value_or(0.5);
    spec.svt.sensitivity = sensitivity->value_or(1.0);
    spec.svt.epsilon1 = *epsilon1;
    spec.svt.epsilon2 = *epsilon2;
    r.odp = std::move(spec);
    return r;
}

void writeOdpRequest(const session::QueryRequest &request, Json &object)
{
    const auto &spec = *request.odp;
    object["id"] = request.id;
    object["mechanism"] = spec.mechanism;
    object["column"] = spec.svt.column;
    object["threshold"] = spec.svt.threshold;
    object["c"] = spec.svt.cutoff;
    object["epsilon"] = spec.svt.epsilon;
    object["svt_share"] = spec.svt.svtShare;
    object["sensitivity"] = spec.svt.sensitivity;
    if (spec.svt.epsilon1)
        object["epsilon1"] = *spec.svt.epsilon1;
    if (spec.svt.epsilon2)
        object["epsilon2"] = *spec.svt.epsilon2;
}

Json odpRecordToJson(const session::OdpRecord &r)
{
    Json cells = Json::array();
    for (const auto &c : r.guarantee.cells)
        cells.push_back({{"j", c.id}, {"epsilon", c.epsilon}});
    Json answers = Json::array();
    for (bool a : r.answers)
        answers.push_back(a);
    Json releases = Json::array();
    for (const auto &e : r.releases)
        releases.push_back({{"index", e.index}, {"label", e.label}, {"value", e.value}});
    return {{"reservation", r.reservation},
            {"reserved_epsilon", r.reservedEpsilon},
            {"delta", r.guarantee.delta},
            {"cells", cells},
            {"cell", r.cell ? Json(*r.cell) : Json(nullptr)},
            {"settled_epsilon", r.settledEpsilon},
            {"epsilon1", r.epsilon1},
            {"epsilon2", r.epsilon2},
            {"answers", answers},
            {"releases", releases},
            {"release_scale", r.releaseScale}};
}

Result<session::OdpRecord> odpRecordFromJson(const Json &o, const std::string &path)
{
    if (!o.is_object())
        return makeError(ErrorCode::Parse, path + ": expected an object");
    session::OdpRecord r;
    auto reservation = json::unsignedInteger(o, "reservation", path);
    if (!reservation)
        return reservation.error();
    if (*reservation > 1u << 30)
        return makeError(ErrorCode::Parse, path + ".reservation: out of range");
    r.reservation = static_cast<int>(*reservation);
    auto reserved = json::number(o, "reserved_epsilon", path);
    auto delta = json::number(o, "delta", path);
    auto settled = json::number(o, "settled_epsilon", path);
    auto epsilon1 = json::number(o, "epsilon1", path);
    auto epsilon2 = json::number(o, "epsilon2", path);
    auto scale = json::number(o, "release_scale", path);
    for (const auto *field : {&reserved, &delta, &settled, &epsilon1, &epsilon2, &scale})
        if (!*field)
            return field->error();
    r.reservedEpsilon = *reserved;
    r.guarantee.delta = *delta;
    r.settledEpsilon = *settled;
    r.epsilon1 = *epsilon1;
    r.epsilon2 = *epsilon2;
    r.releaseScale = *scale;
    const auto cells = o.find("cells");
    if (cells == o.end() || !cells->is_array())
        return makeError(ErrorCode::Parse, path + ".cells: expected an array");
    for (std::size_t k = 0; k < cells->size(); ++k) {
        const std::string cpath = path + ".cells[" + std::to_string(k) + "]";
        auto j = json::unsignedInteger((*cells)[k], "j", cpath);
        if (!j)
            return j.error();
        if (*j > 1000000u)
            return makeError(ErrorCode::Parse, cpath + ".j: out of range");
        auto epsilon = json::number((*cells)[k], "epsilon", cpath);
        if (!epsilon)
            return epsilon.error();
        r.guarantee.cells.push_back({static_cast<int>(*j), "j = " + std::to_string(*j), *epsilon});
    }
    if (auto valid = r.guarantee.validate(); !valid)
        return makeError(ErrorCode::Parse, path + ": " + valid.error().message);
    if (const auto cell = o.find("cell"); cell != o.end() && !cell->is_null()) {
        auto j = json::unsignedInteger(o, "cell", path);
        if (!j)
            return j.error();
        if (*j > 1000000u)
            return makeError(ErrorCode::Parse, path + ".cell: out of range");
        r.cell = static_cast<int>(*j);
    }
    if (const auto answers = o.find("answers"); answers != o.end()) {
        if (!answers->is_array())
            return makeError(ErrorCode::Parse, path + ".answers: expected an array of booleans");
        for (const auto &a : *answers) {
            if (!a.is_boolean())
                return makeError(ErrorCode::Parse, path + ".answers: expected an array of booleans");
            r.answers.push_back(a.get<bool>());
        }
    }
    if (const auto releases = o.find("releases"); releases != o.end()) {
        if (!releases->is_array())
            return makeError(ErrorCode::Parse, path + ".releases: expected an array");
        for (std::size_t k = 0; k < releases->size(); ++k) {
            const Json &e = (*releases)[k];
            const std::string rpath = path + ".releases[" + std::to_string(k) + "]";
            auto index = json::unsignedInteger(e, "index", rpath);
            auto label = json::string(e, "label", rpath);
            auto value = json::number(e, "value", rpath);
            if (!index)
                return index.error();
            if (!label)
                return label.error();
            if (!value)
                return value.error();
            if (*value != std::floor(*value) || std::abs(*value) > 9.0e18)
                return makeError(ErrorCode::Parse, rpath + ".value: expected a whole number");
            r.releases.push_back(
                {static_cast<std::size_t>(*index), *label, static_cast<std::int64_t>(*value)});
        }
    }
    return r;
}

} // namespace pbx::io
