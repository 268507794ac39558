// SPDX-License-Identifier: MIT
#include "ui/charts/comparisoncharts.h"

#include "ui/charts/axisticks.h"
#include "ui/util/boundformat.h"

#include "ui/util/numberformat.h"
#include "ui/util/palette.h"
#include "ui/util/strategyinfo.h"

#include <QAreaSeries>
#include <QChart>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace pbx::ui {

namespace {

// Budget, δ and ε markers: the red of the path chart's budget line.
constexpr QColor kReferenceColour = palette::chartRed;
constexpr QColor kMarkerColour = palette::chartMarker;

/// The four charts sit side by side: small margins, a bold title, a wrapping legend and a message
/// over the plot when a strategy does not apply.
ChartFrame::Style comparisonFrame()
{
    ChartFrame::Style style;
    style.margins = QMargins(2, 2, 2, 2);
    style.wrappingLegend = true;
    style.legendGap = 0;
    style.messageOverlay = true;
    style.minimumViewSize = QSize(280, 200);
    return style;
}

bool finite(double x)
{
    return std::isfinite(x);
}

QLineSeries *makeLine(const QColor &colour, qreal width, Qt::PenStyle style)
{
    auto *series = new QLineSeries;
    QPen pen(colour, width, style);
    pen.setCapStyle(Qt::RoundCap);
    series->setPen(pen);
    return series;
}

QPen strategyPen(const StrategyInfo &info)
{
    // The PLD, the reference, is drawn a little heavier; basic composition dashed (a bound that
    // only adds worst cases). zCDP is a wide translucent band under the others: it often
    // coincides with RDP (Gaussian noise), and would otherwise be hidden.
    qreal width = info.name == QStringLiteral("pld") ? 2.6 : 2.0;
    QColor colour = info.colour;
    if (info.name == QStringLiteral("zcdp")) {
        // Opaque and pale (a translucent pen darkens where segments overlap at the joints).
        width = 5.0;
        const auto pale = [](int c) { return static_cast<int>(0.5 * c + 0.5 * 255); };
        colour = QColor(pale(colour.red()), pale(colour.green()), pale(colour.blue()));
    }
    QPen pen(colour, width, info.name == QStringLiteral("basic") ? Qt::DashLine : Qt::SolidLine);
    pen.setCapStyle(Qt::RoundCap);
    return pen;
}

QString strategyGlyph(const StrategyInfo &info)
{
    if (info.name == QStringLiteral("basic"))
        return QStringLiteral("╍");
    if (info.name == QStringLiteral("zcdp"))
        return QStringLiteral("▬");
    return QStringLiteral("━");
}

/// One line series per strategy (strategyInfos order), named and drawn as the legend says,
/// attached to the chart's axes; keyed by the core's strategy name.
QHash<QString, QLineSeries *> addStrategySeries(QChart *chart, QAbstractAxis *x, QAbstractAxis *y)
{
    QHash<QString, QLineSeries *> out;
    for (const StrategyInfo &info : strategyInfos()) {
        auto *series = new QLineSeries;
        series->setName(info.title);
        series->setPen(strategyPen(info));
        chart->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
        out.insert(info.name, series);
    }
    return out;
}

const StrategyCurve *findCurve(const std::vector<StrategyCurve> &curves, const QString &name)
{
    const auto it
        = std::find_if(curves.begin(), curves.end(), [&](const StrategyCurve &c) { return c.name == name; });
    return it == curves.end() ? nullptr : &*it;
}

/// Points a series draws; 0 when it is missing or hidden.
int visiblePointCount(const QLineSeries *series)
{
    return series && series->isVisible() ? static_cast<int>(series->count()) : 0;
}

} // namespace

// ---------------------------------------------------------------------------------------------

