// SPDX-License-Identifier: MIT
// The PMWG / NSG tab: hard queries K(t) against the enforced cap H(t) = ⌊c₀(1 + H_t − H_n)⌋, the
// realised against the worst-case privacy, and the errors (PMWG against Laplace per query; NSG's
// hard answers), each over seeded arrival orders where the core repeats the run (Cummings,
// Krehbiel, Lai & Tantipongpipat 2018, §4).
#include "ui/growing/labcharts.h"

#include "ui/util/palette.h"

#include <limits>
#include <variant>

namespace pbx::ui::growinglab {

namespace {

/// The cap (and, after Run, the hard queries) at each checkpoint, whichever algorithm drew them.
struct CapPoint
{
    double time = 0.0;
    double cap = 0.0;
    std::optional<double> hard;
    double capped = 0.0; ///< NSG: queries turned away at the checkpoint
};

std::vector<CapPoint> capPoints(const growing::GrowingLabResult &result)
{
    std::vector<CapPoint> points;
    auto planned = [&](const std::vector<growing::LabCap> &caps) {
        for (const auto &c : caps)
            points.push_back({double(c.time), double(c.cap), std::nullopt, 0.0});
    };
    if (const auto *pmwg = std::get_if<growing::PmwgResult>(&result.body)) {
        planned(pmwg->plannedCap);
        if (pmwg->run)
            for (const auto &c : pmwg->run->checkpoints)
                points.push_back({double(c.time), double(c.cap), double(c.hard), 0.0});
    } else if (const auto *nsg = std::get_if<growing::NsgResult>(&result.body)) {
        planned(nsg->plannedCap);
        if (nsg->run)
            for (const auto &c : nsg->run->checkpoints)
                points.push_back({double(c.time), double(c.cap), double(c.hard), double(c.capped)});
    }
    return points;
}

QString spread(const growing::OptionalBand &b)
{
    return b ? tr("%1 (5–95 %: %2 – %3)").arg(num(b->median), num(b->q05), num(b->q95)) : QStringLiteral("—");
}

/// K(t) against the cap H(t), with NSG's Monte Carlo band; `hard` keeps the first order's K(t).
double drawHardChart(GrowingChart &chart, const LabView &view, const growing::GrowingLabResult &result,
                     bool nsg, GrowingChart::Series &hard, GrowingChart::Series &cap)
{
    chart.setTitles(tr("%1: hard queries K(t) against the cap H(t) = ⌊c₀(1 + H_t − H_n)⌋")
                        .arg(nsg ? tr("NSG") : tr("PMWG")),
                    tr("t (rows arrived)"), tr("queries"));
    double last = view.startSize;
    for (const CapPoint &c : capPoints(result)) {
        cap.points.emplace_back(c.time, c.cap);
        if (c.hard)
            hard.points.emplace_back(c.time, *c.hard);
        last = c.time;
    }
    cap.stepEnd = hard.stepEnd = last + 1.0;
    // The cap last, so it stays visible where it binds.
    std::vector<GrowingChart::Series> series;
    const auto *nsgResult = std::get_if<growing::NsgResult>(&result.body);
    if (nsgResult && nsgResult->monteCarlo) {
        // NSG's Monte Carlo: K(t) over the seeded orders, the median inside its 5–95 % band.
        const int runs = nsgResult->monteCarlo->repetitions;
        hard.name = tr("hard answers K(t), first order");
        hard.style = Qt::DotLine;
        auto band = makeSeries(QStringLiteral("hard-band"), tr("K(t), 5–95 % of %1 seeded orders").arg(runs),
                               palette::chartBlue, GrowingChart::Kind::Band);
        auto median
            = makeSeries(QStringLiteral("hard-median"), tr("K(t), median of %1 seeded orders").arg(runs),
                         palette::chartBlue, GrowingChart::Kind::Step);
        median.width = 2.6;
        const auto nan = std::numeric_limits<double>::quiet_NaN();
        for (const auto &c : nsgResult->monteCarlo->checkpoints) {
            const double t = double(c.time);
            median.points.emplace_back(t, c.hard ? c.hard->median : nan);
            band.points.emplace_back(t, c.hard ? c.hard->q95 : nan);
            band.lower.emplace_back(t, c.hard ? c.hard->q05 : nan);
        }
        band.stepEnd = median.stepEnd = last + 1.0;
        series.push_back(band);
        series.push_back(median);
    }
    if (!hard.points.empty())
        series.push_back(hard);
    series.push_back(cap);
    chart.setData(view.startSize, last + 1.0, {}, series);
    return last;
}

/// NSG after Run: the hard answers' error bars and the paragraph on the first order and the Monte Carlo.
QString nsgSimulationText(const PmwgCharts &charts, const growing::NsgResult &nsg,
                          const PrivacyReading &reading, double hardCount, double capAtEnd,
                          double cappedAtEnd)
{
    const growing::NsgRun &run = *nsg.run;
    std::vector<GrowingBarChart::Bar> errorBars{
        {tr("NSG hard answers"), run.meanAbsNumericError, palette::chartBlue}};
    if (nsg.monteCarlo && nsg.monteCarlo->hardMeanAbs)
        errorBars.push_back({tr("median of %1 orders").arg(integer(double(nsg.monteCarlo->repetitions))),
                             nsg.monteCarlo->hardMeanAbs->median, palette::chartGreen});
    charts.errors.setBars(tr("Hard answers' mean |error|"), tr("error (fraction)"), errorBars);
    QString text = tr("<b>Simulation on CPS1988</b>: %1 hard answers of the cap %2 (%3 queries turned away "
                      "at the last checkpoint) in %4 rounds; realised %5 = %6 against the worst case %7; "
                      "mean |error| of the hard answers %8.")
                       .arg(integer(hardCount), integer(capAtEnd), integer(cappedAtEnd),
                            integer(double(run.rounds.size())), reading.unit, num(reading.realised),
                            num(reading.worstCase), num(run.meanAbsNumericError));
    if (!reading.note.isEmpty())
        text += QLatin1Char(' ') + reading.note;
    if (nsg.monteCarlo) {
        const growing::NsgMonteCarlo &mc = *nsg.monteCarlo;
        text += QLatin1Char(' ')
                + tr("<b>Over %1 seeded orders</b> (the numbers above are the first's): hard answers %2, "
                     "realised %3 %4, mean |error| of the hard answers %5.")
                      .arg(integer(double(mc.repetitions)), spread(mc.hard),
                           nsg.privacy.rho ? tr("ρ") : tr("ε"), spread(mc.realised), spread(mc.hardMeanAbs));
    }
    return text;
}

/// PMWG after Run: its error against Laplace per query, and the paragraph on the run.
QString pmwgSimulationText(const PmwgCharts &charts, const growing::PmwgRun &run,
                           const PrivacyReading &reading, double hardCount, double capAtEnd)
{
    charts.errors.setBars(
        tr("Mean |error| (simulation)"), tr("error (fraction)"),
        {{tr("PMWG"), run.meanAbsError, palette::chartBlue},
         {tr("Laplace per query (baseline)"), run.laplaceBaselineMeanError, palette::neutralGrey}});
    QString text
        = tr("<b>Simulation on CPS1988</b>: %1 hard queries of the cap %2; realised %3 = %4 against "
             "the worst case %5. Over %6 queries the mean absolute error "
             "is %7 (95th percentile %8, max %9); answering each with Laplace noise under basic "
             "composition would err by %10 on average. The public histogram's final KL divergence from the data's is %11 (a diagnostic read from the data).")
              .arg(integer(hardCount))
              .arg(integer(capAtEnd))
              .arg(reading.unit)
              .arg(num(reading.realised))
              .arg(num(reading.worstCase))
              .arg(integer(double(run.queries)))
              .arg(num(run.meanAbsError))
              .arg(num(run.q95AbsError))
              .arg(num(run.maxAbsError))
              .arg(num(run.laplaceBaselineMeanError))
              .arg(num(run.finalDivergence));
    if (!reading.note.isEmpty())
        text += QLatin1Char(' ') + reading.note;
    return text;
}

} // namespace

QString drawPmwgPanel(const PmwgCharts &charts, const LabView &view)
{
    const bool nsg = view.algorithm == growing::LabAlgorithm::Nsg;
    if (view.algorithm != growing::LabAlgorithm::Pmwg && !nsg) {
        charts.hard.clear(tr("Choose PMWG or NSG as the algorithm."));
        charts.privacy.clear(QString());
        charts.errors.clear(QString());
        return QString();
    }
    const bool simulated = view.simulation != nullptr;
    const growing::GrowingLabResult &result = simulated ? view.simulation->result : view.plan;
    auto cap = makeSeries(QStringLiteral("cap"), tr("cap H(t) (enforced)"), palette::chartRed,
                          GrowingChart::Kind::Step, Qt::DashLine);
    auto hard = makeSeries(QStringLiteral("hard"), tr("hard queries K(t) (simulation on CPS1988)"),
                           palette::chartBlue, GrowingChart::Kind::Step);
    drawHardChart(charts.hard, view, result, nsg, hard, cap);
    const growing::LabPrivacy &privacy = privacyOf(result);
    const PrivacyReading reading = privacyReading(privacy);
    const auto *pmwgResult = std::get_if<growing::PmwgResult>(&result.body);
    const auto *nsgResult = std::get_if<growing::NsgResult>(&result.body);
    const double sigmaN = pmwgResult ? pmwgResult->sigmaN : nsgResult ? nsgResult->sigmaN : orNaN({});
    QString text = tr("Worst-case privacy %1 = %2 (budget %3, σ_n = %4).")
                       .arg(reading.unit, num(reading.worstCase), num(reading.budget))
                       .arg(num(sigmaN));
    std::vector<GrowingBarChart::Bar> privacyBars{{tr("budget"), reading.budget, palette::chartRed},
                                                  {tr("worst case"), reading.worstCase, palette::chartInk}};
    if (simulated)
        privacyBars.push_back({tr("realised (simulation)"), reading.realised, palette::chartTeal});
    charts.privacy.setBars(tr("Realised vs worst-case %1").arg(privacy.target ? tr("ε") : reading.unit),
                           reading.unit, privacyBars);
    const double hardCount = hard.points.empty() ? 0.0 : hard.points.back().y();
    const double capAtEnd = cap.points.back().y();
    if (simulated && nsgResult && nsgResult->run) {
        const double capped = nsgResult->run->checkpoints.empty()
                                  ? orNaN({})
                                  : double(nsgResult->run->checkpoints.back().capped);
        text
            += QLatin1Char(' ') + nsgSimulationText(charts, *nsgResult, reading, hardCount, capAtEnd, capped);
    } else if (simulated && pmwgResult && pmwgResult->run) {
        text += QLatin1Char(' ') + pmwgSimulationText(charts, *pmwgResult->run, reading, hardCount, capAtEnd);
    } else {
        charts.errors.clear(tr("Run the simulation for the errors."));
        text += QLatin1Char(' ') + tr("Press <b>Run</b> for the hard queries, realised privacy and errors.");
    }
    return text;
}

} // namespace pbx::ui::growinglab
