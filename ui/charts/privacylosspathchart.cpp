// SPDX-License-Identifier: MIT
#include "ui/charts/privacylosspathchart.h"

#include "ui/charts/axisticks.h"
#include "ui/charts/charthover.h"

#include "ui/util/numberformat.h"
#include "ui/util/palette.h"

#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QScrollArea>
#include <QTextDocument>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace pbx::ui {

namespace {

constexpr QColor kEpsilonColour = palette::chartBlue;
constexpr QColor kNativeColour = palette::chartPurple;
constexpr QColor kBudgetColour = palette::chartRed;
constexpr QColor kExPostColour = palette::chartTeal;

/// The view's minimum height in pixels with the full legend, and in the compact form, which
/// also hides the x axis' title ("request #": its ticks are the requests' numbers), so that the
/// plot keeps about the same height.
constexpr int kViewHeight = 180;
constexpr int kCompactViewHeight = 160;

// The series are named (for accessibility and tooltips), but the legend is drawn as a wrapping
// label below the chart: QLegend lays markers out on one line and truncates names in a narrow dock.
ChartFrame::Style pathFrame()
{
    ChartFrame::Style style;
    style.wrappingLegend = true;
    // 180 px high at least: with the unified filter's legend (six lines in presentation mode) a
    // 220-px minimum made the chart 406 px, more than its dock had at 1024×768 (381 px).
    style.minimumViewSize = QSize(260, kViewHeight);
    return style;
}

} // namespace

PrivacyLossPathChart::PrivacyLossPathChart(QWidget *parent) : ChartFrame(pathFrame(), parent)
{
    m_axisX = new QValueAxis;
    m_axisX->setTitleText(tr("request #"));
    m_axisX->setLabelFormat(QStringLiteral("%d"));
    m_axisX->setTickType(QValueAxis::TicksDynamic);
    m_axisX->setTickAnchor(0.0);
    m_axisX->setMinorTickCount(0);
    m_axisEpsilon = new QValueAxis;
    m_axisEpsilon->setLabelFormat(QStringLiteral("%.3g"));
    m_axisEpsilon->setLabelsColor(kEpsilonColour);
    m_axisEpsilon->setTitleBrush(kEpsilonColour);
    m_axisNative = new QValueAxis;
    m_axisNative->setLabelFormat(QStringLiteral("%.3g"));
    m_axisNative->setLabelsColor(kNativeColour);
    m_axisNative->setTitleBrush(kNativeColour);
    m_axisNative->setGridLineVisible(false);
    for (QValueAxis *axis : {m_axisX, m_axisEpsilon, m_axisNative})
        styleAxis(axis);
    chart()->addAxis(m_axisX, Qt::AlignBottom);
    chart()->addAxis(m_axisEpsilon, Qt::AlignLeft);
    chart()->addAxis(m_axisNative, Qt::AlignRight);

    m_budgetSeries = new QLineSeries;
    m_budgetSeries->setPen(QPen(kBudgetColour, 1.5, Qt::DashLine));
    m_epsilonSeries = new QLineSeries;
    m_epsilonSeries->setPen(QPen(kEpsilonColour, 2.2));
    m_epsilonSeries->setPointsVisible(true);
    m_nativeSeries = new QLineSeries;
    m_nativeSeries->setPen(QPen(kNativeColour, 1.6, Qt::DashDotLine));
    m_expostSeries = new QLineSeries;
    m_expostSeries->setPen(QPen(kExPostColour, 2.0));
    m_expostSeries->setPointsVisible(true);
    m_expostBudgetSeries = new QLineSeries;
    m_expostBudgetSeries->setPen(QPen(kExPostColour, 1.5, Qt::DotLine));
    m_refusedSeries = new QScatterSeries;
    m_refusedSeries->setName(tr("refused"));
    m_refusedSeries->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    m_refusedSeries->setMarkerSize(9.0);
    m_refusedSeries->setColor(kBudgetColour);
    m_refusedSeries->setBorderColor(Qt::white);

    chart()->addSeries(m_budgetSeries);
    chart()->addSeries(m_expostBudgetSeries);
    chart()->addSeries(m_nativeSeries);
    chart()->addSeries(m_expostSeries);
    chart()->addSeries(m_epsilonSeries);
    chart()->addSeries(m_refusedSeries);
    for (QXYSeries *series : std::initializer_list<QXYSeries *>{
             m_budgetSeries, m_epsilonSeries, m_refusedSeries, m_expostSeries, m_expostBudgetSeries}) {
        series->attachAxis(m_axisX);
        series->attachAxis(m_axisEpsilon);
    }
    m_nativeSeries->attachAxis(m_axisX);
    m_nativeSeries->attachAxis(m_axisNative);

    setToolTip(tr("Cumulative privacy loss after each request. The blue line is the total spend "
                  "expressed as ε at the session δ; the dashed red line is the budget. Refused "
                  "requests spend nothing and are marked in red."));
    // A hovered point of a spend series names the request it stands for; the budget lines none.
    ChartHover::of(this)->setPointLabel([this](const QAbstractSeries *series, int, QPointF value) {
        if (series == m_budgetSeries || series == m_expostBudgetSeries)
            return QString();
        return requestLabel(static_cast<int>(std::lround(value.x())));
    });
    rebuild();
}