CompositionCurveChart::CompositionCurveChart(QWidget *parent) : ChartFrame(comparisonFrame(), parent)
{
    setBoldTitle(tr("ε after k steps"));
    m_axisX = new QValueAxis;
    m_axisX->setLabelFormat(QStringLiteral("%.4g"));
    m_axisY = new QValueAxis;
    m_axisY->setLabelFormat(QStringLiteral("%.3g"));
    m_axisY->setTitleText(tr("ε"));
    m_logAxisY = new QLogValueAxis;
    m_logAxisY->setBase(10.0);
    m_logAxisY->setLabelFormat(QStringLiteral("%.0e"));
    m_logAxisY->setTitleText(tr("δ (log scale)"));
    m_logAxisY->setMinorTickCount(0);
    m_logEpsilonAxis = new QLogValueAxis;
    m_logEpsilonAxis->setBase(10.0);
    m_logEpsilonAxis->setLabelFormat(QStringLiteral("%.6g")); // 1000, not 1e+03
    m_logEpsilonAxis->setTitleText(tr("ε (log scale)"));
    m_logEpsilonAxis->setMinorTickCount(0);
    styleAxis(m_axisX, true);
    styleAxis(m_axisY, true);
    styleAxis(m_logAxisY, true);
    styleAxis(m_logEpsilonAxis, true);
    chart()->addAxis(m_axisX, Qt::AlignBottom);
    chart()->addAxis(m_axisY, Qt::AlignLeft);
    chart()->addAxis(m_logAxisY, Qt::AlignLeft);
    chart()->addAxis(m_logEpsilonAxis, Qt::AlignLeft);
    m_logAxisY->setVisible(false);
    m_logEpsilonAxis->setVisible(false);

    m_budgetSeries = makeLine(kReferenceColour, 1.5, Qt::DashLine);
    m_budgetSeries->setName(tr("budget"));
    chart()->addSeries(m_budgetSeries);
    m_budgetSeries->attachAxis(m_axisX);
    m_budgetSeries->attachAxis(m_axisY);
    m_series = addStrategySeries(chart(), m_axisX, m_axisY);
    m_attachedY = m_axisY;
    setToolTip(tr("The ε each strategy certifies at the chosen δ after the first k steps of the "
                  "ledger (in “δ at ε” mode: the δ at the chosen ε). Basic composition grows "
                  "linearly in k; the others roughly like √k."));
    clear();
    flush();
}

void CompositionCurveChart::attachY(QAbstractAxis *axis)
{
    if (axis == m_attachedY)
        return;
    for (QLineSeries *series : std::as_const(m_series)) {
        series->detachAxis(m_attachedY);
        series->attachAxis(axis);
    }
    m_budgetSeries->detachAxis(m_attachedY);
    m_budgetSeries->attachAxis(axis);
    m_attachedY->setVisible(false);
    axis->setVisible(true);
    m_attachedY = axis;
}

QString CompositionCurveChart::title() const
{
    return chart()->title();
}

CompositionCurveChart::~CompositionCurveChart() = default;

void CompositionCurveChart::setCurves(const std::vector<StrategyCurve> &curves, const QString &xTitle,
                                      double delta)
{
    m_curves = curves;
    m_xTitle = xTitle;
    m_delta = delta;
    m_deltaMode = false;
    m_clearMessage.clear();
    scheduleUpdate();
}

void CompositionCurveChart::setDeltaCurves(const std::vector<StrategyCurve> &curves, const QString &xTitle,
                                           double epsilon)
{
    m_curves = curves;
    m_xTitle = xTitle;
    m_epsilon = epsilon;
    m_deltaMode = true;
    m_clearMessage.clear();
    scheduleUpdate();
}

void CompositionCurveChart::setBudget(double budget)
{
    m_budget = budget;
    scheduleUpdate();
}

void CompositionCurveChart::setNote(const QString &note)
{
    m_note = note;
    scheduleUpdate();
}

void CompositionCurveChart::clear(const QString &message)
{
    m_curves.clear();
    m_clearMessage = message;
    scheduleUpdate();
}

bool CompositionCurveChart::logScale() const
{
    return m_attachedY == static_cast<QAbstractAxis *>(m_logEpsilonAxis);
}

int CompositionCurveChart::pointCount(const QString &name) const
{
    return visiblePointCount(m_series.value(name));
}

