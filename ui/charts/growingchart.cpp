// SPDX-License-Identifier: MIT
#include "ui/charts/growingchart.h"

#include "ui/charts/axisticks.h"
#include "ui/util/palette.h"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace pbx::ui {

namespace {

const QString kCursorId = QStringLiteral("__cursor");
constexpr std::size_t kMaxShadedBands = 160;

ChartFrame::Style growingFrame()
{
    ChartFrame::Style style;
    style.wrappingLegend = true;
    style.messageOverlay = true;
    style.margins = QMargins(6, 6, 10, 4);
    style.minimumViewSize = QSize(420, 220);
    return style;
}

/// The staircase of step points: (x_i, y_i) → (x_{i+1}, y_i), ending at `end`.
std::vector<QPointF> staircase(const std::vector<QPointF> &points, double end)
{
    std::vector<QPointF> out;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const double to = i + 1 < points.size() ? points[i + 1].x() : end;
        out.emplace_back(points[i]);
        out.emplace_back(to, points[i].y());
    }
    return out;
}

/// The points drawn for `s`: a step series (and a stepped band) as its staircase.
std::vector<QPointF> expanded(const GrowingChart::Series &s, const std::vector<QPointF> &points)
{
    const bool stepped
        = s.kind == GrowingChart::Kind::Step || (s.kind == GrowingChart::Kind::Band && s.stepEnd > 0.0);
    return stepped ? staircase(points, s.stepEnd) : points;
}

/// A line series of the finite points.
QLineSeries *lineOf(const std::vector<QPointF> &points)
{
    auto *line = new QLineSeries;
    for (const QPointF &p : points)
        if (std::isfinite(p.x()) && std::isfinite(p.y()))
            line->append(p);
    return line;
}

} // namespace

GrowingChart::GrowingChart(QWidget *parent)
    : ChartFrame(growingFrame(), parent), m_cursor(std::numeric_limits<double>::quiet_NaN())
{}

void GrowingChart::setTitles(const QString &title, const QString &xTitle, const QString &yTitle,
                             const QString &rightTitle)
{
    setBoldTitle(title);
    m_xTitle = xTitle;
    m_yTitle = yTitle;
    m_rightTitle = rightTitle;
    scheduleUpdate();
}

void GrowingChart::setLogX(bool logX)
{
    m_logX = logX;
    scheduleUpdate();
}

void GrowingChart::setData(double xMin, double xMax, std::vector<Band> bands, std::vector<Series> series)
{
    m_xMin = xMin;
    m_xMax = std::max(xMax, xMin * 1.0001 + 1e-9);
    m_bands = std::move(bands);
    m_series = std::move(series);
    setMessage(QString());
    scheduleUpdate();
}

void GrowingChart::clear(const QString &message)
{
    m_bands.clear();
    m_series.clear();
    setMessage(message);
    scheduleUpdate();
}

bool GrowingChart::hasSeries(const QString &id) const
{
    return std::any_of(m_series.begin(), m_series.end(), [&](const Series &s) { return s.id == id; });
}

std::vector<QPointF> GrowingChart::points(const QString &id) const
{
    for (QAbstractSeries *s : chart()->series()) {
        if (s->objectName() != id)
            continue;
        QXYSeries *xy = qobject_cast<QXYSeries *>(s);
        if (auto *area = qobject_cast<QAreaSeries *>(s))
            xy = area->upperSeries();
        if (xy) {
            const QList<QPointF> list = xy->points();
            return std::vector<QPointF>(list.begin(), list.end());
        }
    }
    return {};
}

std::vector<QPointF> GrowingChart::lowerPoints(const QString &id) const
{
    for (QAbstractSeries *s : chart()->series())
        if (auto *area = qobject_cast<QAreaSeries *>(s);
            area && s->objectName() == id && area->lowerSeries()) {
            const QList<QPointF> list = area->lowerSeries()->points();
            return std::vector<QPointF>(list.begin(), list.end());
        }
    return {};
}

