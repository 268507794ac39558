// SPDX-License-Identifier: MIT
// Reads what Qt Charts actually drew. Every visible chart under a widget is
// walked through its scene: a text item (tick label, legend entry, title) whose text Qt shortened
// ("0.0…", "reser...") or that lies outside the chart, two labels of one axis that overlap, a
// legend over the plot, a point marker outside the plot. Each problem is one readable line.
#pragma once

#include <QAbstractAxis>
#include <QChart>
#include <QChartView>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QLegend>
#include <QScatterSeries>
#include <QStringList>
#include <QWidget>
#include <QXYSeries>

#include <utility>
#include <vector>

namespace pbx::test {

/// The charts under `root` that are visible on screen (another tab's charts are left out).
inline QList<QChartView *> visibleChartViews(QWidget *root)
{
    QList<QChartView *> views;
    for (QChartView *view : root->findChildren<QChartView *>())
        if (view->isVisible() && view->width() > 0 && view->height() > 0)
            views << view;
    return views;
}

/// A name for messages: the chart's title, or its frame's class and object name.
inline QString chartName(const QChartView *view)
{
    const QString title = view->chart()->title();
    if (!title.isEmpty())
        return title;
    const QWidget *frame = view->parentWidget();
    return frame ? QString::fromLatin1(frame->metaObject()->className()) + u' ' + frame->objectName()
                 : QStringLiteral("chart");
}

/// Every problem in the charts under `root`, one line each ("" when all is well).
inline QStringList chartProblems(QWidget *root)
{
    QStringList problems;
    for (QChartView *view : visibleChartViews(root)) {
        QChart *chart = view->chart();
        const QString name = chartName(view);
        const QRectF chartRect = chart->sceneBoundingRect().adjusted(-1, -1, 1, 1);
        const QRectF plot = chart->plotArea();
        std::vector<std::pair<QGraphicsTextItem *, QRectF>> texts;
        for (QGraphicsItem *item : view->scene()->items()) {
            auto *text = dynamic_cast<QGraphicsTextItem *>(item);
            if (!text || !text->isVisible())
                continue;
            const QString plain = text->toPlainText();
            if (plain.trimmed().isEmpty())
                continue;
            if (plain.contains(QChar(0x2026)) || plain.contains(QStringLiteral("...")))
                problems << QStringLiteral("%1: '%2' is elided").arg(name, plain);
            const QRectF rect = text->sceneBoundingRect();
            // Qt pads text items by a few pixels; their text must lie inside the chart.
            const QRectF inner = rect.adjusted(3, 3, -3, -3);
            if (!chartRect.contains(inner))
                problems << QStringLiteral("%1: '%2' is cut by the chart's edge").arg(name, plain);
            texts.emplace_back(text, inner);
        }
        // Labels of one axis (one parent group) must not overlap.
        for (std::size_t i = 0; i < texts.size(); ++i)
            for (std::size_t j = i + 1; j < texts.size(); ++j)
                if (texts[i].first->parentItem() == texts[j].first->parentItem()
                    && texts[i].second.intersects(texts[j].second))
                    problems << QStringLiteral("%1: '%2' overlaps '%3'")
                                    .arg(name, texts[i].first->toPlainText(), texts[j].first->toPlainText());
        QLegend *legend = chart->legend();
        if (legend->isVisible() && !chart->series().isEmpty()
            && legend->sceneBoundingRect().adjusted(2, 2, -2, -2).intersects(plot))
            problems << QStringLiteral("%1: the legend covers the plot").arg(name);
        // The last point marker of each series (scatter, or points shown on a line) lies inside
        // the plot (a first point on the axes' corner is the origin, drawn half by design).
        for (QAbstractSeries *series : chart->series()) {
            auto *xy = qobject_cast<QXYSeries *>(series);
            if (!xy || !xy->isVisible())
                continue;
            const auto *scatter = qobject_cast<QScatterSeries *>(xy);
            if (!scatter && !xy->pointsVisible())
                continue;
            const qreal radius = scatter ? scatter->markerSize() / 2 : 2.0;
            const QRectF inside = plot.adjusted(radius - 1, radius - 1, 1 - radius, 1 - radius);
            if (xy->count() > 0) {
                const QPointF p = xy->at(xy->count() - 1);
                const QPointF at = chart->mapToPosition(p, xy);
                if (!inside.contains(at))
                    problems << QStringLiteral("%1: the marker of '%2' at (%3, %4) is clipped")
                                    .arg(name, xy->name())
                                    .arg(p.x())
                                    .arg(p.y());
            }
        }
    }
    return problems;
}

} // namespace pbx::test
