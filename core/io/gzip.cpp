// SPDX-License-Identifier: MIT
// gunzip() over zlib's streaming inflate, feeding and draining in bounded chunks so neither the
// input size (zlib's avail_in is 32-bit) nor a claimed output size matters.
#include "core/io/gzip.h"

#include <zlib.h>

#include <algorithm>
#include <climits>

namespace pbx::io {

namespace {

// Owns a z_stream so every return path releases zlib's state.
class Inflater
{
public:
    Inflater() = default;
    Inflater(const Inflater &) = delete;
    Inflater &operator=(const Inflater &) = delete;
    ~Inflater()
    {
        if (m_initialised)
            inflateEnd(&m_stream);
    }

    bool init()
    {
        // 16 + MAX_WBITS: expect a gzip header and trailer, not a raw zlib stream.
        m_initialised = inflateInit2(&m_stream, 16 + MAX_WBITS) == Z_OK;
        return m_initialised;
    }

    z_stream &stream() { return m_stream; }

private:
    z_stream m_stream{};
    bool m_initialised = false;
};

std::string zlibMessage(const z_stream &stream, int status)
{
    if (stream.msg)
        return stream.msg;
    return "zlib status " + std::to_string(status);
}

} // namespace

bool looksGzipped(std::string_view bytes)
{
    return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f
           && static_cast<unsigned char>(bytes[1]) == 0x8b;
}

Result<std::string> gunzip(std::string_view compressed, std::size_t maxOutputBytes)
{
    if (maxOutputBytes == 0)
        return makeError(ErrorCode::InvalidArgument, "gunzip: the output limit must be positive");
    if (compressed.empty())
        return makeError(ErrorCode::Parse, "gzip data is empty");
    if (!looksGzipped(compressed))
        return makeError(ErrorCode::Parse, "not gzip data (the first two bytes are not 1f 8b)");

    Inflater inflater;
    if (!inflater.init())
        return makeError(ErrorCode::InvalidArgument, "gunzip: zlib could not be initialised");
    z_stream &stream = inflater.stream();

    constexpr std::size_t chunk = std::size_t{1} << 20;
    std::string output;
    std::size_t consumed = 0;
    bool memberEnded = false;
    while (true) {
        if (stream.avail_in == 0 && consumed < compressed.size()) {
            const std::size_t take = std::min<std::size_t>(compressed.size() - consumed, UINT_MAX);
            // zlib's API is not const-correct; inflate never writes through next_in.
            stream.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(compressed.data() + consumed));
            stream.avail_in = static_cast<uInt>(take);
            consumed += take;
        }
        const std::size_t before = output.size();
        const std::size_t room = std::min(chunk, maxOutputBytes + 1 - before);
        output.resize(before + room);
        stream.next_out = reinterpret_cast<Bytef *>(output.data() + before);
        stream.avail_out = static_cast<uInt>(room);
        const int status = inflate(&stream, Z_NO_FLUSH);
        output.resize(before + room - stream.avail_out);
        if (output.size() > maxOutputBytes)
            return makeError(ErrorCode::InvalidArgument, "gzip data expands to more than "
                                                             + std::to_string(maxOutputBytes)
                                                             + " bytes; refusing to decompress it");

        if (status == Z_STREAM_END) {
            memberEnded = true;
            const bool moreInput = stream.avail_in > 0 || consumed < compressed.size();
            if (!moreInput)
                break;
            // Another member may follow (as `cat a.gz b.gz` produces); anything else is garbage.
            const std::string_view rest
                = stream.avail_in > 0 ? std::string_view(reinterpret_cast<const char *>(stream.next_in), 1)
                                      : compressed.substr(consumed, 1);
            if (static_cast<unsigned char>(rest[0]) != 0x1f)
                return makeError(ErrorCode::Parse, "unexpected bytes after the end of the gzip data");
            if (inflateReset(&stream) != Z_OK)
                return makeError(ErrorCode::Parse, "gzip: could not start the next member");
            memberEnded = false;
            continue;
        }
        if (status == Z_BUF_ERROR) {
            // No progress possible: either the output was full (loop again) or the input ran out.
            if (stream.avail_out == 0)
                continue;
            break;
        }
        if (status != Z_OK)
            return makeError(ErrorCode::Parse, "corrupt gzip data: " + zlibMessage(stream, status));
        if (stream.avail_in == 0 && consumed >= compressed.size() && stream.avail_out != 0)
            break; // all input used, output not full: the stream is truncated
    }
    if (!memberEnded)
        return makeError(ErrorCode::Parse, "truncated gzip data (the stream ends early)");
    output.shrink_to_fit();
    return output;
}

} // namespace pbx::io
