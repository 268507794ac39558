// SPDX-License-Identifier: MIT
// A program started with standard input, output or error closed (`pbx-cli run … >&-`) would get
// descriptor 0, 1 or 2 for the next file it opens — a journal — and then write its answers into
// that file. Opening /dev/null on every closed one at start-up prevents it.
#pragma once

namespace pbx::io {

/// Opens /dev/null on each of descriptors 0, 1 and 2 that is closed. Returns false if that was
/// impossible (then the caller should exit before opening any file).
bool ensureStandardDescriptorsOpen();

} // namespace pbx::io
