// SPDX-License-Identifier: MIT
// A transcript as `pbx-cli run --out` writes it (no journal beside it), for the tests of the
// GUI's continuation of transcripts (tests/ui/tst_guicrash.cpp, tests/lessons/tst_lessonsgui.cpp).
#pragma once

#include "core/io/transcript_json.h"
#include "core/session/session.h"
#include "ui/sessiondocument.h"

#include <QFile>
#include <QString>

namespace pbx::test {

/// A count with an absolute accuracy target (95 %).
inline session::QueryRequest countRequest(const char *where, double error)
{
    session::QueryRequest r;
    r.query.where = where;
    r.target = {session::TargetKind::Absolute, error, 0.95};
    return r;
}

/// Writes two counts on cps1988 (seed 11, ε = 1) to `path`; returns `path`, or empty on failure.
inline QString writeCliTranscript(const QString &path)
{
    session::SessionSettings settings;
    settings.seed = 11;
    auto s = session::Session::create(ui::SessionDocument::loadTable(QStringLiteral("cps1988")).value(),
                                      settings);
    if (!s.ok() || !(*s)->ask(countRequest("region == \"south\"", 50)).ok()
        || !(*s)->ask(countRequest("education >= 16", 50)).ok())
        return {};
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    const std::string text = io::writeTranscriptJson(**s);
    return f.write(text.data(), static_cast<qint64>(text.size())) == static_cast<qint64>(text.size())
               ? path
               : QString();
}

} // namespace pbx::test
