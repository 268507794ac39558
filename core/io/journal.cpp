// SPDX-License-Identifier: MIT
#include "core/io/journal.h"

#include "core/io/text_file.h"

#include <sodium.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <unistd.h>

namespace pbx::io {

namespace {

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

std::string chainHash(const std::string &previous, std::string_view payload)
{
    std::string input = previous;
    input += payload;
    return sha256Hex(input);
}

} // namespace

std::string sha256Hex(std::string_view bytes)
{
    unsigned char digest[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(digest, reinterpret_cast<const unsigned char *>(bytes.data()), bytes.size());
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    for (unsigned char byte : digest) {
        out += kHex[byte >> 4];
        out += kHex[byte & 15];
    }
    return out;
}

Result<JournalContents> readJournal(const std::string &path)
{
    auto text = readTextFile(path, maxJournalBytes);
    if (!text)
        return text.error();
    return readJournalText(*text);
}

Result<JournalContents> readJournalText(std::string_view text)
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
        else if (tab == std::string_view::npos)
            problem = "the line has no checksum";
        else if (chainHash(out.lastHash, row.substr(0, tab)) != row.substr(tab + 1))
            problem = "checksum mismatch";
        else if (auto parsed = json::parse(row.substr(0, tab), "the record"); !parsed)
            problem = parsed.error().message;
        else
            payload = std::move(parsed.value());
        const bool last = !complete || end + 1 >= text.size();
        if (!problem.empty()) {
            if (!last)
                return makeError(ErrorCode::Parse, "journal line " + std::to_string(line) + ": " + problem
                                                       + ", and intact lines follow: the journal was edited or corrupted");
            out.tornTail = true;
            out.tornMessage = "journal line " + std::to_string(line) + ": " + problem
                              + " — a write cut short by a crash; it was never acknowledged, so it is dropped";
            break;
        }
        out.records.push_back(std::move(payload));
        out.lastHash = std::string(row.substr(tab + 1));
        position = end + 1;
        out.intactBytes = position;
    }
    return out;
}

JournalWriter::JournalWriter(JournalWriter &&other) noexcept
    : m_path(std::move(other.m_path)), m_fd(other.m_fd), m_lastHash(std::move(other.m_lastHash))
{
    other.m_fd = -1;
}

JournalWriter &JournalWriter::operator=(JournalWriter &&other) noexcept
{
    if (this != &other) {
        if (m_fd >= 0)
            ::close(m_fd);
        m_path = std::move(other.m_path);
        m_fd = other.m_fd;
        m_lastHash = std::move(other.m_lastHash);
        other.m_fd = -1;
    }
    return *this;
}

JournalWriter::~JournalWriter()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

Result<JournalWriter> JournalWriter::create(const std::string &path, const json::Json &header)
{
    if (sodium_init() < 0)
        return makeError(ErrorCode::Io, "libsodium could not be initialised");
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0)
        return ioError(path, errno == EEXIST ? "a journal exists there already" : "cannot create the journal");
    JournalWriter writer(path, fd, "");
    if (auto written = writer.append(header); !written) {
        ::unlink(path.c_str());
        return written.error();
    }
    syncParentFolder(path);
    return writer;
}

Result<JournalWriter> JournalWriter::resume(const std::string &path, const JournalContents &contents)
{
    if (sodium_init() < 0)
        return makeError(ErrorCode::Io, "libsodium could not be initialised");
    const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0)
        return ioError(path, "cannot open the journal for appending");
    if (contents.tornTail && (::ftruncate(fd, static_cast<off_t>(contents.intactBytes)) != 0 || ::fsync(fd) != 0)) {
        ::close(fd);
        return ioError(path, "cannot cut off the torn last line");
    }
    return JournalWriter(path, fd, contents.lastHash);
}

Result<void> JournalWriter::append(const json::Json &payload)
{
    const std::string body = payload.dump(); // one line: dump() without indent escapes control characters
    const std::string hash = chainHash(m_lastHash, body);
    if (auto written = writeAll(m_fd, body + "\t" + hash + "\n"); !written)
        return makeError(ErrorCode::Io, m_path + ": " + written.error().message);
    if (::fdatasync(m_fd) != 0)
        return ioError(m_path, "fdatasync failed");
    m_lastHash = hash;
    return {};
}

} // namespace pbx::io
