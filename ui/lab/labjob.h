// SPDX-License-Identifier: MIT
// The relative-error lab's computation, run off the GUI thread: build the workload (the data cube
// of the table's counts) and run every method (core/simulation/relative_error_lab.h). The core's
// progress callback is mapped onto the QPromise (value and text) and answers "stop?" with
// isCanceled(). It never touches a widget: the dialog gets the outcome through a QFutureWatcher.
#pragma once

#include "core/data/table.h"
#include "core/simulation/relative_error_lab.h"

#include <QFuture>
#include <QPromise>
#include <QString>

#include <memory>
#include <vector>

namespace pbx::ui {

struct LabInput
{
    std::shared_ptr<const data::Table> table;
    simulation::LabSettings settings;
    std::vector<simulation::LabMethod> methods = simulation::defaultLabMethods();
    int threads = 2;
};

struct LabOutcome
{
    QString error;         ///< the lab could not run (invalid settings or workload); nothing else set
    std::size_t cells = 0; ///< counts in the workload
    std::vector<simulation::LabResult> results; ///< one per method, in the input's order
    double seconds = 0.0;
};

/// Progress range of the job: 0 … kLabProgressMax.
inline constexpr int kLabProgressMax = 1000;

/// Runs the lab; adds one outcome unless cancelled (then it adds nothing).
void runLab(QPromise<LabOutcome> &promise, const LabInput &input);

/// QtConcurrent::run(runLab, input) on the global pool.
QFuture<LabOutcome> startLab(const LabInput &input);

} // namespace pbx::ui
