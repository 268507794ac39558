// SPDX-License-Identifier: MIT
#include "ui/odp/odplabjob.h"

#include <QCoreApplication>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace pbx::ui {

void runSvtFigure(QPromise<SvtFigureOutcome> &promise, const SvtFigureInput &input)
{
    SvtFigureOutcome outcome;
    const int last = std::clamp(input.largestCount, 0, input.entries);
    promise.setProgressRange(0, last + 1);
    auto split = odp::lyuSplit(input.epsilon * input.svtShare, input.cutoff);
    if (!split || !(input.svtShare > 0.0 && input.svtShare < 1.0)) {
        outcome.error
            = split ? QCoreApplication::translate("OdpLab", "the sparse-vector share must lie in (0, 1)")
                    : QString::fromStdString(split.error().message);
        promise.addResult(outcome);
        return;
    }
    outcome.epsilon1 = split->epsilon1;
    outcome.epsilon2 = split->epsilon2;
    const odp::SvtParameters p{split->epsilon1, split->epsilon2, input.cutoff, 1.0};
    for (int l = 0; l <= last; ++l) {
        if (promise.isCanceled())
            return;
        auto row = odp::svtFigureRow(input.entries, l, input.big, input.threshold, p,
                                     input.epsilon * (1.0 - input.svtShare));
        if (!row) {
            outcome.error = QString::fromStdString(row.error().message);
            promise.addResult(outcome);
            return;
        }
        outcome.rows.push_back(*row);
        promise.setProgressValueAndText(
            l + 1, QCoreApplication::translate("OdpLab", "L = %1 of %2").arg(l).arg(last));
    }
    promise.addResult(outcome);
}

QFuture<SvtFigureOutcome> startSvtFigure(const SvtFigureInput &input)
{
    return QtConcurrent::run(runSvtFigure, input);
}

} // namespace pbx::ui
