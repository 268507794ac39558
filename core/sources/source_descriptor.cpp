// SPDX-License-Identifier: MIT
#include "core/sources/source_descriptor.h"

#include "core/util/try.h"

#include <charconv>
#include <vector>

namespace pbx::sources {

namespace {

constexpr std::string_view sqlitePrefix = "sqlite:";
constexpr std::string_view postgresqlPrefix = "postgresql://";
constexpr std::string_view postgresPrefix = "postgres://";

Error fieldError(std::string_view kind, std::string_view field, const std::string &message)
{
    return makeError(ErrorCode::Parse,
                     std::string(kind) + " descriptor: " + std::string(field) + ": " + message);
}

int hexDigit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// Percent-decoding; a NUL or another control character is refused (no identifier, path or host
// holds one, and a C string would cut it short).
Result<std::string> decode(std::string_view kind, std::string_view field, std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (c == '%') {
            const int high = i + 2 < text.size() ? hexDigit(text[i + 1]) : -1;
            const int low = i + 2 < text.size() ? hexDigit(text[i + 2]) : -1;
            if (high < 0 || low < 0)
                return fieldError(kind, field, "'%' must be followed by two hexadecimal digits");
            c = static_cast<char>(high * 16 + low);
            i += 2;
        }
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            return fieldError(kind, field, "control characters are not allowed");
        out += c;
    }
    return out;
}

Result<int> parseMilliseconds(std::string_view kind, std::string_view field, const std::string &text, int max)
{
    int value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value < 1 || value > max)
        return fieldError(kind, field,
                          "'" + text + "' is not a whole number from 1 to " + std::to_string(max));
    return value;
}

struct Parameter
{
    std::string key;
    std::string value;
};

Result<std::vector<Parameter>> parseQuery(std::string_view kind, std::string_view query)
{
    std::vector<Parameter> parameters;
    while (!query.empty()) {
        const std::size_t amp = query.find('&');
        const std::string_view pair = query.substr(0, amp);
        query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
        if (pair.empty())
            continue;
        const std::size_t eq = pair.find('=');
        if (eq == std::string_view::npos)
            return makeError(ErrorCode::Parse, std::string(kind) + " descriptor: parameter '"
                                                   + std::string(pair) + "' has no value (write KEY=VALUE)");
        PBX_TRY(key, decode(kind, "parameter name", pair.substr(0, eq)));
        PBX_TRY(value, decode(kind, key, pair.substr(eq + 1)));
        for (const Parameter &seen : parameters)
            if (seen.key == key)
                return fieldError(kind, key, "given twice");
        parameters.push_back({std::move(key), std::move(value)});
    }
    return parameters;
}

Result<SourceDescriptor> parseSqlite(std::string_view text)
{
    constexpr std::string_view kind = "sqlite";
    const std::string_view rest = text.substr(sqlitePrefix.size());
    const std::size_t question = rest.find('?');
    PBX_TRY(path, decode(kind, "path", rest.substr(0, question)));
    if (path.empty())
        return fieldError(kind, "path", "missing (write sqlite:PATH?table=NAME)");
    PBX_TRY(parameters,
            parseQuery(kind, question == std::string_view::npos ? "" : rest.substr(question + 1)));
    SqliteDescriptor descriptor;
    descriptor.path = std::move(path);
    for (Parameter &p : parameters) {
        if (p.key == "table") {
            descriptor.table = std::move(p.value);
        } else if (p.key == "statement_timeout") {
            PBX_TRY(ms, parseMilliseconds(kind, p.key, p.value, maxStatementTimeoutMs));
            descriptor.statementTimeoutMs = ms;
        } else {
            return makeError(ErrorCode::Parse, "sqlite descriptor: unknown parameter '" + p.key
                                                   + "' (known: table, statement_timeout)");
        }
    }
    if (descriptor.table.empty())
        return fieldError(kind, "table", "missing (add ?table=NAME)");
    return SourceDescriptor(std::move(descriptor));
}

