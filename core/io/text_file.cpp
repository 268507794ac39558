// SPDX-License-Identifier: MIT
#include "core/io/text_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <unistd.h>

namespace pbx::io {

Result<std::string> readTextFile(const std::string &path, std::size_t maxBytes)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        return makeError(ErrorCode::NotFound, path + ": no such file");
    const auto size = std::filesystem::file_size(path, ec);
    if (ec)
        return makeError(ErrorCode::Io, path + ": " + ec.message());
    if (size > maxBytes)
        return makeError(ErrorCode::Io, path + ": file is larger than " + std::to_string(maxBytes >> 20) + " MiB");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return makeError(ErrorCode::Io, path + ": cannot open for reading");
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

Result<void> writeTextFileAtomically(const std::string &path, const std::string &content)
{
    const std::string temporary = path + ".tmp-" + std::to_string(::getpid());
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return makeError(ErrorCode::Io, path + ": cannot write (" + std::strerror(errno) + ")");
    std::size_t written = 0;
    while (written < content.size()) {
        const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            const std::string reason = std::strerror(errno);
            ::close(fd);
            ::unlink(temporary.c_str());
            return makeError(ErrorCode::Io, path + ": write failed (" + reason + ")");
        }
        written += static_cast<std::size_t>(n);
    }
    const bool synced = ::fsync(fd) == 0;
    ::close(fd);
    if (!synced || std::rename(temporary.c_str(), path.c_str()) != 0) {
        const std::string reason = std::strerror(errno);
        ::unlink(temporary.c_str());
        return makeError(ErrorCode::Io, path + ": cannot replace file (" + reason + ")");
    }
    return {};
}

} // namespace pbx::io
