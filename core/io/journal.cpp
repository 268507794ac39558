// SPDX-License-Identifier: MIT
#include "core/io/journal.h"

#include "core/io/temporary_files.h"
#include "core/io/text_file.h"
#include "core/util/try.h"

#include <sodium.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace pbx::io {

namespace {

constexpr std::string_view kNewMarker = ".new-";
constexpr std::size_t kTailBytes = 128; // one fixed-size record, rewritten in place

Error ioError(const std::string &path, const std::string &what)
{
    return makeError(ErrorCode::Io, path + ": " + what + " (" + std::strerror(errno) + ")");
}

/// fsync of the folder holding `path`, so a newly created file's directory entry is durable.
void syncParentFolder(const std::string &path)
{
    const auto parent = std::filesystem::absolute(path).parent_path();
    const int fd = ::open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

Result<void> writeAll(int fd, const std::string &bytes)
{
    std::size_t written = 0;
    while (written < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return makeError(ErrorCode::Io, std::string("write failed (") + std::strerror(errno) + ")");
        written += static_cast<std::size_t>(n);
    }
    return {};
}

Result<std::string> readDescriptor(int fd, const std::string &path, std::size_t maxBytes)
{
    struct stat info = {};
    if (::fstat(fd, &info) != 0)
        return ioError(path, "cannot read");
    if (static_cast<std::uint64_t>(info.st_size) > maxBytes)
        return makeError(ErrorCode::Io,
                         path + ": file is larger than " + std::to_string(maxBytes >> 20) + " MiB");
    std::string text(static_cast<std::size_t>(info.st_size), '\0');
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::pread(fd, text.data() + done, text.size() - done, static_cast<off_t>(done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return ioError(path, "read failed");
        if (n == 0)
            break;
        done += static_cast<std::size_t>(n);
    }
    text.resize(done);
    return text;
}

std::string chainHash(const std::string &previous, std::string_view payload)
{
    std::string input = previous;
    input += payload;
    return sha256Hex(input);
}

/// The JSON line of a payload, or InvalidArgument when it holds text that is not UTF-8 (which
/// nlohmann refuses to write): caught here, before anything is written or shown.
Result<std::string> dumpLine(const json::Json &payload)
{
    try {
        return payload.dump(); // one line: dump() without indent escapes control characters
    } catch (const std::exception &) {
        return makeError(ErrorCode::InvalidArgument, "the record holds text that is not valid UTF-8");
    }
}

Result<std::optional<JournalTail>> readTail(const std::string &journalPath)
{
    const std::string path = journalTailPath(journalPath);
    std::error_code ec;
    if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec)))
        return std::optional<JournalTail>();
    PBX_TRY(text, readTextFile(path, 4096));
    if (text.find_first_not_of(" \n") == std::string::npos)
        return std::optional<JournalTail>(); // created, nothing recorded yet
    auto tail = parseJournalTail(text);
    if (!tail)
        return makeError(ErrorCode::Parse,
                         path + ": the tail record is damaged (" + tail.error().message
                             + "); delete it to accept the journal without checking its end");
    return std::optional<JournalTail>(std::move(tail.value()));
}

/// The tail record is written in place, so it must be a plain file of its own: a symbolic link
/// (whose target a rewrite would truncate or overwrite), a folder or a device there is refused,
/// and so is a second name of another file (a hard link). Missing is fine. Errors: Io naming it.
Result<void> checkTailPlace(const std::string &journalPath)
{
    const std::string path = journalTailPath(journalPath);
    struct stat info = {};
    if (::lstat(path.c_str(), &info) != 0)
        return errno == ENOENT ? Result<void>() : ioError(path, "cannot inspect the journal's tail record");
    if (S_ISLNK(info.st_mode))
        return makeError(ErrorCode::Io,
                         path
                             + ": the journal's tail record is a symbolic link; pbx rewrites it "
                               "in place and never follows a link there (move it away)");
    if (!S_ISREG(info.st_mode))
        return makeError(ErrorCode::Io,
                         path + ": not a regular file, so it cannot be the journal's tail record");
    if (info.st_nlink > 1)
        return makeError(ErrorCode::Io,
                         path
                             + ": the tail record has another name too (a hard link), so rewriting it would "
                               "change that file; move it away");
    return {};
}

