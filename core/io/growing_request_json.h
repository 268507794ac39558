// SPDX-License-Identifier: MIT
// Growing-database stream requests and records as JSON (run files, transcripts, journals):
// {"id":"g1","type":"growing","algorithm":"bbscheduler",
//  "stream":{"start_size":1000,"end":28155,"order":"random","seed":7},
//  "budget":{"kind":"pure","epsilon":0.5},"schedule":{"kind":"geometric","gamma":1},
//  "black_box":{"kind":"laplace-k","queries":["region == \"south\""]},"beta":0.05}
// — the fields of the pbx-growing-lab document (read by growing::parseGrowingLab, so the codes
// and ranges are the lab's) less the simulation-only ones ("dataset", "neighbours" and
// "repetitions" are the session's), plus the optional "stream.seed" of the arrival order; and
// the event's "growing_record". See docs/growing-databases.md, "In a session".
#pragma once

#include "core/io/json_fields.h"
#include "core/session/ledger_event.h"

#include <initializer_list>

namespace pbx::io {

/// True when `object` is a growing request ("type": "growing").
bool isGrowingRequest(const json::Json &object);

/// Reads a growing request. Strict: unknown keys are refused at every level (besides
/// `extraKeys` at the top), as is a γ of "optimal" (a session runs the γ it is given) and any
/// black box but laplace-k with a list of predicates. Errors: Parse for unknown keys; the lab's
/// code words naming the field (INVALID_CONFIG, INVALID_START_SIZE, INVALID_GAMMA,
/// INVALID_BUDGET, INVALID_SCHEDULE, INVALID_BETA, INVALID_BLACK_BOX), prefixed with `path`.
Result<session::QueryRequest> readGrowingRequest(const json::Json &object, const std::string &path,
                                                 std::initializer_list<const char *> extraKeys = {});

/// Writes the request fields (the inverse of readGrowingRequest). Precondition: request.growing().
void writeGrowingRequest(const session::QueryRequest &request, json::Json &object);

/// {"order_seed","end","planned_epochs","series_total","refused_epoch" (absent when none),
/// "epochs":[{"index","start","last","epsilon","rho","beta","scale","bound","answers":[…]}]}.
json::Json growingRecordToJson(const session::GrowingRecord &record);
/// Errors: Parse naming the field.
Result<session::GrowingRecord> growingRecordFromJson(const json::Json &object, const std::string &path);

} // namespace pbx::io
