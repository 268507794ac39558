// SPDX-License-Identifier: MIT
#include "ui/charts/noisereductionchart.h"

#include "ui/charts/axisticks.h"
#include "ui/charts/charthover.h"

#include "ui/charts/errorbarchartview.h"
#include "ui/util/numberformat.h"
#include "ui/util/palette.h"

#include <QCategoryAxis>
#include <QChart>
#include <QFontMetricsF>
#include <QLegend>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace pbx::ui {

namespace {

constexpr QColor kEstimateColour = palette::chartBlue;
constexpr QColor kBarColour(0x7d, 0x9c, 0xd6);
constexpr QColor kThresholdColour(0xc2, 0x6a, 0x12);
constexpr QColor kMetColour = palette::chartGreen;
constexpr QColor kNotMetColour = palette::chartRed;

/// The acceptance threshold of a relative target at half-width w: y ≥ w(1+α)/α (docs/accuracy-first.md §5.2).
double thresholdFor(double halfWidth, double alpha)
{
    return halfWidth * (1.0 + alpha) / alpha;
}

/// A wrapping legend below, as in the path chart.
ChartFrame::Style noiseReductionFrame()
{
    ChartFrame::Style style;
    style.errorBars = true;
    style.wrappingLegend = true;
    style.messageOverlay = true; // what to do while there is nothing to draw
    style.minimumViewSize = QSize(260, 200);
    return style;
}

} // namespace

NoiseReductionChart::NoiseReductionChart(QWidget *parent) : ChartFrame(noiseReductionFrame(), parent)
{
    m_axisX = new QCategoryAxis; // over log10(scale)
    m_axisX->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    m_axisX->setReverse(true); // noise shrinks to the right
    m_axisY = new QValueAxis;
    m_axisY->setLabelFormat(QStringLiteral("%.6g"));
    styleAxis(m_axisX);
    styleAxis(m_axisY);
    m_axisY->setTitleText(tr("released estimate"));
    chart()->addAxis(m_axisX, Qt::AlignBottom);
    chart()->addAxis(m_axisY, Qt::AlignLeft);

    m_thresholdSeries = new QLineSeries;
    m_thresholdSeries->setPen(QPen(kThresholdColour, 1.6, Qt::DashLine));
    m_estimateSeries = new QLineSeries;
    m_estimateSeries->setPen(QPen(kEstimateColour, 1.4));
    m_estimateSeries->setPointsVisible(true);
    m_estimateSeries->setMarkerSize(6.0);
    m_stopSeries = new QScatterSeries;
    m_stopSeries->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    m_stopSeries->setMarkerSize(kStopMarkerSize);
    m_stopSeries->setBorderColor(Qt::white);
    for (QXYSeries *series :
         std::initializer_list<QXYSeries *>{m_thresholdSeries, m_estimateSeries, m_stopSeries}) {
        chart()->addSeries(series);
        series->attachAxis(m_axisX);
        series->attachAxis(m_axisY);
    }

    // The x coordinate is log10 of the noise scale; the hover shows the scale itself.
    ChartHover::of(this)->setAxisFormat(m_axisX, [](double x) { return formatNumber(std::pow(10.0, x)); });
    // The labelled scales follow the plot's width (and the labels' font, presentation mode).
    connect(chart(), &QChart::plotAreaChanged, this, [this] { placeTicks(); });
    rebuild();
}

NoiseReductionChart::~NoiseReductionChart() = default;

namespace {

/// Noise scales m × 10^e in [10^logMin, 10^logMax] for the mantissas m, every `decades`-th decade.
QList<double> logTicks(double logMin, double logMax, const QList<double> &mantissas, int decades)
{
    QList<double> ticks;
    for (int e = static_cast<int>(std::floor(logMin)); e <= static_cast<int>(std::ceil(logMax)); ++e) {
        if (e % decades != 0)
            continue;
        for (double m : mantissas) {
            const double value = m * std::pow(10.0, e);
            if (const double at = std::log10(value); at >= logMin && at <= logMax)
                ticks.append(value);
        }
    }
    return ticks;
}

} // namespace

