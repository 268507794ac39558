// SPDX-License-Identifier: MIT
#include "ui/growing/growinglabjob.h"

#include "core/growing/lab_monte_carlo.h"
#include "resources/dataset_catalog.h"

#include <QCoreApplication>
#include <QtConcurrent>

#include <algorithm>
#include <limits>
#include <variant>

namespace pbx::ui {

double growingQuantile(std::vector<double> sample, double q)
{
    return growing::labQuantile(std::move(sample), q);
}

std::uint64_t growingOrderSeed(std::uint64_t seed, int rep)
{
    return growing::labOrderSeed(seed, rep);
}

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
    auto result = growing::runGrowingLab(one, &*table, seed, false, progress);
    if (promise.isCanceled())
        return;
    if (!result) {
        out.error = QString::fromStdString(result.error().message);
        promise.addResult(std::move(out));
        return;
    }
    out.result = std::move(*result);
    out.repetitions = 1; // PMWG: one run
    if (const auto *s = std::get_if<growing::SchedulerResult>(&out.result.body); s && s->monteCarlo) {
        out.repetitions = s->monteCarlo->repetitions;
        out.runsExceeding = s->monteCarlo->runsExceeding;
        out.epochMedian = s->monteCarlo->epochMedian;
        out.epochQ05 = s->monteCarlo->epochQ05;
        out.epochQ95 = s->monteCarlo->epochQ95;
    } else if (const auto *i = std::get_if<growing::ImproverResult>(&out.result.body); i && i->monteCarlo) {
        out.repetitions = i->monteCarlo->repetitions;
        out.runsExceeding = i->monteCarlo->runsExceeding;
    } else if (const auto *n = std::get_if<growing::NsgResult>(&out.result.body); n && n->monteCarlo) {
        out.repetitions = n->monteCarlo->repetitions;
    } else if (const auto *e = std::get_if<growing::ErmgResult>(&out.result.body); e && e->monteCarlo) {
        out.repetitions = e->monteCarlo->repetitions;
    }
    promise.setProgressValueAndText(
        int(range), QCoreApplication::translate("GrowingLab", "%1 of %1 runs done").arg(out.repetitions));
    promise.addResult(std::move(out));
}

QFuture<GrowingRunOutcome> startGrowingJob(const growing::GrowingLabConfig &config, std::uint64_t seed)
{
    return QtConcurrent::run(runGrowingJob, config, seed);
}

} // namespace pbx::ui
