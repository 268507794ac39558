// SPDX-License-Identifier: MIT
#include "ui/strategies/strategiesjob.h"

#include <QtConcurrent>

namespace pbx::ui {

void runStrategiesJob(QPromise<StrategiesJobOutcome> &promise, const strategies::LabConfig &config,
                      const std::shared_ptr<const data::Table> &table, std::uint64_t seed)
{
    promise.setProgressRange(0, 1000);
    auto result = strategies::runStrategiesLab(
        config, table.get(), seed, [&promise](double f, const std::string &stage) {
            promise.setProgressValueAndText(static_cast<int>(f * 1000.0), QString::fromStdString(stage));
            return !promise.isCanceled();
        });
    if (promise.isCanceled())
        return;
    StrategiesJobOutcome out;
    if (result)
        out.result = std::move(result.value());
    else
        out.error = QString::fromStdString(result.error().message);
    promise.addResult(std::move(out));
}

QFuture<StrategiesJobOutcome> startStrategiesJob(const strategies::LabConfig &config,
                                                 std::shared_ptr<const data::Table> table, std::uint64_t seed)
{
    return QtConcurrent::run(runStrategiesJob, config, std::move(table), seed);
}

} // namespace pbx::ui
