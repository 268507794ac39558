// SPDX-License-Identifier: MIT
#include "ui/charts/odplinechart.h"

#include <QChart>
#include <QLegend>
#include <QLineSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace pbx::ui {

namespace {

/// QChart's own margins and rounded corners, the legend below: a dialog's single large chart.
ChartFrame::Style odpFrame()
{
    ChartFrame::Style style;
    style.compact = false;
    style.minimumViewSize = QSize(480, 300);
    return style;
}

} // namespace

OdpLineChart::OdpLineChart(QWidget *parent) : ChartFrame(odpFrame(), parent)
{
    chart()->legend()->setAlignment(Qt::AlignBottom);
}

void OdpLineChart::setTitles(const QString &title, const QString &xTitle, const QString &yTitle)
{
    chart()->setTitle(title);
    m_xTitle = xTitle;
    m_yTitle = yTitle;
}

void OdpLineChart::setCurves(const std::vector<Curve> &curves)
{
    chart()->removeAllSeries();
    for (QAbstractAxis *axis : chart()->axes())
        chart()->removeAxis(axis);
    auto *x = new QValueAxis;
    auto *y = new QValueAxis;
    x->setTitleText(m_xTitle);
    y->setTitleText(m_yTitle);
    chart()->addAxis(x, Qt::AlignBottom);
    chart()->addAxis(y, Qt::AlignLeft);
    double xMin = HUGE_VAL, xMax = -HUGE_VAL, yMin = 0.0, yMax = -HUGE_VAL;
    for (const Curve &c : curves) {
        auto *series = new QLineSeries;
        series->setName(c.name);
        QPen pen(c.colour);
        pen.setWidthF(2.0);
        pen.setStyle(c.style);
        series->setPen(pen);
        series->setPointsVisible(c.markers);
        for (std::size_t i = 0; i < c.x.size() && i < c.y.size(); ++i) {
            if (!std::isfinite(c.x[i]) || !std::isfinite(c.y[i]))
                continue;
            series->append(c.x[i], c.y[i]);
            xMin = std::min(xMin, c.x[i]);
            xMax = std::max(xMax, c.x[i]);
            yMin = std::min(yMin, c.y[i]);
            yMax = std::max(yMax, c.y[i]);
        }
        chart()->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
    }
    if (xMax > xMin) {
        x->setRange(xMin, xMax);
        bool whole = true;
        for (const Curve &c : curves)
            for (double v : c.x)
                whole = whole && v == std::floor(v);
        if (whole && xMax - xMin <= 12) { // a tick per request, labelled as an integer
            x->setTickCount(static_cast<int>(xMax - xMin) + 1);
            x->setLabelFormat(QStringLiteral("%d"));
        } else {
            x->applyNiceNumbers();
        }
        y->setRange(yMin, yMax + 0.05 * (yMax - yMin));
        y->applyNiceNumbers();
    }
}

int OdpLineChart::curveCount() const
{
    return static_cast<int>(chart()->series().size());
}

int OdpLineChart::pointCount(int index) const
{
    const auto series = chart()->series();
    if (index < 0 || index >= series.size())
        return 0;
    return static_cast<int>(static_cast<QLineSeries *>(series[index])->count());
}

} // namespace pbx::ui
