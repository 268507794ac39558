// SPDX-License-Identifier: MIT
// Temporary files that are renamed or linked into place (atomic writes, new journals) must not
// outlive their process. Registered ones are unlinked when SIGINT, SIGTERM or SIGHUP ends the
// process; SIGKILL cannot be caught, so the next successful write in the same folder removes
// those whose process no longer exists.
#pragma once

#include <string>
#include <string_view>

namespace pbx::io {

/// Installs the SIGINT/SIGTERM/SIGHUP handlers that unlink registered temporary files and then
/// end the process with the same signal (default action). Idempotent; call once at start-up.
void removeTemporaryFilesOnSignals();

/// Registers `path` for removal on those signals while the guard lives (at most 16 at once;
/// further ones are simply not registered). The guard does not delete the file itself.
class TemporaryFileGuard
{
public:
    explicit TemporaryFileGuard(const std::string &path);
    ~TemporaryFileGuard();
    TemporaryFileGuard(const TemporaryFileGuard &) = delete;
    TemporaryFileGuard &operator=(const TemporaryFileGuard &) = delete;

private:
    int m_slot = -1;
};

/// Name of the temporary file for `path` owned by this process: "<path><marker><pid>".
std::string temporaryNameFor(const std::string &path, std::string_view marker);

/// Removes "<path><marker><pid>" files next to `path` whose process <pid> no longer exists
/// (left by a SIGKILL or a power loss). Best effort: errors are ignored.
void removeStaleTemporaryFiles(const std::string &path, std::string_view marker);

} // namespace pbx::io
