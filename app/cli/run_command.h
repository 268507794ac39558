// SPDX-License-Identifier: MIT
// `pbx-cli run`: answers a JSON Lines file of requests in one session and writes its transcript.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace pbx::cli {

/// `args` are the words after "run". Returns the exit status: 0 on success (refusals included),
/// 1 on bad input (one-line message on `err`), 2 on usage errors.
/// Every request line is parsed and compiled against the dataset before anything is spent, so a
/// bad line stops the run with nothing spent and no transcript written.
int runRunCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);

} // namespace pbx::cli
