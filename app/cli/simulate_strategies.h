// SPDX-License-Identifier: MIT
// `pbx-cli simulate strategies`: the strategies & inference lab from the command line.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace pbx::cli {

/// `args` are the words after "simulate strategies". Returns 0 on success, 1 on bad input or
/// failure ("pbx-cli simulate: <CODE>: <message>" on `err`), 2 on usage errors.
int runSimulateStrategies(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);

/// The usage text (also shown by `pbx-cli simulate --help`).
extern const char *const kSimulateStrategiesUsage;

} // namespace pbx::cli