PrivacyLossPathChart::~PrivacyLossPathChart() = default;

void PrivacyLossPathChart::nameOdometerSeries()
{
    m_budgetDirty = false;
    m_epsilonSeries->setName(tr("odometer ε (holds at every request, δ = %1)").arg(formatNumber(m_delta, 2)));
    m_budgetSeries->setName(tr("a ledger planned in advance (ε)"));
    m_axisEpsilon->setTitleText(tr("ε so far"));
    m_nativeSeries->setVisible(false);
    m_axisNative->setVisible(false);
    m_expostSeries->setVisible(false);
    m_expostBudgetSeries->setVisible(false);
    m_fullLegend = {legendEntry(kEpsilonColour, QStringLiteral("━"), m_epsilonSeries->name()),
                    legendEntry(kBudgetColour, QStringLiteral("┅"), m_budgetSeries->name())};
    m_compactLegend = {legendEntry(kEpsilonColour, QStringLiteral("━"), tr("odometer ε")),
                       legendEntry(kBudgetColour, QStringLiteral("┅"), tr("planned in advance"))};
    fitLegend();
}

void PrivacyLossPathChart::setBudget(double epsilonBudget, double nativeBudget, const QString &unitSymbol,
                                     double delta)
{
    m_epsilonBudget = epsilonBudget;
    m_nativeBudget = nativeBudget;
    m_unit = unitSymbol;
    m_delta = delta;
    m_budgetDirty = true;
    scheduleUpdate();
}

void PrivacyLossPathChart::setExPostBudget(double expostBudget)
{
    m_expostBudget = expostBudget > 0.0 ? expostBudget : 0.0;
    m_budgetDirty = true;
    scheduleUpdate();
}

void PrivacyLossPathChart::setPath(std::span<const PathPoint> points)
{
    m_points.assign(points.begin(), points.end());
    scheduleUpdate();
}

void PrivacyLossPathChart::appendPoint(const PathPoint &point)
{
    m_points.push_back(point);
    scheduleUpdate();
}

QString PrivacyLossPathChart::requestLabel(int number) const
{
    if (number < 1 || static_cast<std::size_t>(number) > m_points.size())
        return {};
    const QString description = m_describe ? m_describe(number) : QString();
    QString label = description.isEmpty() ? tr("Request %1").arg(number)
                                          : tr("Request %1: %2").arg(number).arg(description);
    if (m_points[static_cast<std::size_t>(number - 1)].refused)
        label += tr(" (refused)");
    return label;
}

bool PrivacyLossPathChart::marksRequests() const
{
    return m_epsilonSeries->pointsVisible();
}

