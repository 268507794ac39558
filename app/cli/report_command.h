// SPDX-License-Identifier: MIT
// `pbx-cli report TRANSCRIPT-or-JOURNAL --out report.html|report.pdf`: the session report.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace pbx::cli {

/// Audits the file as `pbx-cli verify` does, then writes its report (core/report, through
/// ui/report/reportwriter.h for the PDF). Returns 0 on success, 1 when the file, its dataset or
/// the output cannot be used (one-line message on `err`), 2 on usage errors.
int runReportCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);

} // namespace pbx::cli
