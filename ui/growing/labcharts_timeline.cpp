// SPDX-License-Identifier: MIT
// The timeline chart: the privacy spent over time against the budget, which the schedule never
// exceeds whatever the horizon (Cummings, Krehbiel, Lai & Tantipongpipat 2018).
#include "ui/growing/labcharts.h"

#include "ui/util/palette.h"

#include <variant>

namespace pbx::ui::growinglab {

namespace {

/// PMWG and NSG: the worst case (the cap fully used) and, after Run, the realised loss.
void drawCappedTimeline(GrowingChart &chart, const LabView &view, const GrowingChart::Series &budget)
{
    const double n = view.startSize;
    const double end = view.end;
    const growing::LabPrivacy &privacy = privacyOf(view.plan);
    const QString unit = privacy.rho ? tr("ρ") : tr("ε");
    const double worst = orNaN(privacy.worstCase);
    GrowingChart::Series worstCase{QStringLiteral("worst-case"),
                                   tr("worst case (the cap fully used) %1 = %2").arg(unit, num(worst)),
                                   palette::chartInk,
                                   GrowingChart::Kind::Line,
                                   Qt::DotLine,
                                   {{n, worst}, {end, worst}}};
    std::vector<GrowingChart::Series> series{budget, worstCase};
    if (view.simulation) {
        const growing::GrowingLabResult &sim = view.simulation->result;
        // NSG's Monte Carlo: the realised loss varies with the hard answers' times.
        const auto *nsg = std::get_if<growing::NsgResult>(&sim.body);
        const growing::LabBand *band
            = nsg && nsg->monteCarlo && nsg->monteCarlo->realised ? &*nsg->monteCarlo->realised : nullptr;
        if (band) {
            auto spread
                = makeSeries(QStringLiteral("realised-band"),
                             tr("realised %1, 5–95 % of %2 seeded orders (median %3)")
                                 .arg(unit, integer(double(nsg->monteCarlo->repetitions)), num(band->median)),
                             palette::chartTeal, GrowingChart::Kind::Band);
            spread.points = {{n, band->q95}, {end, band->q95}};
            spread.lower = {{n, band->q05}, {end, band->q05}};
            series.insert(series.begin(), spread);
        }
        // In the budget's unit (ρ under a zCDP or approx budget), as the axis.
        const double realised = orNaN(privacyOf(sim).realised);
        series.push_back(
            {QStringLiteral("realised"),
             (band ? tr("realised %1 = %2 (simulation, first order)") : tr("realised %1 = %2 (simulation)"))
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
    if (const auto *ermg = std::get_if<growing::ErmgResult>(&view.plan.body))
        for (const growing::ErmgRelease &r : ermg->releases) {
            sigma.points.emplace_back(double(r.t), r.sigma);
            cumulative.points.emplace_back(double(r.t), r.cumulative);
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
    const growing::LabPrivacy &privacy = privacyOf(view.plan);
    const bool rho = privacy.rho;
    const QString unit = rho ? tr("ρ") : tr("ε");
    const double total = privacy.totalReserved;
    chart.setTitles(tr("Privacy spent over time"), tr("t (rows arrived, log scale)"),
                    rho ? tr("ρ (zCDP)") : tr("ε"), tr("ρ_t per step"));
    GrowingChart::Series budget{
        QStringLiteral("budget"),
        tr("budget %1 = %2: never exceeded, whatever the horizon").arg(unit, num(total)),
        palette::chartRed,
        GrowingChart::Kind::Line,
        Qt::DashLine,
        {{n, total}, {end, total}}};
    if (privacy.target) // an (ε, δ) target accounted in zCDP
        budget.name = tr("budget ρ = %1 (for (ε, δ) = (%2, %3)): never exceeded, whatever the horizon")
                          .arg(num(total, 6), num(privacy.target->epsilon), num(privacy.target->delta));
    using growing::LabAlgorithm;
    if (view.algorithm == LabAlgorithm::Ermg) {
        drawErmTimeline(chart, view, budget);
        return;
    }
    if (view.algorithm == LabAlgorithm::Pmwg || view.algorithm == LabAlgorithm::Nsg) {
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
    if (const auto *scheduler = std::get_if<growing::SchedulerResult>(&view.plan.body)) {
        for (const growing::EpochPlan &e : scheduler->epochs) {
            const double from = double(e.start);
            const double to = double(e.last) + 1.0;
            bands.push_back({from, to});
            per.points.emplace_back(from, rho ? e.privacy.rho : e.privacy.epsilon);
            cumulative.points.emplace_back(from, e.privacy.cumulative);
            per.stepEnd = cumulative.stepEnd = to;
        }
        cumulative.name = tr("cumulative Σ%1_i (rounded up): %2 at the horizon")
                              .arg(unit, num(orNaN(privacy.spentRealised), 8));
        chart.setData(n, end, std::move(bands), {per, cumulative, budget});
        return;
    }
    // BBImprover: a run at every step; ρ_t is tiny next to the budget, so it has its own axis.
    per.name = tr("ρ_t of each step (right axis)");
    per.kind = GrowingChart::Kind::Line;
    per.rightAxis = true;
    cumulative.kind = GrowingChart::Kind::Line;
    if (const auto *improver = std::get_if<growing::ImproverResult>(&view.plan.body))
        for (const growing::ImproverRow &s : improver->steps) {
            per.points.emplace_back(double(s.t), s.step.rho);
            cumulative.points.emplace_back(double(s.t), s.cumulative);
        }
    cumulative.name
        = tr("cumulative Σρ_t (rounded up): %1 at the horizon").arg(num(orNaN(privacy.spentRealised), 6));
    chart.setData(n, end, {}, {per, cumulative, budget});
}

} // namespace pbx::ui::growinglab