int PrivacyLossPathChart::pointCount() const
{
    return std::max(0, static_cast<int>(m_epsilonSeries->count()) - 1);
}

int PrivacyLossPathChart::refusedCount() const
{
    return static_cast<int>(m_refusedSeries->count());
}

void PrivacyLossPathChart::rebuild()
{
    const bool odometer = showsOdometer();
    const bool nativeIsEpsilon = m_unit == QStringLiteral("ε") || odometer;
    const bool dual = showsExPost();
    if (m_budgetDirty && odometer)
        nameOdometerSeries();
    if (m_budgetDirty) {
        m_budgetDirty = false;
        m_epsilonSeries->setName(nativeIsEpsilon ? tr("ε spent")
                                 : dual ? tr("total ε (both sides, at δ = %1)").arg(formatNumber(m_delta, 2))
                                        : tr("ε spent (at δ = %1)").arg(formatNumber(m_delta, 2)));
        m_nativeSeries->setName(dual ? tr("zCDP side %1 (right axis)").arg(m_unit)
                                     : tr("%1 spent (right axis)").arg(m_unit));
        m_budgetSeries->setName(
            nativeIsEpsilon ? tr("budget ε = %1").arg(formatNumber(m_epsilonBudget))
            : dual          ? tr("budget: total ε = %1 · zCDP %2 = %3 (right)")
                         .arg(formatNumber(m_epsilonBudget), m_unit, formatNumber(m_nativeBudget))
                   : tr("budget ε = %1 ⇔ %2 = %3")
                         .arg(formatNumber(m_epsilonBudget), m_unit, formatNumber(m_nativeBudget)));
        m_expostSeries->setName(tr("ex-post side ε"));
        m_expostBudgetSeries->setName(tr("ex-post budget ε = %1").arg(formatNumber(m_expostBudget)));
        m_axisEpsilon->setTitleText(nativeIsEpsilon ? tr("ε spent")
                                    : dual          ? tr("ε (total, ex-post)")
                                                    : tr("ε spent (at δ)"));
        m_axisNative->setTitleText(dual ? tr("zCDP %1 spent").arg(m_unit) : tr("%1 spent").arg(m_unit));
        m_nativeSeries->setVisible(!nativeIsEpsilon);
        m_axisNative->setVisible(!nativeIsEpsilon);
        m_expostSeries->setVisible(dual);
        m_expostBudgetSeries->setVisible(dual);
        QStringList entries;
        entries << legendEntry(kEpsilonColour, QStringLiteral("━"), m_epsilonSeries->name());
        if (!nativeIsEpsilon)
            entries << legendEntry(kNativeColour, QStringLiteral("╍"), m_nativeSeries->name());
        if (dual)
            entries << legendEntry(kExPostColour, QStringLiteral("━"), m_expostSeries->name());
        entries << legendEntry(kBudgetColour, QStringLiteral("┅"), m_budgetSeries->name());
        if (dual)
            entries << legendEntry(kExPostColour, QStringLiteral("┈"), m_expostBudgetSeries->name());
        entries << legendEntry(kBudgetColour, QStringLiteral("■"), m_refusedSeries->name());
        m_fullLegend = entries;
        // Short names, where the dock is too low for the full ones (a 1024×708 window in
        // presentation mode, the lessons above): the axes' titles and colours say the rest.
        QStringList compact;
        compact << legendEntry(kEpsilonColour, QStringLiteral("━"), tr("ε"));
        if (!nativeIsEpsilon) // the right axis is in its colour
            compact << legendEntry(kNativeColour, QStringLiteral("╍"), m_unit);
        if (dual) // its spend and its budget line
            compact << legendEntry(kExPostColour, QStringLiteral("━┈"), tr("ex-post"));
        compact << legendEntry(kBudgetColour, QStringLiteral("┅"), tr("budget"));
        m_compactLegend = compact;
        fitLegend();
    }

    QList<QPointF> epsilon;
    QList<QPointF> native;
    QList<QPointF> refused;
    QList<QPointF> expost;
    expost.append(QPointF(0.0, 0.0));
    epsilon.reserve(static_cast<qsizetype>(m_points.size()) + 1);
    native.reserve(static_cast<qsizetype>(m_points.size()) + 1);
    epsilon.append(QPointF(0.0, 0.0));
    native.append(QPointF(0.0, 0.0));
    QList<QPointF> preplanned;
    preplanned.append(QPointF(0.0, 0.0));
    double maxEpsilon = odometer ? 0.0 : m_epsilonBudget;
    double maxNative = odometer ? 0.0 : m_nativeBudget;
    for (std::size_t i = 0; i < m_points.size(); ++i) {
        const auto &p = m_points[i];
        const double x = static_cast<double>(i + 1);
        epsilon.append(QPointF(x, p.epsilonSpent));
        native.append(QPointF(x, p.nativeSpent));
        if (dual) {
            expost.append(QPointF(x, p.expostSpent));
            maxEpsilon = std::max(maxEpsilon, p.expostSpent);
        }
        if (odometer)
            preplanned.append(QPointF(x, p.preplanned));
        if (p.refused)
            refused.append(QPointF(x, p.epsilonSpent));
        maxEpsilon = std::max(maxEpsilon, p.epsilonSpent);
        maxNative = std::max(maxNative, p.nativeSpent);
    }
    m_epsilonSeries->replace(epsilon);
    // A marker per request while they stand apart; on a long path (lesson 1's 40 counts) the
    // markers ran into one thick band, in presentation mode most of all: the line alone, as the
    // comparison's ε after k steps does past 32 points (hovering still names each request).
    const bool markers = epsilon.size() <= kMarkedPoints;
    m_epsilonSeries->setPointsVisible(markers);
    m_expostSeries->setPointsVisible(markers);
    m_nativeSeries->replace(native);
    m_refusedSeries->replace(refused);
    // The compact legend names the refused requests' marker once there is one.
    const QString refusedEntry = legendEntry(kBudgetColour, QStringLiteral("■"), m_refusedSeries->name());
    if (!m_compactLegend.isEmpty() && !odometer
        && refused.isEmpty() == m_compactLegend.contains(refusedEntry)) {
        if (refused.isEmpty())
            m_compactLegend.removeAll(refusedEntry);
        else
            m_compactLegend << refusedEntry;
        fitLegend();
    }
    m_expostSeries->replace(dual ? expost : QList<QPointF>());

    // Past the last request by a little, so its marker is not cut by the plot's edge.
    const double xMax = std::max(5.0, static_cast<double>(m_points.size()) + 0.4);
    m_budgetSeries->replace(
        odometer ? preplanned
                 : QList<QPointF>{QPointF(0.0, m_epsilonBudget), QPointF(xMax, m_epsilonBudget)});
    m_expostBudgetSeries->replace(
        dual ? QList<QPointF>{QPointF(0.0, m_expostBudget), QPointF(xMax, m_expostBudget)}
             : QList<QPointF>());
    // Interval before range: Qt 6.4 lays the ticks out again on a range change only.
    m_axisX->setTickInterval(niceIntegerInterval(xMax, 6));
    m_axisX->setRange(0.0, xMax);

    // The ε axis ends on a nice tick a little above the budget (or the largest spend); the
    // native axis uses the same headroom factor and tick count, so the ε and ρ budgets fall on
    // one horizontal line and the grid serves both axes.
    // An odometer has no budget: its axis is scaled to the largest reading (at least 0.1).
    const double epsilonBudget = odometer                ? std::max(0.1, maxEpsilon / 1.03)
                                 : m_epsilonBudget > 0.0 ? m_epsilonBudget
                                                         : 1.0;
    const double nativeBudget = m_nativeBudget > 0.0 && std::isfinite(m_nativeBudget) ? m_nativeBudget : 1.0;
    const double wanted
        = std::max({1.08, maxEpsilon / epsilonBudget * 1.03, maxNative / nativeBudget * 1.03});
    const double step = niceStep(epsilonBudget * wanted / 5.0);
    const int ticks = static_cast<int>(std::ceil(epsilonBudget * wanted / step - 1e-9));
    const double top = ticks * step;
    const double headroom = top / epsilonBudget;
    m_axisEpsilon->setTickCount(ticks + 1);
    m_axisEpsilon->setRange(0.0, top);
    m_axisNative->setTickCount(ticks + 1);
    m_axisNative->setRange(0.0, nativeBudget * headroom);
    // Qt 6.4 caches a value axis's size hint (its label width) across range changes; only a
    // format, tick count or tick type change drops the cache. Re-set the format so the axis is
    // measured again with its new labels, instead of eliding them to "0.0…".
    for (QValueAxis *axis : {m_axisEpsilon, m_axisNative}) {
        refreshLabelWidth(axis);
    }
    // Before the first request the axes show only the budget: say what fills the chart.
    setMessage(!m_points.empty() ? QString()
               : odometer ? tr("No request yet: each release raises the odometer's ε; there is no budget.")
                          : tr("No request yet: each release adds a step here, up to the budget line."));
}

