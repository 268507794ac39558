// SPDX-License-Identifier: MIT
// `pbx-cli simulate growing`: the growing-database lab (BBScheduler, BBImprover) from the command line.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace pbx::cli {

/// `args` are the words after "simulate growing". Returns 0 on success, 1 on bad input or failure
/// (one line "pbx-cli simulate: <CODE>: <field>: <message>" on `err`), 2 on usage errors.
int runSimulateGrowing(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);

/// The usage text.
extern const char *const kSimulateGrowingUsage;

} // namespace pbx::cli
