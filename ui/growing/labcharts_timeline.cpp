// SPDX-License-Identifier: MIT
// The timeline chart: the privacy spent over time against the budget, which the schedule never
// exceeds whatever the horizon (Cummings, Krehbiel, Lai & Tantipongpipat 2018).
#include "ui/growing/labcharts.h"

#include "ui/util/palette.h"

namespace pbx::ui::growinglab {

using io::json::Json;

namespace {

/// PMWG and NSG: the worst case (the cap fully used) and, after Run, the realised loss.
void drawCappedTimeline(GrowingChart &chart, const LabView &view, const GrowingChart::Series &budget)
{
    const double n = view.startSize;
    const double end = view.end;
    const Json &privacy = view.plan["privacy"];
    const bool rho = privacy.value("unit", "epsilon") == "rho";
    const QString unit = rho ? tr("ρ") : tr("ε");
    const double worst = number(privacy["worst_case"]);
    GrowingChart::Series worstCase{QStringLiteral("worst-case"),
                                   tr("worst case (the cap fully used) %1 = %2").arg(unit, num(worst)),
                                   palette::chartInk,
                                   GrowingChart::Kind::Line,
                                   Qt::DotLine,
                                   {{n, worst}, {end, worst}}};
    std::vector<GrowingChart::Series> series{budget, worstCase};
    if (view.simulation && view.simulation->document.contains("privacy")) {
        const Json &doc = view.simulation->document;
        // NSG's Monte Carlo: the realised loss varies with the hard answers' times.
        const Json &band = doc.value("monte_carlo", Json::object()).value("realised", Json());
        if (band.is_object()) {
            auto spread = makeSeries(QStringLiteral("realised-band"),
                                     tr("realised %1, 5–95 % of %2 seeded orders (median %3)")
                                         .arg(unit, integer(number(doc["monte_carlo"]["repetitions"])),
                                              num(number(band["median"]))),
                                     palette::chartTeal, GrowingChart::Kind::Band);
            spread.points = {{n, number(band["q95"])}, {end, number(band["q95"])}};
            spread.lower = {{n, number(band["q05"])}, {end, number(band["q05"])}};
            series.insert(series.begin(), spread);
        }
        // In the budget's unit (ρ under a zCDP or approx budget), as the axis.
        const double realised = number(doc["privacy"]["realised"]);
        series.push_back({QStringLiteral("realised"),
                          (band.is_object() ? tr("realised %1 = %2 (simulation, first order)")
                                            : tr("realised %1 = %2 (simulation)"))
                              .arg(unit, num(realised)),
                          palette::chartTeal,
                          GrowingChart::Kind::Line,
                          Qt::SolidLine,
                          {{n, realised}, {end, realised}}});
    }
    chart.setData(n, end, {}, series);
}

/// ERMG: σ_t of each fit (right axis) and the ρ charged so far under the budget.
void drawErmTimeline(GrowingChart &chart, const LabView &view, const GrowingChart::Series &budget)
{
    auto sigma = makeSeries(QStringLiteral("sigma"), tr("σ_t of each fit (right axis)"), palette::chartPurple,
                            GrowingChart::Kind::Line);
    sigma.rightAxis = true;
    auto cumulative = makeSeries(QStringLiteral("cumulative"), tr("cumulative Σρ (rounded up)"),
                                 palette::chartTeal, GrowingChart::Kind::Line);
    cumulative.width = 2.6;
    for (const Json &r : view.plan["releases"]) {
        sigma.points.emplace_back(number(r["t"]), number(r["sigma"]));
        cumulative.points.emplace_back(number(r["t"]), number(r["cumulative"]));
    }
    chart.setTitles(tr("ERMG: the noise σ_t of each released model and the privacy spent"),
                    tr("t (rows arrived, log scale)"), tr("ρ (zCDP)"), tr("σ_t"));
    chart.setData(view.startSize, view.end, {}, {sigma, cumulative, budget});
}

} // namespace

void drawTimeline(GrowingChart &chart, const LabView &view)
{
    const double n = view.startSize;
    const double end = view.end;
    const Json &privacy = view.plan["privacy"];
    const bool rho = privacy.value("unit", "epsilon") == "rho";
    const QString unit = rho ? tr("ρ") : tr("ε");
    const double total = number(privacy["total_reserved"]);
    chart.setTitles(tr("Privacy spent over time"), tr("t (rows arrived, log scale)"),
                    rho ? tr("ρ (zCDP)") : tr("ε"), tr("ρ_t per step"));
    GrowingChart::Series budget{
        QStringLiteral("budget"),
        tr("budget %1 = %2: never exceeded, whatever the horizon").arg(unit, num(total)),
        palette::chartRed,
        GrowingChart::Kind::Line,
        Qt::DashLine,
        {{n, total}, {end, total}}};
    if (privacy.contains("target")) // an (ε, δ) target accounted in zCDP
        budget.name = tr("budget ρ = %1 (for (ε, δ) = (%2, %3)): never exceeded, whatever the horizon")
                          .arg(num(total, 6), num(number(privacy["target"]["epsilon"])),
                               num(number(privacy["target"]["delta"])));
    if (view.algorithm == QStringLiteral("ermg")) {
        drawErmTimeline(chart, view, budget);
        return;
    }
    if (view.algorithm == QStringLiteral("pmwg") || view.algorithm == QStringLiteral("nsg")) {
        drawCappedTimeline(chart, view, budget);
        return;
    }
    std::vector<GrowingChart::Band> bands;
    auto per
        = makeSeries(QStringLiteral("per-epoch"), rho ? tr("ρ_i of each epoch") : tr("ε_i of each epoch"),
                     rho ? palette::chartPurple : palette::chartBlue, GrowingChart::Kind::Step);
    auto cumulative = makeSeries(QStringLiteral("cumulative"), tr("cumulative Σ%1_i (rounded up)").arg(unit),
                                 palette::chartTeal, GrowingChart::Kind::Step);
    cumulative.width = 2.6;
    if (view.algorithm == QStringLiteral("bbscheduler")) {
        for (const Json &e : view.plan["epochs"]) {
            const double from = number(e["start"]);
            const double to = number(e["end"]) + 1.0;
            bands.push_back({from, to});
            per.points.emplace_back(from, number(rho ? e["rho"] : e["epsilon"]));
            cumulative.points.emplace_back(from, number(e["cumulative"]));
            per.stepEnd = cumulative.stepEnd = to;
        }
        cumulative.name = tr("cumulative Σ%1_i (rounded up): %2 at the horizon")
                              .arg(unit, num(number(privacy["spent_realised"]), 8));
        chart.setData(n, end, std::move(bands), {per, cumulative, budget});
        return;
    }
    // BBImprover: a run at every step; ρ_t is tiny next to the budget, so it has its own axis.
    per.name = tr("ρ_t of each step (right axis)");
    per.kind = GrowingChart::Kind::Line;
    per.rightAxis = true;
    cumulative.kind = GrowingChart::Kind::Line;
    for (const Json &s : view.plan["steps"]) {
        per.points.emplace_back(number(s["t"]), number(s["rho"]));
        cumulative.points.emplace_back(number(s["t"]), number(s["cumulative"]));
    }
    cumulative.name = tr("cumulative Σρ_t (rounded up): %1 at the horizon")
                          .arg(num(number(privacy["spent_realised"]), 6));
    chart.setData(n, end, {}, {per, cumulative, budget});
}

} // namespace pbx::ui::growinglab
