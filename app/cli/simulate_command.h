// SPDX-License-Identifier: MIT
// `pbx-cli simulate relative-error`: the relative-error lab from the command line.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace pbx::cli {

/// `args` are the words after "simulate". Returns 0 on success, 1 on bad input or failure
/// (one-line message on `err`), 2 on usage errors.
int runSimulateCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);

} // namespace pbx::cli
