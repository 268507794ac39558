// SPDX-License-Identifier: MIT
// SmallDBG on the accuracy chart: BBScheduler with the SmallDB box (Cummings, Krehbiel, Lai &
// Tantipongpipat 2018, §3 with SmallDB of Blum, Ligett & Roth 2008), its measured error on the 28
// marginal cells against the best any m-row database achieves on all rows.
#include "ui/growing/labcharts.h"

#include "ui/util/numberformat.h"
#include "ui/util/palette.h"

#include <variant>

namespace pbx::ui::growinglab {

void addSmallDbMeasured(std::vector<GrowingChart::Series> &series, QStringList &notes, const LabView &view,
                        FractionClip &clip)
{
    const GrowingRunOutcome &sim = *view.simulation;
    const auto &result = std::get<growing::SchedulerResult>(sim.result.body);
    const growing::SmallDbSummary &smallDb = *result.smallDb;
    const double simEnd = double(sim.result.end);
    // The core's Monte Carlo summary as it is, against the best achievable.
    const growing::SchedulerMonteCarlo &mc = *result.monteCarlo;
    auto band = makeSeries(QStringLiteral("measured-band"),
                           tr("measured largest error per epoch: 5–95 % of %1")
                               .arg(formatCount(sim.repetitions, tr("run"), tr("runs"))),
                           palette::chartGreen, GrowingChart::Kind::Band);
    auto median
        = makeSeries(QStringLiteral("measured"), tr("measured largest error per epoch: median (CPS1988)"),
                     palette::chartGreen, GrowingChart::Kind::Step);
    median.width = 2.6;
    const auto &epochs = result.epochs;
    const std::size_t count
        = std::min({epochs.size(), mc.epochMedian.size(), mc.epochQ05.size(), mc.epochQ95.size()});
    for (std::size_t i = 0; i < count; ++i) {
        const double t = double(epochs[i].start);
        median.points.emplace_back(t, clip(mc.epochMedian[i]));
        band.points.emplace_back(t, clip(mc.epochQ95[i]));
        band.lower.emplace_back(t, clip(mc.epochQ05[i]));
        median.stepEnd = band.stepEnd = double(epochs[i].last) + 1.0;
    }
    series.push_back(band);
    series.push_back(median);
    const double best = orNaN(smallDb.bestMaxErrorAtEnd);
    if (std::isfinite(best))
        series.push_back({QStringLiteral("best"),
                          tr("best achievable by any %1-row database on all rows: %2")
                              .arg(integer(double(smallDb.m)), num(best)),
                          palette::chartRed,
                          GrowingChart::Kind::Line,
                          Qt::DashDotLine,
                          {{view.startSize, best}, {view.end, best}}});
    const growing::LabSummary &maxError = mc.maxError;
    notes << tr("<b>Simulation on CPS1988</b> (SmallDB m = %1, %2 of %3 candidate databases; rows "
                "1 … %4 in %5 seeded %6 orders; the 28 marginal cells): the largest error over the "
                "stream has median %7, 95th percentile %8, maximum %9; the best any m-row database "
                "achieves on all rows is %10. %11 of %5 runs exceeded their bound (β = %12).")
                 .arg(integer(double(smallDb.m)), tr("one"), integer(double(smallDb.rangeSize)),
                      integer(simEnd))
                 .arg(sim.repetitions)
                 .arg(view.sorted ? tr("sorted") : tr("random"))
                 .arg(num(maxError.median), num(maxError.q95), num(maxError.max), num(best))
                 .arg(integer(double(mc.runsExceeding)), num(view.beta));
}

} // namespace pbx::ui::growinglab
