// SPDX-License-Identifier: MIT
// SHA-256 digests (libsodium), used by the journal's hash chain and to identify dataset files.
#pragma once

#include "core/util/result.h"

#include <string>
#include <string_view>

namespace pbx::io {

/// SHA-256 of `bytes` in lowercase hex, 64 characters (libsodium crypto_hash_sha256; FIPS 180-4).
std::string sha256Hex(std::string_view bytes);

/// SHA-256 of a file's bytes in lowercase hex, read in blocks (any size).
/// Errors: NotFound/Io naming the path.
Result<std::string> sha256OfFile(const std::string &path);

} // namespace pbx::io
