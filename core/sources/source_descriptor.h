// SPDX-License-Identifier: MIT
// The text that names a database source on the command line and in File ▸ Open dataset
// (docs/data-sources.md), parsed into a typed descriptor:
//
//   sqlite:PATH?table=NAME[&statement_timeout=MS]
//   postgresql://[USER@][HOST][:PORT]/DB?table=NAME[&schema=S][&host=SOCKET_DIR][&port=P][&user=U]
//                [&sslmode=MODE][&connect_timeout=S][&statement_timeout=MS]
//   (postgres:// is accepted as libpq accepts it)
//
// Every component is percent-decoded (%2F, %3F, %26, %25 …), as in a libpq URI, so a path or a name
// containing '?', '&' or '=' can be written. A password is refused (it would be recorded with the
// session): libpq reads it from ~/.pgpass or PGPASSWORD. Unknown parameters are refused by name.
#pragma once

#include "core/util/result.h"

#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace pbx::sources {

/// Default and largest statement timeout, in milliseconds (1 minute, 1 day).
inline constexpr int defaultStatementTimeoutMs = 60'000;
inline constexpr int maxStatementTimeoutMs = 86'400'000;

/// A table or view in an SQLite file, opened read-only.
struct SqliteDescriptor
{
    std::string path;  ///< the database file (must exist)
    std::string table; ///< table or view name, exact (quoted in SQL, never spliced)
    int statementTimeoutMs = defaultStatementTimeoutMs;
};

/// A table or view in a PostgreSQL database, reached through libpq.
struct PostgresDescriptor
{
    std::string user;     ///< empty: libpq's default (PGUSER, the login name)
    std::string host;     ///< a host name, or a Unix-socket directory (starts with '/'); empty: default
    std::string port;     ///< digits, or empty (5432)
    std::string database; ///< required
    std::string table;    ///< table or view name, exact
    std::string schema;   ///< the table's schema, exact; empty: the search path decides
    std::string sslmode;  ///< empty: libpq's default (prefer)
    int connectTimeoutS = 10;
    int statementTimeoutMs = defaultStatementTimeoutMs;
};

using SourceDescriptor = std::variant<SqliteDescriptor, PostgresDescriptor>;

/// True when `text` starts like a descriptor ("sqlite:", "postgresql://", "postgres://"), i.e. it
/// is not a CSV path or an embedded dataset name.
bool isSourceDescriptor(std::string_view text);

/// Parses a descriptor. Errors: Parse, one line naming the field, e.g.
/// "sqlite descriptor: table: missing (add ?table=NAME)",
/// "postgresql descriptor: password: not allowed in the descriptor; put it in ~/.pgpass or PGPASSWORD",
/// "postgresql descriptor: port: '54x' is not a port number",
/// "postgresql descriptor: unknown parameter 'options'".
Result<SourceDescriptor> parseSourceDescriptor(std::string_view text);

/// The canonical text of a descriptor (parses back to the same descriptor); no secret in it.
std::string sourceDescriptorText(const SourceDescriptor &descriptor);

} // namespace pbx::sources