void PrivacyLossPathChart::resizeEvent(QResizeEvent *event)
{
    ChartFrame::resizeEvent(event);
    fitLegend();
}

void PrivacyLossPathChart::showEvent(QShowEvent *event)
{
    ChartFrame::showEvent(event);
    // The scroll area of the dock it lies in: a viewport that grows or shrinks while the frame
    // keeps its minimum height changes the room the legend has.
    if (!m_scroll) {
        for (QWidget *p = parentWidget(); p && !m_scroll; p = p->parentWidget())
            m_scroll = qobject_cast<QAbstractScrollArea *>(p);
        if (m_scroll)
            m_scroll->viewport()->installEventFilter(this);
    }
    fitLegend();
}

bool PrivacyLossPathChart::eventFilter(QObject *watched, QEvent *event)
{
    if (m_scroll && watched == m_scroll->viewport() && event->type() == QEvent::Resize)
        fitLegend();
    return ChartFrame::eventFilter(watched, event);
}

int PrivacyLossPathChart::compactLegendSaving() const
{
    if (m_compactLegendShown || !legendLabel())
        return 0;
    const int width = legendLabel()->width() > 0 ? legendLabel()->width() : this->width();
    return std::max(0, legendHeightFor(m_fullLegend, width) - legendHeightFor(m_compactLegend, width))
           + (kViewHeight - kCompactViewHeight);
}