void CompositionCurveChart::rebuild()
{
    chart()->setTitle(m_deltaMode ? tr("δ after k steps, at ε = %1").arg(formatNumber(m_epsilon))
                                  : tr("ε after k steps, at δ = %1").arg(formatNumber(m_delta, 3)));
    m_axisX->setTitleText(m_xTitle.isEmpty() ? tr("steps composed k") : m_xTitle);
    // The smallest positive value drawn, and the lowest and highest of the curves' peaks.
    double smallest = m_deltaMode ? 1.0 : std::numeric_limits<double>::infinity();
    double lowestPeak = std::numeric_limits<double>::infinity();
    double highestPeak = 0.0;
    for (const StrategyCurve &curve : m_curves) {
        double peak = 0.0;
        for (double y : curve.y)
            if (finite(y) && y > 0.0) {
                smallest = std::min(smallest, y);
                peak = std::max(peak, y);
            }
        if (peak > 0.0) {
            lowestPeak = std::min(lowestPeak, peak);
            highestPeak = std::max(highestPeak, peak);
        }
    }
    // ε mode: a log axis when the strategies' curves end more than a decade apart (basic
    // composition at 1,356 left RDP and the PLD flat at zero on a linear axis), else linear from 0.
    const bool logEpsilon = !m_deltaMode && highestPeak > 10.0 * lowestPeak;
    attachY(m_deltaMode  ? static_cast<QAbstractAxis *>(m_logAxisY)
            : logEpsilon ? static_cast<QAbstractAxis *>(m_logEpsilonAxis)
                         : m_axisY);
    // δ-at-ε mode: a log axis from a floor a few decades below the smallest positive δ drawn. At
    // most ten decades: more would crowd the axis labels (δ below the floor is drawn on it).
    const double floor = m_deltaMode
                             ? std::clamp(std::pow(10.0, std::floor(std::log10(smallest)) - 1.0), 1e-10, 1e-2)
                         : logEpsilon ? std::pow(10.0, std::floor(std::log10(smallest)))
                                      : 0.0;

    double xMax = 1.0;
    double yMax = 0.0;
    QStringList legend;
    for (const StrategyInfo &info : strategyInfos()) {
        QLineSeries *series = m_series.value(info.name);
        const StrategyCurve *curve = findCurve(m_curves, info.name);
        QList<QPointF> points;
        if (curve) {
            // The origin: δ on its floor; ε = 0 has no place on a log axis.
            if (!logEpsilon)
                points.append(QPointF(0.0, m_deltaMode ? floor : 0.0));
            for (std::size_t i = 0; i < curve->x.size() && i < curve->y.size(); ++i) {
                if (!finite(curve->y[i]))
                    continue;
                const double y = m_deltaMode  ? std::clamp(curve->y[i], floor, 1.0)
                                 : logEpsilon ? std::max(curve->y[i], floor)
                                              : curve->y[i];
                points.append(QPointF(curve->x[i], y));
                yMax = std::max(yMax, y);
            }
            for (double x : curve->x)
                xMax = std::max(xMax, x);
        }
        if (points.size() < (logEpsilon ? 1 : 2))
            points.clear();
        series->replace(points);
        series->setVisible(!points.isEmpty());
        series->setPointsVisible(points.size() <= 32 && info.name != QStringLiteral("zcdp"));
        if (!points.isEmpty())
            legend << legendEntry(info.colour, strategyGlyph(info), info.title);
    }
    // The budget line is drawn when the curves come within a quarter of it; far below, it would
    // only flatten them, so the legend gives the number instead.
    const bool budgetInRange
        = !m_deltaMode && m_budget > 0.0 && (logEpsilon ? m_budget >= floor : yMax >= 0.25 * m_budget);
    if (!m_deltaMode && m_budget > 0.0 && !m_curves.empty()) {
        legend << legendEntry(kReferenceColour, QStringLiteral("┅"),
                              budgetInRange
                                  ? tr("session budget ε = %1").arg(formatNumber(m_budget))
                                  : tr("session budget ε = %1 (above the plot)").arg(formatNumber(m_budget)));
    }
    if (budgetInRange && !m_curves.empty()) {
        m_budgetSeries->replace({QPointF(0.0, m_budget), QPointF(xMax, m_budget)});
        m_budgetSeries->setVisible(true);
        yMax = std::max(yMax, m_budget * 1.05);
    } else {
        m_budgetSeries->clear();
        m_budgetSeries->setVisible(false);
    }
    if (!m_note.isEmpty() && !legend.isEmpty())
        legend << m_note.toHtmlEscaped();
    m_axisX->setTickType(QValueAxis::TicksDynamic);
    m_axisX->setTickAnchor(0.0);
    m_axisX->setTickInterval(niceIntegerInterval(xMax, 6));
    m_axisX->setRange(0.0, xMax * 1.03); // the last step's marker whole
    if (m_deltaMode)
        m_logAxisY->setRange(floor, 1.0);
    else if (logEpsilon)
        m_logEpsilonAxis->setRange(floor, std::pow(10.0, std::ceil(std::log10(yMax * 1.04))));
    else
        setNiceRange(m_axisY, yMax * 1.04);
    setLegendEntries(legend);
    if (!m_clearMessage.isEmpty())
        setMessage(m_clearMessage);
    else if (legend.isEmpty() && !m_curves.empty())
        setMessage(tr("No strategy applies to every prefix of this ledger."));
    else
        setMessage({});
}

// ---------------------------------------------------------------------------------------------

