// SPDX-License-Identifier: MIT
// The Output-DP lab's long computation, off the GUI thread: the sparse-vector release-noise
// figure (one exact quadrature per number of large entries, core/odp/sparse_vector.h). Progress
// is reported per row and a cancel stops between rows; it never touches a widget.
#pragma once

#include "core/odp/sparse_vector.h"

#include <QFuture>
#include <QPromise>
#include <QString>

#include <vector>

namespace pbx::ui {

struct SvtFigureInput
{
    int entries = 100;
    double big = 1000.0;
    double threshold = 500.0;
    int cutoff = 10;
    double epsilon = 1.0;
    double svtShare = 0.5;
    int largestCount = 20; ///< rows L = 0 … largestCount
};

struct SvtFigureOutcome
{
    QString error;
    double epsilon1 = 0.0;
    double epsilon2 = 0.0;
    std::vector<odp::SvtFigureRow> rows;
};

/// Computes the rows; adds one outcome unless cancelled.
void runSvtFigure(QPromise<SvtFigureOutcome> &promise, const SvtFigureInput &input);
/// QtConcurrent::run(runSvtFigure, input).
QFuture<SvtFigureOutcome> startSvtFigure(const SvtFigureInput &input);

} // namespace pbx::ui