QStringList GrowingChart::axisTitles() const
{
    QStringList titles;
    for (const Qt::Alignment side : {Qt::AlignBottom, Qt::AlignLeft, Qt::AlignRight})
        for (QAbstractAxis *axis : chart()->axes())
            if (axis->alignment() == side)
                titles << axis->titleText();
    return titles;
}

QString GrowingChart::title() const
{
    return chart()->title();
}

double GrowingChart::valueAt(const QString &id, double x) const
{
    for (const Series &s : m_series) {
        if (s.id != id)
            continue;
        double value = std::numeric_limits<double>::quiet_NaN();
        for (const QPointF &p : s.points)
            if (p.x() <= x)
                value = p.y();
        if (s.kind == Kind::Step && x >= s.stepEnd)
            return std::numeric_limits<double>::quiet_NaN();
        return value;
    }
    return std::numeric_limits<double>::quiet_NaN();
}

void GrowingChart::setCursor(double x)
{
    m_cursor = x;
    for (QAbstractSeries *s : chart()->series())
        if (s->objectName() == kCursorId) {
            auto *line = static_cast<QLineSeries *>(s);
            if (std::isfinite(x))
                line->replace(QList<QPointF>{{x, 0.0}, {x, m_yTop}});
            else
                line->clear();
        }
}

void GrowingChart::rebuild()
{
    chart()->removeAllSeries();
    for (QAbstractAxis *axis : chart()->axes())
        chart()->removeAxis(axis);
    // Cleared: the message alone, not the axes of whatever was drawn before.
    if (!message().isEmpty()) {
        setLegendEntries({});
        return;
    }
    Axes axes;
    axes.x = buildXAxis();
    axes.y = new QValueAxis;
    axes.y->setTitleText(m_yTitle);
    axes.y->setLabelFormat(QStringLiteral("%.3g"));
    styleAxis(axes.y);
    chart()->addAxis(axes.x, Qt::AlignBottom);
    chart()->addAxis(axes.y, Qt::AlignLeft);
    fitLeftAxis(axes.y);
    refreshLabelWidth(axes.y);
    m_yTop = axes.y->max();
    axes.right = buildRightAxis();
    QStringList legend;
    addBands(axes, legend);
    addSeries(axes, legend);
    auto *cursorLine = new QLineSeries;
    cursorLine->setObjectName(kCursorId);
    QPen pen(palette::chartMarker);
    pen.setWidthF(1.5);
    pen.setStyle(Qt::DashDotLine);
    cursorLine->setPen(pen);
    attach(cursorLine, axes, false);
    setLegendEntries(legend);
    setCursor(m_cursor);
}

QAbstractAxis *GrowingChart::buildXAxis()
{
    // A marker within 1 % of the plot's width from either end would be cut by the plot's edge:
    // widen the drawn range by 3 % on that side (the data and the cursor keep their own range).
    const auto position = [this](double x) {
        return m_logX ? std::log(x / m_xMin) / std::log(m_xMax / m_xMin) : (x - m_xMin) / (m_xMax - m_xMin);
    };
    const auto beyond = [this](double fraction) {
        return m_logX ? m_xMin * std::pow(m_xMax / m_xMin, fraction) : m_xMin + fraction * (m_xMax - m_xMin);
    };
    double xFrom = m_xMin;
    double xTo = m_xMax;
    for (const Series &s : m_series)
        for (const QPointF &p : s.points)
            if (s.kind == Kind::Scatter && std::isfinite(p.x()) && p.x() > 0.0) {
                if (position(p.x()) > 0.99)
                    xTo = beyond(1.03);
                if (position(p.x()) < 0.01)
                    xFrom = beyond(-0.03);
            }
    QAbstractAxis *x = nullptr;
    if (m_logX) {
        auto *logAxis = new QLogValueAxis;
        logAxis->setBase(10.0);
        logAxis->setLabelFormat(QStringLiteral("%.0f")); // rows: 1000000, not 1e+06
        logAxis->setMinorTickCount(8);
        logAxis->setRange(xFrom, xTo);
        x = logAxis;
    } else {
        auto *valueAxis = new QValueAxis;
        setIntegerTicks(valueAxis, xFrom, xTo, 5); // t counts rows
        x = valueAxis;
    }
    x->setTitleText(m_xTitle);
    styleAxis(x);
    return x;
}