void NoiseReductionChart::placeTicks()
{
    // 1-2-5 ticks (denser when the axis spans too little for three), made sparser until
    // neighbouring labels do not touch at the plot's width: Qt elides a category label wider than
    // its room (at 1024×768 "2,000" and "1,000" read "2…", "1…" under 1-2-5 ticks over three
    // decades in a 240-px plot).
    struct Choice
    {
        QList<double> mantissas;
        int decades;
    };
    const std::array<Choice, 6> sparseToDense{{{{1}, 2},
                                               {{1}, 1},
                                               {{1, 3}, 1},
                                               {{1, 2, 5}, 1},
                                               {{1, 1.5, 2, 3, 5, 7}, 1},
                                               {{1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 9}, 1}}};
    // The range reaches past the extreme levels by 0.08 decade, and at least by the stop marker's
    // radius and a little in pixels (in a 200-px plot 0.08 of three decades was 4.7 px: the
    // marker was cut at the edge).
    const double width = std::max(1.0, chart()->plotArea().width());
    const double dataSpan = m_dataLogMax - m_dataLogMin;
    const double padPixels = kStopMarkerSize / 2.0 + 3.0;
    const double pad = std::max(0.08, dataSpan * padPixels / std::max(1.0, width - 2.0 * padPixels));
    if (m_dataLogMin - pad != m_logMin || m_dataLogMax + pad != m_logMax) {
        m_logMin = m_dataLogMin - pad;
        m_logMax = m_dataLogMax + pad;
        m_axisX->setRange(m_logMin, m_logMax);
        m_axisX->setStartValue(m_logMin);
        m_ticks.clear();
    }
    const auto ticksOf
        = [this](const Choice &c) { return logTicks(m_logMin, m_logMax, c.mantissas, c.decades); };
    std::size_t start = 3;
    while (start + 1 < sparseToDense.size() && ticksOf(sparseToDense[start]).size() < 3)
        ++start;
    const double span = std::max(1e-9, m_logMax - m_logMin);
    const QFontMetricsF metrics(m_axisX->labelsFont());
    const auto fits = [&](const QList<double> &ticks) {
        for (qsizetype i = 1; i < ticks.size(); ++i) {
            const double gap = (std::log10(ticks[i]) - std::log10(ticks[i - 1])) / span * width;
            const double need = (metrics.horizontalAdvance(formatNumber(ticks[i], 3))
                                 + metrics.horizontalAdvance(formatNumber(ticks[i - 1], 3)))
                                    / 2.0
                                + metrics.horizontalAdvance(QStringLiteral("  "));
            if (gap < need)
                return false;
        }
        return true;
    };
    QList<double> best = ticksOf(sparseToDense[start]);
    for (std::size_t k = start + 1; k-- > 0;) {
        const QList<double> ticks = ticksOf(sparseToDense[k]);
        if (ticks.size() < 2)
            break;
        best = ticks;
        if (fits(ticks))
            break;
    }
    if (best == m_ticks)
        return;
    m_ticks = best;
    for (const QString &label : m_axisX->categoriesLabels())
        m_axisX->remove(label);
    for (double value : std::as_const(m_ticks))
        m_axisX->append(formatNumber(value, 3), std::log10(value));
}

void NoiseReductionChart::setLevels(std::span<const Level> levels, const QString &scaleName,
                                    std::optional<double> relativeAlpha, std::optional<double> absoluteTarget)
{
    m_levels.assign(levels.begin(), levels.end());
    m_scaleName = scaleName;
    m_alpha = relativeAlpha;
    m_absoluteTarget = absoluteTarget;
    scheduleUpdate();
}

void NoiseReductionChart::clear()
{
    m_levels.clear();
    m_alpha.reset();
    m_absoluteTarget.reset();
    scheduleUpdate();
}

int NoiseReductionChart::pointCount() const
{
    return static_cast<int>(m_estimateSeries->count());
}

int NoiseReductionChart::errorBarCount() const
{
    return errorBarView()->barCount();
}

int NoiseReductionChart::thresholdPointCount() const
{
    return static_cast<int>(m_thresholdSeries->count());
}

std::optional<QPointF> NoiseReductionChart::stopPoint() const
{
    return m_stopPoint;
}

QStringList NoiseReductionChart::seriesNames() const
{
    QStringList names;
    for (const QAbstractSeries *series : chart()->series()) {
        if (series->isVisible() && !series->name().isEmpty())
            names << series->name();
    }
    return names;
}

