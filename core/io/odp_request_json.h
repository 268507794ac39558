// SPDX-License-Identifier: MIT
// Output-DP requests and records as JSON (run files, transcripts, journals):
// {"id":"s1","mechanism":"svt","column":"education","threshold":1000,"c":3,"epsilon":0.5}
// with optional "svt_share", "sensitivity", "epsilon1"/"epsilon2" (the options of
// `pbx-cli odp svt`), and the event's "odp_record" (reservation, partition, released answers,
// cell, settled cost). See docs/output-dp.md §2 and §8.
#pragma once

#include "core/io/json_fields.h"
#include "core/session/ledger_event.h"

#include <initializer_list>
#include <string_view>

namespace pbx::io {

/// True for the mechanism names that are output-DP requests ("svt").
bool isOdpMechanism(std::string_view mechanism);

/// Reads an output-DP request. Strict: unknown keys are refused (besides `extraKeys`), as are a
/// threshold or c that is not a whole number, and NaN/∞. Parameter ranges are checked by the
/// session (session/odp_release.h). Errors: Parse or InvalidArgument naming the field.
Result<session::QueryRequest> readOdpRequest(const json::Json &object, const std::string &path,
                                             std::initializer_list<const char *> extraKeys = {});

/// Writes the request fields (the inverse of readOdpRequest). Precondition: request.odp is set.
void writeOdpRequest(const session::QueryRequest &request, json::Json &object);

/// The event's record: {"reservation", "reserved_epsilon", "delta", "cells":[{"j","epsilon"}],
/// "cell" (null when settled at the worst case), "settled_epsilon", "epsilon1", "epsilon2",
/// "answers":[bool], "releases":[{"index","label","value"}], "release_scale"}.
json::Json odpRecordToJson(const session::OdpRecord &record);
/// Errors: Parse naming the field.
Result<session::OdpRecord> odpRecordFromJson(const json::Json &object, const std::string &path);

} // namespace pbx::io
