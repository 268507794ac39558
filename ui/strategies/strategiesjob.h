// SPDX-License-Identifier: MIT
// One strategies-lab experiment (core/strategies/strategies_lab.h) off the GUI thread: the core's
// progress callback is mapped onto the QPromise (value 0…1000 and text) and answers "stop?" with
// isCanceled(). It never touches a widget.
#pragma once

#include "core/data/table.h"
#include "core/simulation/strategies_lab_run.h"
#include "core/strategies/strategies_lab.h"

#include <QFuture>
#include <QPromise>
#include <QString>

#include <memory>

namespace pbx::ui {

struct StrategiesJobOutcome
{
    QString error;                          ///< empty on success
    strategies::StrategiesLabResult result; ///< the core's result (strategies::labResultJson writes it)
};

/// Runs the experiment; adds one outcome unless cancelled.
void runStrategiesJob(QPromise<StrategiesJobOutcome> &promise, const strategies::LabConfig &config,
                      const std::shared_ptr<const data::Table> &table, std::uint64_t seed);

/// QtConcurrent::run(runStrategiesJob, …) on the global pool.
QFuture<StrategiesJobOutcome> startStrategiesJob(const strategies::LabConfig &config,
                                                 std::shared_ptr<const data::Table> table,
                                                 std::uint64_t seed);

} // namespace pbx::ui