constexpr const char *kNoTailNote
    = "there is no tail record (.tail) beside the journal, so lines removed from its end "
      "could not be detected";

} // namespace

std::string journalTooLargeMessage(std::size_t bytesSoFar, std::size_t recordBytes, std::size_t limit)
{
    const std::string size
        = limit == maxJournalBytes ? std::string("1 GiB") : std::to_string(limit) + " bytes";
    return "the record (" + std::to_string(recordBytes) + " bytes) would take the file past " + size + " ("
           + std::to_string(bytesSoFar)
           + " bytes written so far), the largest file pbx-cli verify, run --journal, report and the GUI read "
             "(maxJournalBytes); it was not written, so its answer is not shown";
}

std::string journalTailPath(const std::string &journalPath)
{
    return journalPath + ".tail";
}

Result<JournalTail> parseJournalTail(std::string_view text)
{
    PBX_TRY(parsed, json::parse(text, "the tail record"));
    if (!parsed.is_object())
        return makeError(ErrorCode::Parse, "the tail record is not a JSON object");
    PBX_TRY(lines, json::unsignedInteger(parsed, "lines", "tail"));
    PBX_TRY(hash, json::string(parsed, "hash", "tail"));
    if (hash.size() != 64 || hash.find_first_not_of("0123456789abcdef") != std::string::npos)
        return makeError(ErrorCode::Parse, "tail.hash: expected 64 lowercase hex digits");
    return JournalTail{static_cast<std::size_t>(lines), hash};
}

Result<JournalContents> readJournal(const std::string &path)
{
    PBX_RETURN_IF_ERROR(requireRegularFile(path));
    // The tail record first: a writer updates it after its line, so read in this order it can
    // lag behind the journal but never run ahead of it.
    PBX_TRY(tail, readTail(path));
    PBX_TRY(text, readTextFile(path, maxJournalBytes));
    auto contents = readJournalText(text, tail);
    if (contents && !tail)
        contents->tailNote = kNoTailNote;
    return contents;
}

Result<JournalContents> readJournalText(std::string_view text, const std::optional<JournalTail> &tail)
{
    JournalContents out;
    std::size_t position = 0;
    for (std::size_t line = 1; position < text.size(); ++line) {
        const std::size_t end = text.find('\n', position);
        const bool complete = end != std::string_view::npos;
        const std::string_view row(text.data() + position, (complete ? end : text.size()) - position);
        const std::size_t tab = row.rfind('\t');
        std::string problem;
        json::Json payload;
        if (!complete)
            problem = "the line is incomplete";
        else if (!row.empty() && row.back() == '\r')
            problem = "the line ends with a carriage return (the file was converted to CRLF line endings)";
        else if (tab == std::string_view::npos)
            problem = "the line has no checksum";
        else if (chainHash(out.lastHash, row.substr(0, tab)) != row.substr(tab + 1))
            problem = "checksum mismatch";
        else if (auto parsed = json::parse(row.substr(0, tab), "the record"); !parsed)
            problem = parsed.error().message;
        else
            payload = std::move(parsed.value());
        const std::string where = "journal line " + std::to_string(line) + ": ";
        if (!problem.empty()) {
            if (complete) {
                const bool last = end + 1 >= text.size();
                // A crash leaves only a line without its newline; a complete bad line is damage.
                return makeError(
                    ErrorCode::Parse,
                    where + problem
                        + (last ? ", and the line is complete (it ends with a newline), "
                                  "so no crash can explain it: the journal was edited or corrupted"
                                : ", and intact lines follow: the journal was edited or corrupted"));
            }
            out.tornTail = true;
            out.tornMessage
                = where + problem
                  + " — a write cut short by a crash; it was never acknowledged, so it is dropped";
            break;
        }
        out.records.push_back(std::move(payload));
        out.lastHash = std::string(row.substr(tab + 1));
        if (tail && line == tail->lines && out.lastHash != tail->hash)
            return makeError(ErrorCode::Parse,
                             where + "does not match the tail record, which says line "
                                 + std::to_string(tail->lines)
                                 + " had another checksum: the journal's end was rewritten");
        position = end + 1;
        out.intactBytes = position;
    }
    if (tail && tail->lines > out.records.size())
        return makeError(ErrorCode::Parse, "the journal has " + std::to_string(out.records.size())
                                               + " intact lines but its tail record says "
                                               + std::to_string(tail->lines)
                                               + " were written: lines were removed from its end");
    return out;
}

