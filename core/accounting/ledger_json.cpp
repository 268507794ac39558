// SPDX-License-Identifier: MIT
#include "core/accounting/ledger_json.h"

#include "core/util/try.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <map>
#include <set>

namespace pbx::accounting {

namespace {
using nlohmann::json;

Error fieldError(std::size_t i, const std::string &field, const std::string &what)
{
    return makeError(ErrorCode::InvalidArgument, "events[" + std::to_string(i) + "]." + field + ": " + what);
}

Result<double> readNumber(const json &obj, std::size_t i, const std::string &field)
{
    const json &v = obj.at(field);
    if (!v.is_number())
        return fieldError(i, field, "must be a number");
    const double x = v.get<double>();
    if (!std::isfinite(x))
        return fieldError(i, field, "must be finite");
    return x;
}

struct MechanismSpec
{
    MechanismKind kind;
    std::set<std::string> required;
    std::set<std::string> optional;
};

const std::map<std::string, MechanismSpec> &specs()
{
    static const std::map<std::string, MechanismSpec> s = {
        {"gaussian", {MechanismKind::Gaussian, {"sigma"}, {"sensitivity"}}},
        {"laplace", {MechanismKind::Laplace, {"scale"}, {"sensitivity"}}},
        {"pure", {MechanismKind::PureDp, {"epsilon"}, {}}},
        {"approx", {MechanismKind::ApproxDp, {"epsilon", "delta"}, {}}},
        {"zcdp", {MechanismKind::Zcdp, {"rho"}, {}}},
        {"randomized-response", {MechanismKind::RandomizedResponse, {"epsilon"}, {}}},
        {"post-processing", {MechanismKind::PostProcessing, {}, {}}},
        {"bounded-range", {MechanismKind::BoundedRange, {"epsilon"}, {}}},
    };
    return s;
}

Result<PrivacyEvent> parseEvent(const json &obj, std::size_t i)
{
    if (!obj.is_object())
        return makeError(ErrorCode::InvalidArgument, "events[" + std::to_string(i) + "]: must be an object");
    if (!obj.contains("mechanism") || !obj["mechanism"].is_string())
        return fieldError(i, "mechanism",
                          "missing (a string: gaussian, laplace, pure, approx, zcdp, "
                          "randomized-response, post-processing or bounded-range)");
    const std::string name = obj["mechanism"].get<std::string>();
    const auto found = specs().find(name);
    if (found == specs().end())
        return fieldError(i, "mechanism", "unknown mechanism \"" + name + "\"");
    const MechanismSpec &spec = found->second;
    static const std::set<std::string> common = {"mechanism", "count", "sampling", "partition"};
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        const std::string &key = it.key();
        if (!common.count(key) && !spec.required.count(key) && !spec.optional.count(key))
            return fieldError(i, key, "unexpected for mechanism \"" + name + "\"");
    }
    PrivacyEvent e;
    e.mechanism = spec.kind;
    for (const std::string &key : spec.required)
        if (!obj.contains(key))
            return fieldError(i, key, "missing (required for mechanism \"" + name + "\")");
    for (const char *key : {"sigma", "scale", "sensitivity", "epsilon", "delta", "rho"}) {
        if (!obj.contains(key))
            continue;
        PBX_TRY(v, readNumber(obj, i, key));
        const std::string k = key;
        if (k == "sigma")
            e.sigma = v;
        else if (k == "scale")
            e.scale = v;
        else if (k == "sensitivity")
            e.sensitivity = v;
        else if (k == "epsilon")
            e.epsilon = v;
        else if (k == "delta")
            e.delta = v;
        else
            e.rho = v;
    }
    if (obj.contains("count")) {
        const json &c = obj["count"];
        if (!c.is_number_integer()
            && !(c.is_number_float() && std::floor(c.get<double>()) == c.get<double>()))
            return fieldError(i, "count", "must be an integer ≥ 1");
        const double cd = c.get<double>();
        if (!(cd >= 1.0 && cd <= 9.0e15))
            return fieldError(i, "count", "must be an integer ≥ 1");
        e.count = static_cast<std::int64_t>(cd);
    }
    if (obj.contains("partition")) {
        if (!obj["partition"].is_string() || obj["partition"].get<std::string>().empty())
            return fieldError(i, "partition", "must be a non-empty string");
        e.partition = obj["partition"].get<std::string>();
    }
    if (obj.contains("sampling")) {
        const json &s = obj["sampling"];
        if (!s.is_object())
            return fieldError(i, "sampling", "must be an object {\"kind\", \"rate\"}");
        for (auto it = s.begin(); it != s.end(); ++it)
            if (it.key() != "kind" && it.key() != "rate")
                return fieldError(i, "sampling." + it.key(), "unexpected (expected kind and rate)");
        if (!s.contains("kind") || !s["kind"].is_string())
            return fieldError(i, "sampling.kind", "missing (\"poisson\" or \"without-replacement\")");
        const std::string kind = s["kind"].get<std::string>();
        if (kind == "poisson")
            e.sampling.kind = SamplingKind::Poisson;
        else if (kind == "without-replacement")
            e.sampling.kind = SamplingKind::WithoutReplacement;
        else
            return fieldError(i, "sampling.kind",
                              "unknown \"" + kind + "\" (poisson or without-replacement)");
        if (!s.contains("rate") || !s["rate"].is_number())
            return fieldError(i, "sampling.rate", "missing (a number in (0, 1])");
        e.sampling.rate = s["rate"].get<double>();
    }
    PBX_RETURN_IF_ERROR(validateEvent(e, i));
    return e;
}
} // namespace

