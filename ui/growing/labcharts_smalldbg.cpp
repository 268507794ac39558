// SPDX-License-Identifier: MIT
// SmallDBG on the accuracy chart: BBScheduler with the SmallDB box (Cummings, Krehbiel, Lai &
// Tantipongpipat 2018, §3 with SmallDB of Blum, Ligett & Roth 2008), its measured error on the 28
// marginal cells against the best any m-row database achieves on all rows.
#include "ui/growing/labcharts.h"

#include "ui/util/numberformat.h"
#include "ui/util/palette.h"

namespace pbx::ui::growinglab {

using io::json::Json;

void addSmallDbMeasured(std::vector<GrowingChart::Series> &series, QStringList &notes, const LabView &view,
                        FractionClip &clip)
{
    const GrowingRunOutcome &sim = *view.simulation;
    const Json &doc = sim.document;
    const double simEnd = number(doc["settings"]["stream"]["end"]);
    // The core's Monte Carlo summary as it is, against the best achievable.
    const Json &mc = doc["monte_carlo"];
    auto band = makeSeries(QStringLiteral("measured-band"),
                           tr("measured largest error per epoch: 5–95 % of %1")
                               .arg(formatCount(sim.repetitions, tr("run"), tr("runs"))),
                           palette::chartGreen, GrowingChart::Kind::Band);
    auto median
        = makeSeries(QStringLiteral("measured"), tr("measured largest error per epoch: median (CPS1988)"),
                     palette::chartGreen, GrowingChart::Kind::Step);
    median.width = 2.6;
    const Json &epochs = doc["epochs"];
    const Json &medians = mc["epoch_max_error_median"];
    const Json &q05 = mc["epoch_max_error_q05"];
    const Json &q95 = mc["epoch_max_error_q95"];
    const std::size_t count = std::min({epochs.size(), medians.size(), q05.size(), q95.size()});
    for (std::size_t i = 0; i < count; ++i) {
        const double t = number(epochs[i]["start"]);
        median.points.emplace_back(t, clip(number(medians[i])));
        band.points.emplace_back(t, clip(number(q95[i])));
        band.lower.emplace_back(t, clip(number(q05[i])));
        median.stepEnd = band.stepEnd = number(epochs[i]["end"]) + 1.0;
    }
    series.push_back(band);
    series.push_back(median);
    const double best = number(doc["smalldb"].value("best_max_error_at_end", Json()));
    if (std::isfinite(best))
        series.push_back({QStringLiteral("best"),
                          tr("best achievable by any %1-row database on all rows: %2")
                              .arg(integer(number(doc["smalldb"]["m"])), num(best)),
                          palette::chartRed,
                          GrowingChart::Kind::Line,
                          Qt::DashDotLine,
                          {{view.startSize, best}, {view.end, best}}});
    const Json &maxError = mc["max_error"];
    notes << tr("<b>Simulation on CPS1988</b> (SmallDB m = %1, %2 of %3 candidate databases; rows "
                "1 … %4 in %5 seeded %6 orders; the 28 marginal cells): the largest error over the "
                "stream has median %7, 95th percentile %8, maximum %9; the best any m-row database "
                "achieves on all rows is %10. %11 of %5 runs exceeded their bound (β = %12).")
                 .arg(integer(number(doc["smalldb"]["m"])), tr("one"),
                      integer(number(doc["smalldb"]["range_size"])), integer(simEnd))
                 .arg(sim.repetitions)
                 .arg(view.sorted ? tr("sorted") : tr("random"))
                 .arg(num(number(maxError["median"])), num(number(maxError["q95"])),
                      num(number(maxError["max"])), num(best))
                 .arg(integer(number(mc["runs_exceeding"])), num(view.beta));
}

} // namespace pbx::ui::growinglab
