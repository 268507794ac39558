// SPDX-License-Identifier: MIT
#include "ui/askjob.h"

#include <QtConcurrent/QtConcurrentRun>

namespace pbx::ui {

void runAskJob(QPromise<void> &promise, const AskJobInput &input, AskJobState &state)
{
    if (promise.isCanceled())
        return;
    auto restored = session::Session::restore(input.source, input.settings, input.events);
    if (!restored.ok()) {
        state.event = restored.error();
        return;
    }
    state.session = std::move(restored).value();
    state.event = askJournaled(*state.session, state.journal, input.request);
}

QFuture<void> startAskJob(AskJobInput input, std::shared_ptr<AskJobState> state)
{
    return QtConcurrent::run(
        [input = std::move(input), state](QPromise<void> &promise) { runAskJob(promise, input, *state); });
}

} // namespace pbx::ui
