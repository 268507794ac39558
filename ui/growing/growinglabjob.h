// SPDX-License-Identifier: MIT
// The growing-database lab's Monte Carlo, off the GUI thread: the core's own simulation
// (growing::runGrowingLab, exactly what `pbx-cli simulate growing --seed N` runs: repetition r's
// arrival order from growingOrderSeed(seed, r)), followed through its progress reports — after each
// repetition, and for SmallDBG and ERMG after each epoch or fit — which also stop it between them
// when the job is cancelled. PMWG is one run (a cancel discards it). True answers are read to score
// accuracy, never to decide. It never touches a widget.
#pragma once

#include "core/growing/growing_lab.h"
#include "core/simulation/growing_lab_run.h"

#include <QFuture>
#include <QPromise>
#include <QString>

#include <cstdint>
#include <vector>

namespace pbx::ui {

struct GrowingRunOutcome
{
    QString error; ///< empty on success
    /// The core's result: the plan and configuration of the runs, and the Monte Carlo summarising
    /// every repetition (the per-run samples below); growing::growingLabResultJson writes it.
    growing::GrowingLabResult result;
    int repetitions = 0;
    /// BBScheduler and SmallDBG: the largest error over the whole stream, one per run; BBImprover:
    /// the error at the last step, one per run (fraction scale). Empty for PMWG, NSG and ERMG.
    std::vector<double> worstPerRun;
    /// BBScheduler and SmallDBG: per epoch, the median over runs of the epoch's largest error.
    std::vector<double> epochMedian;
    /// BBScheduler and SmallDBG: per epoch, the 5th percentile over runs of the epoch's largest error.
    std::vector<double> epochQ05;
    /// BBScheduler and SmallDBG: per epoch, the 95th percentile over runs of the epoch's largest error.
    std::vector<double> epochQ95;
    int runsExceeding = 0; ///< runs in which some error exceeded its bound
};

/// Linear-interpolation quantile (numpy's default) of a non-empty sample; q in [0, 1].
double growingQuantile(std::vector<double> sample, double q);

/// The arrival-order seed of repetition `rep` of a run seeded `seed`: the core's
/// growing::labOrderSeed (core/growing/lab_monte_carlo.h), shared with the CLI.
std::uint64_t growingOrderSeed(std::uint64_t seed, int rep);

/// Runs the simulation of `config` on its dataset (loaded here); adds one outcome unless
/// cancelled: `config.repetitions` runs (one for PMWG), the plan's end capped at the dataset's rows.
void runGrowingJob(QPromise<GrowingRunOutcome> &promise, const growing::GrowingLabConfig &config,
                   std::uint64_t seed);

/// QtConcurrent::run(runGrowingJob, …) on the global pool.
QFuture<GrowingRunOutcome> startGrowingJob(const growing::GrowingLabConfig &config, std::uint64_t seed);

} // namespace pbx::ui
