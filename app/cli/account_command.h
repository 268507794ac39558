// SPDX-License-Identifier: MIT
// `pbx-cli account`: evaluate a ledger under the composition strategies (headless twin of the
// comparison view). Plain C++ over pbx_core; no Qt.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

/// Runs `account --ledger FILE [--delta D | --epsilon E] [--strategies LIST] [--interval D]`.
/// `args` excludes the program name and the word "account". Writes the JSON report to `out`
/// (see pbx::accounting::evaluateLedger) and messages to `err`. Without --delta/--epsilon the
/// query is ε at δ = 1e-5. Exit codes: 0 success, 1 bad ledger or evaluation error, 2 usage error.
int runAccountCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
