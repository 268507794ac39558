// SPDX-License-Identifier: MIT
// Whole-file reading and atomic writing (write a temporary file, flush, rename), so a crash
// mid-write never leaves a half-written document in place of a good one.
#pragma once

#include "core/io/temporary_files.h"
#include "core/util/result.h"

#include <memory>
#include <string>

namespace pbx::io {

/// Succeeds when `path` is a regular file (after following symbolic links). Errors: NotFound
/// "no such file", or Io saying what is there instead: a symbolic link to a missing file, a
/// folder, or something that is not a regular file (a FIFO, socket or device).
Result<void> requireRegularFile(const std::string &path);

/// Reads a whole file. Errors: NotFound/Io naming the path; Io for files over `maxBytes`.
Result<std::string> readTextFile(const std::string &path, std::size_t maxBytes = 256u << 20);

/// Writes `content` to `path` atomically (AtomicFile::open, then commit). Errors: Io naming the path.
Result<void> writeTextFileAtomically(const std::string &path, const std::string &content);

/// Renames `from` to `to` without replacing anything at `to` (renameat2 RENAME_NOREPLACE; link +
/// unlink where the filesystem lacks it). False with errno set on failure (EEXIST when something
/// is there).
bool renameNoReplace(const std::string &from, const std::string &to);

/// True when `a` and `b` name the same file: by device and inode (after following links) when
/// both exist, else by their canonical paths (for a file not created yet).
bool samePlace(const std::string &a, const std::string &b);

/// A file replaced atomically. open() creates the temporary file "<path>.tmp-<pid>" in the
/// target's folder at once and reserves `reserveBytes` of disk space for it, so a missing or
/// read-only folder or a full disk is found before any work whose record it will hold; commit()
/// writes, fsyncs and renames it over `path`. An uncommitted temporary file is removed by the
/// destructor, or on SIGINT/SIGTERM/SIGHUP (see temporary_files.h); after a SIGKILL, the next
/// commit in that folder removes it.
class AtomicFile
{
public:
    /// Errors: Io naming the path and the reason (no such folder, permission, no space).
    static Result<AtomicFile> open(const std::string &path, std::size_t reserveBytes = 0);
    /// Reserves disk space for the first `totalBytes` bytes of the file (posix_fallocate; a no-op
    /// on filesystems without it), so a later commit() of at most that much cannot run out of
    /// space. Call it before showing what the file will record. Errors: Io naming the path and
    /// the reason (no space, a file-size limit).
    Result<void> reserve(std::size_t totalBytes);
    /// Errors: Io naming the path; the old file, if any, is then unchanged.
    Result<void> commit(const std::string &content);
    /// Like commit(), but never replaces a file: the rename fails when anything is at the path
    /// (checked by the rename itself, so a file created meanwhile is not replaced either).
    /// Errors: Io "<path>: already exists" or naming the reason; nothing at the path changes.
    Result<void> commitNew(const std::string &content);

    AtomicFile(AtomicFile &&other) noexcept;
    AtomicFile &operator=(AtomicFile &&) = delete;
    AtomicFile(const AtomicFile &) = delete;
    ~AtomicFile();

private:
    AtomicFile() = default;
    Result<void> writeAndSync(const std::string &content);
    void finish();
    std::string m_path;
    std::string m_temporary;
    int m_fd = -1;
    std::unique_ptr<TemporaryFileGuard> m_guard;
};

} // namespace pbx::io
