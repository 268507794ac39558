// SPDX-License-Identifier: MIT
// `pbx-cli simulate <lab>` runs for tests: the lab document goes to NAME.lab.json in a scratch
// folder, the result to NAME.out.json beside it.
#pragma once

#include "core/io/json_fields.h"
#include "tests/cli/clitestutils.h"
#include "tests/testutils.h"

#include <QTemporaryDir>
#include <QtGlobal>

#include <fstream>
#include <string>

namespace pbx::test {

class SimulateLabFixture
{
public:
    explicit SimulateLabFixture(QString lab) : m_lab(std::move(lab)) {}

    /// Writes `text` to `name` in the scratch folder and returns its path.
    QString write(const QString &name, const std::string &text) const
    {
        const QString path = m_dir.filePath(name);
        std::ofstream(path.toStdString()) << text;
        return path;
    }

    /// Runs `pbx-cli simulate <lab> --config NAME.lab.json --out NAME.out.json extra…`.
    CliRun run(const std::string &config, const QString &name, const QStringList &extra = {}) const
    {
        const QString in = write(name + QStringLiteral(".lab.json"), config);
        return runCli(QStringList{QStringLiteral("simulate"), m_lab, QStringLiteral("--config"), in,
                                  QStringLiteral("--out"), outPath(name)}
                      + extra);
    }

    /// run(), then NAME.out.json parsed; null (and the CLI's stderr logged) when the run failed.
    io::json::Json runLab(const std::string &config, const QString &name, const QStringList &extra = {}) const
    {
        const CliRun r = run(config, name, extra);
        if (r.exitCode != 0) {
            qWarning("%s", qPrintable(r.err));
            return {};
        }
        auto doc = io::json::parse(readTextFile(outPath(name).toStdString()), "out");
        return doc ? *doc : io::json::Json();
    }

    QString outPath(const QString &name) const { return m_dir.filePath(name + QStringLiteral(".out.json")); }

private:
    QString m_lab;
    QTemporaryDir m_dir;
};

} // namespace pbx::test