void GrowingChart::fitLeftAxis(QValueAxis *y)
{
    double leftMax = 0.0, leftMin = 0.0;
    // Counts and numbers of queries (every value on the left axis whole) get integer ticks.
    QList<double> leftValues;
    for (const Series &s : m_series) {
        if (s.rightAxis)
            continue;
        for (const QPointF &p : s.points) {
            leftValues << p.y();
            if (std::isfinite(p.y())) {
                leftMax = std::max(leftMax, p.y());
                leftMin = std::min(leftMin, p.y());
            }
        }
        for (const QPointF &p : s.lower)
            leftValues << p.y();
    }
    if (wholeNumbers(leftValues)) {
        // Noisy values may fall below 0 (the ATG panel's noisy counts): the axis reaches them.
        setIntegerTicks(y, leftMin < 0.0 ? leftMin * 1.05 : 0.0, std::max(1.0, leftMax * 1.05), 5, true);
    } else {
        setNiceRange(y, leftMax * 1.05);
        // Noisy values may fall below 0 (the ATG panel's noisy counts): extend the axis rather than hide
        // them.
        if (leftMin < 0.0)
            setNiceTicks(y, leftMin * 1.05, y->max(), 6);
    }
}

QValueAxis *GrowingChart::buildRightAxis()
{
    if (std::none_of(m_series.begin(), m_series.end(), [](const Series &s) { return s.rightAxis; }))
        return nullptr;
    double rightMax = 0.0;
    for (const Series &s : m_series)
        if (s.rightAxis)
            for (const QPointF &p : s.points)
                if (std::isfinite(p.y()))
                    rightMax = std::max(rightMax, p.y());
    auto *right = new QValueAxis;
    right->setTitleText(m_rightTitle);
    right->setLabelFormat(QStringLiteral("%.2g"));
    styleAxis(right);
    chart()->addAxis(right, Qt::AlignRight);
    setNiceRange(right, rightMax * 1.05);
    refreshLabelWidth(right);
    return right;
}

void GrowingChart::attach(QAbstractSeries *series, const Axes &axes, bool onRight)
{
    chart()->addSeries(series);
    series->attachAxis(axes.x);
    series->attachAxis(onRight && axes.right ? axes.right : axes.y);
}

void GrowingChart::addBands(const Axes &axes, QStringList &legend)
{
    // Up to kMaxShadedBands: beyond that the shading would be a grey wash and cost an area series
    // per epoch.
    const bool shaded = m_bands.size() <= kMaxShadedBands;
    for (std::size_t i = 0; shaded && i < m_bands.size(); i += 2) {
        const Band &b = m_bands[i];
        auto *upper = new QLineSeries;
        upper->append(b.from, m_yTop);
        upper->append(b.to, m_yTop);
        auto *lower = new QLineSeries;
        lower->append(b.from, axes.y->min());
        lower->append(b.to, axes.y->min());
        auto *area = new QAreaSeries(upper, lower);
        area->setObjectName(QStringLiteral("__band"));
        area->setColor(QColor(0xee, 0xf0, 0xf4));
        area->setBorderColor(Qt::transparent);
        attach(area, axes, false);
    }
    const QString bandName = m_bandName.isEmpty() ? tr("epochs") : m_bandName;
    if (!m_bands.empty())
        legend << legendEntry(QColor(0xc8, 0xcc, 0xd4), QStringLiteral("▮"),
                              shaded ? tr("%2 (%1, alternately shaded)").arg(m_bands.size()).arg(bandName)
                                     : tr("%2 (%1, too many to shade)").arg(m_bands.size()).arg(bandName));
}

