// SPDX-License-Identifier: MIT
#include "ui/charts/errorbarchartview.h"

#include "ui/charts/presentation.h"

#include <QAbstractSeries>
#include <QChart>
#include <QPainter>

#include <cmath>

namespace pbx::ui {

ErrorBarChartView::ErrorBarChartView(QChart *chart, QWidget *parent) : QChartView(chart, parent)
{
    // The bars are painted over the scene: repaint the whole viewport when the chart changes.
    setViewportUpdateMode(QGraphicsView::FullViewportUpdate);
}

void ErrorBarChartView::setBars(QList<Bar> bars)
{
    m_bars = std::move(bars);
    viewport()->update();
}

void ErrorBarChartView::drawForeground(QPainter *painter, const QRectF &rect)
{
    QChartView::drawForeground(painter, rect);
    QChart *c = chart();
    if (!c || m_bars.isEmpty())
        return;
    const QRectF plot = c->mapToScene(c->plotArea()).boundingRect();
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setClipRect(plot);
    constexpr double kCap = 4.0; // half-width of a cap, px
    for (const Bar &bar : std::as_const(m_bars)) {
        if (!bar.series || !std::isfinite(bar.x) || !std::isfinite(bar.low) || !std::isfinite(bar.high))
            continue;
        const QPointF shift(bar.offset, 0.0);
        const QPointF low = c->mapToScene(c->mapToPosition(QPointF(bar.x, bar.low), bar.series)) + shift;
        const QPointF high = c->mapToScene(c->mapToPosition(QPointF(bar.x, bar.high), bar.series)) + shift;
        painter->setPen(
            QPen(bar.colour, bar.width * Presentation::instance().lineScale(), Qt::SolidLine, Qt::FlatCap));
        painter->drawLine(low, high);
        for (const QPointF &end : {low, high}) {
            if (plot.contains(end))
                painter->drawLine(QPointF(end.x() - kCap, end.y()), QPointF(end.x() + kCap, end.y()));
        }
    }
    painter->restore();
}

} // namespace pbx::ui
