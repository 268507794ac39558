// SPDX-License-Identifier: MIT
// One ledger event as JSON: the request's fields, the outcome, the cost and every attempt. Shared
// by the transcript (an array of events) and the journal (one event per line).
#pragma once

#include "core/filters/privacy_filter.h"
#include "core/io/json_fields.h"
#include "core/session/ledger_event.h"

namespace pbx::io {

/// Writes an event; `filter` names the unit of spent_after.
json::Json eventToJson(const session::LedgerEvent &event, const filters::PrivacyFilter &filter);

/// Reads an event written by eventToJson. `index` is used in messages ("events[3].cost: …").
/// Errors: Parse naming the field.
Result<session::LedgerEvent> eventFromJson(const json::Json &object, std::size_t index);

} // namespace pbx::io