Result<void> checkPort(std::string_view kind, const std::string &port)
{
    int value = 0;
    const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (ec != std::errc() || end != port.data() + port.size() || value < 1 || value > 65535)
        return fieldError(kind, "port", "'" + port + "' is not a port number (1 to 65535)");
    return {};
}

// USER@HOST:PORT; a bracketed IPv6 host [::1] keeps its colons.
Result<void> parseAuthority(std::string_view kind, std::string_view authority, PostgresDescriptor &descriptor)
{
    const std::size_t at = authority.rfind('@');
    if (at != std::string_view::npos) {
        const std::string_view userinfo = authority.substr(0, at);
        if (userinfo.find(':') != std::string_view::npos)
            return fieldError(
                kind, "password",
                "not allowed in the descriptor (it would be recorded with the session); put it in "
                "~/.pgpass or PGPASSWORD");
        PBX_TRY(user, decode(kind, "user", userinfo));
        descriptor.user = std::move(user);
        authority = authority.substr(at + 1);
    }
    std::string_view hostText = authority;
    std::string_view portText;
    if (!authority.empty() && authority.front() == '[') {
        const std::size_t close = authority.find(']');
        if (close == std::string_view::npos)
            return fieldError(kind, "host", "'[' without a closing ']'");
        hostText = authority.substr(1, close - 1);
        const std::string_view after = authority.substr(close + 1);
        if (!after.empty() && after.front() != ':')
            return fieldError(kind, "host", "unexpected text after ']'");
        portText = after.empty() ? after : after.substr(1);
    } else if (const std::size_t colon = authority.find(':'); colon != std::string_view::npos) {
        hostText = authority.substr(0, colon);
        portText = authority.substr(colon + 1);
    }
    PBX_TRY(host, decode(kind, "host", hostText));
    descriptor.host = std::move(host);
    PBX_TRY(port, decode(kind, "port", portText));
    if (!port.empty()) {
        PBX_RETURN_IF_ERROR(checkPort(kind, port));
    }
    descriptor.port = std::move(port);
    return {};
}

Result<void> applyPostgresParameter(std::string_view kind, Parameter &p, PostgresDescriptor &descriptor)
{
    if (p.key == "table") {
        descriptor.table = std::move(p.value);
    } else if (p.key == "schema") {
        descriptor.schema = std::move(p.value);
    } else if (p.key == "host") {
        descriptor.host = std::move(p.value);
    } else if (p.key == "port") {
        PBX_RETURN_IF_ERROR(checkPort(kind, p.value));
        descriptor.port = std::move(p.value);
    } else if (p.key == "user") {
        descriptor.user = std::move(p.value);
    } else if (p.key == "dbname") {
        descriptor.database = std::move(p.value);
    } else if (p.key == "sslmode") {
        static constexpr std::string_view modes[]
            = {"disable", "allow", "prefer", "require", "verify-ca", "verify-full"};
        bool known = false;
        for (const std::string_view mode : modes)
            known = known || p.value == mode;
        if (!known)
            return fieldError(
                kind, "sslmode",
                "'" + p.value + "' is not one of disable, allow, prefer, require, verify-ca, verify-full");
        descriptor.sslmode = std::move(p.value);
    } else if (p.key == "connect_timeout") {
        PBX_TRY(seconds, parseMilliseconds(kind, p.key, p.value, 3600));
        descriptor.connectTimeoutS = seconds;
    } else if (p.key == "statement_timeout") {
        PBX_TRY(ms, parseMilliseconds(kind, p.key, p.value, maxStatementTimeoutMs));
        descriptor.statementTimeoutMs = ms;
    } else if (p.key == "password") {
        return fieldError(kind, "password",
                          "not allowed in the descriptor (it would be recorded with the session); put it in "
                          "~/.pgpass or PGPASSWORD");
    } else {
        return makeError(ErrorCode::Parse,
                         std::string(kind) + " descriptor: unknown parameter '" + p.key
                             + "' (known: table, schema, host, port, user, dbname, sslmode, "
                               "connect_timeout, statement_timeout)");
    }
    return {};
}

