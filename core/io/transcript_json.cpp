// SPDX-License-Identifier: MIT
#include "core/io/transcript_json.h"

#include "core/filters/odometer_filter.h"
#include "core/filters/rdp_filter.h"
#include "core/io/event_json.h"
#include "core/io/session_header_json.h"
#include "core/util/try.h"

#include <algorithm>

namespace pbx::io {

using json::Json;
using session::EventStatus;

namespace {
constexpr const char *kFormat = "pbx-transcript";
} // namespace

std::string writeTranscriptJson(const session::Session &s)
{
    const auto &filter = s.filter();
    const std::string unit(filter.unitName());
    Json doc = Json::object();
    doc["format"] = kFormat;
    doc["version"] = kTranscriptVersion;
    doc["generator"] = "pbx 0.1.0";
    writeSessionHeader(s, doc);
    doc["spent"]
        = {{"epsilon", json::finiteOrNull(filter.epsilonSpent())},
           {"delta", filter.deltaSpent()},
           {unit, filter.spent()},
           {"note", "a gauge, not a guarantee: with adaptively chosen costs the session is (budget.epsilon, "
                    "budget.delta)-DP by the filter; spent.epsilon is the epsilon that the spend so far "
                    "corresponds to"}};
    if (const auto *rdp = dynamic_cast<const filters::RdpFilter *>(&filter)) {
        // The Rényi sums per order, and the order that binds (the least ε; none once all are spent).
        Json byOrder = Json::array();
        for (const auto &o : rdp->orders())
            byOrder.push_back({{"alpha", o.alpha}, {"rdp", json::finiteOrNull(o.spent)}, {"live", o.live()}});
        doc["spent"]["by_order"] = byOrder;
        const auto binding = rdp->bindingOrder();
        doc["spent"]["binding_order"] = binding ? Json(rdp->orders()[*binding].alpha) : Json(nullptr);
    }
    if (const auto *odometer = dynamic_cast<const filters::OdometerFilter *>(&filter)) {
        // No budget: spent.epsilon is the guarantee itself, valid wherever the session stopped.
        doc["spent"]["note"]
            = "a privacy odometer (no epsilon budget): the session so far is (spent.epsilon, "
              "spent.delta)-DP, a bound that holds at every request at once, so the "
              "session may stop at any time for any reason";
        doc["spent"]["odometer"]
            = {{"construction", "min(basic sum of epsilon, lambda-grid zCDP odometer, "
                                "lambda_j = 2^(j/2), j = 0..24)"},
               {"basic_epsilon", json::finiteOrNull(odometer->odometer().basicEpsilon())},
               {"lambda_grid_epsilon", odometer->odometer().lambdaGridEpsilon()},
               {"preplanned_epsilon", json::finiteOrNull(odometer->preplannedEpsilon())}};
    }
    doc["remaining"] = {{unit, json::finiteOrNull(filter.remaining())}};
    Json events = Json::array();
    for (const auto &e : s.events())
        events.push_back(eventToJson(e, filter));
    doc["events"] = events;
    return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::size_t transcriptEventBytes(const session::LedgerEvent &event, const filters::PrivacyFilter &filter)
{
    // In the document an event sits two levels deep ({"events": [{…}]}): each of its lines is
    // indented 4 more spaces, and it is followed by ",\n".
    const std::string text = eventToJson(event, filter).dump(2, ' ', false, Json::error_handler_t::replace);
    const auto lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
    return text.size() + 4 * lines + 2;
}

Result<TranscriptDocument> readTranscriptJson(std::string_view text)
{
    PBX_TRY(parsed, json::parse(text, "the transcript"));
    const Json &doc = parsed;
    // Fuzzing found that nlohmann's value(key, fallback) throws when the key holds another type
    // (e.g. "format": 1), so every optional field is read through the json:: helpers.
    const auto format
        = doc.is_object() ? json::optionalString(doc, "format", "") : Result<std::string>(std::string());
    if (!format || *format != kFormat)
        return makeError(ErrorCode::Parse, "not a pbx transcript (\"format\" must be \"pbx-transcript\")");
    PBX_TRY(version, json::unsignedInteger(doc, "version", ""));
    if (version > static_cast<std::uint64_t>(kTranscriptVersion))
        return makeError(ErrorCode::Unsupported, "transcript version " + std::to_string(version)
                                                     + " is newer than this pbx understands ("
                                                     + std::to_string(kTranscriptVersion) + ")");
    PBX_TRY(header, readSessionHeader(doc));
    TranscriptDocument out;
    out.datasetName = header.datasetName;
    out.settings = header.settings;
    out.header = std::move(header);
    // The stated spend, checked against the replayed ledger by cost_audit's readers (verify, the
    // GUI): a unit or spend of the wrong type is refused here, never skipped.
    const auto filter = doc.find("filter");
    PBX_TRY(unit, filter != doc.end() && filter->is_object()
                      ? json::string(*filter, "unit", "filter")
                      : Result<std::string>(makeError(ErrorCode::Parse, "filter: missing")));
    const auto spent = doc.find("spent");
    if (spent == doc.end() || !spent->is_object())
        return makeError(ErrorCode::Parse, "spent: missing (an object is required)");
    PBX_TRY(spentValue, json::number(*spent, unit.c_str(), "spent"));
    out.spentUnit = unit;
    out.spent = spentValue;
    auto events = doc.find("events");
    if (events == doc.end() || !events->is_array())
        return makeError(ErrorCode::Parse, "events: missing (an array is required)");
    for (std::size_t i = 0; i < events->size(); ++i) {
        PBX_TRY(e, eventFromJson((*events)[i], i));
        out.events.push_back(std::move(e));
    }
    return out;
}

} // namespace pbx::io
