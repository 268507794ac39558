// SPDX-License-Identifier: MIT
#include "core/io/digest.h"

#include <sodium.h>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

namespace pbx::io {

namespace {
std::string toHex(const unsigned char *digest, std::size_t size)
{
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(2 * size);
    for (std::size_t i = 0; i < size; ++i) {
        out += kHex[digest[i] >> 4];
        out += kHex[digest[i] & 15];
    }
    return out;
}
} // namespace

std::string sha256Hex(std::string_view bytes)
{
    unsigned char digest[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(digest, reinterpret_cast<const unsigned char *>(bytes.data()), bytes.size());
    return toHex(digest, sizeof digest);
}

Result<std::string> sha256OfFile(const std::string &path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return makeError(errno == ENOENT ? ErrorCode::NotFound : ErrorCode::Io,
                         path + ": cannot read (" + std::strerror(errno) + ")");
    crypto_hash_sha256_state state;
    crypto_hash_sha256_init(&state);
    unsigned char block[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd, block, sizeof block);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            const std::string reason = std::strerror(errno);
            ::close(fd);
            return makeError(ErrorCode::Io, path + ": read failed (" + reason + ")");
        }
        if (n == 0)
            break;
        crypto_hash_sha256_update(&state, block, static_cast<unsigned long long>(n));
    }
    ::close(fd);
    unsigned char digest[crypto_hash_sha256_BYTES];
    crypto_hash_sha256_final(&state, digest);
    return toHex(digest, sizeof digest);
}

} // namespace pbx::io
