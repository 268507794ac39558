// SPDX-License-Identifier: MIT
// Runs the pbx-cli under test (PBX_CLI, set by tests/cli/CMakeLists.txt) as a real process.
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>

namespace pbx::test {

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
