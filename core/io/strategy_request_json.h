// SPDX-License-Identifier: MIT
// Strategy requests as JSON (lines of `pbx-cli run --queries` and transcript events):
// {"id":"h1","aggregate":"histogram","column":"region","where":"…","target":{"kind":"absolute","error":20,"confidence":0.95}}
// {"id":"m","aggregate":"quantile","column":"wage","bounds":[0,5000],"q":0.5,"step":5,"target":{"kind":"absolute","error":300}}
// {"id":"d","aggregate":"derived","of":"h1","derived":"share","cells":[2],"within":[0,1,2,3],"target":{"kind":"absolute","error":1}}
// {"id":"w","aggregate":"workload","column":"experience","strategy":{"kind":"tree","branching":3},"workload":"prefixes","target":{…}}
// and the record of what such an event released.
#pragma once

#include "core/io/json_fields.h"
#include "core/session/ledger_event.h"

namespace pbx::io {

/// True when `aggregate` names a strategy request.
bool isStrategyAggregate(std::string_view aggregate);

/// Reads a strategy request (the common fields as readRequest, plus bins, q, step, of, derived,
/// cells, minus, within, strategy, workload, ranges). Unknown keys are refused.
/// Errors: Parse or InvalidArgument naming the field.
Result<session::QueryRequest> readStrategyRequest(const json::Json &object, const std::string &path,
                                                  std::initializer_list<const char *> extraKeys = {});

/// Writes a strategy request's fields (the inverse of readStrategyRequest).
void writeStrategyRequest(const session::QueryRequest &request, json::Json &object);

/// The event's "strategy_record" object, and its reader. Errors: Parse naming the field.
json::Json strategyRecordToJson(const session::StrategyRecord &record);
Result<session::StrategyRecord> strategyRecordFromJson(const json::Json &object, const std::string &path);

} // namespace pbx::io
