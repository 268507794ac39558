// SPDX-License-Identifier: MIT
#include "core/io/strategy_request_json.h"

#include "core/io/request_json.h"
#include "core/strategies/strategy_error.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>

namespace pbx::io {

using json::Json;

namespace {

constexpr const char *kKeys[]
    = {"id",       "aggregate", "column", "where",     "bounds",    "target",    "max_cost", "bins",
       "q",        "step",      "of",     "derived",   "cells",     "minus",     "within",   "strategy",
       "workload", "ranges",    "post",   "transform", "subsample", "mechanism", "k"};
constexpr const char *kPostKeys[] = {"nonnegative", "isotonic_prefix", "round"};
constexpr const char *kTransformKeys[] = {"kind", "k", "m"};
constexpr const char *kRangeStrategyKeys[] = {"kind", "branching", "root", "consistency"};

Result<std::vector<std::size_t>> indexList(const Json &object, const char *key, const std::string &path)
{
    std::vector<std::size_t> out;
    auto it = object.find(key);
    if (it == object.end() || it->is_null())
        return out;
    if (!it->is_array() || it->size() > (std::size_t{1} << 16))
        return makeError(ErrorCode::Parse, path + "." + key + ": expected an array of cell indices");
    for (const auto &v : *it) {
        if (!v.is_number_unsigned())
            return makeError(ErrorCode::Parse, path + "." + key + ": cell indices are integers >= 0");
        out.push_back(v.get<std::size_t>());
    }
    return out;
}

/// A mode request's "mechanism" ("exponential" or "report-noisy-max", default exponential) and "k"
/// (how many categories, default 1).
Result<void> readSelection(const Json &object, const std::string &path, session::StrategyRequestSpec &s)
{
    PBX_TRY(mechanism, json::optionalString(object, "mechanism", path, "exponential"));
    auto selection = strategies::parseSelectionMechanism(mechanism);
    if (!selection)
        return makeError(ErrorCode::Parse,
                         path + ".mechanism: '" + mechanism
                             + "' is not a selection mechanism (exponential or report-noisy-max)");
    s.selection = *selection;
    if (auto it = object.find("k"); it != object.end() && !it->is_null()) {
        PBX_TRY(k, json::unsignedInteger(object, "k", path));
        s.picks = static_cast<std::size_t>(std::min<std::uint64_t>(k, 1u << 20));
    }
    return {};
}

Result<void> readPost(const Json &object, const std::string &path, session::WorkloadPost &post)
{
    auto it = object.find("post");
    if (it == object.end() || it->is_null())
        return {};
    const std::string pp = path + ".post";
    if (!it->is_object())
        return makeError(ErrorCode::Parse, pp + ": expected {\"nonnegative\": …, \"isotonic_prefix\": …}");
    PBX_RETURN_IF_ERROR(json::refuseUnknownFields(*it, pp, kPostKeys));
    PBX_TRY(nonNegative, json::optionalBool(*it, "nonnegative", pp, false));
    PBX_TRY(isotonic, json::optionalBool(*it, "isotonic_prefix", pp, false));
    PBX_TRY(round, json::optionalBool(*it, "round", pp, false));
    // Integers are not a convex set: rounding can increase the error, so it is not offered as
    // inference (round for display only).
    if (round)
        return strategies::strategyError(strategies::kNotConvex,
                                         pp
                                             + ".round: rounding is not a projection onto a convex set and "
                                               "can increase the error; round only for display");
    post.nonNegative = nonNegative;
    post.isotonicPrefix = isotonic;
    return {};
}

Result<void> readTransform(const Json &object, const std::string &path, session::StrategyRequestSpec &s)
{
    if (auto it = object.find("transform"); it != object.end() && !it->is_null()) {
        const std::string tp = path + ".transform";
        if (!it->is_object())
            return makeError(ErrorCode::Parse, tp + ": expected {\"kind\": …, \"k\" or \"m\": …}");
        PBX_RETURN_IF_ERROR(json::refuseUnknownFields(*it, tp, kTransformKeys));
        PBX_TRY(kindText, json::string(*it, "kind", tp));
        auto kind = strategies::parseTransformation(kindText);
        if (!kind)
            return makeError(ErrorCode::Parse, tp + ".kind: " + kind.error().message);
        session::RequestTransform t{*kind, 1};
        for (const char *key : {"k", "m"})
            if (it->contains(key)) {
                PBX_TRY(v, json::unsignedInteger(*it, key, tp));
                t.parameter = static_cast<unsigned>(std::min<std::uint64_t>(v, 1u << 20));
            }
        s.transform = t;
    }
    PBX_TRY(rate, json::optionalNumber(object, "subsample", path));
    s.subsample = rate.value_or(1.0);
    return {};
}

} // namespace

bool isStrategyAggregate(std::string_view aggregate)
{
    return session::strategyRequestKindFor(aggregate).has_value();
}

Result<session::QueryRequest> readStrategyRequest(const Json &object, const std::string &path,
                                                  std::initializer_list<const char *> extraKeys)
{
    if (!object.is_object())
        return makeError(ErrorCode::Parse, path + ": expected a JSON object");
    PBX_RETURN_IF_ERROR(json::refuseUnknownFields(object, path, kKeys, extraKeys));
    // The fields a strategy request shares with a scalar one (id, column, where, bounds, target,
    // max_cost) are read by readRequest, so both are checked alike.
    Json common = Json::object();
    for (const char *key : {"id", "column", "where", "bounds", "target", "max_cost"})
        if (auto it = object.find(key); it != object.end())
            common[key] = *it;
    common["aggregate"] = "count";
    PBX_TRY(base, readRequest(common, path));
    session::QueryRequest r = std::move(base);
    session::StrategyRequestSpec s;
    PBX_TRY(aggregate, json::string(object, "aggregate", path));
    s.kind = *session::strategyRequestKindFor(aggregate);
    if (s.kind != session::StrategyRequestKind::Derived && r.query.column.empty())
        return makeError(ErrorCode::Parse, path + ".column: required for a " + aggregate);
    if (auto it = object.find("bins"); it != object.end() && !it->is_null()) {
        if (!it->is_array())
            return makeError(ErrorCode::Parse, path + ".bins: expected an array of public edges");
        for (const auto &v : *it) {
            if (!v.is_number() || !std::isfinite(v.get<double>()))
                return makeError(ErrorCode::Parse, path + ".bins: edges are finite numbers");
            s.bins.push_back(v.get<double>());
        }
    }
    PBX_TRY(q, json::optionalNumber(object, "q", path));
    PBX_TRY(step, json::optionalNumber(object, "step", path));
    s.q = q.value_or(0.5);
    s.step = step.value_or(0.0);
    PBX_TRY(of, json::optionalString(object, "of", path, {}, session::maxRequestIdBytes));
    s.of = of;
    PBX_TRY(derived, json::optionalString(object, "derived", path, "sum"));
    auto derivedKind = strategies::parseDerivedKind(derived);
    if (!derivedKind)
        return makeError(ErrorCode::Parse, path + "." + derivedKind.error().message);
    s.derived = *derivedKind;
    PBX_TRY(cells, indexList(object, "cells", path));
    PBX_TRY(minus, indexList(object, "minus", path));
    PBX_TRY(within, indexList(object, "within", path));
    s.cells = cells;
    s.other = s.derived == strategies::DerivedKind::Share ? within : minus;
    if (auto it = object.find("strategy"); it != object.end() && !it->is_null()) {
        const std::string sp = path + ".strategy";
        if (!it->is_object())
            return makeError(ErrorCode::Parse, sp + ": expected {\"kind\": …}");
        PBX_RETURN_IF_ERROR(json::refuseUnknownFields(*it, sp, kRangeStrategyKeys));
        PBX_TRY(kindText, json::string(*it, "kind", sp));
        auto kind = strategies::parseRangeStrategyKind(kindText);
        if (!kind)
            return makeError(ErrorCode::Parse, sp + ".kind: " + kind.error().message);
        s.strategy.kind = *kind;
        if (it->contains("branching")) {
            PBX_TRY(b, json::unsignedInteger(*it, "branching", sp));
            s.strategy.branching = static_cast<std::size_t>(std::min<std::uint64_t>(b, 1u << 20));
        }
        PBX_TRY(root, json::optionalBool(*it, "root", sp, true));
        PBX_TRY(consistency, json::optionalBool(*it, "consistency", sp, true));
        s.strategy.root = root;
        s.strategy.consistency = consistency;
    }
    PBX_TRY(workload, json::optionalString(object, "workload", path, "all-ranges"));
    s.workload = workload;
    if (auto it = object.find("ranges"); it != object.end() && !it->is_null()) {
        if (!it->is_array())
            return makeError(ErrorCode::Parse, path + ".ranges: expected [[first, last], …]");
        for (const auto &rg : *it) {
            if (!rg.is_array() || rg.size() != 2 || !rg[0].is_number_unsigned()
                || !rg[1].is_number_unsigned())
                return makeError(ErrorCode::Parse,
                                 path + ".ranges: each range is [first, last] (cell indices)");
            s.ranges.push_back({rg[0].get<std::size_t>(), rg[1].get<std::size_t>()});
        }
    }
    PBX_RETURN_IF_ERROR(readPost(object, path, s.post));
    PBX_RETURN_IF_ERROR(readTransform(object, path, s));
    PBX_RETURN_IF_ERROR(readSelection(object, path, s));
    r.spec = std::move(s);
    return r;
}

void writeStrategyRequest(const session::QueryRequest &request, Json &object)
{
    const auto &s = *request.strategy();
    writeCommonRequestFields(request, session::strategyRequestKindName(s.kind), !request.query.column.empty(),
                             object);
    switch (s.kind) {
    case session::StrategyRequestKind::Histogram:
        if (!s.bins.empty())
            object["bins"] = s.bins;
        break;
    case session::StrategyRequestKind::Quantile:
        object["q"] = s.q;
        if (s.step != 0.0)
            object["step"] = s.step;
        break;
    case session::StrategyRequestKind::Derived:
        object["of"] = s.of;
        object["derived"] = std::string(strategies::derivedKindName(s.derived));
        object["cells"] = s.cells;
        if (!s.other.empty())
            object[s.derived == strategies::DerivedKind::Share ? "within" : "minus"] = s.other;
        break;
    case session::StrategyRequestKind::Workload: {
        Json st = {{"kind", std::string(strategies::rangeStrategyKindName(s.strategy.kind))}};
        if (s.strategy.kind == strategies::RangeStrategyKind::Tree) {
            st["branching"] = s.strategy.branching;
            st["root"] = s.strategy.root;
            st["consistency"] = s.strategy.consistency;
        }
        object["strategy"] = st;
        object["workload"] = s.workload;
        if (s.workload == "explicit") {
            Json ranges = Json::array();
            for (const auto &r : s.ranges)
                ranges.push_back({r.first, r.last});
            object["ranges"] = ranges;
        }
        if (s.post.any())
            object["post"]
                = {{"nonnegative", s.post.nonNegative}, {"isotonic_prefix", s.post.isotonicPrefix}};
        break;
    }
    case session::StrategyRequestKind::Mode:
        object["mechanism"] = std::string(strategies::selectionMechanismName(s.selection));
        if (s.picks != 1)
            object["k"] = s.picks;
        break;
    }
    if (s.transform) {
        Json t = {{"kind", std::string(strategies::transformationName(s.transform->kind))}};
        if (s.transform->kind == strategies::Transformation::FlatMap)
            t["k"] = s.transform->parameter;
        else if (s.transform->kind == strategies::Transformation::Truncate
                 || s.transform->kind == strategies::Transformation::SelfJoinTruncated)
            t["m"] = s.transform->parameter;
        object["transform"] = t;
    }
    if (s.subsample != 1.0)
        object["subsample"] = s.subsample;
}

Json strategyRecordToJson(const session::StrategyRecord &r)
{
    Json widths = Json::array(), variances = Json::array();
    for (const double w : r.halfWidths)
        widths.push_back(json::finiteOrNull(w));
    for (const double v : r.variances)
        variances.push_back(json::finiteOrNull(v));
    Json out = {{"labels", r.labels},     {"values", r.values},          {"half_widths", widths},
                {"variances", variances}, {"noise_scale", r.noiseScale}, {"sensitivity", r.sensitivity},
                {"note", r.note}};
    if (!r.unprojected.empty())
        out["before_projection"] = r.unprojected;
    return out;
}

Result<session::StrategyRecord> strategyRecordFromJson(const Json &o, const std::string &path)
{
    if (!o.is_object())
        return makeError(ErrorCode::Parse, path + ": expected an object");
    session::StrategyRecord r;
    auto list = [&](const char *key, std::vector<double> &out) -> Result<void> {
        auto it = o.find(key);
        if (it == o.end() || !it->is_array())
            return makeError(ErrorCode::Parse, path + "." + key + ": expected an array");
        for (const auto &v : *it)
            out.push_back(v.is_number() ? v.get<double>() : INFINITY);
        return {};
    };
    auto labels = o.find("labels");
    if (labels == o.end() || !labels->is_array())
        return makeError(ErrorCode::Parse, path + ".labels: expected an array");
    for (const auto &l : *labels) {
        if (!l.is_string())
            return makeError(ErrorCode::Parse, path + ".labels: strings");
        r.labels.push_back(l.get<std::string>());
    }
    for (const auto &[key, out] : {std::pair<const char *, std::vector<double> *>{"values", &r.values},
                                   {"half_widths", &r.halfWidths},
                                   {"variances", &r.variances}})
        PBX_RETURN_IF_ERROR(list(key, *out));
    if (r.values.size() != r.labels.size() || r.halfWidths.size() != r.labels.size())
        return makeError(ErrorCode::Parse, path + ": labels, values and half_widths differ in length");
    PBX_TRY(scale, json::number(o, "noise_scale", path));
    PBX_TRY(sensitivity, json::unsignedInteger(o, "sensitivity", path));
    PBX_TRY(note, json::optionalString(o, "note", path));
    r.noiseScale = scale;
    r.sensitivity = static_cast<std::size_t>(sensitivity);
    r.note = note;
    if (auto it = o.find("before_projection"); it != o.end()) {
        PBX_RETURN_IF_ERROR(list("before_projection", r.unprojected));
        if (r.unprojected.size() != r.values.size())
            return makeError(ErrorCode::Parse, path + ".before_projection: one value per answer");
    }
    return r;
}

} // namespace pbx::io