PrivacyProfileChart::PrivacyProfileChart(QWidget *parent) : ChartFrame(comparisonFrame(), parent)
{
    setBoldTitle(tr("Privacy profile δ(ε)"));
    m_axisX = new QValueAxis;
    m_axisX->setLabelFormat(QStringLiteral("%.3g"));
    m_axisX->setTitleText(tr("ε"));
    m_axisY = new QLogValueAxis;
    m_axisY->setBase(10.0);
    m_axisY->setLabelFormat(QStringLiteral("%.0e"));
    m_axisY->setTitleText(tr("δ (log scale)"));
    m_axisY->setMinorTickCount(0);
    styleAxis(m_axisX, true);
    styleAxis(m_axisY, true);
    chart()->addAxis(m_axisX, Qt::AlignBottom);
    chart()->addAxis(m_axisY, Qt::AlignLeft);

    m_deltaLine = makeLine(kReferenceColour, 1.3, Qt::DashLine);
    m_epsilonLine = makeLine(kMarkerColour, 1.3, Qt::DotLine);
    for (QLineSeries *s : {m_deltaLine, m_epsilonLine}) {
        chart()->addSeries(s);
        s->attachAxis(m_axisX);
        s->attachAxis(m_axisY);
    }
    m_series = addStrategySeries(chart(), m_axisX, m_axisY);
    setToolTip(tr("δ(ε): the smallest δ each strategy certifies at each ε. Where a curve crosses "
                  "the dashed δ line is the ε of the table. Values below the axis are drawn on "
                  "it."));
    clear();
    flush();
}

PrivacyProfileChart::~PrivacyProfileChart() = default;

void PrivacyProfileChart::setProfiles(const std::vector<StrategyCurve> &curves, double delta,
                                      double epsilonMarker)
{
    m_curves = curves;
    m_delta = delta;
    m_epsilonMarker = epsilonMarker;
    m_clearMessage.clear();
    scheduleUpdate();
}

void PrivacyProfileChart::clear(const QString &message)
{
    m_curves.clear();
    m_clearMessage = message;
    scheduleUpdate();
}

int PrivacyProfileChart::pointCount(const QString &name) const
{
    return visiblePointCount(m_series.value(name));
}

QString PrivacyProfileChart::title() const
{
    return chart()->title();
}

void PrivacyProfileChart::rebuild()
{
    const double decade = std::floor(std::log10(std::clamp(m_delta, 1e-300, 1.0)));
    m_floor = std::clamp(std::pow(10.0, decade - 4.0), 1e-16, 1e-3);
    double xMax = 0.0;
    QStringList legend;
    for (const StrategyInfo &info : strategyInfos()) {
        QLineSeries *series = m_series.value(info.name);
        const StrategyCurve *curve = findCurve(m_curves, info.name);
        QList<QPointF> points;
        if (curve) {
            for (std::size_t i = 0; i < curve->x.size() && i < curve->y.size(); ++i) {
                xMax = std::max(xMax, curve->x[i]);
                if (!finite(curve->y[i]))
                    continue;
                points.append(QPointF(curve->x[i], std::clamp(curve->y[i], m_floor, 1.0)));
            }
        }
        series->replace(points);
        series->setVisible(!points.isEmpty());
        if (!points.isEmpty())
            legend << legendEntry(info.colour, strategyGlyph(info), info.title);
    }
    if (!(xMax > 0.0))
        xMax = 1.0;
    const bool any = !legend.isEmpty();
    m_deltaLine->replace(any ? QList<QPointF>{QPointF(0.0, std::max(m_delta, m_floor)),
                                              QPointF(xMax, std::max(m_delta, m_floor))}
                             : QList<QPointF>{});
    m_deltaLine->setVisible(any);
    const bool epsilonMarker = any && m_epsilonMarker > 0.0 && m_epsilonMarker <= xMax;
    m_epsilonLine->replace(
        epsilonMarker ? QList<QPointF>{QPointF(m_epsilonMarker, m_floor), QPointF(m_epsilonMarker, 1.0)}
                      : QList<QPointF>{});
    m_epsilonLine->setVisible(epsilonMarker);
    if (any)
        legend << legendEntry(kReferenceColour, QStringLiteral("┅"),
                              tr("δ = %1").arg(formatNumber(m_delta, 3)));
    if (epsilonMarker)
        legend << legendEntry(kMarkerColour, QStringLiteral("┆"),
                              tr("ε = %1").arg(formatNumber(m_epsilonMarker)));
    setNiceRange(m_axisX, xMax);
    m_axisY->setRange(m_floor, 1.0);
    setLegendEntries(legend);
    setMessage(!m_clearMessage.isEmpty()     ? m_clearMessage
               : (!any && !m_curves.empty()) ? tr("No strategy applies to this ledger.")
                                             : QString());
}

// ---------------------------------------------------------------------------------------------

