// SPDX-License-Identifier: MIT
#include "core/io/session_header_json.h"

namespace pbx::io {

using json::Json;

void writeSessionHeader(const session::Session &s, Json &doc)
{
    const auto &filter = s.filter();
    const auto &settings = s.settings();
    const std::string unit(filter.unitName());
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
}

Result<SessionHeader> readSessionHeader(const Json &doc)
{
    SessionHeader out;
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
    // The json:: helpers, not nlohmann's value(key, fallback), which throws on a value of another
    // type (found by fuzzing).
    auto neighboursText = json::optionalString(doc, "neighbours", "", "add-remove");
    if (!neighboursText)
        return neighboursText.error();
    auto neighbours = data::parseNeighbours(*neighboursText);
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
    const auto noise = doc.find("noise");
    auto seeded = noise != doc.end() && noise->is_object() ? json::optionalBool(*noise, "seeded", "noise")
                                                           : Result<bool>(false);
    if (!seeded)
        return seeded.error();
    if (*seeded) {
        auto seed = json::unsignedInteger(*noise, "seed", "noise");
        if (!seed)
            return seed.error();
        out.settings.seed = *seed;
    }
    if (auto valid = out.settings.validate(); !valid)
        return makeError(ErrorCode::Parse, "budget: " + valid.error().message);
    return out;
}

} // namespace pbx::io
