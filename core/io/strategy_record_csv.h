// SPDX-License-Identifier: MIT
// A released histogram, quantile, derived answer or workload as CSV (RFC 4180): one row per
// released value with its error bar, for spreadsheets and plots.
#pragma once

#include "core/session/ledger_event.h"
#include "core/util/result.h"

#include <string>

namespace pbx::io {

/// Header: id,label,value,half_width,confidence,variance,before_projection — one row per value of
/// the event's strategy record (before_projection: the workload answer before constrained
/// inference, empty without it); lines end in CRLF; numbers are the shortest text that reads back
/// as the same double. Only released values are written (nothing computed from the data).
/// Errors: InvalidArgument when the event is not a released strategy event.
Result<std::string> writeStrategyRecordCsv(const session::LedgerEvent &event);

} // namespace pbx::io
