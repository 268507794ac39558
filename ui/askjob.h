// SPDX-License-Identifier: MIT
// One request asked off the GUI thread (SessionDocument::startAsk, for a session whose data live in
// a database, where a statement may run up to its timeout). As a lesson step's job
// (ui/lessons/lessonjob.h): the job continues a copy of the document's session, rebuilt from its
// events (Session::restore: the same filter state; seeded noise depends only on the seed and the
// event's index, so the answer is the one the document itself would give), asks the request with
// its journal line written before it returns (askJournaled, as SessionDocument::ask), and the
// document takes the continued session and its journal back on the GUI thread. The document's own
// session is never touched by the job, so the views may go on reading it meanwhile.
//
// Cancel: the promise's cancel before the job starts asks nothing; during the request the
// source's setCancelRequested stops its statement, which fails with Cancelled before anything is
// charged (the true answer is computed before the charge, docs/data-sources.md). A cancel that
// comes after the charge changes nothing: the request is spent and recorded.
#pragma once

#include "core/session/session.h"
#include "ui/journalkeeper.h"

#include <QFuture>
#include <QPromise>

#include <memory>
#include <optional>
#include <vector>

namespace pbx::ui {

struct AskJobInput
{
    std::shared_ptr<const data::Source> source;
    session::SessionSettings settings;
    std::vector<session::LedgerEvent> events; ///< the session so far
    session::QueryRequest request;
};

/// What the job works on and leaves behind. The caller fills `journal` (the document's) and reads
/// the rest once the future has finished.
struct AskJobState
{
    JournalKeeper journal;
    std::unique_ptr<session::Session> session;         ///< the continued session (null: never rebuilt)
    std::optional<Result<session::LedgerEvent>> event; ///< unset: cancelled before it started
};

/// Runs the job on `state` (no progress steps: one request).
void runAskJob(QPromise<void> &promise, const AskJobInput &input, AskJobState &state);

/// QtConcurrent::run(runAskJob, …) on the global pool.
QFuture<void> startAskJob(AskJobInput input, std::shared_ptr<AskJobState> state);

} // namespace pbx::ui
