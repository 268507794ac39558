// SPDX-License-Identifier: MIT
// The ledger as CSV: one row per event (RFC 4180 quoting), for spreadsheets.
#pragma once

#include "core/session/session.h"

#include <string>

namespace pbx::io {

/// RFC 4180: the field quoted when it contains a comma, quote, CR or LF (inner quotes doubled).
/// A field starting with =, +, -, @, TAB or CR is written with a leading ' so spreadsheets show
/// it as text instead of running it as a formula (OWASP, "CSV Injection"): "=HYPERLINK(…)" is
/// written '=HYPERLINK(…). Numbers go through csvNumber(), never through this.
std::string csvField(const std::string &field);
/// The shortest text that reads back as the same double ("" for a non-finite value).
std::string csvNumber(double value);

/// Header: request,id,status,aggregate,column,where,target_kind,target_error,confidence,mechanism,
/// answer,error_bound,target_met,cost_<unit>,spent_<unit>,epsilon_spent,attempts,reason.
/// `request` counts from 1, as the ledger view does; numbers are the shortest text that reads back
/// as the same double.
std::string writeTranscriptCsv(const session::Session &session);

} // namespace pbx::io
