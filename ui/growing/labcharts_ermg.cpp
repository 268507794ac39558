// SPDX-License-Identifier: MIT
// ERMG on the accuracy chart: the excess empirical risk L(θ̃) − L(θ*) of each model released by
// output perturbation (Chaudhuri, Monteleoni & Sarwate 2011) on the growing CPS1988 rows, the
// median over seeded arrival orders inside its 5–95 % band.
#include "ui/growing/labcharts.h"

#include "ui/util/palette.h"

#include <limits>
#include <variant>

namespace pbx::ui::growinglab {

QString drawErmRisk(GrowingChart &chart, const LabView &view)
{
    const double n = view.startSize;
    chart.setTitles(tr("Excess empirical risk of the released model (simulation on CPS1988)"),
                    tr("t (rows arrived, log scale)"), tr("L(θ̃) − L(θ*)"));
    if (!view.simulation) {
        // Nothing measured yet: no axes of an earlier plan, only the message under ERMG's own title.
        chart.clear(tr("Press Run for the excess empirical risk (a simulation on CPS1988)."));
        return tr("The plan lists every fit's ρ, sensitivity Δ and noise σ_t without reading data; press "
                  "<b>Run</b> for the excess empirical risk of each released model on CPS1988.");
    }
    const auto *ermg = std::get_if<growing::ErmgResult>(&view.simulation->result.body);
    if (!ermg || !ermg->monteCarlo)
        return QString();
    const growing::ErmgMonteCarlo &mc = *ermg->monteCarlo;
    const int runs = mc.repetitions;
    auto band = makeSeries(QStringLiteral("excess-band"),
                           tr("mean excess risk, 5–95 % of %1 seeded orders").arg(runs), palette::chartGreen,
                           GrowingChart::Kind::Band);
    auto runsMedian = makeSeries(QStringLiteral("excess-runs-median"),
                                 tr("mean excess risk, median of %1 seeded orders").arg(runs),
                                 palette::chartGreen, GrowingChart::Kind::Line);
    runsMedian.width = 2.6;
    const auto nan = std::numeric_limits<double>::quiet_NaN();
    for (std::size_t i = 0; i < mc.times.size(); ++i) {
        const double t = double(mc.times[i]);
        const growing::OptionalBand &b = mc.excessRiskMean[i];
        runsMedian.points.emplace_back(t, b ? b->median : nan);
        band.points.emplace_back(t, b ? b->q95 : nan);
        band.lower.emplace_back(t, b ? b->q05 : nan);
    }
    auto mean = makeSeries(QStringLiteral("excess-mean"), tr("first order: mean over the noise draws"),
                           palette::chartBlue, GrowingChart::Kind::Line);
    auto median = makeSeries(QStringLiteral("excess-median"), tr("first order: median over the noise draws"),
                             palette::chartBlue, GrowingChart::Kind::Line, Qt::DashLine);
    double last = n;
    for (const growing::ErmgRelease &r : ermg->releases) {
        const double t = double(r.t);
        mean.points.emplace_back(t, r.excessRisk ? r.excessRisk->mean : nan);
        median.points.emplace_back(t, r.excessRisk ? r.excessRisk->median : nan);
        last = t;
    }
    chart.setData(n, view.end, {}, {band, runsMedian, mean, median});
    const auto &releases = ermg->releases;
    if (releases.empty() || mc.excessRiskMean.empty())
        return QString();
    const growing::ErmgRelease &first = releases.front();
    const growing::ErmgRelease &lastRelease = releases.back();
    auto spread = [nan](const growing::OptionalBand &b) {
        return tr("%1 (5–95 %: %2 – %3)")
            .arg(num(b ? b->median : nan), num(b ? b->q05 : nan), num(b ? b->q95 : nan));
    };
    return tr("<b>Simulation on CPS1988</b> (%1 seeded orders, %2 fits up to t = %3): σ_t falls from %4 at "
              "t = %5 to %6; the mean excess empirical risk, median over the orders, from %7 to %8. Spent "
              "ρ = %9 of %10.")
        .arg(integer(double(runs)), integer(double(releases.size())), integer(last), num(first.sigma),
             integer(double(first.t)), num(lastRelease.sigma), spread(mc.excessRiskMean.front()),
             spread(mc.excessRiskMean.back()))
        .arg(num(orNaN(ermg->privacy.spentRealised), 6), num(ermg->privacy.totalReserved, 6));
}

} // namespace pbx::ui::growinglab
