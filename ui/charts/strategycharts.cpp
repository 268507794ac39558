// SPDX-License-Identifier: MIT
#include "ui/charts/strategycharts.h"

#include "ui/charts/axisticks.h"

#include "ui/charts/errorbarchartview.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QFontMetricsF>
#include <QLegend>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace pbx::ui {

namespace {

/// QChart's own margins and rounded corners (the strategies' dialogs).
ChartFrame::Style dialogFrame(bool errorBars, bool wrappingLegend = false)
{
    ChartFrame::Style style;
    style.compact = false;
    style.errorBars = errorBars;
    style.wrappingLegend = wrappingLegend;
    return style;
}

/// Pixels a category label needs beyond its text (Qt Charts pads labels on both sides).
constexpr int kLabelPadding = 8;

// One colour for bars and one for their intervals.
constexpr QColor kStrategyBarColour(0x4c, 0x78, 0xa8);
constexpr QColor kIntervalColour(0x20, 0x20, 0x20);

} // namespace

BarErrorChart::BarErrorChart(QWidget *parent, const QString &whatToDo) : ChartFrame(dialogFrame(true), parent)
{
    chart()->legend()->hide();
    setMinimumHeight(220);
    showEmpty(whatToDo);
    // The plot's width decides how the category labels fit.
    connect(chart(), &QChart::plotAreaChanged, this, [this] { fitLabels(); });
}

void BarErrorChart::fitLabels()
{
    if (!m_categoryAxis || m_labels.isEmpty())
        return;
    const double slot = chart()->plotArea().width() / m_labels.size();
    if (!(slot > 0.0))
        return;
    const QFontMetricsF metrics(m_categoryAxis->labelsFont());
    double widest = 0.0;
    for (const QString &label : std::as_const(m_labels))
        widest = std::max(widest, metrics.horizontalAdvance(label));
    const bool rotated = widest + kLabelPadding > slot;
    // Rotated, a label takes one line height of the slot's width: every k-th label then.
    const int stride
        = rotated ? std::max(1, static_cast<int>(std::ceil((metrics.height() + 2.0) / slot))) : 1;
    if (rotated == m_labelsRotated && stride == m_labelStride)
        return;
    m_labelsRotated = rotated;
    m_labelStride = stride;
    m_categoryAxis->setLabelsAngle(rotated ? -90 : 0);
    // Categories must be distinct: a hidden one becomes a distinct run of zero-width spaces, which
    // draws nothing (the bars, their order and the CSV export keep the real labels).
    QStringList shown;
    for (int i = 0; i < m_labels.size(); ++i)
        shown << (i % stride == 0 ? m_labels[i] : QString(i, QChar(0x200b)));
    m_categoryAxis->setCategories(shown);
}

int BarErrorChart::errorBarCount() const
{
    return errorBarView()->barCount();
}

void BarErrorChart::setBars(const QString &title, const QStringList &labels,
                            const std::vector<double> &values, const std::vector<double> &lows,
                            const std::vector<double> &highs, const QString &valueTitle)
{
    chart()->removeAllSeries();
    for (auto *axis : chart()->axes())
        chart()->removeAxis(axis);
    chart()->setTitle(title);
    auto *set = new QBarSet(valueTitle);
    set->setColor(kStrategyBarColour);
    double top = 0.0, bottom = 0.0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        *set << values[i];
        top = std::max(top, i < highs.size() ? highs[i] : values[i]);
        top = std::max(top, values[i]);
        bottom = std::min(bottom, i < lows.size() ? lows[i] : values[i]);
        bottom = std::min(bottom, values[i]);
    }
    auto *series = new QBarSeries;
    series->append(set);
    chart()->addSeries(series);
    auto *x = new QBarCategoryAxis;
    x->append(labels);
    // fitLabels() keeps the labels apart; Qt's own truncation would cut "[0, 12]" to "[…".
    x->setTruncateLabels(false);
    m_categoryAxis = x;
    m_labels = labels;
    m_labelStride = 0;
    m_labelsRotated = false;
    auto *y = new QValueAxis;
    y->setTitleText(valueTitle);
    const double pad = 0.05 * (top - bottom > 0 ? top - bottom : 1.0);
    y->setRange(bottom < 0 ? bottom - pad : 0.0, top + pad);
    y->applyNiceNumbers();
    chart()->addAxis(x, Qt::AlignBottom);
    chart()->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
    QList<ErrorBarChartView::Bar> bars;
    for (std::size_t i = 0; i < lows.size() && i < highs.size() && i < values.size(); ++i)
        bars.push_back({static_cast<double>(i), lows[i], highs[i], kIntervalColour, series, 1.6, 0.0});
    errorBarView()->setBars(bars);
    m_bars = static_cast<int>(values.size());
    fitLabels();
    if (values.empty())
        showEmpty(tr("Nothing to draw: the run released no values."));
    else
        setMessage(QString());
}

// QLegend lays its entries out on one line and truncates names ("hierarchical (…"): the
// wrapping legend below the plot shows each whole.
CurvesChart::CurvesChart(QWidget *parent) : ChartFrame(dialogFrame(false, true), parent)
{
    setMinimumHeight(240);
    showEmpty(tr("Nothing to draw yet: press the button above to run this experiment."));
}

