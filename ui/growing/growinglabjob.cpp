// SPDX-License-Identifier: MIT
#include "ui/growing/growinglabjob.h"

#include "resources/dataset_catalog.h"

#include <QCoreApplication>
#include <QtConcurrent>

#include <algorithm>

namespace pbx::ui {

using io::json::Json;

double growingQuantile(std::vector<double> v, double q)
{
    std::sort(v.begin(), v.end());
    const double pos = q * double(v.size() - 1);
    const std::size_t i = static_cast<std::size_t>(pos);
    const double frac = pos - double(i);
    return i + 1 < v.size() ? v[i] * (1.0 - frac) + v[i + 1] * frac : v[i];
}

void runGrowingJob(QPromise<GrowingRunOutcome> &promise, const growing::GrowingLabConfig &config,
                   std::uint64_t seed)
{
    GrowingRunOutcome out;
    const bool pmwg = config.algorithm == growing::LabAlgorithm::Pmwg;
    const int runs = pmwg ? 1 : config.repetitions;
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
    one.repetitions = 1;
    // The plan may run past the data; the simulation stops at the dataset's last row.
    if (!one.end || *one.end > table->rowCount())
        one.end = table->rowCount();
    std::vector<std::vector<double>> perEpoch;
    for (int rep = 0; rep < runs; ++rep) {
        if (promise.isCanceled())
            return;
        auto doc = growing::runGrowingLab(one, &*table, growingRepetitionSeed(seed, rep), false);
        if (!doc) {
            out.error = QString::fromStdString(doc.error().message);
            promise.addResult(std::move(out));
            return;
        }
        if (!pmwg) {
            const Json &mc = (*doc)["monte_carlo"];
            out.runsExceeding += mc["runs_exceeding"].get<int>();
            if (config.algorithm == growing::LabAlgorithm::BBScheduler) {
                // One repetition: its "max" is the run's worst error, its per-epoch "median" the
                // epoch's worst error.
                out.worstPerRun.push_back(mc["max_error"]["max"].get<double>());
                const Json &epochs = mc["epoch_max_error_median"];
                perEpoch.resize(epochs.size());
                for (std::size_t i = 0; i < epochs.size(); ++i)
                    perEpoch[i].push_back(epochs[i].get<double>());
            } else {
                out.worstPerRun.push_back(mc["max_error_at_end"]["max"].get<double>());
            }
        }
        out.document = std::move(*doc);
        out.repetitions = rep + 1;
        promise.setProgressValueAndText(
            rep + 1, QCoreApplication::translate("GrowingLab", "run %1 of %2").arg(rep + 1).arg(runs));
    }
    if (promise.isCanceled())
        return;
    for (const auto &sample : perEpoch) {
        out.epochMedian.push_back(growingQuantile(sample, 0.5));
        out.epochQ95.push_back(growingQuantile(sample, 0.95));
    }
    if (!pmwg && !out.worstPerRun.empty()) {
        // The document describes the whole run, not its last repetition.
        Json &doc = out.document;
        doc["settings"]["repetitions"] = runs;
        doc["settings"]["seed"] = seed;
        doc["settings"]["repetition_seeds"] = "seed + r for r = 0 ... repetitions - 1, one core run each";
        const Json summary{{"median", growingQuantile(out.worstPerRun, 0.5)},
                           {"q95", growingQuantile(out.worstPerRun, 0.95)},
                           {"max", *std::max_element(out.worstPerRun.begin(), out.worstPerRun.end())}};
        Json mc{{"repetitions", runs}, {"runs_exceeding", out.runsExceeding}};
        if (config.algorithm == growing::LabAlgorithm::BBScheduler) {
            mc["max_error"] = summary;
            mc["epoch_max_error_median"] = out.epochMedian;
            mc["epoch_max_error_q95"] = out.epochQ95;
        } else {
            mc["max_error_at_end"] = summary;
        }
        doc["monte_carlo"] = std::move(mc);
    }
    promise.addResult(std::move(out));
}

QFuture<GrowingRunOutcome> startGrowingJob(const growing::GrowingLabConfig &config, std::uint64_t seed)
{
    return QtConcurrent::run(runGrowingJob, config, seed);
}

} // namespace pbx::ui
