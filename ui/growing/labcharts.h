// SPDX-License-Identifier: MIT
// The growing-database lab's charts (docs/growing-databases.md), one builder per panel and
// algorithm: labcharts_timeline.cpp (privacy spent over time), labcharts_scheduler.cpp
// (BBScheduler's and BBImprover's accuracy), labcharts_smalldbg.cpp, labcharts_ermg.cpp,
// labcharts_nsg.cpp, labcharts_pmwg.cpp (the PMWG / NSG tab) and labcursor.cpp (the time cursor's
// read-out). Each draws the plan or the last finished simulation into the chart it is given and
// returns the note shown under it; none owns a widget (GrowingLabDialog does).
#pragma once

#include "core/simulation/growing_lab_result.h"
#include "ui/charts/growingchart.h"
#include "ui/growing/growinglabjob.h"

#include <QColor>
#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <vector>

namespace pbx::ui::growinglab {

/// The lab's texts keep the dialog's translation context.
inline QString tr(const char *text)
{
    return QCoreApplication::translate("pbx::ui::GrowingLabDialog", text);
}

/// What every builder reads: the current plan, the last finished simulation of the same input (or
/// nullptr) and the editor's settings the texts quote.
struct LabView
{
    growing::LabAlgorithm algorithm; ///< the plan's
    const growing::GrowingLabResult &plan;
    const GrowingRunOutcome *simulation = nullptr;
    double startSize = 1.0; ///< n: where the x axis starts
    double end = 2.0;       ///< the horizon + 1: where the x axis ends
    bool sorted = false;    ///< the adversarial arrival order (the texts name the order)
    int queries = 0;        ///< Laplace-k's k
    double beta = 0.0;      ///< the failure probability the bounds hold with
};

/// The PMWG / NSG tab's three charts.
struct PmwgCharts
{
    GrowingChart &hard;
    GrowingBarChart &privacy;
    GrowingBarChart &errors;
};

/// Timeline tab, upper chart: the budget, the privacy spent (per epoch or step, cumulative), PMWG's
/// and NSG's worst case and realised loss, ERMG's σ_t.
void drawTimeline(GrowingChart &chart, const LabView &view);
/// Timeline tab, lower chart: the accuracy bound and the measured error (or ERMG's excess risk,
/// NSG's hard answers' error); returns the note under it.
QString drawAccuracy(GrowingChart &chart, const LabView &view);
/// BBScheduler's and BBImprover's accuracy (and SmallDBG's, through addSmallDbMeasured).
QString drawSchedulerAccuracy(GrowingChart &chart, const LabView &view);
/// ERMG: the excess empirical risk of each released model; a message before a simulation.
QString drawErmRisk(GrowingChart &chart, const LabView &view);
/// NSG after Run: the hard answers' mean |error| over the seeded orders.
QString drawNsgErrors(GrowingChart &chart, const LabView &view);
/// The PMWG / NSG tab: K(t) against the cap, privacy and error bars; returns the note under them.
QString drawPmwgPanel(const PmwgCharts &charts, const LabView &view);
/// The read-out at time t (the charts give the drawn values the cursor crosses).
QString cursorReadout(const LabView &view, double t, const GrowingChart &accuracy, const GrowingChart &pmwg);

// Shared by the builders.

/// Bounds above 1 say nothing about a fraction; they are drawn at 1 (and `clipped` says one was).
struct FractionClip
{
    bool clipped = false;
    double operator()(double v)
    {
        clipped = clipped || !(v <= 1.0);
        return std::isfinite(v) ? std::min(v, 1.0) : 1.0;
    }
};

/// SmallDBG's measured error (the core's Monte Carlo summary as it is) against the best any m-row
/// database achieves, appended to `series`; its paragraph to `notes`.
void addSmallDbMeasured(std::vector<GrowingChart::Series> &series, QStringList &notes, const LabView &view,
                        FractionClip &clip);

inline const QColor kStaleness{0xd9, 0x77, 0x06};

/// The value, or NaN.
double orNaN(const std::optional<double> &value);
/// The result's privacy account (every algorithm has one).
const growing::LabPrivacy &privacyOf(const growing::GrowingLabResult &result);
/// x rounded, with the locale's group separators.
QString integer(double x);
/// x to `digits` significant digits, "—" when not finite.
QString num(double x, int digits = 4);
GrowingChart::Series makeSeries(const QString &id, const QString &name, const QColor &colour,
                                GrowingChart::Kind kind, Qt::PenStyle style = Qt::SolidLine);
/// The paper every algorithm of this lab comes from, for the texts the user reads.
QString paperCitation();

/// A result's privacy account read in the budget's unit: ε (pure), ρ (zcdp), or ε at the target δ
/// (approx: the core's ρ accounts converted by the budget's own conversion).
struct PrivacyReading
{
    QString unit;
    double budget = std::nan("");
    double worstCase = std::nan("");
    double realised = std::nan(""); ///< NaN before a simulation
    QString note;                   ///< approx: the ρ the conversion started from
};
PrivacyReading privacyReading(const growing::LabPrivacy &privacy);

} // namespace pbx::ui::growinglab