RdpCurveChart::RdpCurveChart(QWidget *parent) : ChartFrame(comparisonFrame(), parent)
{
    setBoldTitle(tr("Rényi DP over orders α"));
    m_axisX = new QLogValueAxis;
    m_axisX->setBase(10.0);
    m_axisX->setLabelFormat(QStringLiteral("%g"));
    m_axisX->setTitleText(tr("order α (log scale)"));
    m_axisX->setMinorTickCount(8);
    m_axisY = new QValueAxis;
    m_axisY->setLabelFormat(QStringLiteral("%.3g"));
    m_axisDelta = new QLogValueAxis;
    m_axisDelta->setBase(10.0);
    m_axisDelta->setLabelFormat(QStringLiteral("%.0e"));
    m_axisDelta->setTitleText(tr("δ at ε (log scale)"));
    m_axisDelta->setMinorTickCount(0);
    styleAxis(m_axisX, true);
    styleAxis(m_axisY, true);
    styleAxis(m_axisDelta, true);
    chart()->addAxis(m_axisX, Qt::AlignBottom);
    chart()->addAxis(m_axisY, Qt::AlignLeft);
    chart()->addAxis(m_axisDelta, Qt::AlignRight);
    m_axisDelta->setVisible(false);

    const StrategyInfo &rdp = strategyInfo(QStringLiteral("rdp"));
    m_rdpSeries = makeLine(rdp.colour, 2.2, Qt::SolidLine);
    m_rdpSeries->setName(tr("ε̂(α)"));
    m_epsilonSeries = makeLine(palette::chartInk, 1.8, Qt::DashLine);
    m_epsilonSeries->setName(tr("ε at δ from order α"));
    m_deltaSeries = makeLine(palette::chartInk, 1.8, Qt::DashLine);
    m_deltaSeries->setName(tr("δ at ε from order α"));
    const auto makeOptimum = [] {
        auto *series = new QScatterSeries;
        series->setName(tr("optimal order"));
        series->setMarkerShape(QScatterSeries::MarkerShapeCircle);
        series->setMarkerSize(10.0);
        series->setColor(kReferenceColour);
        series->setBorderColor(Qt::white);
        return series;
    };
    m_optimumSeries = makeOptimum();
    m_deltaOptimumSeries = makeOptimum();
    for (QXYSeries *s : std::initializer_list<QXYSeries *>{m_rdpSeries, m_epsilonSeries, m_optimumSeries}) {
        chart()->addSeries(s);
        s->attachAxis(m_axisX);
        s->attachAxis(m_axisY);
    }
    for (QXYSeries *s : std::initializer_list<QXYSeries *>{m_deltaSeries, m_deltaOptimumSeries}) {
        chart()->addSeries(s);
        s->attachAxis(m_axisX);
        s->attachAxis(m_axisDelta);
    }
    setToolTip(tr("Blue: the ledger's composed Rényi divergence ε̂(α) at each order. Dashed: the "
                  "ε at δ that order alone certifies, ε̂(α) + ln(1−1/α) − (ln δ' + ln α)/(α−1), with "
                  "δ' the δ left after the (ε, δ) events' own δ (in “δ at ε” mode: the δ at ε that "
                  "order alone certifies, on the right axis). RDP reports the lowest point (red), the "
                  "table's number."));
    clear(tr("Nothing computed yet."));
    flush();
}

RdpCurveChart::~RdpCurveChart() = default;

void RdpCurveChart::setCurve(std::vector<double> orders, std::vector<double> rdp,
                             std::vector<double> epsilonByOrder, double optimalOrder, double delta,
                             double rowEpsilon)
{
    m_delta = delta;
    showCurve(std::move(orders), std::move(rdp), std::move(epsilonByOrder), optimalOrder, rowEpsilon, false);
}

void RdpCurveChart::setDeltaCurve(std::vector<double> orders, std::vector<double> rdp,
                                  std::vector<double> deltaByOrder, double optimalOrder, double epsilon,
                                  double rowDelta)
{
    m_queryEpsilon = epsilon;
    showCurve(std::move(orders), std::move(rdp), std::move(deltaByOrder), optimalOrder, rowDelta, true);
}

void RdpCurveChart::showCurve(std::vector<double> orders, std::vector<double> rdp,
                              std::vector<double> byOrder, double optimalOrder, double row, bool deltaMode)
{
    m_orders = std::move(orders);
    m_rdp = std::move(rdp);
    m_epsilon = std::move(byOrder);
    m_optimal = optimalOrder;
    m_row = row;
    m_deltaMode = deltaMode;
    m_clearMessage.clear();
    scheduleUpdate();
}

