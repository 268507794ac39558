// SPDX-License-Identifier: MIT
#include "core/io/request_json.h"

#include "core/io/growing_request_json.h"
#include "core/io/odp_request_json.h"
#include "core/io/strategy_request_json.h"
#include "core/util/try.h"

#include <algorithm>
#include <cstring>

namespace pbx::io {

using json::Json;

namespace {
constexpr const char *kRequestKeys[]
    = {"id", "aggregate", "column", "where", "bounds", "target", "max_cost", "mechanism"};
constexpr const char *kTargetKeys[] = {"kind", "error", "confidence"};

Error withPath(const std::string &path, const Error &e)
{
    return makeError(e.code, path + ": " + e.message);
}
} // namespace

Result<session::QueryRequest> readRequest(const Json &object, const std::string &path,
                                          std::initializer_list<const char *> extraKeys)
{
    if (!object.is_object())
        return makeError(ErrorCode::Parse, path + ": expected a JSON object");
    if (isGrowingRequest(object))
        return readGrowingRequest(object, path, extraKeys);
    if (auto it = object.find("aggregate");
        it != object.end() && it->is_string() && isStrategyAggregate(it->get<std::string>()))
        return readStrategyRequest(object, path, extraKeys);
    if (auto it = object.find("mechanism");
        it != object.end() && it->is_string() && isOdpMechanism(it->get<std::string>()))
        return readOdpRequest(object, path, extraKeys);
    PBX_RETURN_IF_ERROR(json::refuseUnknownFields(object, path, kRequestKeys, extraKeys));
    session::QueryRequest r;
    PBX_TRY(id, json::optionalString(object, "id", path, {}, session::maxRequestIdBytes));
    r.id = id;

    PBX_TRY(aggregateText, json::string(object, "aggregate", path));
    auto aggregate = data::parseAggregate(aggregateText);
    if (!aggregate)
        return withPath(path + ".aggregate", aggregate.error());
    r.query.aggregate = *aggregate;

    PBX_TRY(column, json::optionalString(object, "column", path));
    PBX_TRY(where, json::optionalString(object, "where", path));
    r.query.column = column;
    r.query.where = where;

    if (auto it = object.find("bounds"); it != object.end() && !it->is_null()) {
        if (!it->is_array() || it->size() != 2 || !(*it)[0].is_number() || !(*it)[1].is_number())
            return makeError(ErrorCode::Parse, path + ".bounds: expected [lower, upper]");
        data::Bounds b{(*it)[0].get<double>(), (*it)[1].get<double>()};
        if (auto valid = b.validate(); !valid)
            return withPath(path + ".bounds", valid.error());
        r.query.bounds = b;
    }

    auto target = object.find("target");
    if (target == object.end() || !target->is_object())
        return makeError(ErrorCode::Parse,
                         path + ".target: missing (an object with kind, error, confidence)");
    const std::string targetPath = path + ".target";
    PBX_RETURN_IF_ERROR(json::refuseUnknownFields(*target, targetPath, kTargetKeys));
    PBX_TRY(kindText, json::string(*target, "kind", targetPath));
    auto kind = session::parseTargetKind(kindText);
    if (!kind)
        return withPath(targetPath + ".kind", kind.error());
    PBX_TRY(error, json::number(*target, "error", targetPath));
    PBX_TRY(confidence, json::optionalNumber(*target, "confidence", targetPath));
    r.target = {*kind, error, confidence.value_or(0.95)};
    if (auto valid = r.target.validate(); !valid)
        return withPath(targetPath, valid.error());

    PBX_TRY(maxCost, json::optionalNumber(object, "max_cost", path));
    if (maxCost && !(*maxCost > 0.0))
        return makeError(ErrorCode::InvalidArgument, path + ".max_cost: must be > 0");
    r.maxCost = maxCost;

    PBX_TRY(mechanism, json::optionalString(object, "mechanism", path));
    if (!mechanism.empty()) {
        auto mechanismKind = session::parseReleaseMethod(mechanism);
        if (!mechanismKind)
            return withPath(path + ".mechanism", mechanismKind.error());
        r.mechanism = *mechanismKind;
    }
    return r;
}

Result<session::QueryRequest> readRequestLine(std::string_view line, std::size_t lineNumber)
{
    const std::string path = "line " + std::to_string(lineNumber);
    PBX_TRY(parsed, json::parse(line, path));
    return readRequest(parsed, path);
}

void writeRequest(const session::QueryRequest &request, Json &object)
{
    switch (request.family()) {
    case session::RequestFamily::Strategy:
        writeStrategyRequest(request, object);
        return;
    case session::RequestFamily::Odp:
        writeOdpRequest(request, object);
        return;
    case session::RequestFamily::Growing:
        writeGrowingRequest(request, object);
        return;
    case session::RequestFamily::Release:
        writeCommonRequestFields(request, data::aggregateName(request.query.aggregate),
                                 request.query.aggregate != data::Aggregate::Count, object);
        if (request.mechanism)
            object["mechanism"] = std::string(session::releaseMethodName(*request.mechanism));
        return;
    }
}

void writeCommonRequestFields(const session::QueryRequest &request, std::string_view aggregate,
                              bool withColumn, Json &object)
{
    object["id"] = request.id;
    object["aggregate"] = std::string(aggregate);
    if (withColumn)
        object["column"] = request.query.column;
    object["where"] = request.query.where;
    if (request.query.bounds)
        object["bounds"] = Json::array({request.query.bounds->lower, request.query.bounds->upper});
    object["target"] = {{"kind", std::string(session::targetKindName(request.target.kind))},
                        {"error", request.target.error},
                        {"confidence", request.target.confidence}};
    if (request.maxCost)
        object["max_cost"] = *request.maxCost;
}

} // namespace pbx::io
