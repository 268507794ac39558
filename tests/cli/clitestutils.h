// SPDX-License-Identifier: MIT
// Runs the pbx-cli under test (PBX_CLI, set by tests/cli/CMakeLists.txt) as a real process.
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace pbx::test {

/// Writes `text` to the file at `path` byte for byte, replacing what it held.
inline void writeFile(const QString &path, const std::string &text)
{
    std::ofstream(path.toStdString(), std::ios::binary) << text;
}

/// The JSON document in the file at `path`. Throws nlohmann::json::parse_error if it is not JSON.
inline nlohmann::json readJson(const QString &path)
{
    std::ifstream in(path.toStdString());
    std::stringstream s;
    s << in.rdbuf();
    return nlohmann::json::parse(s.str());
}

/// What one pbx-cli run printed and returned.
struct CliRun
{
    int exitCode = -1;
    QString out;
    QString err;
};

/// The arguments of `pbx-cli run --queries Q --out O --journal J extra…`.
inline QStringList runCommandArguments(const QString &queries, const QString &out, const QString &journal,
                                       const QStringList &extra = {})
{
    return QStringList{QStringLiteral("run"),
                       QStringLiteral("--queries"),
                       queries,
                       QStringLiteral("--out"),
                       out,
                       QStringLiteral("--journal"),
                       journal}
           + extra;
}

/// Runs `pbx-cli args…` (in `workingDirectory` when given) and waits up to two minutes.
inline CliRun runCli(const QStringList &args, const QString &workingDirectory = {})
{
    QProcess p;
    if (!workingDirectory.isEmpty())
        p.setWorkingDirectory(workingDirectory);
    p.start(QStringLiteral(PBX_CLI), args);
    p.waitForFinished(120000);
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

} // namespace pbx::test
