// SPDX-License-Identifier: MIT
// The files a pbx-cli command writes (--out, a journal's tail record) must never be one of its
// inputs: a transcript written over the dataset's metadata sidecar made the dataset unreadable.
// Compared by file identity, so a hard or symbolic link to an input counts as that input.
#pragma once

#include "core/io/text_file.h"
#include "core/util/result.h"

#include <string>
#include <utility>
#include <vector>

namespace pbx::cli {

/// An input of a command: what names it (an option or a description) and its path.
using NamedPath = std::pair<std::string, std::string>;

/// True when `a` and `b` name the same file (io::samePlace).
using io::samePlace;

/// The dataset's inputs for a CSV file at `csvPath` (absolute, as loaded): the file and both
/// places its metadata sidecar is looked for ("<csv>.json", then "<stem>.json";
/// resources::loadDataset), whether or not one exists yet: a file written there would be read as
/// the dataset's metadata next time.
std::vector<NamedPath> datasetInputs(const std::string &csvPath);

/// Errors: InvalidArgument "<what> names the same file as <input> (<path>), which it would
/// overwrite" for the first of `inputs` that `path` names.
Result<void> checkNotAnInput(const std::string &what, const std::string &path,
                             const std::vector<NamedPath> &inputs);

} // namespace pbx::cli
