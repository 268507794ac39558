// SPDX-License-Identifier: MIT
#include "ui/growing/growinglabjob.h"

#include "core/growing/lab_monte_carlo.h"
#include "resources/dataset_catalog.h"

#include <QCoreApplication>
#include <QtConcurrent>

#include <algorithm>
#include <limits>

namespace pbx::ui {

using io::json::Json;

double growingQuantile(std::vector<double> sample, double q)
{
    return growing::labQuantile(std::move(sample), q);
}

std::uint64_t growingOrderSeed(std::uint64_t seed, int rep)
{
    return growing::labOrderSeed(seed, rep);
}

namespace {

/// A number of the document's array, or NaN.
std::vector<double> numbers(const Json &array)
{
    std::vector<double> out;
    if (!array.is_array())
        return out;
    for (const Json &x : array)
        out.push_back(x.is_number() ? x.get<double>() : std::numeric_limits<double>::quiet_NaN());
    return out;
}

} // namespace

void runGrowingJob(QPromise<GrowingRunOutcome> &promise, const growing::GrowingLabConfig &config,
                   std::uint64_t seed)
{
    GrowingRunOutcome out;
    // PMWG is one run; the others report after each repetition (SmallDBG and ERMG after each epoch
    // or fit), so the range is set again from the core's first report.
    const int runs = config.algorithm == growing::LabAlgorithm::Pmwg ? 1 : config.repetitions;
    promise.setProgressRange(0, runs);
    promise.setProgressValueAndText(
        0,
        QCoreApplication::translate("GrowingLab", "loading %1…").arg(QString::fromStdString(config.dataset)));
    auto table = resources::loadDataset(config.dataset);
    if (!table) {
        out.error = QString::fromStdString(table.error().message);
        promise.addResult(std::move(out));
        return;
    }
    growing::GrowingLabConfig one = config;
    // The plan may run past the data; the simulation stops at the dataset's last row.
    if (!one.end || *one.end > table->rowCount())
        one.end = table->rowCount();
    std::uint64_t range = std::uint64_t(runs);
    const growing::LabProgress progress = [&](const growing::LabProgressStep &step) {
        if (promise.isCanceled())
            return false;
        if (step.runError)
            out.worstPerRun.push_back(*step.runError);
        // QProgressBar takes ints: a range above INT_MAX units is shown in repetitions.
        const bool units = step.total <= std::uint64_t(std::numeric_limits<int>::max());
        const std::uint64_t total = units ? step.total : std::uint64_t(step.repetitions);
        if (total != range) {
            range = total;
            promise.setProgressRange(0, int(total));
        }
        promise.setProgressValueAndText(int(units ? step.done : std::uint64_t(step.repetitionsDone)),
                                        QCoreApplication::translate("GrowingLab", "%1 of %2 runs done")
                                            .arg(step.repetitionsDone)
                                            .arg(step.repetitions));
        return true;
    };
    // The core's own simulation, exactly as `pbx-cli simulate growing --seed N` runs it.
    auto doc = growing::runGrowingLab(one, &*table, seed, false, progress);
    if (promise.isCanceled())
        return;
    if (!doc) {
        out.error = QString::fromStdString(doc.error().message);
        promise.addResult(std::move(out));
        return;
    }
    out.document = std::move(*doc);
    const Json &mc = out.document.value("monte_carlo", Json::object());
    out.repetitions = mc.value("repetitions", 1);
    out.runsExceeding = mc.value("runs_exceeding", 0);
    out.epochMedian = numbers(mc.value("epoch_max_error_median", Json()));
    out.epochQ05 = numbers(mc.value("epoch_max_error_q05", Json()));
    out.epochQ95 = numbers(mc.value("epoch_max_error_q95", Json()));
    promise.setProgressValueAndText(
        int(range), QCoreApplication::translate("GrowingLab", "%1 of %1 runs done").arg(out.repetitions));
    promise.addResult(std::move(out));
}

QFuture<GrowingRunOutcome> startGrowingJob(const growing::GrowingLabConfig &config, std::uint64_t seed)
{
    return QtConcurrent::run(runGrowingJob, config, seed);
}

} // namespace pbx::ui