void RdpCurveChart::clear(const QString &message)
{
    m_orders.clear();
    m_rdp.clear();
    m_epsilon.clear();
    m_optimal = 0.0;
    m_clearMessage = message;
    scheduleUpdate();
}

int RdpCurveChart::pointCount() const
{
    return static_cast<int>(m_rdpSeries->count());
}

QString RdpCurveChart::title() const
{
    return chart()->title();
}

double RdpCurveChart::optimumValue() const
{
    const QScatterSeries *series = m_deltaMode ? m_deltaOptimumSeries : m_optimumSeries;
    return series->count() > 0 ? series->at(0).y() : std::numeric_limits<double>::quiet_NaN();
}

void RdpCurveChart::rebuild()
{
    // The basin of the conversion: ε̂ up to a few times the best ε at δ (ε mode), or the ε̂
    // around the order that decides δ at ε.
    double best = std::numeric_limits<double>::infinity();
    double bestRdp = 0.0;
    for (std::size_t i = 0; i < m_epsilon.size() && i < m_rdp.size(); ++i) {
        if (finite(m_epsilon[i]) && m_epsilon[i] < best) {
            best = m_epsilon[i];
            bestRdp = m_rdp[i];
        }
    }
    const double top = !finite(best) ? 1.0
                       : m_deltaMode ? std::max({2.6 * bestRdp, 1.3 * m_queryEpsilon, 1e-6})
                                     : std::max({2.6 * best, 1.15 * bestRdp, 1e-6});
    const double clampAt = 10.0 * top;
    // δ mode: a log axis from a few decades below the best δ to 1.
    const double deltaFloor
        = std::clamp(std::pow(10.0, std::floor(std::log10(std::max(best, 1e-300))) - 3.0), 1e-30, 1e-2);
    QList<QPointF> rdp;
    QList<QPointF> byOrder;
    QList<QPointF> optimum;
    for (std::size_t i = 0; i < m_orders.size(); ++i) {
        if (i < m_rdp.size() && finite(m_rdp[i]))
            rdp.append(QPointF(m_orders[i], std::min(m_rdp[i], clampAt)));
        if (i < m_epsilon.size() && finite(m_epsilon[i]))
            byOrder.append(QPointF(m_orders[i], m_deltaMode ? std::clamp(m_epsilon[i], deltaFloor, 1.0)
                                                            : std::min(m_epsilon[i], clampAt)));
        if (m_orders[i] == m_optimal && i < m_epsilon.size() && finite(m_epsilon[i]))
            optimum.append(QPointF(m_orders[i], m_epsilon[i]));
    }
    m_rdpSeries->replace(rdp);
    m_epsilonSeries->replace(m_deltaMode ? QList<QPointF>{} : byOrder);
    m_optimumSeries->replace(m_deltaMode ? QList<QPointF>{} : optimum);
    m_deltaSeries->replace(m_deltaMode ? byOrder : QList<QPointF>{});
    m_deltaOptimumSeries->replace(m_deltaMode ? optimum : QList<QPointF>{});
    // Orders up to where both curves have left the plot for good (with some margin).
    const double xMin = m_orders.empty() ? 1.0 : m_orders.front();
    double xMax = m_orders.empty() ? 1000.0 : m_orders.back();
    for (std::size_t i = 0; i < m_orders.size(); ++i) {
        if (m_orders[i] <= m_optimal)
            continue;
        const bool rdpOut = i >= m_rdp.size() || !finite(m_rdp[i]) || m_rdp[i] > 1.5 * top;
        const bool curveOut = i >= m_epsilon.size() || !finite(m_epsilon[i])
                              || (m_deltaMode ? m_epsilon[i] >= 1.0 : m_epsilon[i] > 1.5 * top);
        if (rdpOut && curveOut) {
            xMax = std::min(xMax, std::max(3.0 * m_orders[i], 10.0 * xMin));
            break;
        }
    }
    m_axisX->setRange(xMin, xMax);
    m_axisX->setVisible(!m_orders.empty());
    m_axisY->setVisible(!m_orders.empty());
    m_axisDelta->setVisible(!m_orders.empty() && m_deltaMode);
    if (m_deltaMode)
        m_axisDelta->setRange(deltaFloor, 1.0);
    setNiceRange(m_axisY, top);
    m_axisY->setTitleText(m_deltaMode ? tr("ε̂(α)") : tr("ε̂(α), ε"));
    chart()->setTitle(m_deltaMode
                          ? tr("Rényi DP over orders α (δ at ε = %1)").arg(formatNumber(m_queryEpsilon))
                          : tr("Rényi DP over orders α (ε at δ = %1)").arg(formatNumber(m_delta, 3)));
    QStringList legend;
    if (!rdp.isEmpty()) {
        legend << legendEntry(m_rdpSeries->pen().color(), QStringLiteral("━"), tr("ledger's RDP ε̂(α)"))
               << legendEntry(palette::chartInk, QStringLiteral("╍"),
                              m_deltaMode ? tr("δ at ε from order α alone (right axis)")
                                          : tr("ε at δ from order α alone"));
        // The table's RDP number itself (the curve's lowest point), printed as the table does.
        if (!optimum.isEmpty())
            legend << legendEntry(
                kReferenceColour, QStringLiteral("●"),
                m_deltaMode
                    ? tr("best α = %1 → δ = %2").arg(formatNumber(optimum.front().x()), formatBound(m_row, 3))
                    : tr("best α = %1 → ε = %2").arg(formatNumber(optimum.front().x()), formatBound(m_row)));
    }
    setLegendEntries(legend);
    setMessage(!m_clearMessage.isEmpty() ? m_clearMessage : QString());
}

