// SPDX-License-Identifier: MIT
// Whole-file reading and atomic writing (write a temporary file, flush, rename), so a crash
// mid-write never leaves a half-written document in place of a good one.
#pragma once

#include "core/util/result.h"

#include <string>

namespace pbx::io {

/// Reads a whole file. Errors: NotFound/Io naming the path; Io for files over `maxBytes`.
Result<std::string> readTextFile(const std::string &path, std::size_t maxBytes = 256u << 20);

/// Writes `content` to `path` atomically (temporary file in the same folder, fsync, rename).
/// Errors: Io naming the path.
Result<void> writeTextFileAtomically(const std::string &path, const std::string &content);

} // namespace pbx::io
