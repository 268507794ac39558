// SPDX-License-Identifier: MIT
// PMWG stream requests and records as JSON (the "pmwg" parts of growing_request_json.h):
// {"type":"growing","algorithm":"pmwg","stream":{…},"budget":{…},
//  "pmwg":{"universe":"small","mode":"practical","alpha":0.1,"p":0.5,"c0":40,"T":0.05,"eta":0.3,
//          "checkpoints":40,"per_checkpoint":25},"beta":0.05}
// and the event's "growing_record.pmwg" {universe, sigma_n, worst_case, rounds[] {index, start, halt,
// charge}, hard[] {time, query, answer, scale}, checkpoints[] {time, cap, hard, capped, answers[]}}.
// docs/growing-databases.md §9, "PMWG".
#pragma once

#include "core/growing/growing_lab.h"
#include "core/io/json_fields.h"
#include "core/session/growing/growing_request.h"

namespace pbx::io {

/// The request-level checks of a pmwg request before the lab's reader sees it: a "pmwg" block only
/// with "algorithm": "pmwg", its keys known (Parse naming "pmwg.<key>"; "pmwg.uniform_update" is
/// refused: a session always runs the uniform update), and no "black_box" (its queries are
/// generated). `pmwg`: whether the request's algorithm is pmwg.
Result<void> checkPmwgRequestFields(const json::Json &object, const std::string &path, bool pmwg);

/// The session's PMWG fields from the lab reader's configuration (unresolved: theory mode keeps α).
session::PmwgRequestSpec pmwgSpecFromLab(const growing::GrowingLabConfig &config);

/// The request's "pmwg" block.
json::Json pmwgRequestToJson(const session::PmwgRequestSpec &spec);

/// growing_record.pmwg.
json::Json pmwgRecordToJson(const session::PmwgRecord &record);

/// Reads growing_record.pmwg. Errors: Parse naming the field.
Result<session::PmwgRecord> pmwgRecordFromJson(const json::Json &object, const std::string &path);

} // namespace pbx::io
