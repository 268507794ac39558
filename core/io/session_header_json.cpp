// SPDX-License-Identifier: MIT
#include "core/io/session_header_json.h"

#include "core/filters/advanced_filter.h"
#include "core/filters/rdp_filter.h"
#include "core/util/try.h"

#include <limits>

namespace pbx::io {

using json::Json;

namespace {
/// The parameters the rdp and advanced filters fix before the first request, for the record (a
/// reader recomputes them from the budget): the orders with their δ shares and budgets B(α); the
/// δ split. Nothing for the other filters.
void writeFilterParameters(const filters::PrivacyFilter &filter, Json &out)
{
    if (const auto *rdp = dynamic_cast<const filters::RdpFilter *>(&filter)) {
        out["conversion"]
            = "improved (Canonne, Kamath & Steinke 2020, Prop. 12), delta split over the orders";
        Json orders = Json::array();
        for (const auto &o : rdp->orders())
            orders.push_back({{"alpha", o.alpha}, {"delta", o.delta}, {"budget", o.budget}});
        out["orders"] = orders;
    } else if (const auto *advanced = dynamic_cast<const filters::AdvancedFilter *>(&filter)) {
        out["conversion_delta"] = advanced->conversionDelta();
        out["mechanism_delta"] = advanced->mechanismDelta();
        out["crossover_epsilon"] = advanced->crossoverEpsilon();
    }
}
} // namespace

void writeSessionHeader(const session::Session &s, Json &doc)
{
    const auto &filter = s.filter();
    const auto &settings = s.settings();
    const std::string unit(filter.unitName());
    // The declared count (a public database table counted on first use records none: the header
    // is written before that count, and verify compares this with the reopened source's).
    doc["dataset"] = {{"name", s.table().name()}, {"rows", s.source().declaredRowCount().value_or(0)}};
    const std::string source = s.source().descriptor();
    if (!source.empty()) { // a database: its descriptor and where the data live; no file digest
        doc["dataset"]["source"] = source;
        doc["dataset"]["location"] = s.source().location();
        if (!s.source().declaredRowCount())
            doc["dataset"].erase("rows");
    }
    if (const auto &files = s.table().files()) {
        if (source.empty()) {
            doc["dataset"]["path"] = files->path;
            doc["dataset"]["sha256"] = files->sha256;
        }
        if (!files->metadataPath.empty()) {
            doc["dataset"]["metadata_path"] = files->metadataPath;
            doc["dataset"]["metadata_sha256"] = files->metadataSha256;
        }
    }
    // An odometer session has no ε budget: null (and its filter's budget, +∞, too).
    doc["budget"] = {{"epsilon", json::finiteOrNull(settings.epsilon)}, {"delta", settings.delta}};
    doc["neighbours"] = std::string(data::neighbouringName(settings.neighbours));
    doc["filter"] = {{"kind", std::string(filters::filterKindName(settings.filter))},
                     {"unit", unit},
                     {"budget", json::finiteOrNull(filter.budget())}};
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
    writeFilterParameters(filter, doc["filter"]);
    if (settings.seed)
        doc["noise"]
            = {{"seeded", true},
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
    PBX_TRY(name, json::string(dataset, "name", "dataset"));
    out.datasetName = name;
    if (dataset.contains("rows")) {
        PBX_TRY(rows, json::unsignedInteger(dataset, "rows", "dataset"));
        out.rows = static_cast<std::size_t>(rows);
    }
    if (dataset.contains("source")) { // a database source
        PBX_TRY(source, json::string(dataset, "source", "dataset"));
        out.source = source;
        if (dataset.contains("metadata_path")) {
            data::DatasetFiles files;
            for (auto [key, field] : {std::pair{"metadata_path", &files.metadataPath},
                                      std::pair{"metadata_sha256", &files.metadataSha256}}) {
                PBX_TRY(value, json::string(dataset, key, "dataset"));
                *field = value;
            }
            out.files = std::move(files);
        }
    } else if (dataset.contains("path")) {
        data::DatasetFiles files;
        for (auto [key, field] : {std::pair{"path", &files.path}, std::pair{"sha256", &files.sha256}}) {
            PBX_TRY(value, json::string(dataset, key, "dataset"));
            *field = value;
        }
        for (auto [key, field] : {std::pair{"metadata_path", &files.metadataPath},
                                  std::pair{"metadata_sha256", &files.metadataSha256}}) {
            PBX_TRY(value, json::optionalString(dataset, key, "dataset"));
            *field = value;
        }
        out.files = std::move(files);
    }
    const Json &budget = doc.contains("budget") ? doc["budget"] : empty;
    const Json &filter = doc.contains("filter") ? doc["filter"] : empty;
    PBX_TRY(kindText, json::string(filter, "kind", "filter"));
    auto kind = filters::parseFilterKind(kindText);
    if (!kind)
        return makeError(ErrorCode::Parse, "filter.kind: " + kind.error().message);
    out.settings.filter = *kind;
    const bool odometer = *kind == filters::FilterKind::Odometer; // no ε budget: null
    PBX_TRY(epsilon,
            odometer && budget.is_object() && budget.contains("epsilon") && budget["epsilon"].is_null()
                ? Result<double>(std::numeric_limits<double>::infinity())
                : json::number(budget, "epsilon", "budget"));
    PBX_TRY(delta, json::number(budget, "delta", "budget"));
    out.settings.epsilon = epsilon;
    out.settings.delta = delta;
    // The json:: helpers, not nlohmann's value(key, fallback), which throws on a value of another
    // type (found by fuzzing).
    PBX_TRY(neighboursText, json::optionalString(doc, "neighbours", "", "add-remove"));
    auto neighbours = data::parseNeighbouring(neighboursText);
    if (!neighbours)
        return makeError(ErrorCode::Parse, "neighbours: " + neighbours.error().message);
    out.settings.neighbours = *neighbours;
    if (auto split = filter.find("split"); split != filter.end() && split->is_object()) {
        PBX_TRY(e, json::number(*split, "expost_epsilon_share", "filter.split"));
        PBX_TRY(d, json::number(*split, "expost_delta_share", "filter.split"));
        out.settings.split = {e, d};
    }
    const auto noise = doc.find("noise");
    PBX_TRY(seeded, noise != doc.end() && noise->is_object() ? json::optionalBool(*noise, "seeded", "noise")
                                                             : Result<bool>(false));
    if (seeded) {
        PBX_TRY(seed, json::unsignedInteger(*noise, "seed", "noise"));
        out.settings.seed = seed;
    }
    if (auto valid = out.settings.validate(); !valid)
        return makeError(ErrorCode::Parse, "budget: " + valid.error().message);
    return out;
}

std::string datasetToLoad(const SessionHeader &header)
{
    if (!header.source.empty())
        return header.source;
    return header.files ? header.files->path : header.datasetName;
}

namespace {

/// checkDataset on `table` (a source's schema) whose public row count is `rows` and descriptor
/// `loadedSource` (empty in memory).
Result<void> checkDatasetOf(const SessionHeader &header, const data::Table &table, std::size_t rows,
                            const std::string &loadedSource)
{
    if (header.rows && *header.rows != rows)
        return makeError(ErrorCode::InvalidArgument,
                         "the dataset has " + std::to_string(rows) + " rows but the session was run on "
                             + std::to_string(*header.rows) + ": not the same data");
    if (header.source != loadedSource)
        return makeError(
            ErrorCode::InvalidArgument,
            "the session was run on " + datasetToLoad(header) + ", not on "
                + (loadedSource.empty() ? "the in-memory dataset " + table.name() : loadedSource));
    if (!header.files)
        return {};
    const auto &loaded = table.files();
    if (!loaded)
        return makeError(ErrorCode::InvalidArgument, "the session was run on the file " + header.files->path
                                                         + ", not on an embedded dataset");
    if (loaded->sha256 != header.files->sha256)
        return makeError(ErrorCode::InvalidArgument,
                         "the dataset file " + loaded->path
                             + " is not the one the session was run on (its SHA-256 differs "
                               "from the recorded "
                             + header.files->sha256.substr(0, 12) + "…)");
    if (loaded->metadataSha256 != header.files->metadataSha256) {
        if (header.files->metadataPath.empty() || loaded->metadataPath.empty())
            return makeError(ErrorCode::InvalidArgument,
                             "the dataset's metadata sidecar differs from the one the session was run on ("
                                 + (header.files->metadataPath.empty() ? std::string("it had none")
                                                                       : header.files->metadataPath)
                                 + ")");
        return makeError(
            ErrorCode::InvalidArgument,
            "the metadata file " + loaded->metadataPath
                + " is not the one the session was run on (its SHA-256 differs from the recorded "
                + header.files->metadataSha256.substr(0, 12) + "…, of " + header.files->metadataPath + ")");
    }
    return {};
}

} // namespace

Result<void> checkDataset(const SessionHeader &header, const data::Table &table)
{
    return checkDatasetOf(header, table, table.rowCount(), {});
}

Result<void> checkDataset(const SessionHeader &header, const data::Source &source)
{
    return checkDatasetOf(header, source.schema(), source.declaredRowCount().value_or(0),
                          source.descriptor());
}

} // namespace pbx::io
