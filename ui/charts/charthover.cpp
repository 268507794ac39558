// SPDX-License-Identifier: MIT
#include "ui/charts/charthover.h"

#include "ui/charts/errorbarchartview.h"
#include "ui/util/numberformat.h"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QHelpEvent>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMouseEvent>
#include <QRegularExpression>
#include <QToolTip>
#include <QValueAxis>
#include <QXYSeries>

#include <algorithm>
#include <cmath>

namespace pbx::ui {

namespace {

struct Axes
{
    const QAbstractAxis *x = nullptr;
    const QAbstractAxis *y = nullptr;
};

Axes axesOf(const QAbstractSeries *series)
{
    Axes axes;
    // attachedAxes() is not const in Qt 6.4, though it only reads.
    for (const QAbstractAxis *axis : const_cast<QAbstractSeries *>(series)->attachedAxes()) {
        if (axis->orientation() == Qt::Horizontal && !axes.x)
            axes.x = axis;
        else if (axis->orientation() == Qt::Vertical && !axes.y)
            axes.y = axis;
    }
    return axes;
}

double pixelDistance(QPointF a, QPointF b)
{
    return std::hypot(a.x() - b.x(), a.y() - b.y());
}

} // namespace

ChartHover::ChartHover(QChartView *view) : QObject(view), m_view(view)
{
    setObjectName(QStringLiteral("chartHover"));
}

ChartHover *ChartHover::install(QChartView *view)
{
    auto *hover = new ChartHover(view);
    // Without tracking the viewport reports moves only while a button is down.
    view->setMouseTracking(true);
    view->viewport()->setMouseTracking(true);
    view->viewport()->installEventFilter(hover);
    return hover;
}

ChartHover *ChartHover::of(const QWidget *widget)
{
    if (!widget)
        return nullptr;
    if (auto *hover
        = widget->findChild<ChartHover *>(QStringLiteral("chartHover"), Qt::FindDirectChildrenOnly))
        return hover;
    return widget->findChild<ChartHover *>(QStringLiteral("chartHover"));
}

std::optional<ChartHover::Hit> ChartHover::hitAt(QPoint viewportPos) const
{
    QChart *chart = m_view->chart();
    if (!chart)
        return std::nullopt;
    const QPointF pointer = chart->mapFromScene(m_view->mapToScene(viewportPos));
    if (!chart->plotArea().adjusted(-hitRadius, -hitRadius, hitRadius, hitRadius).contains(pointer))
        return std::nullopt;

    std::optional<Hit> best;
    // Later series are drawn on top, so they win ties.
    const auto consider = [&best](Hit hit) {
        if (!best || hit.distance <= best->distance)
            best = std::move(hit);
    };
    // The nearest point of `points` (mapped with `mapping`'s axes) within the radius.
    const auto nearestPoint
        = [&](const QList<QPointF> &points, const QAbstractSeries *mapping, const QString &name) {
              auto *series = const_cast<QAbstractSeries *>(mapping);
              // Only points whose x is within the radius (in value terms) are mapped to pixels: the
              // privacy-loss path of a long session has 10⁴ points.
              const double xa = chart->mapToValue(pointer - QPointF(hitRadius, 0.0), series).x();
              const double xb = chart->mapToValue(pointer + QPointF(hitRadius, 0.0), series).x();
              const double lo = std::min(xa, xb);
              const double hi = std::max(xa, xb);
              for (qsizetype i = 0; i < points.size(); ++i) {
                  const QPointF &p = points[i];
                  if (!(p.x() >= lo && p.x() <= hi) || !std::isfinite(p.y()))
                      continue;
                  const double d = pixelDistance(chart->mapToPosition(p, series), pointer);
                  if (d <= hitRadius)
                      consider(Hit{mapping, static_cast<int>(i), p, name, {}, {}, {}, d});
              }
          };

    for (const QAbstractSeries *series : chart->series()) {
        if (!series->isVisible() || m_ignored.contains(series) || !axesOf(series).x)
            continue;
        if (const auto *xy = qobject_cast<const QXYSeries *>(series)) {
            if (!xy->name().isEmpty())
                nearestPoint(xy->points(), xy, xy->name());
        } else if (const auto *area = qobject_cast<const QAreaSeries *>(series)) {
            if (area->name().isEmpty())
                continue;
            const QLineSeries *lower = area->lowerSeries();
            if (const QLineSeries *upper = area->upperSeries())
                nearestPoint(upper->points(), area,
                             lower ? tr("%1 (upper bound)").arg(area->name()) : area->name());
            if (lower)
                nearestPoint(lower->points(), area, tr("%1 (lower bound)").arg(area->name()));
        } else if (const auto *bars = qobject_cast<const QBarSeries *>(series)) {
            // Category i spans [i − ½, i + ½]; the sets share barWidth() of it side by side.
            const QList<QBarSet *> sets = bars->barSets();
            const double setWidth = bars->barWidth() / std::max<qsizetype>(1, sets.size());
            const auto *logAxis = qobject_cast<const QLogValueAxis *>(axesOf(series).y);
            const double base = logAxis ? logAxis->min() : 0.0;
            auto *mapping = const_cast<QBarSeries *>(bars);
            for (qsizetype s = 0; s < sets.size(); ++s) {
                const QBarSet *set = sets[s];
                const QString name = set->label().isEmpty() ? bars->name() : set->label();
                if (name.isEmpty())
                    continue;
                for (qsizetype i = 0; i < set->count(); ++i) {
                    const double left = static_cast<double>(i) - bars->barWidth() / 2.0 + s * setWidth;
                    const QRectF rect = QRectF(chart->mapToPosition(QPointF(left, set->at(i)), mapping),
                                               chart->mapToPosition(QPointF(left + setWidth, base), mapping))
                                            .normalized();
                    if (rect.contains(pointer))
                        consider(Hit{bars,
                                     static_cast<int>(i),
                                     QPointF(static_cast<double>(i), set->at(i)),
                                     name,
                                     {},
                                     {},
                                     {},
                                     hitRadius});
                }
            }
        }
    }
    if (!best)
        return std::nullopt;
    const Axes axes = axesOf(best->series);
    best->x = formatValue(axes.x, best->value.x());
    best->y = formatValue(axes.y, best->value.y());
    if (m_label)
        best->label = m_label(best->series, best->index, best->value);
    // Error bars drawn over the chart at this point: their range too.
    if (const auto *errorBars = qobject_cast<const ErrorBarChartView *>(m_view))
        for (const ErrorBarChartView::Bar &bar : errorBars->bars())
            if (bar.series == best->series && std::abs(bar.x - best->value.x()) < 1e-9) {
                const QString range = tr("error bar %1 to %2")
                                          .arg(formatValue(axes.y, bar.low), formatValue(axes.y, bar.high));
                best->label = best->label.isEmpty() ? range : best->label + u'\n' + range;
                break;
            }
    return best;
}

QString ChartHover::tooltipText(const Hit &hit) const
{
    const Axes axes = axesOf(hit.series);
    // "title: value"; an untitled axis (e.g. bar categories) gives the value alone.
    const auto line = [](const QAbstractAxis *axis, const QString &value) {
        const QString title = axis ? axis->titleText() : QString();
        return title.isEmpty() ? value : title + QStringLiteral(": ") + value;
    };
    QString text = QStringLiteral("<b>%1</b><br>%2<br>%3")
                       .arg(hit.seriesName.toHtmlEscaped(), line(axes.x, hit.x), line(axes.y, hit.y));
    if (!hit.label.isEmpty())
        text += QStringLiteral("<br>") + hit.label.toHtmlEscaped().replace(u'\n', QStringLiteral("<br>"));
    return text;
}

QString ChartHover::formatValue(const QAbstractAxis *axis, double value) const
{
    if (!axis)
        return formatNumber(value);
    if (const auto it = m_axisFormats.constFind(axis); it != m_axisFormats.constEnd())
        return it.value()(value);
    if (const auto *categories = qobject_cast<const QBarCategoryAxis *>(axis)) {
        const qsizetype index = std::llround(value);
        if (index >= 0 && index < categories->count())
            return categories->at(index);
    }
    QString format;
    if (const auto *values = qobject_cast<const QValueAxis *>(axis))
        format = values->labelFormat();
    else if (const auto *logValues = qobject_cast<const QLogValueAxis *>(axis))
        format = logValues->labelFormat();
    static const QRegularExpression conversion(QStringLiteral("%[-+ #0]*\\d*(?:\\.(\\d+))?([a-zA-Z])"));
    const QRegularExpressionMatch match = conversion.match(format);
    if (match.hasMatch() && QStringLiteral("diouxXc").contains(match.captured(2)))
        return formatNumber(std::round(value), 15);
    // A tooltip is read, not scanned: never fewer than 4 significant digits.
    const int precision = match.captured(1).isEmpty() ? 0 : match.captured(1).toInt();
    return formatNumber(value, std::clamp(precision + 1, 4, 15));
}

bool ChartHover::eventFilter(QObject *watched, QEvent *event)
{
    switch (event->type()) {
    case QEvent::MouseMove:
        showAt(static_cast<QMouseEvent *>(event)->position().toPoint());
        break;
    case QEvent::Leave:
        hide();
        break;
    case QEvent::ToolTip:
        // On a point the point's tooltip stands; elsewhere the chart's own explanation shows.
        if (hitAt(static_cast<QHelpEvent *>(event)->pos())) {
            showAt(static_cast<QHelpEvent *>(event)->pos());
            return true;
        }
        break;
    default:
        break;
    }
    return QObject::eventFilter(watched, event);
}

void ChartHover::showAt(QPoint viewportPos)
{
    const std::optional<Hit> hit = hitAt(viewportPos);
    if (!hit) {
        hide();
        return;
    }
    m_shown = tooltipText(*hit);
    QToolTip::showText(m_view->viewport()->mapToGlobal(viewportPos), m_shown, m_view->viewport());
}

void ChartHover::hide()
{
    if (m_shown.isEmpty())
        return;
    m_shown.clear();
    QToolTip::hideText();
}

} // namespace pbx::ui
