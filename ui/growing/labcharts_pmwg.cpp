// SPDX-License-Identifier: MIT
// The PMWG / NSG tab: hard queries K(t) against the enforced cap H(t) = ⌊c₀(1 + H_t − H_n)⌋, the
// realised against the worst-case privacy, and the errors (PMWG against Laplace per query; NSG's
// hard answers), each over seeded arrival orders where the core repeats the run (Cummings,
// Krehbiel, Lai & Tantipongpipat 2018, §4).
#include "ui/growing/labcharts.h"

#include "ui/util/palette.h"

namespace pbx::ui::growinglab {

using io::json::Json;

QString drawPmwgPanel(const PmwgCharts &charts, const LabView &view)
{
    const bool nsg = view.algorithm == QStringLiteral("nsg");
    if (view.algorithm != QStringLiteral("pmwg") && !nsg) {
        charts.hard.clear(tr("Choose PMWG or NSG as the algorithm."));
        charts.privacy.clear(QString());
        charts.errors.clear(QString());
        return QString();
    }
    const bool simulated = view.simulation != nullptr;
    const Json &doc = simulated ? view.simulation->document : view.plan;
    const Json &caps = doc["cap"];
    charts.hard.setTitles(tr("%1: hard queries K(t) against the cap H(t) = ⌊c₀(1 + H_t − H_n)⌋")
                              .arg(nsg ? tr("NSG") : tr("PMWG")),
                          tr("t (rows arrived)"), tr("queries"));
    auto cap = makeSeries(QStringLiteral("cap"), tr("cap H(t) (enforced)"), palette::chartRed,
                          GrowingChart::Kind::Step, Qt::DashLine);
    auto hard = makeSeries(QStringLiteral("hard"), tr("hard queries K(t) (simulation on CPS1988)"),
                           palette::chartBlue, GrowingChart::Kind::Step);
    double last = view.startSize;
    for (const Json &c : caps) {
        const double t = number(c["time"]);
        cap.points.emplace_back(t, number(c["cap"]));
        if (c.contains("hard"))
            hard.points.emplace_back(t, number(c["hard"]));
        last = t;
    }
    cap.stepEnd = hard.stepEnd = last + 1.0;
    // The cap last, so it stays visible where it binds.
    std::vector<GrowingChart::Series> series;
    const Json &mc = doc.value("monte_carlo", Json::object());
    if (nsg && mc.contains("checkpoints")) {
        // NSG's Monte Carlo: K(t) over the seeded orders, the median inside its 5–95 % band.
        const int runs = mc.value("repetitions", 1);
        hard.name = tr("hard answers K(t), first order");
        hard.style = Qt::DotLine;
        auto band = makeSeries(QStringLiteral("hard-band"), tr("K(t), 5–95 % of %1 seeded orders").arg(runs),
                               palette::chartBlue, GrowingChart::Kind::Band);
        auto median
            = makeSeries(QStringLiteral("hard-median"), tr("K(t), median of %1 seeded orders").arg(runs),
                         palette::chartBlue, GrowingChart::Kind::Step);
        median.width = 2.6;
        for (const Json &c : mc["checkpoints"]) {
            const double t = number(c["time"]);
            median.points.emplace_back(t, number(c["hard"]["median"]));
            band.points.emplace_back(t, number(c["hard"]["q95"]));
            band.lower.emplace_back(t, number(c["hard"]["q05"]));
        }
        band.stepEnd = median.stepEnd = last + 1.0;
        series.push_back(band);
        series.push_back(median);
    }
    if (!hard.points.empty())
        series.push_back(hard);
    series.push_back(cap);
    charts.hard.setData(view.startSize, last + 1.0, {}, series);
    const Json &privacy = doc["privacy"];
    const PrivacyReading reading = privacyReading(privacy);
    QString text = tr("Worst-case privacy %1 = %2 (budget %3, σ_n = %4).")
                       .arg(reading.unit, num(reading.worstCase), num(reading.budget))
                       .arg(num(number(doc["sigma_n"])));
    std::vector<GrowingBarChart::Bar> privacyBars{{tr("budget"), reading.budget, palette::chartRed},
                                                  {tr("worst case"), reading.worstCase, palette::chartInk}};
    if (simulated)
        privacyBars.push_back({tr("realised (simulation)"), reading.realised, palette::chartTeal});
    charts.privacy.setBars(
        tr("Realised vs worst-case %1").arg(privacy.contains("target") ? tr("ε") : reading.unit),
        reading.unit, privacyBars);
    if (simulated && nsg) {
        const Json &errors = doc["errors"];
        std::vector<GrowingBarChart::Bar> errorBars{
            {tr("NSG hard answers"), number(errors["hard_mean_abs"]), palette::chartBlue}};
        const Json &mcError = doc.value("monte_carlo", Json::object()).value("hard_mean_abs", Json());
        if (mcError.is_object())
            errorBars.push_back(
                {tr("median of %1 orders").arg(integer(number(doc["monte_carlo"]["repetitions"]))),
                 number(mcError["median"]), palette::chartGreen});
        charts.errors.setBars(tr("Hard answers' mean |error|"), tr("error (fraction)"), errorBars);
        const double hardCount = hard.points.empty() ? 0.0 : hard.points.back().y();
        const Json &lastCap = caps.back();
        text += QLatin1Char(' ')
                + tr("<b>Simulation on CPS1988</b>: %1 hard answers of the cap %2 (%3 queries turned away "
                     "at the last checkpoint) in %4 rounds; realised %5 = %6 against the worst case %7; "
                     "mean |error| of the hard answers %8.")
                      .arg(integer(hardCount), integer(cap.points.back().y()),
                           integer(number(lastCap.value("capped", Json()))),
                           integer(double(doc["rounds"].size())), reading.unit, num(reading.realised),
                           num(reading.worstCase), num(number(errors["hard_mean_abs"])));
        if (!reading.note.isEmpty())
            text += QLatin1Char(' ') + reading.note;
        if (mc.contains("checkpoints")) {
            auto spread = [](const Json &b) {
                return b.is_object()
                           ? tr("%1 (5–95 %: %2 – %3)")
                                 .arg(num(number(b["median"])), num(number(b["q05"])), num(number(b["q95"])))
                           : QStringLiteral("—");
            };
            const bool rhoUnit = privacy.value("unit", "epsilon") == "rho";
            text += QLatin1Char(' ')
                    + tr("<b>Over %1 seeded orders</b> (the numbers above are the first's): hard answers %2, "
                         "realised %3 %4, mean |error| of the hard answers %5.")
                          .arg(integer(number(mc["repetitions"])), spread(mc["hard"]),
                               rhoUnit ? tr("ρ") : tr("ε"), spread(mc["realised"]),
                               spread(mc["hard_mean_abs"]));
        }
    } else if (simulated) {
        const Json &errors = doc["errors"];
        charts.errors.setBars(tr("Mean |error| (simulation)"), tr("error (fraction)"),
                              {{tr("PMWG"), number(errors["mean_abs"]), palette::chartBlue},
                               {tr("Laplace per query (baseline)"),
                                number(errors["laplace_baseline_mean_abs"]), palette::neutralGrey}});
        const double hardCount = hard.points.empty() ? 0.0 : hard.points.back().y();
        text
            += QLatin1Char(' ')
               + tr("<b>Simulation on CPS1988</b>: %1 hard queries of the cap %2; realised %3 = %4 against "
                    "the worst case %5. Over %6 queries the mean absolute error "
                    "is %7 (95th percentile %8, max %9); answering each with Laplace noise under basic "
                    "composition would err by %10 on average. The public histogram's final KL divergence from the data's is %11 (a diagnostic read from the data).")
                     .arg(integer(hardCount))
                     .arg(integer(cap.points.back().y()))
                     .arg(reading.unit)
                     .arg(num(reading.realised))
                     .arg(num(reading.worstCase))
                     .arg(integer(number(errors["queries"])))
                     .arg(num(number(errors["mean_abs"])))
                     .arg(num(number(errors["q95_abs"])))
                     .arg(num(number(errors["max_abs"])))
                     .arg(num(number(errors["laplace_baseline_mean_abs"])))
                     .arg(num(number(errors["final_kl"])));
        if (!reading.note.isEmpty())
            text += QLatin1Char(' ') + reading.note;
    } else {
        charts.errors.clear(tr("Run the simulation for the errors."));
        text += QLatin1Char(' ') + tr("Press <b>Run</b> for the hard queries, realised privacy and errors.");
    }
    return text;
}

} // namespace pbx::ui::growinglab
