// SPDX-License-Identifier: MIT
#include "ui/lab/labjob.h"

#include "ui/util/numberformat.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace pbx::ui {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("pbx::ui::LabJob", text);
}

} // namespace

void runLab(QPromise<LabOutcome> &promise, const LabInput &input)
{
    QElapsedTimer clock;
    clock.start();
    promise.setProgressRange(0, kLabProgressMax);
    promise.setProgressValueAndText(0, tr("Building the workload…"));
    LabOutcome outcome;
    if (!input.table) {
        outcome.error = tr("no dataset is open");
        promise.addResult(outcome);
        return;
    }
    auto workload = simulation::countCells(*input.table);
    if (promise.isCanceled())
        return;
    if (!workload.ok()) {
        outcome.error = toQString(workload.error().message);
        promise.addResult(outcome);
        return;
    }
    outcome.cells = workload->cells.size();

    // The core reports repetitions done over all methods; the first 2 % went to the workload.
    int last = -1;
    const auto progress = [&](std::int64_t done, std::int64_t total) {
        if (promise.isCanceled())
            return false;
        const double fraction = total > 0 ? static_cast<double>(done) / static_cast<double>(total) : 0.0;
        const int value = 20 + static_cast<int>(fraction * (kLabProgressMax - 20));
        if (value != last) {
            last = value;
            promise.setProgressValueAndText(std::min(value, kLabProgressMax),
                                            tr("%1 of %2 runs (methods × repetitions)").arg(done).arg(total));
        }
        return true;
    };
    auto results
        = simulation::runRelativeErrorLab(*workload, input.settings, input.methods, progress, input.threads);
    if (promise.isCanceled())
        return;
    if (!results.ok()) {
        if (results.error().code == ErrorCode::Cancelled)
            return;
        outcome.error = toQString(results.error().message);
        promise.addResult(outcome);
        return;
    }
    outcome.results = std::move(results).value();
    outcome.seconds = static_cast<double>(clock.elapsed()) / 1000.0;
    promise.setProgressValueAndText(kLabProgressMax, tr("Done"));
    promise.addResult(outcome);
}

QFuture<LabOutcome> startLab(const LabInput &input)
{
    return QtConcurrent::run([input](QPromise<LabOutcome> &promise) { runLab(promise, input); });
}

} // namespace pbx::ui
