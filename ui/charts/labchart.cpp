// SPDX-License-Identifier: MIT
#include "ui/charts/labchart.h"

#include "ui/charts/axisticks.h"
#include "ui/charts/errorbarchartview.h"

#include <QChart>
#include <QLineSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace pbx::ui {

namespace {

ChartFrame::Style labFrame()
{
    ChartFrame::Style style;
    style.errorBars = true;
    // Whole method names wrapping below the plot: a QLegend beside it elides them in a narrow
    // dialog ("Brownian NR · brownian…").
    style.wrappingLegend = true;
    style.minimumViewSize = QSize(320, 280); // the y axis title whole at the dialog's smallest
    return style;
}

} // namespace

LabChart::LabChart(QWidget *parent) : ChartFrame(labFrame(), parent)
{
    m_axisX = new QValueAxis;
    m_axisX->setTitleText(tr("ε spent (mean over repetitions)"));
    m_axisX->setLabelFormat(QStringLiteral("%.3g"));
    m_axisY = new QValueAxis;
    m_axisY->setTitleText(tr("answered within target (mean)"));
    m_axisY->setLabelFormat(QStringLiteral("%.4g"));
    styleAxis(m_axisX);
    styleAxis(m_axisY);
    chart()->addAxis(m_axisX, Qt::AlignBottom);
    chart()->addAxis(m_axisY, Qt::AlignLeft);

    setToolTip(tr("Each curve follows one method through the query stream: how many counts it "
                  "has answered within the target against the budget it has spent (both "
                  "averaged over repetitions). The bar at the end of a curve is ±1 standard "
                  "deviation of the final count over repetitions."));
    rebuild();
}

LabChart::~LabChart() = default;

void LabChart::setCurves(std::span<const Curve> curves)
{
    m_curves.assign(curves.begin(), curves.end());
    scheduleUpdate();
}

void LabChart::clear()
{
    m_curves.clear();
    scheduleUpdate();
}

int LabChart::curveCount() const
{
    return static_cast<int>(std::count_if(m_series.cbegin(), m_series.cend(), [](const QLineSeries *s) {
        return s->isVisible() && s->count() > 0;
    }));
}

QStringList LabChart::curveNames() const
{
    QStringList names;
    for (const QLineSeries *series : m_series) {
        if (series->isVisible() && series->count() > 0)
            names << series->name();
    }
    return names;
}

int LabChart::pointCount(int index) const
{
    if (index < 0 || index >= m_series.size() || !m_series[index]->isVisible())
        return 0;
    return static_cast<int>(m_series[index]->count());
}

int LabChart::errorBarCount() const
{
    return errorBarView()->barCount();
}

void LabChart::rebuild()
{
    while (m_series.size() < static_cast<qsizetype>(m_curves.size())) {
        auto *series = new QLineSeries;
        chart()->addSeries(series);
        series->attachAxis(m_axisX);
        series->attachAxis(m_axisY);
        m_series.append(series);
    }
    double xMax = 0.0;
    double yMax = 0.0;
    QList<ErrorBarChartView::Bar> bars;
    QStringList legend;
    for (qsizetype i = 0; i < m_series.size(); ++i) {
        QLineSeries *series = m_series[i];
        const bool used = i < static_cast<qsizetype>(m_curves.size());
        series->setVisible(used);
        if (!used) {
            series->clear();
            continue;
        }
        const Curve &curve = m_curves[static_cast<std::size_t>(i)];
        series->setName(curve.name);
        legend << legendEntry(curve.colour,
                              curve.style == Qt::SolidLine ? QStringLiteral("━")
                              : curve.style == Qt::DotLine ? QStringLiteral("┈")
                                                           : QStringLiteral("╍"),
                              curve.name);
        series->setPen(QPen(curve.colour, curve.style == Qt::SolidLine ? 2.2 : 1.8, curve.style));
        const std::size_t n = std::min(curve.epsilon.size(), curve.answered.size());
        QList<QPointF> points;
        points.reserve(static_cast<qsizetype>(n) + 1);
        points.append(QPointF(0.0, 0.0));
        for (std::size_t k = 0; k < n; ++k) {
            points.append(QPointF(curve.epsilon[k], curve.answered[k]));
            xMax = std::max(xMax, curve.epsilon[k]);
            yMax = std::max(yMax, curve.answered[k]);
        }
        series->replace(points);
        if (n > 0) {
            const double x = curve.epsilon[n - 1];
            const double y = curve.answered[n - 1];
            // Curves often end at the same ε (the whole budget): fan their bars out a little.
            const double offset
                = (static_cast<double>(i) - (static_cast<double>(m_curves.size()) - 1) / 2.0) * 5.0;
            bars.append(
                {x, std::max(0.0, y - curve.finalSd), y + curve.finalSd, curve.colour, series, 1.8, offset});
            yMax = std::max(yMax, y + curve.finalSd);
        }
    }
    errorBarView()->setBars(bars);
    setLegendEntries(legend);
    // Headroom on x so the spread bars at the curves' ends are not cut by the plot edge.
    setNiceRange(m_axisX, xMax * 1.06, 6);
    setNiceRange(m_axisY, yMax > 0.0 ? yMax * 1.04 : 10.0, 5);
    for (QValueAxis *axis : {m_axisX, m_axisY})
        refreshLabelWidth(axis);
    // Before a run: what to do, not axes of made-up numbers.
    if (m_curves.empty()) {
        showEmpty(tr("Nothing to draw yet: press Run. Each method's counts answered within the "
                     "target, against the ε it spent, appear here."));
    } else {
        setAxesVisible(true);
        setMessage(QString());
    }
}

} // namespace pbx::ui
