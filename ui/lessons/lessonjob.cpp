// SPDX-License-Identifier: MIT
#include "ui/lessons/lessonjob.h"

#include <QObject>
#include <QtConcurrent/QtConcurrentRun>

namespace pbx::ui {

void runLessonJob(QPromise<void> &promise, const LessonJobInput &input, LessonJobState &state)
{
    auto restored = session::Session::restore(input.table, input.settings, input.events);
    if (!restored.ok()) {
        state.error = QString::fromStdString(restored.error().message);
        return;
    }
    state.session = std::move(restored).value();
    const int total = input.repeat * static_cast<int>(input.requests.size());
    promise.setProgressRange(0, total);
    int done = 0;
    for (int r = 0; r < input.repeat; ++r)
        for (const auto &request : input.requests) {
            if (promise.isCanceled()) {
                state.cancelled = true;
                state.error = QObject::tr("cancelled after %1 of %2 requests").arg(done).arg(total);
                return;
            }
            // A refusal (budget) is a ledger event; an error stops the step.
            auto event = askJournaled(*state.session, state.journal, request);
            if (!event.ok()) {
                state.error
                    = QString::fromStdString("request '" + request.id + "': " + event.error().message);
                return;
            }
            ++done;
            promise.setProgressValueAndText(done, QObject::tr("Request %1 of %2").arg(done).arg(total));
        }
}

QFuture<void> startLessonJob(LessonJobInput input, std::shared_ptr<LessonJobState> state)
{
    return QtConcurrent::run(
        [input = std::move(input), state](QPromise<void> &promise) { runLessonJob(promise, input, *state); });
}

} // namespace pbx::ui