void GrowingChart::addSeries(const Axes &axes, QStringList &legend)
{
    for (const Series &s : m_series) {
        if (s.kind == Kind::Band) {
            auto *area = new QAreaSeries(lineOf(expanded(s, s.points)), lineOf(expanded(s, s.lower)));
            area->setObjectName(s.id);
            area->setName(s.name);
            QColor fill = s.colour;
            fill.setAlphaF(0.22);
            area->setColor(fill);
            area->setBorderColor(Qt::transparent);
            attach(area, axes, s.rightAxis);
            if (!s.name.isEmpty())
                legend << legendEntry(fill, QStringLiteral("▮"), s.name);
            continue;
        }
        QXYSeries *series = nullptr;
        if (s.kind == Kind::Scatter) {
            auto *scatter = new QScatterSeries;
            scatter->setMarkerSize(9.0);
            scatter->setColor(s.colour);
            scatter->setBorderColor(Qt::white);
            series = scatter;
        } else {
            series = new QLineSeries;
            QPen pen(s.colour);
            pen.setWidthF(s.width);
            pen.setStyle(s.style);
            series->setPen(pen);
        }
        series->setObjectName(s.id);
        series->setName(s.name);
        for (const QPointF &p : expanded(s, s.points))
            if (std::isfinite(p.x()) && std::isfinite(p.y()))
                series->append(p);
        attach(series, axes, s.rightAxis);
        if (!s.name.isEmpty())
            legend << legendEntry(s.colour,
                                  s.kind == Kind::Scatter    ? QStringLiteral("●")
                                  : s.style == Qt::SolidLine ? QStringLiteral("━")
                                                             : QStringLiteral("┅"),
                                  s.name);
    }
}

// ---------------------------------------------------------------------------------------------

GrowingBarChart::GrowingBarChart(QWidget *parent) : ChartFrame(growingFrame(), parent)
{
    view()->setMinimumSize(220, 160);
}

void GrowingBarChart::setBars(const QString &title, const QString &yTitle, const std::vector<Bar> &bars)
{
    setBoldTitle(title);
    setMessage(QString());
    chart()->removeAllSeries();
    for (QAbstractAxis *axis : chart()->axes())
        chart()->removeAxis(axis);
    auto *series = new QBarSeries;
    QStringList legend;
    double top = 0.0;
    for (const Bar &b : bars) {
        auto *set = new QBarSet(b.label);
        set->append(b.value);
        set->setColor(b.colour);
        set->setBorderColor(b.colour);
        series->append(set);
        legend << legendEntry(b.colour, QStringLiteral("▮"),
                              tr("%1: %2").arg(b.label).arg(b.value, 0, 'g', 4));
        top = std::max(top, b.value);
    }
    series->setLabelsVisible(false);
    chart()->addSeries(series);
    auto *x = new QBarCategoryAxis;
    x->append(QStringLiteral(" "));
    auto *y = new QValueAxis;
    y->setTitleText(yTitle);
    y->setLabelFormat(QStringLiteral("%.3g"));
    styleAxis(y);
    chart()->addAxis(x, Qt::AlignBottom);
    chart()->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
    setNiceRange(y, top * 1.1, 4);
    refreshLabelWidth(y);
    setLegendEntries(legend);
}

void GrowingBarChart::clear(const QString &message)
{
    chart()->removeAllSeries();
    for (QAbstractAxis *axis : chart()->axes())
        chart()->removeAxis(axis);
    setLegendEntries({});
    setMessage(message);
}

double GrowingBarChart::value(const QString &label) const
{
    for (QAbstractSeries *s : chart()->series())
        if (auto *bars = qobject_cast<QBarSeries *>(s))
            for (QBarSet *set : bars->barSets())
                if (set->label() == label && set->count() > 0)
                    return set->at(0);
    return std::numeric_limits<double>::quiet_NaN();
}

int GrowingBarChart::barCount() const
{
    int n = 0;
    for (QAbstractSeries *s : chart()->series())
        if (auto *bars = qobject_cast<QBarSeries *>(s))
            n += static_cast<int>(bars->count());
    return n;
}

QString GrowingBarChart::yTitle() const
{
    for (QAbstractAxis *axis : chart()->axes(Qt::Vertical))
        return axis->titleText();
    return QString();
}

} // namespace pbx::ui