void NoiseReductionChart::rebuild()
{
    QList<QPointF> estimates;
    QList<QPointF> thresholds;
    QList<ErrorBarChartView::Bar> bars;
    double minScale = std::numeric_limits<double>::infinity();
    double maxScale = 0.0;
    double yMin = std::numeric_limits<double>::infinity();
    double yMax = -std::numeric_limits<double>::infinity();
    // The threshold is drawn on the side of the final estimate (a count's is positive).
    const double sign = !m_levels.empty() && m_levels.back().estimate < 0.0 ? -1.0 : 1.0;
    for (const Level &level : m_levels) {
        if (!(level.scale > 0.0) || !std::isfinite(level.scale))
            continue;
        const double x = std::log10(level.scale);
        estimates.append(QPointF(x, level.estimate));
        minScale = std::min(minScale, level.scale);
        maxScale = std::max(maxScale, level.scale);
        yMin = std::min(yMin, level.estimate);
        yMax = std::max(yMax, level.estimate);
        if (std::isfinite(level.halfWidth)) {
            bars.append({x, level.estimate - level.halfWidth, level.estimate + level.halfWidth, kBarColour,
                         m_estimateSeries, 1.3});
            if (m_alpha && *m_alpha > 0.0)
                thresholds.append(QPointF(x, sign * thresholdFor(level.halfWidth, *m_alpha)));
        }
    }
    // The stopping level is in full view: its whole error bar and its threshold; noisier levels'
    // bars and thresholds may run off the plot (they are clipped).
    QList<QPointF> stop;
    bool stoppedMet = false;
    m_stopPoint.reset();
    if (!estimates.isEmpty()) {
        const Level &last = m_levels.back();
        stop.append(QPointF(std::log10(last.scale), last.estimate));
        m_stopPoint = QPointF(last.scale, last.estimate);
        stoppedMet = last.accepted;
        if (std::isfinite(last.halfWidth)) {
            yMin = std::min(yMin, last.estimate - last.halfWidth);
            yMax = std::max(yMax, last.estimate + last.halfWidth);
            if (!thresholds.isEmpty()) {
                yMin = std::min(yMin, thresholds.constLast().y());
                yMax = std::max(yMax, thresholds.constLast().y());
            }
        }
        // Make the last bar bold, in the stopping colour.
        if (!bars.isEmpty() && std::isfinite(last.halfWidth)) {
            bars.last().colour = stoppedMet ? kMetColour : kNotMetColour;
            bars.last().width = 2.2;
        }
    }
    m_estimateSeries->replace(estimates);
    m_thresholdSeries->replace(thresholds);
    m_stopSeries->replace(stop);
    m_stopSeries->setColor(stoppedMet ? kMetColour : kNotMetColour);
    errorBarView()->setBars(bars);

    // Axes: x a little beyond the scales, labelled at round scales (1, 2, 5 × 10^k, or finer
    // when the range is narrow); y a little beyond the estimates and the stopping level's bar.
    if (estimates.isEmpty()) {
        minScale = 1.0;
        maxScale = 10.0;
        yMin = 0.0;
        yMax = 1.0;
    }
    m_dataLogMin = std::log10(minScale);
    m_dataLogMax = std::log10(std::max(maxScale, minScale * 1.5));
    m_ticks.clear();
    placeTicks();
    m_axisX->setTitleText(tr("%1 (log scale) — less noise →").arg(m_scaleName));
    const double span = yMax - yMin;
    const double pad = span > 0.0 ? span * 0.08 : std::max(1.0, std::fabs(yMax) * 0.1);
    m_axisY->setRange(yMin - pad, yMax + pad);
    m_axisY->applyNiceNumbers();
    refreshLabelWidth(m_axisY);
    // Nothing released yet: no axes of made-up numbers (−0.5…1.5), a sentence saying what to do.
    m_axisX->setVisible(!estimates.isEmpty());
    m_axisY->setVisible(!estimates.isEmpty());
    setMessage(estimates.isEmpty()
                   ? tr("Nothing to draw yet: ask a query with a relative target (noise reduction "
                        "or doubling), or select its row in the ledger.")
                   : QString());

    m_estimateSeries->setName(tr("released estimate ± half-width"));
    m_thresholdSeries->setName(
        m_alpha ? tr("accept when estimate ≥ w·(1+α)/α, α = %1 %").arg(formatNumber(*m_alpha * 100.0, 3))
                : QString());
    m_thresholdSeries->setVisible(m_alpha.has_value());
    m_stopSeries->setName(stoppedMet ? tr("stopping level: target met")
                                     : tr("stopping level: target not met"));
    QStringList entries;
    entries << legendEntry(kEstimateColour, QStringLiteral("━●"), m_estimateSeries->name());
    if (m_alpha)
        entries << legendEntry(kThresholdColour, QStringLiteral("╌"), m_thresholdSeries->name());
    else if (m_absoluteTarget)
        entries << legendEntry(kThresholdColour, QStringLiteral("↕"),
                               tr("accept when half-width ≤ %1").arg(formatNumber(*m_absoluteTarget)));
    if (!estimates.isEmpty())
        entries << legendEntry(stoppedMet ? kMetColour : kNotMetColour, QStringLiteral("⬤"),
                               m_stopSeries->name());
    setLegendEntries(estimates.isEmpty() ? QStringList() : entries);
}

} // namespace pbx::ui
