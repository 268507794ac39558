// SPDX-License-Identifier: MIT
// The accuracy chart of BBScheduler and BBImprover (Cummings, Krehbiel, Lai & Tantipongpipat 2018,
// §3): the bound α + s split into the black box's α and the staleness s, BBImprover's crossover with
// BBScheduler, and after Run the error measured on CPS1988.
#include "ui/growing/labcharts.h"

#include "ui/util/numberformat.h"
#include "ui/util/palette.h"

#include <variant>

namespace pbx::ui::growinglab {

namespace {

/// BBScheduler's (per epoch, median in its band) or BBImprover's (last step) measured error on
/// CPS1988, appended to `series`; its paragraph to `notes`.
void addMeasured(std::vector<GrowingChart::Series> &series, QStringList &notes, const LabView &view,
                 const growing::SchedulerResult *simScheduler, bool scheduler, FractionClip &clip)
{
    const GrowingRunOutcome &sim = *view.simulation;
    const double simEnd = double(sim.result.end);
    const QString label
        = tr("simulation on CPS1988 (%1)").arg(formatCount(sim.repetitions, tr("run"), tr("runs")));
    if (scheduler) {
        // Each epoch's largest error over the runs: the median inside its 5–95 % band, as the
        // other algorithms' Monte Carlos are drawn.
        auto band = makeSeries(QStringLiteral("measured-band"),
                               tr("measured largest error per epoch: 5–95 % of %1")
                                   .arg(formatCount(sim.repetitions, tr("run"), tr("runs"))),
                               palette::chartGreen, GrowingChart::Kind::Band);
        auto median
            = makeSeries(QStringLiteral("measured"), tr("measured largest error per epoch: median (CPS1988)"),
                         palette::chartGreen, GrowingChart::Kind::Step);
        median.width = 2.6;
        const std::vector<growing::EpochPlan> empty;
        const auto &epochs = simScheduler ? simScheduler->epochs : empty;
        const std::size_t count
            = std::min({epochs.size(), sim.epochMedian.size(), sim.epochQ05.size(), sim.epochQ95.size()});
        for (std::size_t i = 0; i < count; ++i) {
            const double t = double(epochs[i].start);
            median.points.emplace_back(t, clip(sim.epochMedian[i]));
            band.points.emplace_back(t, clip(sim.epochQ95[i]));
            band.lower.emplace_back(t, clip(sim.epochQ05[i]));
            median.stepEnd = band.stepEnd = double(epochs[i].last) + 1.0;
        }
        series.push_back(band);
        series.push_back(median);
    } else {
        series.push_back({QStringLiteral("measured"),
                          tr("measured error at the last step, median (%1)").arg(label),
                          palette::chartGreen,
                          GrowingChart::Kind::Scatter,
                          Qt::SolidLine,
                          {{simEnd, clip(growingQuantile(sim.worstPerRun, 0.5))}}});
    }
    notes << tr("<b>Simulation on CPS1988</b> (rows 1 … %1 in %2 seeded %3 orders, %4 counting "
                "queries): the %5 error has median %6, 95th percentile %7, maximum %8; %9 of %2 runs "
                "exceeded their bound somewhere (β = %10).")
                 .arg(integer(simEnd))
                 .arg(sim.repetitions)
                 .arg(view.sorted ? tr("sorted") : tr("random"))
                 .arg(view.queries)
                 .arg(scheduler ? tr("largest") : tr("last step's"))
                 .arg(num(growingQuantile(sim.worstPerRun, 0.5)))
                 .arg(num(growingQuantile(sim.worstPerRun, 0.95)))
                 .arg(num(*std::max_element(sim.worstPerRun.begin(), sim.worstPerRun.end())))
                 .arg(sim.runsExceeding)
                 .arg(num(view.beta));
}

} // namespace

QString drawSchedulerAccuracy(GrowingChart &chart, const LabView &view)
{
    const double n = view.startSize;
    const double end = view.end;
    FractionClip clip;
    const bool scheduler = view.algorithm == growing::LabAlgorithm::BBScheduler;
    const auto kind = scheduler ? GrowingChart::Kind::Step : GrowingChart::Kind::Line;
    auto bound = makeSeries(QStringLiteral("bound"), tr("bound α + s"), palette::chartInk, kind);
    auto noise = makeSeries(QStringLiteral("noise"), tr("noise part α (black box)"), palette::chartBlue, kind,
                            Qt::DashLine);
    auto stale
        = makeSeries(QStringLiteral("staleness"), tr("staleness part s"), kStaleness, kind, Qt::DotLine);
    const auto add = [&](double t, double b, double alpha, double staleness) {
        bound.points.emplace_back(t, clip(b));
        noise.points.emplace_back(t, clip(alpha));
        stale.points.emplace_back(t, clip(staleness));
    };
    const auto *schedulerPlan = std::get_if<growing::SchedulerResult>(&view.plan.body);
    const auto *improverPlan = std::get_if<growing::ImproverResult>(&view.plan.body);
    if (schedulerPlan)
        for (const growing::EpochPlan &e : schedulerPlan->epochs) {
            add(double(e.start), e.bound, e.alphaBlackBox, e.staleness);
            bound.stepEnd = noise.stepEnd = stale.stepEnd = double(e.last) + 1.0;
        }
    if (improverPlan)
        for (const growing::ImproverRow &r : improverPlan->steps)
            add(double(r.t), r.step.bound, r.step.alphaBlackBox, r.step.staleness);
    std::vector<GrowingChart::Series> series{bound, noise, stale};
    QStringList notes;
    if (improverPlan) {
        const growing::ImproverCrossover &cross = improverPlan->crossover;
        if (cross.withinHorizon) {
            const double t = double(*cross.firstT);
            series.push_back({QStringLiteral("crossover"),
                              tr("crossover: BBImprover beats BBScheduler from t = %1").arg(integer(t)),
                              palette::chartPurple,
                              GrowingChart::Kind::Line,
                              Qt::DashDotLine,
                              {{t, 0.0}, {t, 1.0}}});
        } else {
            notes << tr("Crossover with BBScheduler (zCDP equalised, γ = %1): %2.")
                         .arg(num(cross.gamma, 3))
                         .arg(cross.firstT
                                  ? tr("t = %1, beyond the horizon").arg(integer(double(*cross.firstT)))
                                  : tr("beyond 2⁵⁰ rows"));
        }
    }
    const auto *simScheduler
        = view.simulation ? std::get_if<growing::SchedulerResult>(&view.simulation->result.body) : nullptr;
    if (simScheduler && simScheduler->smallDb) {
        addSmallDbMeasured(series, notes, view, clip);
    } else if (view.simulation) {
        addMeasured(series, notes, view, simScheduler, scheduler, clip);
    } else {
        notes << tr("Press <b>Run</b> for the measured error (a simulation on CPS1988).");
    }
    if (clip.clipped)
        notes << tr("Values above 1 say nothing about a fraction and are drawn at 1.");
    chart.setData(n, end, {}, series);
    return notes.join(QLatin1Char(' '));
}

} // namespace pbx::ui::growinglab
