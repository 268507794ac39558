// SPDX-License-Identifier: MIT
// The session header shared by transcripts and journals: dataset, budget, neighbouring relation,
// filter (with the unified split) and noise mode.
#pragma once

#include "core/io/json_fields.h"
#include "core/session/session.h"

namespace pbx::io {

/// Writes dataset, budget, neighbours, filter and noise of `session` into `doc`.
void writeSessionHeader(const session::Session &session, json::Json &doc);

struct SessionHeader
{
    std::string datasetName; ///< embedded name or the CSV path used
    session::SessionSettings settings;
};

/// Reads what writeSessionHeader wrote (tolerant of extra fields). Errors: Parse naming the field.
Result<SessionHeader> readSessionHeader(const json::Json &doc);

} // namespace pbx::io
