// SPDX-License-Identifier: MIT
#include "ui/charts/odplinechart.h"

#include "ui/charts/axisticks.h"

#include <QChart>
#include <QLineSeries>
#include <QScatterSeries>
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
    // QLegend lays its markers out on one line and truncates the names of many curves.
    style.wrappingLegend = true;
    style.minimumViewSize = QSize(420, 260);
    return style;
}

} // namespace

OdpLineChart::OdpLineChart(QWidget *parent) : ChartFrame(odpFrame(), parent)
{
    setEmptyMessage(tr("Nothing to draw yet."));
}

void OdpLineChart::setEmptyMessage(const QString &whatToDo)
{
    m_empty = whatToDo;
    if (chart()->series().isEmpty())
        showEmpty(m_empty);
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
    QValueAxis *y2 = nullptr;
    for (const Curve &c : curves)
        if (c.rightAxis && !y2) {
            y2 = new QValueAxis;
            y2->setTitleText(m_y2Title);
            y2->setRange(0.0, 1.0);
            chart()->addAxis(y2, Qt::AlignRight);
        }
    double xMin = HUGE_VAL, xMax = -HUGE_VAL, yMin = 0.0, yMax = -HUGE_VAL;
    setMessage(QString());
    QStringList legend;
    for (const Curve &c : curves) {
        const QString glyph = c.scatter                  ? QStringLiteral("●")
                              : c.style == Qt::SolidLine ? QStringLiteral("━━")
                              : c.style == Qt::DotLine   ? QStringLiteral("┈┈")
                                                         : QStringLiteral("╍╍");
        legend << legendEntry(c.colour, glyph, c.name);
        QXYSeries *series = nullptr;
        if (c.scatter) {
            auto *scatter = new QScatterSeries;
            scatter->setMarkerSize(c.markerSize);
            scatter->setColor(c.colour);
            scatter->setBorderColor(c.colour.darker(130));
            series = scatter;
        } else {
            series = new QLineSeries;
            QPen pen(c.colour);
            pen.setWidthF(2.0);
            pen.setStyle(c.style);
            series->setPen(pen);
            series->setPointsVisible(c.markers);
        }
        series->setName(c.name);
        for (std::size_t i = 0; i < c.x.size() && i < c.y.size(); ++i) {
            if (!std::isfinite(c.x[i]) || !std::isfinite(c.y[i]))
                continue;
            series->append(c.x[i], c.y[i]);
            xMin = std::min(xMin, c.x[i]);
            xMax = std::max(xMax, c.x[i]);
            if (!c.rightAxis) {
                yMin = std::min(yMin, c.y[i]);
                yMax = std::max(yMax, c.y[i]);
            }
        }
        chart()->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(c.rightAxis ? y2 : y);
    }
    setLegendEntries(legend);
    if (!(xMax >= xMin)) { // not one finite point
        chart()->removeAllSeries();
        showEmpty(m_empty);
        return;
    }
    bool markers = false;
    for (const Curve &c : curves)
        markers = markers || c.scatter || c.markers;
    // Markers at the data's ends stay whole: the range reaches a little past them.
    const double xPad = markers ? 0.03 * (xMax - xMin) : 0.0;
    if (xMax > xMin) {
        QList<double> xs;
        for (const Curve &c : curves)
            xs.append(QList<double>(c.x.begin(), c.x.end()));
        if (wholeNumbers(xs)) {
            // Requests, entries, steps: integer ticks, one per value up to 12 of them.
            setIntegerTicks(x, xMin - xPad, xMax + xPad, xMax - xMin <= 12 ? 13 : 6);
        } else if (markers) {
            // Nice ticks inside a range that ends just past the data (applyNiceNumbers would
            // widen it to the next round numbers, far past the last marker).
            setNiceTicks(x, xMin - xPad, xMax + xPad, 5);
        } else if (!m_fixedY) {
            x->setRange(xMin, xMax);
            x->applyNiceNumbers();
        } else {
            x->setRange(xMin, xMax);
            x->setTickCount(6); // the data's own range, in fifths
        }
        const double low = m_fixedY ? m_yMin : yMin;
        const double high = m_fixedY ? m_yMax : yMax + 0.05 * (yMax - yMin);
        if (markers) {
            const double yPad = 0.03 * (high - low);
            setNiceTicks(y, low - yPad, high + yPad, 5);
        } else {
            y->setRange(low, high);
            y->applyNiceNumbers();
        }
    }
}

void OdpLineChart::setFixedYRange(double min, double max)
{
    m_fixedY = true;
    m_yMin = min;
    m_yMax = max;
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
    return static_cast<int>(static_cast<QXYSeries *>(series[index])->count());
}

QPointF OdpLineChart::point(int index, int point) const
{
    const auto series = chart()->series();
    if (index < 0 || index >= series.size())
        return {qQNaN(), qQNaN()};
    const auto *xy = static_cast<QXYSeries *>(series[index]);
    if (point < 0 || point >= xy->count())
        return {qQNaN(), qQNaN()};
    return xy->at(point);
}

QString OdpLineChart::curveName(int index) const
{
    const auto series = chart()->series();
    return index >= 0 && index < series.size() ? series[index]->name() : QString();
}

} // namespace pbx::ui