Result<SourceDescriptor> parsePostgres(std::string_view text, std::size_t prefixSize)
{
    constexpr std::string_view kind = "postgresql";
    std::string_view rest = text.substr(prefixSize);
    const std::size_t question = rest.find('?');
    const std::string_view query
        = question == std::string_view::npos ? std::string_view() : rest.substr(question + 1);
    rest = rest.substr(0, question);
    const std::size_t slash = rest.find('/');
    PostgresDescriptor descriptor;
    PBX_RETURN_IF_ERROR(parseAuthority(kind, rest.substr(0, slash), descriptor));
    if (slash != std::string_view::npos) {
        PBX_TRY(database, decode(kind, "database", rest.substr(slash + 1)));
        descriptor.database = std::move(database);
    }
    PBX_TRY(parameters, parseQuery(kind, query));
    for (Parameter &p : parameters)
        PBX_RETURN_IF_ERROR(applyPostgresParameter(kind, p, descriptor));
    if (descriptor.database.empty())
        return fieldError(kind, "database", "missing (write postgresql://USER@HOST:PORT/DB?table=NAME)");
    if (descriptor.table.empty())
        return fieldError(kind, "table", "missing (add ?table=NAME)");
    return SourceDescriptor(std::move(descriptor));
}

std::string encode(std::string_view text, std::string_view keep)
{
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        const bool plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                           || c == '-' || c == '_' || c == '.' || c == '~'
                           || keep.find(c) != std::string_view::npos;
        if (plain) {
            out += c;
        } else {
            out += '%';
            out += hex[u >> 4];
            out += hex[u & 15];
        }
    }
    return out;
}

} // namespace

bool isSourceDescriptor(std::string_view text)
{
    return text.starts_with(sqlitePrefix) || text.starts_with(postgresqlPrefix)
           || text.starts_with(postgresPrefix);
}

Result<SourceDescriptor> parseSourceDescriptor(std::string_view text)
{
    if (text.starts_with(sqlitePrefix))
        return parseSqlite(text);
    if (text.starts_with(postgresqlPrefix))
        return parsePostgres(text, postgresqlPrefix.size());
    if (text.starts_with(postgresPrefix))
        return parsePostgres(text, postgresPrefix.size());
    return makeError(ErrorCode::Parse, "descriptor: expected sqlite:PATH?table=NAME or "
                                       "postgresql://USER@HOST:PORT/DB?table=NAME");
}

std::string sourceDescriptorText(const SourceDescriptor &descriptor)
{
    if (const auto *sqlite = std::get_if<SqliteDescriptor>(&descriptor)) {
        std::string text = "sqlite:" + encode(sqlite->path, "/") + "?table=" + encode(sqlite->table, "");
        if (sqlite->statementTimeoutMs != defaultStatementTimeoutMs)
            text += "&statement_timeout=" + std::to_string(sqlite->statementTimeoutMs);
        return text;
    }
    const auto &pg = std::get<PostgresDescriptor>(descriptor);
    std::string text = "postgresql://";
    if (!pg.user.empty())
        text += encode(pg.user, "") + "@";
    const bool socket = pg.host.starts_with('/');
    if (!socket)
        text += pg.host.find(':') != std::string::npos ? "[" + pg.host + "]" : encode(pg.host, "");
    if (!pg.port.empty())
        text += ":" + pg.port;
    text += "/" + encode(pg.database, "") + "?table=" + encode(pg.table, "");
    if (!pg.schema.empty())
        text += "&schema=" + encode(pg.schema, "");
    if (socket)
        text += "&host=" + encode(pg.host, "/");
    if (!pg.sslmode.empty())
        text += "&sslmode=" + pg.sslmode;
    if (pg.connectTimeoutS != 10)
        text += "&connect_timeout=" + std::to_string(pg.connectTimeoutS);
    if (pg.statementTimeoutMs != defaultStatementTimeoutMs)
        text += "&statement_timeout=" + std::to_string(pg.statementTimeoutMs);
    return text;
}

} // namespace pbx::sources
