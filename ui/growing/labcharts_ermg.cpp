// SPDX-License-Identifier: MIT
// ERMG on the accuracy chart: the excess empirical risk L(θ̃) − L(θ*) of each model released by
// output perturbation (Chaudhuri, Monteleoni & Sarwate 2011) on the growing CPS1988 rows, the
// median over seeded arrival orders inside its 5–95 % band.
#include "ui/growing/labcharts.h"

#include "ui/util/palette.h"

namespace pbx::ui::growinglab {

using io::json::Json;

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
    const Json &doc = view.simulation->document;
    const Json &mc = doc["monte_carlo"];
    const int runs = mc.value("repetitions", 1);
    auto band = makeSeries(QStringLiteral("excess-band"),
                           tr("mean excess risk, 5–95 % of %1 seeded orders").arg(runs), palette::chartGreen,
                           GrowingChart::Kind::Band);
    auto runsMedian = makeSeries(QStringLiteral("excess-runs-median"),
                                 tr("mean excess risk, median of %1 seeded orders").arg(runs),
                                 palette::chartGreen, GrowingChart::Kind::Line);
    runsMedian.width = 2.6;
    for (const Json &r : mc["releases"]) {
        const double t = number(r["t"]);
        const Json &b = r["excess_risk_mean"];
        runsMedian.points.emplace_back(t, number(b["median"]));
        band.points.emplace_back(t, number(b["q95"]));
        band.lower.emplace_back(t, number(b["q05"]));
    }
    auto mean = makeSeries(QStringLiteral("excess-mean"), tr("first order: mean over the noise draws"),
                           palette::chartBlue, GrowingChart::Kind::Line);
    auto median = makeSeries(QStringLiteral("excess-median"), tr("first order: median over the noise draws"),
                             palette::chartBlue, GrowingChart::Kind::Line, Qt::DashLine);
    double last = n;
    for (const Json &r : doc["releases"]) {
        const double t = number(r["t"]);
        mean.points.emplace_back(t, number(r["excess_risk"]["mean"]));
        median.points.emplace_back(t, number(r["excess_risk"]["median"]));
        last = t;
    }
    chart.setData(n, view.end, {}, {band, runsMedian, mean, median});
    const Json &releases = doc["releases"];
    const Json &perRelease = mc["releases"];
    if (releases.empty() || perRelease.empty())
        return QString();
    const Json &first = releases.front();
    const Json &lastRelease = releases.back();
    auto spread = [](const Json &b) {
        return tr("%1 (5–95 %: %2 – %3)")
            .arg(num(number(b["median"])), num(number(b["q05"])), num(number(b["q95"])));
    };
    return tr("<b>Simulation on CPS1988</b> (%1 seeded orders, %2 fits up to t = %3): σ_t falls from %4 at "
              "t = %5 to %6; the mean excess empirical risk, median over the orders, from %7 to %8. Spent "
              "ρ = %9 of %10.")
        .arg(integer(double(runs)), integer(double(releases.size())), integer(last),
             num(number(first["sigma"])), integer(number(first["t"])), num(number(lastRelease["sigma"])),
             spread(perRelease.front()["excess_risk_mean"]), spread(perRelease.back()["excess_risk_mean"]))
        .arg(num(number(doc["privacy"]["spent_realised"]), 6),
             num(number(doc["privacy"]["total_reserved"]), 6));
}

} // namespace pbx::ui::growinglab
