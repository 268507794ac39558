// SPDX-License-Identifier: MIT
// Output-DP requests and records as JSON (run files, transcripts, journals):
// {"id":"s1","mechanism":"svt","column":"education","threshold":1000,"c":3,"epsilon":0.5}
// with optional "svt_share", "sensitivity", "epsilon1"/"epsilon2" (the options of
// `pbx-cli odp svt`);
// {"mechanism":"ptr-iqr","column":"wage","epsilon":0.5} with optional "delta_f", "width", "mode",
// "order", "median_epsilon", "spend_savings";
// {"mechanism":"early-stop","column":"wage","step_epsilon":0.01,"stops":[5,10,20],"delta":1e-7}
// with optional "composition", "delta_split", "tolerance";
// {"mechanism":"recover","label_threshold":600,"features":["education","experience"]} with
// optional "label_column", "lambda", "epsilon_model", "epsilon_test", "tau";
// and the event's "odp_record" (reservation, partition, released output, cell, settled cost).
// See docs/output-dp.md §2, §4–§6 and §8.
#pragma once

#include "core/io/json_fields.h"
#include "core/session/ledger_event.h"

#include <initializer_list>
#include <string_view>

namespace pbx::io {

/// True for the mechanism names that are output-DP requests ("svt", "ptr-iqr", "early-stop",
/// "recover").
bool isOdpMechanism(std::string_view mechanism);

/// Reads an output-DP request. Strict: keys that are not the mechanism's are refused (besides
/// `extraKeys`), as are a threshold, c or stopping point that is not a whole number, stops not
/// strictly increasing, an unknown mode/order/composition/delta_split, and NaN/∞. The ranges of
/// ptr-iqr and early-stop are checked here as well (c = 0, ε ≤ 0, δ_f ∉ (0, ½), …); all are
/// checked again by the session (session/odp_release.h). Errors: Parse or InvalidArgument
/// naming the field.
Result<session::QueryRequest> readOdpRequest(const json::Json &object, const std::string &path,
                                             std::initializer_list<const char *> extraKeys = {});

/// Writes the request fields (the inverse of readOdpRequest). Precondition: request.odp() is set.
void writeOdpRequest(const session::QueryRequest &request, json::Json &object);

/// The event's record: {"reservation", "reserved_epsilon", "delta", "cells":[{"j","epsilon"}],
/// "cell" (null when settled at the worst case), "settled_epsilon", "epsilon1", "epsilon2",
/// "answers":[bool], "releases":[{"index","label","value"}], "release_scale"}, and for the other
/// mechanisms their output: "ptr_iqr" {"width","threshold","delta_f","offsets","case","iqr",
/// "median_epsilon","median"}, "early_stop" {"iterates","estimate","noise_scale"} or "recovery"
/// {"released","theta","noisy_error","test_noise","train_rows","test_rows"}.
json::Json odpRecordToJson(const session::OdpRecord &record);
/// Errors: Parse naming the field.
Result<session::OdpRecord> odpRecordFromJson(const json::Json &object, const std::string &path);

} // namespace pbx::io