void PrivacyLossPathChart::fitLegend()
{
    // The frame's room: its height, less what the dock's scroll area hides of it (the frame keeps
    // its minimum height in a viewport lower than that).
    int room = height();
    if (const auto *area = qobject_cast<const QScrollArea *>(m_scroll.data()); area && area->widget())
        room -= std::max(0, area->widget()->height() - area->viewport()->height());
    const int legendWidth = legendLabel() && legendLabel()->width() > 0 ? legendLabel()->width() : width();
    const int full = kViewHeight + legendHeightFor(m_fullLegend, legendWidth);
    const bool compact = isVisible() && room < full && !m_compactLegend.isEmpty();
    const QStringList &entries = compact ? m_compactLegend : m_fullLegend;
    if (compact == m_compactLegendShown && legendLabel()
        && legendLabel()->text() == entries.join(QStringLiteral(" &nbsp; ")))
        return;
    m_compactLegendShown = compact;
    setLegendEntries(entries);
    m_axisX->setTitleVisible(!compact);
    view()->setMinimumHeight(compact ? kCompactViewHeight : kViewHeight);
    if (QLabel *legend = legendLabel()) {
        QStringList names;
        for (const QString &entry : m_fullLegend) {
            QTextDocument document;
            document.setHtml(entry);
            names << document.toPlainText().replace(QChar(0x2011), u'-').remove(QChar(0x2060));
        }
        legend->setToolTip(compact ? names.join(u'\n') : QString());
    }
}

} // namespace pbx::ui