// ---------------------------------------------------------------------------------------------

PldHistogramChart::PldHistogramChart(QWidget *parent) : ChartFrame(comparisonFrame(), parent)
{
    setBoldTitle(tr("Privacy-loss distribution"));
    m_axisX = new QValueAxis;
    m_axisX->setLabelFormat(QStringLiteral("%.3g"));
    m_axisX->setTitleText(tr("privacy loss ℓ (nats)"));
    m_axisY = new QLogValueAxis;
    m_axisY->setBase(10.0);
    m_axisY->setLabelFormat(QStringLiteral("%.0e"));
    m_axisY->setTitleText(tr("probability (log scale)"));
    m_axisY->setMinorTickCount(0);
    styleAxis(m_axisX, true);
    styleAxis(m_axisY, true);
    chart()->addAxis(m_axisX, Qt::AlignBottom);
    chart()->addAxis(m_axisY, Qt::AlignLeft);

    const QColor below(0x6b, 0x8e, 0xb8);
    const QColor above(0xe0, 0x7b, 0x1a);
    const auto makeArea = [this](const QColor &colour, QLineSeries **upper, QLineSeries **lower) {
        auto *area = new QAreaSeries;
        *upper = new QLineSeries(area);
        *lower = new QLineSeries(area);
        area->setUpperSeries(*upper);
        area->setLowerSeries(*lower);
        area->setPen(QPen(colour.darker(130), 1.0));
        QColor fill = colour;
        fill.setAlpha(200);
        area->setBrush(fill);
        chart()->addSeries(area);
        area->attachAxis(m_axisX);
        area->attachAxis(m_axisY);
        return area;
    };
    m_below = makeArea(below, &m_belowUpper, &m_belowLower);
    m_above = makeArea(above, &m_aboveUpper, &m_aboveLower);
    m_below->setName(tr("loss ≤ ε"));
    m_above->setName(tr("loss > ε"));
    m_epsilonLine = makeLine(kMarkerColour, 1.5, Qt::DashLine);
    chart()->addSeries(m_epsilonLine);
    m_epsilonLine->attachAxis(m_axisX);
    m_epsilonLine->attachAxis(m_axisY);
    setToolTip(tr("The distribution of the composed privacy loss L = ln(P(y)/Q(y)) over outputs "
                  "y, as the PLD accountant holds it (pessimistic, on a grid). δ(ε) = "
                  "E[(1 − e^(ε−L))₊] + P[L = ∞]: only the orange outcomes, with loss above ε, "
                  "cost δ."));
    clear(tr("Nothing computed yet."));
    flush();
}

PldHistogramChart::~PldHistogramChart() = default;

void PldHistogramChart::setHistogram(std::vector<double> loss, std::vector<double> mass, double binWidth,
                                     double epsilon, double infinityMass, double interval, bool addDirection)
{
    m_loss = std::move(loss);
    m_mass = std::move(mass);
    m_binWidth = binWidth;
    m_epsilon = epsilon;
    m_infinityMass = infinityMass;
    m_interval = interval;
    m_add = addDirection;
    m_clearMessage.clear();
    scheduleUpdate();
}

void PldHistogramChart::setQuery(bool epsilonAtDelta, double delta, double epsilon, double row)
{
    m_epsilonAtDelta = epsilonAtDelta;
    m_queryDelta = delta;
    m_queryEpsilon = epsilon;
    m_row = row;
    scheduleUpdate();
}

QString PldHistogramChart::title() const
{
    return chart()->title();
}

