// SPDX-License-Identifier: MIT
#include "ui/charts/unitsquarechart.h"

#include <QChart>
#include <QLegend>
#include <QLineSeries>
#include <QValueAxis>

namespace pbx::ui {

namespace {

/// QChart's own margins and rounded corners, the legend below the plot.
ChartFrame::Style unitSquareFrame()
{
    ChartFrame::Style style;
    style.compact = false;
    // Whole curve names wrapping below the plot: QLegend elides them in presentation mode
    // ("pure ε …").
    style.wrappingLegend = true;
    style.minimumViewSize = QSize(300, 280);
    return style;
}

} // namespace

UnitSquareChart::UnitSquareChart(const QString &title, const QString &xTitle, const QString &yTitle,
                                 QWidget *parent)
    : ChartFrame(unitSquareFrame(), parent)
{
    chart()->setTitle(title);
    auto *x = new QValueAxis;
    auto *y = new QValueAxis;
    x->setTitleText(xTitle);
    y->setTitleText(yTitle);
    for (QValueAxis *axis : {x, y}) {
        axis->setRange(0.0, 1.0);
        axis->setTickCount(6);
        axis->setLabelFormat(QStringLiteral("%.1f"));
    }
    chart()->addAxis(x, Qt::AlignBottom);
    chart()->addAxis(y, Qt::AlignLeft);
}

int UnitSquareChart::addCurve(const QString &name, const QColor &colour, Qt::PenStyle style)
{
    auto *series = new QLineSeries;
    series->setName(name);
    QPen pen(colour);
    pen.setWidthF(style == Qt::SolidLine ? 2.5 : 1.5);
    pen.setStyle(style);
    series->setPen(pen);
    chart()->addSeries(series);
    for (QAbstractAxis *axis : chart()->axes())
        series->attachAxis(axis);
    m_series.append(series);
    const QString glyph = style == Qt::SolidLine ? QStringLiteral("━━")
                          : style == Qt::DotLine ? QStringLiteral("┈┈")
                                                 : QStringLiteral("╍╍");
    m_legend << legendEntry(colour, glyph, name);
    setLegendEntries(m_legend);
    return static_cast<int>(m_series.size()) - 1;
}

void UnitSquareChart::setPoints(int curve, const QList<QPointF> &points)
{
    if (curve >= 0 && curve < m_series.size())
        m_series[curve]->replace(points);
}

int UnitSquareChart::pointCount(int curve) const
{
    return curve >= 0 && curve < m_series.size() ? static_cast<int>(m_series[curve]->count()) : 0;
}

QPointF UnitSquareChart::point(int curve, int i) const
{
    return m_series.at(curve)->at(i);
}

} // namespace pbx::ui
