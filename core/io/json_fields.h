// SPDX-License-Identifier: MIT
// Small typed readers over nlohmann::json that report the field's path on error, shared by the
// document readers in core/io. Never throw.
#pragma once

#include "core/util/result.h"

#include "core/util/try.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pbx::io::json {

using Json = nlohmann::ordered_json; // keeps written documents in a readable key order

/// Deepest nesting of arrays and objects parse() accepts.
inline constexpr std::size_t maxNestingDepth = 256;

/// Longest string string() and optionalString() accept by default, in bytes (64 KiB): longer
/// text in a document (a 1 MB id crashed the GUI) is refused where it is read.
inline constexpr std::size_t maxStringBytes = std::size_t{1} << 16;

/// Parses JSON text in one pass: the first problem in the text is the one reported, so random
/// bytes are "not valid JSON", not "too deep". Errors: Parse, with the byte offset, for invalid
/// JSON or for arrays and objects nested deeper than maxNestingDepth.
Result<Json> parse(std::string_view text, std::string_view what);

/// A finite number at `key`. Errors: Parse naming `path.key` when missing or not a finite number.
Result<double> number(const Json &object, const char *key, const std::string &path);
/// Like number(), but absent (or null) gives nullopt.
Result<std::optional<double>> optionalNumber(const Json &object, const char *key, const std::string &path);
/// A string at `key` of at most `maxBytes` bytes. Errors: Parse when missing, not a string or
/// longer.
Result<std::string> string(const Json &object, const char *key, const std::string &path,
                           std::size_t maxBytes = maxStringBytes);
/// A string at `key`, or `fallback` when absent/null. Errors: Parse when present but not a
/// string, or longer than `maxBytes`.
Result<std::string> optionalString(const Json &object, const char *key, const std::string &path,
                                   std::string fallback = {}, std::size_t maxBytes = maxStringBytes);
/// A boolean at `key`, or `fallback` when absent/null. Errors: Parse when present but not a boolean.
/// (Use this, not nlohmann's value(key, fallback), which throws on a value of another type.)
Result<bool> optionalBool(const Json &object, const char *key, const std::string &path,
                          bool fallback = false);
/// An unsigned integer at `key`. Errors: Parse when missing, negative or not an integer.
Result<std::uint64_t> unsignedInteger(const Json &object, const char *key, const std::string &path);

/// True when `text` is valid UTF-8 (JSON documents can hold nothing else; nlohmann refuses to
/// write other text, so check before anything depends on writing it).
bool isUtf8(std::string_view text);

/// A JSON number, or null for NaN/∞ (JSON has no such values).
Json finiteOrNull(double value);

/// Refuses a key of `object` that is neither one of `keys` nor of `extraKeys` (strict readers: a
/// misspelt key must not silently change a result). A non-object passes (its type is checked where
/// it is read). Errors: Parse "<path>: unknown field '<key>'<suffix>" for the first such key.
inline Result<void> refuseUnknownFields(const Json &object, const std::string &path,
                                        std::span<const char *const> keys,
                                        std::initializer_list<const char *> extraKeys = {},
                                        std::string_view suffix = {})
{
    if (!object.is_object())
        return {};
    for (const auto &item : object.items()) {
        const auto known = [&](const char *k) { return item.key() == k; };
        if (std::none_of(keys.begin(), keys.end(), known)
            && std::none_of(extraKeys.begin(), extraKeys.end(), known))
            return makeError(ErrorCode::Parse,
                             path + ": unknown field '" + item.key() + "'" + std::string(suffix));
    }
    return {};
}

/// The array `key` of `object`, each element an object read by `read(element, elementPath)` (a
/// Result<T>), in order. Errors: Parse naming "<path>.<key>" (missing or not an array) or
/// "<path>.<key>[i]" (not an object); `read`'s own errors.
template<typename T, typename Read>
Result<std::vector<T>> objects(const Json &object, const char *key, const std::string &path, Read read)
{
    auto it = object.find(key);
    if (it == object.end() || !it->is_array())
        return makeError(ErrorCode::Parse, path + "." + key + ": expected an array");
    std::vector<T> out;
    for (std::size_t i = 0; i < it->size(); ++i) {
        const std::string p = path + "." + key + "[" + std::to_string(i) + "]";
        if (!(*it)[i].is_object())
            return makeError(ErrorCode::Parse, p + ": expected an object");
        PBX_TRY(x, read((*it)[i], p));
        out.push_back(std::move(x));
    }
    return out;
}

} // namespace pbx::io::json
