// SPDX-License-Identifier: MIT
#include "ui/growing/growinglabjob.h"

#include "core/data/predicate.h"
#include "core/growing/bb_improver.h"
#include "core/growing/growing_svt.h"
#include "core/growing/lab_monte_carlo.h"
#include "core/growing/stream_model.h"
#include "resources/dataset_catalog.h"

#include <QCoreApplication>
#include <QtConcurrent>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <span>

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

/// One held black-box run per epoch (start, last, ε_i, bound) of the scheduler's plan.
struct EpochRun
{
    std::uint64_t start = 0;
    std::uint64_t last = 0;
    double epsilon = 0.0;
    double bound = 0.0; ///< NaN when the plan has none (never exceeded)
};

double numberOrNan(const Json &j)
{
    return j.is_number() ? j.get<double>() : std::numeric_limits<double>::quiet_NaN();
}

} // namespace

void runGrowingJob(QPromise<GrowingRunOutcome> &promise, const growing::GrowingLabConfig &config,
                   std::uint64_t seed)
{
    GrowingRunOutcome out;
    // PMWG, NSG, ERMG and SmallDBG: the core's document as it is (SmallDBG's Monte Carlo runs
    // inside the core, all repetitions at once: no progress between them).
    const bool whole = config.algorithm == growing::LabAlgorithm::Pmwg
                       || config.algorithm == growing::LabAlgorithm::Nsg
                       || config.algorithm == growing::LabAlgorithm::Ermg || config.smallDbSize > 0;
    const bool scheduler = config.algorithm == growing::LabAlgorithm::BBScheduler;
    const int runs = whole ? 1 : config.repetitions;
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
    // The document (plan, settings) and every input error from the core: one repetition, whose
    // Monte Carlo is replaced below by the full run's.
    if (!whole)
        one.repetitions = 1;
    auto doc = growing::runGrowingLab(one, &*table, seed, false);
    if (!doc) {
        out.error = QString::fromStdString(doc.error().message);
        promise.addResult(std::move(out));
        return;
    }
    if (whole) {
        out.document = std::move(*doc);
        out.repetitions = config.smallDbSize > 0 ? config.repetitions : 1;
        promise.setProgressValueAndText(1, QCoreApplication::translate("GrowingLab", "run 1 of 1"));
        promise.addResult(std::move(out));
        return;
    }

    // The core's Monte Carlo (forEachRepetition in core/growing/growing_lab.cpp), a repetition at a time.
    const std::uint64_t end = *one.end;
    const std::size_t k = config.queries.size();
    std::vector<std::vector<std::uint8_t>> masks;
    for (const auto &q : config.queries) {
        auto p = data::Predicate::compile(q, *table);
        if (!p) { // the core accepted it above; kept for safety
            out.error = QString::fromStdString(p.error().message);
            promise.addResult(std::move(out));
            return;
        }
        masks.emplace_back();
        p->evaluate(*table, masks.back());
    }
    std::vector<EpochRun> epochs;
    std::optional<growing::BBImprover> improver;
    std::uint64_t lastRun = 0;
    if (scheduler) {
        for (const Json &e : (*doc)["epochs"])
            epochs.push_back({e["start"].get<std::uint64_t>(), e["end"].get<std::uint64_t>(),
                              e["epsilon"].get<double>(), numberOrNan(e["bound"])});
    } else {
        growing::ImproverConfig ic;
        ic.startSize = config.startSize;
        ic.decay = config.decay;
        ic.every = config.every;
        ic.budget = config.budget;
        ic.beta = config.beta;
        ic.box = config.box;
        auto created = growing::BBImprover::create(ic);
        if (!created) {
            out.error = QString::fromStdString(created.error().message);
            promise.addResult(std::move(out));
            return;
        }
        improver = std::move(*created);
        lastRun = config.startSize + (end - config.startSize) / config.every * config.every;
    }
    std::vector<std::vector<double>> perEpoch(epochs.size());
    std::mt19937_64 noise(seed); // one noise stream through every repetition, as the core
    for (int rep = 0; rep < runs; ++rep) {
        if (promise.isCanceled())
            return;
        auto order = growing::arrivalOrder(*table, config.order, growingOrderSeed(seed, rep));
        if (!order) {
            out.error = QString::fromStdString(order.error().message);
            promise.addResult(std::move(out));
            return;
        }
        const growing::PrefixCounts counts(masks, std::span<const std::uint32_t>(*order).first(end));
        bool exceeded = false;
        double worst = 0.0;
        if (scheduler) {
            for (std::size_t i = 0; i < epochs.size(); ++i) {
                const auto &e = epochs[i];
                const double scale = growing::laplaceKScale(k, e.epsilon, double(e.start));
                const double epochWorst
                    = growing::heldRunWorstError(counts, k, e.start, e.last, scale, noise);
                perEpoch[i].push_back(epochWorst);
                worst = std::max(worst, epochWorst);
                exceeded = exceeded || epochWorst > e.bound;
            }
        } else {
            for (std::uint64_t t = config.startSize; t <= lastRun; t += config.every) {
                const auto s = improver->step(t);
                const double scale = growing::laplaceKScale(k, s.epsilon, double(t));
                const std::uint64_t stop = std::min<std::uint64_t>(t + config.every - 1, end);
                worst = growing::heldRunWorstError(counts, k, t, stop, scale, noise); // the last step's
                exceeded = exceeded || worst > s.bound;
            }
        }
        out.worstPerRun.push_back(worst);
        out.runsExceeding += exceeded;
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
    // The document describes the whole run, as `pbx-cli simulate growing --seed N` writes it.
    out.document = std::move(*doc);
    Json &d = out.document;
    d["settings"]["repetitions"] = runs;
    const Json summary{{"median", growingQuantile(out.worstPerRun, 0.5)},
                       {"q95", growingQuantile(out.worstPerRun, 0.95)},
                       {"max", *std::max_element(out.worstPerRun.begin(), out.worstPerRun.end())}};
    Json mc{{"repetitions", runs}};
    if (scheduler) {
        mc["max_error"] = summary;
        mc["runs_exceeding"] = out.runsExceeding;
        mc["epoch_max_error_median"] = out.epochMedian;
        mc["epoch_max_error_q95"] = out.epochQ95;
    } else {
        mc["max_error_at_end"] = summary;
        mc["runs_exceeding"] = out.runsExceeding;
    }
    d["monte_carlo"] = std::move(mc);
    promise.addResult(std::move(out));
}

QFuture<GrowingRunOutcome> startGrowingJob(const growing::GrowingLabConfig &config, std::uint64_t seed)
{
    return QtConcurrent::run(runGrowingJob, config, seed);
}

} // namespace pbx::ui
