// SPDX-License-Identifier: MIT
// A query request as JSON, the line format of `pbx-cli run --queries` and the request part of
// each transcript event:
// {"id":"q1","aggregate":"mean","column":"wage","bounds":[0,4000],"where":"region == \"south\"",
//  "target":{"kind":"relative","error":0.05,"confidence":0.95},"max_cost":0.01,"mechanism":"brownian"}
#pragma once

#include "core/io/json_fields.h"
#include "core/session/ledger_event.h"

namespace pbx::io {

/// Reads a request object. `path` prefixes field names in errors (e.g. "line 3").
/// Strict about what it knows: unknown keys are refused (a typo must not silently change a
/// query), as are NaN/∞, bounds that are not [lower, upper] with lower ≤ upper, confidence ∉ (0,1)
/// and errors ≤ 0. Errors: Parse or InvalidArgument, naming the field.
Result<session::QueryRequest> readRequest(const json::Json &object, const std::string &path,
                                          std::initializer_list<const char *> extraKeys = {});

/// Parses one JSON Lines line (see readRequest); `lineNumber` is 1-based, for messages.
Result<session::QueryRequest> readRequestLine(std::string_view line, std::size_t lineNumber);

/// Writes the request fields into `object` (the inverse of readRequest).
void writeRequest(const session::QueryRequest &request, json::Json &object);

/// Writes the fields every request kind shares, in document order: id, aggregate (as given),
/// column (when `withColumn`), where, bounds, target, max_cost. Used by writeRequest and
/// writeStrategyRequest so both kinds of request read and write their common part alike.
void writeCommonRequestFields(const session::QueryRequest &request, std::string_view aggregate,
                              bool withColumn, json::Json &object);

} // namespace pbx::io