JournalWriter::JournalWriter(JournalWriter &&other) noexcept
{
    *this = std::move(other);
}

JournalWriter &JournalWriter::operator=(JournalWriter &&other) noexcept
{
    if (this != &other) {
        close();
        m_path = std::move(other.m_path);
        m_fd = std::exchange(other.m_fd, -1);
        m_tailFd = std::exchange(other.m_tailFd, -1);
        m_readOnly = other.m_readOnly;
        m_lastHash = std::move(other.m_lastHash);
        m_lines = other.m_lines;
        m_bytes = other.m_bytes;
        m_maxBytes = other.m_maxBytes;
        m_cutTo = other.m_cutTo;
    }
    return *this;
}

JournalWriter::~JournalWriter()
{
    close();
}

void JournalWriter::close()
{
    if (m_fd >= 0)
        ::close(m_fd); // releases the flock
    if (m_tailFd >= 0)
        ::close(m_tailFd);
    m_fd = m_tailFd = -1;
}

Result<JournalWriter> JournalWriter::create(const std::string &path, const json::Json &header,
                                            std::size_t maxBytes)
{
    if (sodium_init() < 0)
        return makeError(ErrorCode::Io, "libsodium could not be initialised");
    if (auto regular = requireRegularFile(path); regular || regular.error().code != ErrorCode::NotFound)
        return makeError(ErrorCode::Io,
                         regular
                             ? path
                                   + ": a journal exists there already (another run may have created it a "
                                     "moment ago: run again to resume it)"
                             : regular.error().message + " (a new journal cannot be created there)");
    auto line = dumpLine(header);
    if (!line)
        return makeError(line.error().code, path + ": " + line.error().message);
    PBX_RETURN_IF_ERROR(checkTailPlace(path));
    // A file left at "<path>.tail" is replaced only when it is a tail record (of a journal
    // deleted since): anything else there is someone's file.
    if (auto leftover = readTail(path); !leftover)
        return makeError(ErrorCode::Io, journalTailPath(path)
                                            + ": a file that is not a journal tail record is in the way of "
                                              "the new journal's tail record; move it away");
    // Written and locked under a temporary name, then renamed into place without replacing: the
    // journal never exists without its header, and nobody can lock it before we do.
    const std::string temporary = temporaryNameFor(path, kNewMarker);
    TemporaryFileGuard guard(temporary);
    const int fd = ::open(temporary.c_str(), O_RDWR | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0)
        return ioError(path, "cannot create the journal");
    JournalWriter writer;
    writer.m_path = temporary;
    writer.m_fd = fd;
    writer.m_maxBytes = maxBytes;
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        ::unlink(temporary.c_str());
        return ioError(path, "cannot lock the new journal");
    }
    if (auto written = writer.append(header); !written) {
        ::unlink(temporary.c_str());
        return written.error();
    }
    if (!renameNoReplace(temporary, path)) {
        const bool exists = errno == EEXIST;
        auto error
            = ioError(path, exists ? "a journal exists there already (created by another process just now)"
                                   : "cannot create the journal");
        ::unlink(temporary.c_str());
        return error;
    }
    writer.m_path = path;
    const std::string tailPath = journalTailPath(path);
    writer.m_tailFd = ::open(tailPath.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (writer.m_tailFd < 0)
        return ioError(tailPath, "cannot create the journal's tail record");
    PBX_RETURN_IF_ERROR(writer.writeTail());
    syncParentFolder(path);
    removeStaleTemporaryFiles(path, kNewMarker);
    return writer;
}