void CurvesChart::setCurves(const QString &title, const std::vector<Curve> &curves, const QString &xTitle,
                            const QString &yTitle, bool logY)
{
    chart()->removeAllSeries();
    for (auto *axis : chart()->axes())
        chart()->removeAxis(axis);
    chart()->setTitle(title);
    m_colours.clear();
    auto *x = new QValueAxis;
    x->setTitleText(xTitle);
    // Log scale as log10 of the values on a linear axis: robust for values down to 1e-300, where
    // a QLogValueAxis runs out of room for its labels.
    auto *y = new QValueAxis;
    y->setTitleText(logY ? tr("log₁₀ %1").arg(yTitle) : yTitle);
    chart()->addAxis(x, Qt::AlignBottom);
    chart()->addAxis(y, Qt::AlignLeft);
    double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
    std::vector<QXYSeries *> series;
    for (const auto &c : curves) {
        QXYSeries *s = c.markers ? static_cast<QXYSeries *>(new QScatterSeries) : new QLineSeries;
        if (c.markers) {
            auto *scatter = static_cast<QScatterSeries *>(s);
            scatter->setMarkerSize(c.markerSize);
            if (c.marker == Marker::Diamond)
                scatter->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
        }
        s->setName(c.name);
        for (std::size_t i = 0; i < c.x.size() && i < c.y.size(); ++i) {
            if (!std::isfinite(c.y[i]) || (logY && !(c.y[i] > 0.0)))
                continue;
            const double v = logY ? std::log10(c.y[i]) : c.y[i];
            s->append(c.x[i], v);
            xmin = std::min(xmin, c.x[i]);
            xmax = std::max(xmax, c.x[i]);
            ymin = std::min(ymin, v);
            ymax = std::max(ymax, v);
        }
        chart()->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
        const int partner = c.pairedWith;
        if (partner >= 0 && partner < static_cast<int>(series.size()))
            s->setColor(m_colours[static_cast<std::size_t>(partner)]); // else the theme's colour
        m_colours.push_back(s->color());
        if (c.markers && c.marker != Marker::Dot) {
            // Hollow: an outline in the curve's colour, nothing filled.
            auto *scatter = static_cast<QScatterSeries *>(s);
            scatter->setBrush(Qt::NoBrush);
            scatter->setPen(QPen(m_colours.back(), 2.0));
        } else if (c.markers && !c.rim) {
            static_cast<QScatterSeries *>(s)->setPen(Qt::NoPen);
        } else if (!c.markers && (c.lineStyle != Qt::SolidLine || c.lineWidth > 0.0)) {
            QPen pen = s->pen();
            pen.setStyle(c.lineStyle);
            if (c.lineWidth > 0.0)
                pen.setWidthF(c.lineWidth);
            s->setPen(pen);
        }
        series.push_back(s);
    }
    // One entry per curve; a paired curve adds its glyph to its partner's entry.
    QStringList glyphs;
    for (const auto &c : curves)
        glyphs << (!c.markers && c.lineStyle != Qt::SolidLine ? QStringLiteral("╍")
                   : !c.markers && c.lineWidth >= 5.0         ? QStringLiteral("▬")
                   : !c.markers                               ? QStringLiteral("━")
                   : c.marker == Marker::Ring                 ? QStringLiteral("○")
                   : c.marker == Marker::Diamond              ? QStringLiteral("◇")
                                                              : QStringLiteral("●"));
    for (std::size_t i = 0; i < curves.size(); ++i) {
        const int partner = curves[i].pairedWith;
        if (partner >= 0 && partner < static_cast<int>(i))
            glyphs[partner] += glyphs[static_cast<int>(i)];
    }
    QStringList legend;
    for (std::size_t i = 0; i < curves.size(); ++i) {
        const int partner = curves[i].pairedWith;
        if (!(partner >= 0 && partner < static_cast<int>(i)))
            legend << legendEntry(m_colours[i], glyphs[static_cast<int>(i)], curves[i].name);
    }
    setLegendEntries(legend);
    if (std::isfinite(xmin)) {
        bool markers = false;
        double largest = 0.0;
        for (const auto &c : curves) {
            markers = markers || c.markers;
            largest = std::max(largest, c.markers ? c.markerSize : 0.0);
        }
        const double xhigh = xmax > xmin ? xmax : xmin + 1.0;
        // Measured markers at the ends stay whole; lines span the data. The ticks are nice
        // numbers either way (the data's own ends made ticks such as 6.4, 52.8, 99.2), and
        // integers on an integer quantity (range lengths, runs, coordinates).
        const double pad = markers ? (largest > 8.0 ? 0.05 : 0.03) * (xhigh - xmin) : 0.0;
        QList<double> xs;
        for (const auto &c : curves)
            xs.append(QList<double>(c.x.begin(), c.x.end()));
        if (wholeNumbers(xs))
            setIntegerTicks(x, xmin - pad, xhigh + pad, 6);
        else
            setNiceTicks(x, xmin - pad, xhigh + pad, 6);
        const double low = logY ? std::floor(ymin) : std::min(0.0, ymin);
        const double high = logY ? std::ceil(ymax) + (std::ceil(ymax) == std::floor(ymin) ? 1.0 : 0.0)
                                 : ymax * 1.05 + 1e-12;
        y->setRange(low, high);
        y->applyNiceNumbers();
        setMessage(QString());
    } else {
        showEmpty(logY ? tr("Nothing to draw: no value above 0 to plot on a log scale.")
                       : tr("Nothing to draw: the run gave no finite values."));
    }
    m_curves = static_cast<int>(curves.size());
}

void CurvesChart::clear(const QString &whatToDo)
{
    chart()->removeAllSeries();
    for (auto *axis : chart()->axes())
        chart()->removeAxis(axis);
    chart()->setTitle(QString());
    m_curves = 0;
    m_colours.clear();
    setLegendEntries({});
    showEmpty(whatToDo);
}

QColor CurvesChart::curveColour(int index) const
{
    return index >= 0 && index < static_cast<int>(m_colours.size())
               ? m_colours[static_cast<std::size_t>(index)]
               : QColor();
}

} // namespace pbx::ui
