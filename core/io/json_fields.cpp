// SPDX-License-Identifier: MIT
#include "core/io/json_fields.h"
#include "core/util/try.h"

#include <cmath>

namespace pbx::io::json {

namespace {
Error fieldError(const std::string &path, const char *key, const std::string &problem)
{
    return makeError(ErrorCode::Parse, (path.empty() ? std::string() : path + ".") + key + ": " + problem);
}

// Checks syntax and depth in one SAX pass before the document is built. nlohmann parses deep
// nesting without recursion, but copying such a value recurses once per level: fuzzing found a
// transcript event with 100,000 nested arrays in an unknown key that overflowed the stack when
// the event reader copied it. One pass reports whichever problem comes first in the text.
// Byte offset of the bracket that opens level maxNestingDepth + 1 (for the message, once the
// SAX pass below has found that the text is too deep). Brackets inside strings do not count.
std::size_t tooDeepAt(std::string_view text)
{
    std::size_t depth = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > maxNestingDepth)
                return i;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return text.size();
}

struct DepthCheck : nlohmann::json_sax<Json>
{
    std::size_t depth = 0;
    bool tooDeep = false;
    std::optional<std::size_t> invalidAt;

    bool open()
    {
        if (++depth <= maxNestingDepth)
            return true;
        tooDeep = true;
        return false;
    }
    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t &) override { return true; }
    bool string(string_t &) override { return true; }
    bool binary(binary_t &) override { return true; }
    bool start_object(std::size_t) override { return open(); }
    bool key(string_t &) override { return true; }
    bool end_object() override { return --depth, true; }
    bool start_array(std::size_t) override { return open(); }
    bool end_array() override { return --depth, true; }
    bool parse_error(std::size_t position, const std::string &, const nlohmann::detail::exception &) override
    {
        invalidAt = position;
        return false;
    }
};
} // namespace

Result<Json> parse(std::string_view text, std::string_view what)
{
    DepthCheck check;
    try {
        Json::sax_parse(text.begin(), text.end(), &check);
    } catch (const std::exception &) {
        // An exception from the SAX pass (a number too large): the parse below names it.
    }
    if (check.invalidAt)
        return makeError(ErrorCode::Parse, std::string(what) + " is not valid JSON (byte "
                                               + std::to_string(*check.invalidAt) + ")");
    if (check.tooDeep)
        return makeError(ErrorCode::Parse, std::string(what) + " is nested deeper than "
                                               + std::to_string(maxNestingDepth)
                                               + " levels of arrays and objects (byte "
                                               + std::to_string(tooDeepAt(text)) + ")");
    try {
        return Json::parse(text.begin(), text.end());
    } catch (const Json::parse_error &e) {
        return makeError(ErrorCode::Parse,
                         std::string(what) + " is not valid JSON (byte " + std::to_string(e.byte) + ")");
    } catch (const std::exception &e) {
        return makeError(ErrorCode::Parse, std::string(what) + " is not valid JSON");
    }
}

Result<std::optional<double>> optionalNumber(const Json &object, const char *key, const std::string &path)
{
    auto it = object.find(key);
    if (it == object.end() || it->is_null())
        return std::optional<double>();
    if (!it->is_number())
        return fieldError(path, key, "expected a number");
    const double value = it->get<double>();
    if (!std::isfinite(value))
        return fieldError(path, key, "expected a finite number");
    return std::optional<double>(value);
}

Result<double> number(const Json &object, const char *key, const std::string &path)
{
    PBX_TRY(value, optionalNumber(object, key, path));
    if (!value.has_value())
        return fieldError(path, key, "missing (a number is required)");
    return *value;
}

Result<std::string> optionalString(const Json &object, const char *key, const std::string &path,
                                   std::string fallback, std::size_t maxBytes)
{
    auto it = object.find(key);
    if (it == object.end() || it->is_null())
        return fallback;
    if (!it->is_string())
        return fieldError(path, key, "expected a string");
    const auto &text = it->get_ref<const Json::string_t &>();
    if (text.size() > maxBytes)
        return fieldError(path, key,
                          "longer than " + std::to_string(maxBytes) + " bytes (" + std::to_string(text.size())
                              + ")");
    return text;
}

Result<std::string> string(const Json &object, const char *key, const std::string &path, std::size_t maxBytes)
{
    if (!object.contains(key) || object.at(key).is_null())
        return fieldError(path, key, "missing (a string is required)");
    return optionalString(object, key, path, {}, maxBytes);
}

bool isUtf8(std::string_view text)
{
    try {
        (void)Json(std::string(text)).dump();
        return true;
    } catch (const std::exception &) {
        return false;
    }
}

Result<bool> optionalBool(const Json &object, const char *key, const std::string &path, bool fallback)
{
    auto it = object.find(key);
    if (it == object.end() || it->is_null())
        return fallback;
    if (!it->is_boolean())
        return fieldError(path, key, "expected true or false");
    return it->get<bool>();
}

Result<std::uint64_t> unsignedInteger(const Json &object, const char *key, const std::string &path)
{
    auto it = object.find(key);
    if (it == object.end() || it->is_null())
        return fieldError(path, key, "missing (an integer is required)");
    if (!it->is_number_unsigned())
        return fieldError(path, key, "expected an integer ≥ 0");
    return it->get<std::uint64_t>();
}

Json finiteOrNull(double value)
{
    return std::isfinite(value) ? Json(value) : Json(nullptr);
}

} // namespace pbx::io::json
