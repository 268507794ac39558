// SPDX-License-Identifier: MIT
// `pbx-cli verify TRANSCRIPT-or-JOURNAL`: recompute every cost and the final spend.
#pragma once

#include "core/data/source.h"
#include "core/io/session_header_json.h"
#include "core/util/result.h"

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace pbx::cli {

/// Returns 0 when the document is consistent, 1 on any inconsistency (one-line message on `err`),
/// 2 on usage errors.
int runVerifyCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);

/// The dataset a saved session (`header`) is reopened on, by verify and report: `dataset` (--dataset)
/// or the recorded one, with `metadata` (--metadata) or, for a database session, the recorded
/// metadata file — whose digest io::checkDataset then compares with the recorded one. Errors: those
/// of resources::openDataset; when the recorded metadata file cannot be read, the message adds that
/// --metadata gives its new place.
Result<std::shared_ptr<const data::Source>> reopenRecordedDataset(const io::SessionHeader &header,
                                                                  const std::optional<std::string> &dataset,
                                                                  const std::optional<std::string> &metadata);

} // namespace pbx::cli
