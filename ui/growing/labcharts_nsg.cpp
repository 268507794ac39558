// SPDX-License-Identifier: MIT
// NSG on the accuracy chart after Run: the mean |error| of the hard answers released so far, the
// median over seeded arrival orders inside its 5–95 % band (Cummings, Krehbiel, Lai &
// Tantipongpipat 2018, §4).
#include "ui/growing/labcharts.h"

#include "ui/util/palette.h"

#include <variant>

namespace pbx::ui::growinglab {

QString drawNsgErrors(GrowingChart &chart, const LabView &view)
{
    const auto *nsg = std::get_if<growing::NsgResult>(&view.simulation->result.body);
    const growing::NsgMonteCarlo empty{1, {}, {}, {}, {}};
    const growing::NsgMonteCarlo &mc = nsg && nsg->monteCarlo ? *nsg->monteCarlo : empty;
    const int runs = mc.repetitions;
    chart.setTitles(tr("NSG: mean |error| of the hard answers so far (CPS1988)"),
                    tr("t (rows arrived, log scale)"), tr("|error| (fraction)"));
    auto band = makeSeries(QStringLiteral("hard-error-band"), tr("5–95 % of %1 seeded orders").arg(runs),
                           palette::chartBlue, GrowingChart::Kind::Band);
    auto median = makeSeries(QStringLiteral("hard-error-median"),
                             tr("median of %1 seeded orders (orders with a hard answer by t)").arg(runs),
                             palette::chartBlue, GrowingChart::Kind::Line);
    median.width = 2.6;
    for (const growing::NsgCheckpointBands &c : mc.checkpoints) {
        if (!c.hardMeanAbs)
            continue; // no order has a hard answer yet
        const double t = double(c.time);
        median.points.emplace_back(t, c.hardMeanAbs->median);
        band.points.emplace_back(t, c.hardMeanAbs->q95);
        band.lower.emplace_back(t, c.hardMeanAbs->q05);
    }
    chart.setData(view.startSize, view.end, {}, {band, median});
    return tr("Hard answers against the cap and privacy: see the PMWG / NSG tab.");
}

} // namespace pbx::ui::growinglab
