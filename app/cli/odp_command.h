// SPDX-License-Identifier: MIT
// `pbx-cli odp …`: the output-DP mechanisms and tables (sparse vector, PTR-IQR, early stopping,
// Theorem 15, budget recovery, the crossover table) from the command line.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace pbx::cli {

/// `args` are the words after "odp". Returns 0 on success, 1 on bad input, a refusal or a
/// failure (one-line message on `err`), 2 on usage errors.
int runOdpCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);

} // namespace pbx::cli
