// SPDX-License-Identifier: MIT
// A real PostgreSQL server for the tests, as users run it: Debian's postgresql-15 binaries, initdb
// and pg_ctl in a temporary directory, listening on a Unix socket in that directory only (no TCP
// port: listen_addresses is empty). The server refuses to run as root, so when the test runs as root
// (as CI does) every server command runs as the unprivileged user `nobody` through runuser(1) and
// the directory is handed to that user. The superuser is called `pbx`, authentication is `trust`
// on the socket (the directory is mode 0700).
#pragma once

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <libpq-fe.h>
#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace pbx::test {

class PostgresServer
{
public:
    static constexpr const char *binaries = "/usr/lib/postgresql/15/bin";

    /// Empty when initdb and pg_ctl are installed; otherwise why the tests must be skipped.
    static std::string missing()
    {
        for (const char *tool : {"initdb", "pg_ctl", "postgres"})
            if (!QFile::exists(QString::fromLatin1(binaries) + QLatin1Char('/') + QLatin1String(tool)))
                return std::string("PostgreSQL 15 is not installed (no ") + binaries + "/" + tool
                       + "): install postgresql-15 (scripts/pbx's install list)";
        if (geteuid() == 0 && !getpwnam("nobody"))
            return "running as root without a 'nobody' user to run the server as";
        return {};
    }

    // A Unix socket's path holds at most 107 bytes ("<dir>/.s.PGSQL.5432"): a long TMPDIR falls back to /tmp.
    PostgresServer()
        : m_dir((QDir::tempPath().size() > 60 ? QStringLiteral("/tmp") : QDir::tempPath())
                + QStringLiteral("/pbx-pg-XXXXXX"))
    {}
    ~PostgresServer() { stop(); }
    PostgresServer(const PostgresServer &) = delete;
    PostgresServer &operator=(const PostgresServer &) = delete;

    /// initdb + start. Empty on success, else the failing step and its log.
    std::string initialise()
    {
        if (!m_dir.isValid())
            return "cannot create a temporary directory";
        if (geteuid() == 0) {
            const passwd *nobody = getpwnam("nobody");
            if (!nobody || chown(directory().c_str(), nobody->pw_uid, nobody->pw_gid) != 0)
                return "cannot hand " + directory() + " to the user nobody";
        }
        const std::string initdb = command(std::string(binaries) + "/initdb -D " + directory()
                                           + "/data -U pbx --auth=trust --no-sync -E UTF8 --locale=C");
        if (std::system((initdb + " > " + directory() + "/initdb.log 2>&1").c_str()) != 0)
            return "initdb failed: " + readFile("initdb.log");
        return start();
    }

    /// pg_ctl start (waits until it accepts connections). Empty on success.
    std::string start()
    {
        const std::string options
            = "-k " + directory() + " -c listen_addresses= -c fsync=off -c full_page_writes=off";
        const std::string line = command(std::string(binaries) + "/pg_ctl -D " + directory() + "/data -l "
                                         + directory() + "/server.log -w -t 60 -o '" + options + "' start");
        if (std::system((line + " > /dev/null 2>&1").c_str()) != 0)
            return "pg_ctl start failed: " + readFile("server.log");
        m_running = true;
        return {};
    }

    /// pg_ctl stop; mode "immediate" kills the server as a crash would (no clean shutdown).
    bool stop(const char *mode = "fast")
    {
        if (!m_running)
            return true;
        const std::string line
            = command(std::string(binaries) + "/pg_ctl -D " + directory() + "/data -m " + mode + " -w stop");
        m_running = std::system((line + " > /dev/null 2>&1").c_str()) != 0;
        return !m_running;
    }

    /// The socket directory (libpq's host=).
    std::string directory() const { return m_dir.path().toStdString(); }

    /// A libpq connection string for database `database` as the superuser.
    std::string conninfo(const std::string &database = "postgres") const
    {
        return "host=" + directory() + " user=pbx dbname=" + database;
    }

private:
    std::string command(const std::string &line) const
    {
        if (geteuid() != 0)
            return "cd " + directory() + " && " + line;
        return "cd " + directory() + " && runuser -u nobody -- " + line;
    }

    std::string readFile(const char *name) const
    {
        QFile file(QString::fromStdString(directory() + "/" + name));
        if (!file.open(QIODevice::ReadOnly))
            return "(no log)";
        return file.readAll().right(2000).toStdString();
    }

    QTemporaryDir m_dir;
    bool m_running = false;
};

/// A superuser connection for setting up test data (never what the source under test uses).
class PostgresAdmin
{
public:
    explicit PostgresAdmin(const std::string &conninfo) : m_connection(PQconnectdb(conninfo.c_str())) {}
    ~PostgresAdmin() { PQfinish(m_connection); }
    PostgresAdmin(const PostgresAdmin &) = delete;
    PostgresAdmin &operator=(const PostgresAdmin &) = delete;

    bool ok() const { return PQstatus(m_connection) == CONNECTION_OK; }
    std::string error() const { return PQerrorMessage(m_connection); }

    /// Runs `sql` (several statements allowed); empty on success, else the server's message.
    std::string exec(const std::string &sql)
    {
        PGresult *result = PQexec(m_connection, sql.c_str());
        const ExecStatusType status = PQresultStatus(result);
        std::string message
            = status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK ? "" : PQresultErrorMessage(result);
        PQclear(result);
        return message;
    }

    /// The first value of the first row of `sql`, or "" on error.
    std::string value(const std::string &sql)
    {
        PGresult *result = PQexec(m_connection, sql.c_str());
        std::string text = PQresultStatus(result) == PGRES_TUPLES_OK && PQntuples(result) > 0
                               ? PQgetvalue(result, 0, 0)
                               : "";
        PQclear(result);
        return text;
    }

    /// COPY `table` FROM STDIN with tab-separated `rows` (one line each, ending in '\n').
    std::string copy(const std::string &table, const std::string &rows)
    {
        PGresult *started = PQexec(m_connection, ("COPY " + table + " FROM STDIN").c_str());
        const bool copying = PQresultStatus(started) == PGRES_COPY_IN;
        PQclear(started);
        if (!copying)
            return error();
        if (PQputCopyData(m_connection, rows.data(), static_cast<int>(rows.size())) != 1
            || PQputCopyEnd(m_connection, nullptr) != 1)
            return error();
        std::string message;
        while (PGresult *result = PQgetResult(m_connection)) {
            if (PQresultStatus(result) != PGRES_COMMAND_OK)
                message = PQresultErrorMessage(result);
            PQclear(result);
        }
        return message;
    }

private:
    PGconn *m_connection;
};

} // namespace pbx::test
