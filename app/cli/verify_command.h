// SPDX-License-Identifier: MIT
// `pbx-cli verify TRANSCRIPT-or-JOURNAL`: recompute every cost and the final spend.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace pbx::cli {

/// Returns 0 when the document is consistent, 1 on any inconsistency (one-line message on `err`),
/// 2 on usage errors.
int runVerifyCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);

} // namespace pbx::cli