Result<OpenedJournal> JournalWriter::open(const std::string &path, std::size_t maxBytes)
{
    if (sodium_init() < 0)
        return makeError(ErrorCode::Io, "libsodium could not be initialised");
    PBX_RETURN_IF_ERROR(requireRegularFile(path));
    JournalWriter writer;
    writer.m_path = path;
    writer.m_maxBytes = maxBytes;
    writer.m_fd = ::open(path.c_str(), O_RDWR | O_APPEND | O_CLOEXEC | O_NONBLOCK);
    if (writer.m_fd < 0 && (errno == EACCES || errno == EROFS)) {
        writer.m_fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        writer.m_readOnly = true;
    }
    if (writer.m_fd < 0)
        return ioError(path, "cannot open the journal");
    struct stat info = {};
    if (::fstat(writer.m_fd, &info) != 0 || !S_ISREG(info.st_mode))
        return makeError(ErrorCode::Io, path + ": not a regular file");
    if (::flock(writer.m_fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno == EWOULDBLOCK)
            return makeError(ErrorCode::Io,
                             path
                                 + ": the journal is locked: another pbx process is using it (two "
                                   "writers would spend the same budget twice); wait until it ends");
        return ioError(path, "cannot lock the journal");
    }
    PBX_RETURN_IF_ERROR(checkTailPlace(path));
    PBX_TRY(tail, readTail(path));
    PBX_TRY(text, readDescriptor(writer.m_fd, path, maxJournalBytes));
    auto contents = readJournalText(text, tail);
    if (!contents)
        return makeError(contents.error().code, path + ": " + contents.error().message);
    if (!tail)
        contents->tailNote = kNoTailNote;
    writer.m_lastHash = contents->lastHash;
    writer.m_lines = contents->records.size();
    writer.m_bytes = contents->intactBytes;
    if (contents->tornTail)
        writer.m_cutTo = contents->intactBytes;
    if (!writer.m_readOnly) {
        const std::string tailPath = journalTailPath(path);
        writer.m_tailFd = ::open(tailPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    }
    return OpenedJournal{std::move(writer), std::move(contents.value())};
}

Result<void> JournalWriter::writeTail()
{
    if (m_tailFd < 0)
        return {};
    std::string record = R"({"lines":)" + std::to_string(m_lines) + R"(,"hash":")" + m_lastHash + "\"}";
    record.resize(kTailBytes - 1, ' ');
    record += '\n';
    if (::pwrite(m_tailFd, record.data(), record.size(), 0) != static_cast<ssize_t>(record.size()))
        return ioError(journalTailPath(m_path), "cannot update the journal's tail record");
    return {};
}

Result<void> JournalWriter::append(const json::Json &payload)
{
    if (m_readOnly)
        return makeError(ErrorCode::Io, m_path
                                            + ": the journal can be read but not written (permissions or a "
                                              "read-only filesystem), so the session cannot continue");
    auto body = dumpLine(payload);
    if (!body)
        return makeError(body.error().code, m_path + ": " + body.error().message);
    if (m_cutTo) { // the torn tail was never acknowledged: cut it off before continuing the chain
        if (::ftruncate(m_fd, static_cast<off_t>(*m_cutTo)) != 0 || ::fsync(m_fd) != 0)
            return ioError(m_path, "cannot cut off the torn last line");
        m_cutTo.reset();
    }
    const std::string hash = chainHash(m_lastHash, *body);
    const std::string line = *body + "\t" + hash + "\n";
    if (line.size() > m_maxBytes - std::min(m_bytes, m_maxBytes))
        return makeError(ErrorCode::Io,
                         m_path + ": " + journalTooLargeMessage(m_bytes, line.size(), m_maxBytes));
    // A line that fails (a full disk cuts it short, fdatasync fails) was never acknowledged: it is
    // cut off again, now or before the next append, so the next line continues the chain from
    // the last acknowledged one instead of following half a line.
    const off_t before = ::lseek(m_fd, 0, SEEK_END);
    const auto cutBack = [&] {
        if (before >= 0 && ::ftruncate(m_fd, before) != 0)
            m_cutTo = static_cast<std::size_t>(before);
    };
    if (auto written = writeAll(m_fd, line); !written) {
        cutBack();
        return makeError(ErrorCode::Io, m_path + ": " + written.error().message);
    }
    if (::fdatasync(m_fd) != 0) {
        const int error = errno;
        cutBack();
        errno = error;
        return ioError(m_path, "fdatasync failed");
    }
    m_lastHash = hash;
    m_bytes += line.size();
    ++m_lines;
    return writeTail();
}

Result<void> JournalWriter::moveTo(const std::string &newPath)
{
    if (!renameNoReplace(m_path, newPath))
        return ioError(newPath, errno == EEXIST ? "something exists there already; the journal was not moved"
                                                : "cannot move the journal there");
    std::rename(journalTailPath(m_path).c_str(), journalTailPath(newPath).c_str());
    syncParentFolder(newPath);
    m_path = newPath;
    return {};
}

} // namespace pbx::io
