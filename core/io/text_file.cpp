// SPDX-License-Identifier: MIT
#include "core/io/text_file.h"

#include "core/io/temporary_files.h"
#include "core/util/try.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace pbx::io {

Result<void> requireRegularFile(const std::string &path)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const auto link = fs::symlink_status(path, ec);
    if (link.type() == fs::file_type::not_found)
        return makeError(ErrorCode::NotFound, path + ": no such file");
    const auto target = fs::status(path, ec);
    if (link.type() == fs::file_type::symlink && target.type() == fs::file_type::not_found)
        return makeError(ErrorCode::Io, path + ": a symbolic link to a file that does not exist");
    if (target.type() == fs::file_type::directory)
        return makeError(ErrorCode::Io, path + ": a folder, not a file");
    if (target.type() != fs::file_type::regular)
        return makeError(ErrorCode::Io, path + ": not a regular file (a FIFO, socket or device)");
    return {};
}

Result<std::string> readTextFile(const std::string &path, std::size_t maxBytes)
{
    std::error_code ec;
    PBX_RETURN_IF_ERROR(requireRegularFile(path));
    const auto size = std::filesystem::file_size(path, ec);
    if (ec)
        return makeError(ErrorCode::Io, path + ": " + ec.message());
    if (size > maxBytes)
        return makeError(ErrorCode::Io,
                         path + ": file is larger than " + std::to_string(maxBytes >> 20) + " MiB");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return makeError(ErrorCode::Io, path + ": cannot open for reading");
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

bool renameNoReplace(const std::string &from, const std::string &to)
{
#ifdef SYS_renameat2
    constexpr unsigned kNoReplace = 1; // RENAME_NOREPLACE
    if (::syscall(SYS_renameat2, AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), kNoReplace) == 0)
        return true;
    if (errno != EINVAL && errno != ENOSYS)
        return false;
#endif
    if (::link(from.c_str(), to.c_str()) != 0)
        return false;
    ::unlink(from.c_str());
    return true;
}

Result<void> writeTextFileAtomically(const std::string &path, const std::string &content)
{
    PBX_TRY(file, AtomicFile::open(path));
    return file.commit(content);
}

namespace {
constexpr std::string_view kTemporaryMarker = ".tmp-";

Error ioError(const std::string &path, const std::string &what, int error)
{
    return makeError(ErrorCode::Io, path + ": " + what + " (" + std::strerror(error) + ")");
}
} // namespace

Result<AtomicFile> AtomicFile::open(const std::string &path, std::size_t reserveBytes)
{
    {
        std::error_code ec;
        if (std::filesystem::is_directory(path, ec))
            return makeError(ErrorCode::Io, path + ": a folder, not a file");
    }
    AtomicFile file;
    file.m_path = path;
    file.m_temporary = temporaryNameFor(path, kTemporaryMarker);
    file.m_guard = std::make_unique<TemporaryFileGuard>(file.m_temporary);
    file.m_fd = ::open(file.m_temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (file.m_fd < 0)
        return ioError(path, "cannot write", errno);
    PBX_RETURN_IF_ERROR(file.reserve(reserveBytes));
    return file;
}

Result<void> AtomicFile::reserve(std::size_t totalBytes)
{
    if (m_fd < 0)
        return makeError(ErrorCode::Io, m_path + ": already written");
    if (totalBytes == 0)
        return {};
    const int reserved = ::posix_fallocate(m_fd, 0, static_cast<off_t>(totalBytes));
    if (reserved != 0 && reserved != EOPNOTSUPP && reserved != EINVAL)
        return ioError(m_path, "cannot reserve " + std::to_string((totalBytes + 1023) >> 10) + " KiB for it",
                       reserved);
    return {};
}

AtomicFile::AtomicFile(AtomicFile &&other) noexcept
    : m_path(std::move(other.m_path)), m_temporary(std::move(other.m_temporary)),
      m_fd(std::exchange(other.m_fd, -1)), m_guard(std::move(other.m_guard))
{}

AtomicFile::~AtomicFile()
{
    if (m_fd >= 0) {
        ::close(m_fd);
        ::unlink(m_temporary.c_str());
    }
}

Result<void> AtomicFile::writeAndSync(const std::string &content)
{
    if (m_fd < 0)
        return makeError(ErrorCode::Io, m_path + ": already written");
    std::size_t written = 0;
    while (written < content.size()) {
        const ssize_t n
            = ::pwrite(m_fd, content.data() + written, content.size() - written, static_cast<off_t>(written));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return ioError(m_path, "write failed", errno);
        written += static_cast<std::size_t>(n);
    }
    if (::ftruncate(m_fd, static_cast<off_t>(content.size())) != 0 || ::fsync(m_fd) != 0)
        return ioError(m_path, "write failed", errno);
    return {};
}

void AtomicFile::finish()
{
    ::close(m_fd);
    m_fd = -1;
    // The new name is durable, and stale temporary files of killed processes go.
    const auto folder = std::filesystem::absolute(m_path).parent_path();
    if (const int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dir >= 0) {
        ::fsync(dir);
        ::close(dir);
    }
    removeStaleTemporaryFiles(m_path, kTemporaryMarker);
}

Result<void> AtomicFile::commit(const std::string &content)
{
    PBX_RETURN_IF_ERROR(writeAndSync(content));
    if (std::rename(m_temporary.c_str(), m_path.c_str()) != 0)
        return ioError(m_path, "cannot replace file", errno);
    finish();
    return {};
}

Result<void> AtomicFile::commitNew(const std::string &content)
{
    PBX_RETURN_IF_ERROR(writeAndSync(content));
    if (!renameNoReplace(m_temporary, m_path)) {
        if (errno == EEXIST)
            return makeError(ErrorCode::Io, m_path + ": already exists");
        return ioError(m_path, "cannot create file", errno);
    }
    finish();
    return {};
}

bool samePlace(const std::string &a, const std::string &b)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::exists(a, ec) && fs::exists(b, ec))
        return fs::equivalent(a, b, ec);
    return fs::weakly_canonical(a, ec) == fs::weakly_canonical(b, ec);
}

} // namespace pbx::io
