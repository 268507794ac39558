// SPDX-License-Identifier: MIT
// Reading a ledger from JSON (the `pbx-cli account --ledger FILE` format).
#pragma once

#include "core/accounting/event.h"
#include "core/util/result.h"

#include <string>

namespace pbx::accounting {

/// Parses {"neighbours": "add-remove"|"replace", "events": [ {...}, … ]}. Event keys:
/// "mechanism" (gaussian | laplace | pure | approx | zcdp | randomized-response |
/// post-processing), "count" (integer ≥ 1, default 1), "sensitivity" (default 1), "sigma"
/// (gaussian), "scale" (laplace), "epsilon" (pure, approx, randomized-response), "delta" (approx),
/// "rho" (zcdp), "sampling": {"kind": "poisson"|"without-replacement", "rate": (0, 1]}, and
/// "partition" (a label; events in different partitions touch disjoint records). "neighbours"
/// defaults to "add-remove". Strict on purpose: unknown keys, missing or superfluous parameters,
/// wrong types, NaN/∞ (as strings), negative values, δ ≥ 1 and unknown mechanisms are rejected,
/// because a misspelt "sensitivity" silently defaulting to 1 would under-report privacy loss.
/// Errors: Parse (malformed JSON, with nlohmann's position) or InvalidArgument naming
/// `events[i].field`.
Result<Ledger> parseLedgerJson(const std::string &text);

} // namespace pbx::accounting