void PldHistogramChart::clear(const QString &message)
{
    m_loss.clear();
    m_mass.clear();
    m_clearMessage = message;
    scheduleUpdate();
}

int PldHistogramChart::binCount() const
{
    return static_cast<int>(m_loss.size());
}

double PldHistogramChart::massBeyondEpsilon() const
{
    double mass = 0.0;
    for (std::size_t i = 0; i < m_loss.size(); ++i)
        if (m_loss[i] > m_epsilon)
            mass += m_mass[i];
    return mass;
}

void PldHistogramChart::rebuild()
{
    double maxMass = 0.0;
    for (double m : m_mass)
        maxMass = std::max(maxMass, m);
    const double floor = maxMass > 0.0 ? std::pow(10.0, std::floor(std::log10(maxMass)) - 10.0) : 1e-12;
    const double top = maxMass > 0.0 ? std::pow(10.0, std::ceil(std::log10(maxMass * 1.5))) : 1.0;
    QList<QPointF> belowUpper;
    QList<QPointF> aboveUpper;
    const double half = 0.5 * m_binWidth;
    for (std::size_t i = 0; i < m_loss.size(); ++i) {
        const double y = std::max(m_mass[i], floor);
        QList<QPointF> &target = m_loss[i] > m_epsilon ? aboveUpper : belowUpper;
        target.append(QPointF(m_loss[i] - half, y));
        target.append(QPointF(m_loss[i] + half, y));
    }
    const auto base = [floor](const QList<QPointF> &upper) {
        return upper.isEmpty()
                   ? QList<QPointF>{}
                   : QList<QPointF>{QPointF(upper.front().x(), floor), QPointF(upper.back().x(), floor)};
    };
    m_belowUpper->replace(belowUpper);
    m_belowLower->replace(base(belowUpper));
    m_aboveUpper->replace(aboveUpper);
    m_aboveLower->replace(base(aboveUpper));
    m_below->setVisible(!belowUpper.isEmpty());
    m_above->setVisible(!aboveUpper.isEmpty());

    double xMin = m_loss.empty() ? -1.0 : m_loss.front() - half;
    double xMax = m_loss.empty() ? 1.0 : m_loss.back() + half;
    const bool marker = !m_loss.empty() && finite(m_epsilon);
    if (marker) {
        xMin = std::min(xMin, m_epsilon);
        xMax = std::max(xMax, m_epsilon);
    }
    const double pad = 0.03 * (xMax - xMin);
    setNiceTicks(m_axisX, xMin - pad, xMax + pad, 5);
    m_axisY->setRange(floor, top);
    m_axisX->setVisible(!m_loss.empty());
    m_axisY->setVisible(!m_loss.empty());
    m_epsilonLine->replace(marker ? QList<QPointF>{QPointF(m_epsilon, floor), QPointF(m_epsilon, top)}
                                  : QList<QPointF>{});
    m_epsilonLine->setVisible(marker);

    const QString query = m_epsilonAtDelta ? tr("ε at δ = %1").arg(formatNumber(m_queryDelta, 3))
                                           : tr("δ at ε = %1").arg(formatNumber(m_queryEpsilon));
    chart()->setTitle(
        m_loss.empty() ? tr("Privacy-loss distribution")
                       : tr("PLD (%1; %2)").arg(m_add ? tr("add") : tr("remove"), query)); // whole at 1024 px
    QStringList legend;
    if (!m_loss.empty()) {
        legend << legendEntry(m_below->brush().color(), QStringLiteral("▇"), tr("loss ≤ ε"))
               << legendEntry(
                      m_above->brush().color(), QStringLiteral("▇"),
                      m_epsilonAtDelta
                          ? tr("loss > ε: pays for δ")
                          : tr("loss > ε: pays for δ = %1 (the PLD's row)").arg(formatBound(m_row, 3)));
        // ε mode: the marked ε is the PLD's row, printed as the table prints it; δ mode: the
        // queried ε.
        if (marker)
            legend << legendEntry(kMarkerColour, QStringLiteral("┆"),
                                  m_epsilonAtDelta ? tr("ε = %1").arg(formatBound(m_epsilon))
                                                   : tr("ε = %1 (queried)").arg(formatNumber(m_epsilon)));
        legend << tr("pessimistic PMF, grid d = %1, bins of %2")
                      .arg(formatNumber(m_interval), formatNumber(m_binWidth, 2));
        if (m_infinityMass > 0.0)
            legend << tr("P[L = ∞] = %1").arg(formatNumber(m_infinityMass, 2));
    }
    setLegendEntries(legend);
    setMessage(!m_clearMessage.isEmpty() ? m_clearMessage : QString());
}

} // namespace pbx::ui
