// SPDX-License-Identifier: MIT
// A lesson step's requests, asked off the GUI thread: the session the step continues is rebuilt
// from its events (Session::restore; seeded noise depends only on the seed and the event's index,
// so the answers are those the document itself would give), each request is asked `repeat` times
// with its journal line written before the next (askJournaled, as SessionDocument::ask), and the
// continued session and its journal are handed back to the document (SessionDocument::
// adoptSession) even when cancelled or stopped by an error: what was asked is spent and recorded.
#pragma once

#include "core/session/session.h"
#include "ui/journalkeeper.h"

#include <QFuture>
#include <QPromise>
#include <QString>

#include <memory>
#include <vector>

namespace pbx::ui {

struct LessonJobInput
{
    std::shared_ptr<const data::Table> table;
    session::SessionSettings settings;
    std::vector<session::LedgerEvent> events; ///< the session so far
    std::vector<session::QueryRequest> requests;
    int repeat = 1;
};

/// What the job works on and leaves behind. The caller fills `journal` (the document's,
/// SessionDocument::lendJournal) and reads the rest once the future has finished; a job cancelled
/// before it started leaves `journal` as it was and `session` null.
struct LessonJobState
{
    JournalKeeper journal;
    std::unique_ptr<session::Session> session; ///< the continued session (null if never rebuilt)
    QString error;                             ///< why it stopped early; empty when all were asked
    bool cancelled = false;                    ///< stopped by the user
};

/// Runs the job on `state` (progress: requests asked, 0 … requests × repeat).
void runLessonJob(QPromise<void> &promise, const LessonJobInput &input, LessonJobState &state);

/// QtConcurrent::run(runLessonJob, …) on the global pool.
QFuture<void> startLessonJob(LessonJobInput input, std::shared_ptr<LessonJobState> state);

} // namespace pbx::ui
