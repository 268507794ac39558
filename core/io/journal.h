// SPDX-License-Identifier: MIT
// An append-only, hash-chained JSON Lines journal, written with fsync before anything it records
// is shown to anyone.
//
// Line format: <payload JSON> TAB <hash> NEWLINE, where hash = SHA-256(previous hash ‖ payload) in
// lowercase hex (the first line chains from the empty string). The hash is over the payload's
// exact bytes, so no re-serialisation can disturb it. An edited, reordered or removed line breaks
// the chain from that point on; a truncated file loses only its last line.
#pragma once

#include "core/io/json_fields.h"

#include <string>
#include <vector>

namespace pbx::io {

/// SHA-256 of `bytes` in lowercase hex (libsodium crypto_hash_sha256).
std::string sha256Hex(std::string_view bytes);

/// Largest journal file readJournal() and readSessionJournal() read: 1 GiB.
inline constexpr std::size_t maxJournalBytes = std::size_t{1} << 30;

struct JournalContents
{
    std::vector<json::Json> records; ///< payloads of the intact lines, in order
    std::string lastHash;            ///< hash of the last intact line ("" when none)
    std::size_t intactBytes = 0;     ///< length of the intact prefix of the file
    /// The last line was incomplete or failed its checksum — a write cut short by a crash. It is
    /// not in `records`; the message says what was found.
    bool tornTail = false;
    std::string tornMessage;
};

/// Reads and verifies a journal. A bad *last* line is reported as a torn tail and dropped; a bad
/// line followed by intact ones means the file was edited or corrupted. Errors: NotFound/Io;
/// Parse naming the line ("journal line 4: checksum mismatch …") for damage before the last line.
Result<JournalContents> readJournal(const std::string &path);

/// The same check on a journal's bytes already in memory (what readJournal() does after reading
/// the file). Errors: Parse naming the line, as readJournal().
Result<JournalContents> readJournalText(std::string_view text);

class JournalWriter
{
public:
    JournalWriter(JournalWriter &&other) noexcept;
    JournalWriter &operator=(JournalWriter &&other) noexcept;
    JournalWriter(const JournalWriter &) = delete;
    JournalWriter &operator=(const JournalWriter &) = delete;
    ~JournalWriter();

    /// Creates a new journal whose first line is `header`, durably (file and folder fsync'd).
    /// Errors: Io when the file exists already or cannot be written.
    static Result<JournalWriter> create(const std::string &path, const json::Json &header);

    /// Continues an existing journal read by readJournal(): a torn tail is cut off first (it was
    /// never acknowledged), then appends chain from `contents.lastHash`. Errors: Io.
    static Result<JournalWriter> resume(const std::string &path, const JournalContents &contents);

    /// Appends one record with a single write() and returns only after fdatasync(): once this
    /// succeeds the record survives a crash or power loss. Errors: Io (nothing acknowledged).
    Result<void> append(const json::Json &payload);

    const std::string &path() const { return m_path; }

private:
    JournalWriter(std::string path, int fd, std::string lastHash)
        : m_path(std::move(path)), m_fd(fd), m_lastHash(std::move(lastHash))
    {}
    std::string m_path;
    int m_fd = -1;
    std::string m_lastHash;
};

} // namespace pbx::io
