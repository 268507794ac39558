// SPDX-License-Identifier: MIT
// An append-only, hash-chained JSON Lines journal, written with fsync before anything it records
// is shown to anyone, with one writer at a time.
//
// Line format: <payload JSON> TAB <hash> NEWLINE, where hash = SHA-256(previous hash ‖ payload) in
// lowercase hex (the first line chains from the empty string). The hash is over the payload's
// exact bytes, so no re-serialisation can disturb it. An edited, reordered or removed line breaks
// the chain from that point on.
//
// Each line is written with one write() and fdatasync'd; its only newline is its last byte (JSON
// text escapes control characters). So a crash can leave only a last line *without* its newline
// (a torn tail, dropped). A newline-terminated line that fails its checksum was edited or
// corrupted, wherever it is, and the journal is refused.
//
// The tail record "<journal>.tail" holds the number of lines written and the last line's hash,
// rewritten in place after each line (not fsync'd: after a power loss it may lag behind the
// journal, never run ahead of it). It detects lines removed from the end or a replaced last line,
// which the chain alone cannot. A journal without a tail record (copied without it, or written by
// an older pbx) is read with a note that its end could not be checked.
//
// Writers hold an exclusive flock(2) on the journal for as long as they live (the CLI for the
// whole run, the GUI while the session is open): a second writer is refused, so two processes can
// never both spend the remaining budget. A new journal appears under its name only once its header
// is written and locked (it is created under a temporary name and renamed without replacing).
#pragma once

#include "core/io/digest.h"
#include "core/io/json_fields.h"

#include <optional>
#include <string>
#include <vector>

namespace pbx::io {

/// Largest journal or transcript file readJournal(), readSessionJournal() and readSessionFile()
/// read: 1 GiB. Writers apply the same limit before writing (JournalWriter::append, the
/// transcript of `pbx-cli run`), so nothing is written that the readers would refuse.
inline constexpr std::size_t maxJournalBytes = std::size_t{1} << 30;

/// One sentence: a record of `recordBytes` after `bytesSoFar` would pass `limit` (maxJournalBytes).
std::string journalTooLargeMessage(std::size_t bytesSoFar, std::size_t recordBytes,
                                   std::size_t limit = maxJournalBytes);

/// What the tail record says: the journal had `lines` lines, the last with hash `hash`.
struct JournalTail
{
    std::size_t lines = 0;
    std::string hash;
};

/// "<journalPath>.tail".
std::string journalTailPath(const std::string &journalPath);

/// Parses a tail record ({"lines":N,"hash":"<64 hex>"} padded with spaces). Errors: Parse.
Result<JournalTail> parseJournalTail(std::string_view text);

struct JournalContents
{
    std::vector<json::Json> records; ///< payloads of the intact lines, in order
    std::string lastHash;            ///< hash of the last intact line ("" when none)
    std::size_t intactBytes = 0;     ///< length of the intact prefix of the file
    /// The last line has no newline: a write cut short by a crash. It is not in `records`; the
    /// message says what was found.
    bool tornTail = false;
    std::string tornMessage;
    /// Set when the end could not be checked (no tail record); says so in one sentence.
    std::string tailNote;
};

/// Reads and verifies a journal and its tail record, without locking or changing anything (the
/// tail record is read first, so a concurrent writer cannot make it run ahead). Errors:
/// NotFound/Io (naming what is at the path when it is not a regular file); Parse naming the line
/// for an edited, corrupted, reordered or removed line, or a tail record that does not match.
Result<JournalContents> readJournal(const std::string &path);

/// The same check on a journal's bytes already in memory, against a tail record if given.
/// Errors: Parse naming the line, as readJournal().
Result<JournalContents> readJournalText(std::string_view text,
                                        const std::optional<JournalTail> &tail = std::nullopt);

class JournalWriter;

/// A journal opened for continuing: the writer (holding the lock) and what it read.
struct OpenedJournal;

class JournalWriter
{
public:
    JournalWriter(JournalWriter &&other) noexcept;
    JournalWriter &operator=(JournalWriter &&other) noexcept;
    JournalWriter(const JournalWriter &) = delete;
    JournalWriter &operator=(const JournalWriter &) = delete;
    ~JournalWriter(); ///< releases the lock

    /// Creates a new journal whose first line is `header`, durably (file and folder fsync'd), and
    /// locks it. Errors: Io when something exists at the path already (a file, a dangling
    /// symbolic link, a folder), or it cannot be written; InvalidArgument when `header` holds
    /// text that is not UTF-8.
    /// `maxBytes` is the readers' limit; tests pass a smaller one.
    static Result<JournalWriter> create(const std::string &path, const json::Json &header,
                                        std::size_t maxBytes = maxJournalBytes);

    /// Opens an existing journal to continue it: takes the lock, then reads and verifies it (as
    /// readJournal()) through the locked descriptor. Nothing on disk changes until the first
    /// append(), which first cuts off a torn tail (never acknowledged). A journal that cannot be
    /// written (permissions, read-only filesystem) opens for reading; append() then fails.
    /// Errors: Io "locked" when another process holds it; those of readJournal().
    static Result<OpenedJournal> open(const std::string &path, std::size_t maxBytes = maxJournalBytes);

    /// Appends one record with a single write() and returns only after fdatasync(): once this
    /// succeeds the record survives a crash or power loss; then updates the tail record.
    /// Errors: Io (nothing acknowledged), also, before anything is written, when the file would
    /// grow past maxJournalBytes (the readers' limit); InvalidArgument for text that is not UTF-8.
    Result<void> append(const json::Json &payload);

    /// Renames the journal and its tail record to `newPath` (the lock and descriptor stay valid).
    /// Never replaces anything. Errors: Io when `newPath` exists or the rename fails.
    Result<void> moveTo(const std::string &newPath);

    const std::string &path() const { return m_path; }

private:
    JournalWriter() = default;
    void close();
    Result<void> writeTail();

    std::string m_path;
    int m_fd = -1;
    int m_tailFd = -1;
    bool m_readOnly = false;
    std::string m_lastHash;
    std::size_t m_lines = 0;
    std::size_t m_bytes = 0; ///< the file's length once a torn tail is cut off
    std::size_t m_maxBytes = maxJournalBytes;
    std::optional<std::size_t> m_cutTo; ///< a torn tail to cut off before the first append
};

struct OpenedJournal
{
    JournalWriter writer;
    JournalContents contents;
};

} // namespace pbx::io