Result<Ledger> parseLedgerJson(const std::string &text)
{
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::exception &e) {
        // Not only parse_error: a number too large for a double ("1e999") throws out_of_range
        // (found by fuzzing). The message names the position or the number; nlohmann's
        // "[json.exception.…] " prefix is dropped.
        const std::string_view what = e.what();
        const std::size_t prefix = what.rfind("] ", what.find(' '));
        return makeError(
            ErrorCode::Parse,
            "the ledger is not valid JSON: "
                + std::string(prefix == std::string_view::npos ? what : what.substr(prefix + 2)));
    }
    if (!doc.is_object())
        return makeError(ErrorCode::InvalidArgument, "the ledger must be a JSON object with \"events\"");
    for (auto it = doc.begin(); it != doc.end(); ++it)
        if (it.key() != "neighbours" && it.key() != "events" && it.key() != "format" && it.key() != "version")
            return makeError(ErrorCode::InvalidArgument, "unexpected top-level key \"" + it.key() + "\"");
    Ledger ledger;
    if (doc.contains("neighbours")) {
        const json &n = doc["neighbours"];
        const std::string s = n.is_string() ? n.get<std::string>() : std::string();
        if (s == "add-remove")
            ledger.neighbours = Neighbouring::AddRemove;
        else if (s == "replace")
            ledger.neighbours = Neighbouring::Replace;
        else
            return makeError(ErrorCode::InvalidArgument, "neighbours: must be \"add-remove\" or \"replace\"");
    }
    if (!doc.contains("events") || !doc["events"].is_array())
        return makeError(ErrorCode::InvalidArgument, "events: missing (an array of events)");
    const json &events = doc["events"];
    for (std::size_t i = 0; i < events.size(); ++i) {
        Result<PrivacyEvent> e = makeError(ErrorCode::InvalidArgument, "");
        try {
            e = parseEvent(events[i], i);
        } catch (const json::exception &ex) {
            return makeError(ErrorCode::InvalidArgument, "events[" + std::to_string(i) + "]: " + ex.what());
        }
        if (!e)
            return e.error();
        ledger.events.push_back(std::move(e.value()));
    }
    return ledger;
}

} // namespace pbx::accounting
