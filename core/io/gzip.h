// SPDX-License-Identifier: MIT
// Decompression of gzip data (RFC 1952), used for the embedded dataset and for `.csv.gz` files.
#pragma once

#include "core/util/result.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace pbx::io {

/// Largest output gunzip() produces by default: 512 MiB.
inline constexpr std::size_t defaultMaxGunzipBytes = std::size_t{512} * 1024 * 1024;

/// Decompresses gzip data. Concatenated gzip members are decompressed one after another, as
/// gzip(1) does. The output grows as data is inflated (the size claimed in the gzip trailer is
/// not trusted), so a small hostile file cannot trigger a huge allocation.
/// Valid: maxOutputBytes ≥ 1.
/// Errors: Parse for input that is empty, not gzip, corrupt, truncated or followed by garbage;
/// InvalidArgument when the output would exceed `maxOutputBytes`.
Result<std::string> gunzip(std::string_view compressed, std::size_t maxOutputBytes = defaultMaxGunzipBytes);

/// True when `bytes` starts with the gzip magic number (1f 8b).
bool looksGzipped(std::string_view bytes);

} // namespace pbx::io
