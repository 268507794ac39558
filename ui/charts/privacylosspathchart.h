// SPDX-License-Identifier: MIT
// Cumulative privacy loss after each request: the ε-equivalent spend (left axis), the native ρ
// spend when the filter is zCDP (right axis, scaled so both budgets sit on the same line), a
// horizontal budget line, and markers on refused requests. With the unified filter it also plots
// the ex-post side's spend (left axis, with its own budget line ε_e); the ε series is then the
// total ε-equivalent of both sides and the ρ series the zCDP side. Qt Charts stays inside this
// class: the API takes plain numbers. The chart is built once; updates replace() the series'
// points and are coalesced by the ChartFrame's timer.
#pragma once

#include "ui/charts/chartframe.h"

#include <QPointer>
#include <QString>
#include <QStringList>

#include <cmath>

#include <functional>
#include <span>
#include <vector>

QT_FORWARD_DECLARE_CLASS(QAbstractScrollArea)
QT_FORWARD_DECLARE_CLASS(QLineSeries)
QT_FORWARD_DECLARE_CLASS(QScatterSeries)
QT_FORWARD_DECLARE_CLASS(QValueAxis)

namespace pbx::ui {

class PrivacyLossPathChart final : public ChartFrame
{
    Q_OBJECT
public:
    /// Spend after one request.
    struct PathPoint
    {
        double epsilonSpent = 0.0; ///< ε-equivalent of the cumulative spend at the session δ
        double nativeSpent = 0.0;  ///< cumulative spend in the filter's unit
        bool refused = false;      ///< the request was refused (nothing spent)
        double expostSpent = 0.0;  ///< the unified filter's ex-post spend (ε); else unused
        /// An odometer session: the ε a ledger planned in advance would have cost so far
        /// (OdometerFilter::preplannedEpsilon); else unused.
        double preplanned = 0.0;
    };

    explicit PrivacyLossPathChart(QWidget *parent = nullptr);
    ~PrivacyLossPathChart() override;

    /// Budget in ε (at `delta`) and in the filter's native unit. With unit "ε" the native series
    /// and right axis are hidden (they would repeat the ε series). An infinite ε budget is an
    /// odometer session: no budget line and no right axis; the ε series is the odometer's reading
    /// and a dashed series shows the points' `preplanned` ε (the price of not committing).
    void setBudget(double epsilonBudget, double nativeBudget, const QString &unitSymbol, double delta);
    /// The unified filter's ex-post budget ε_e: shows the ex-post series and budget line (call
    /// after setBudget). 0: one system, nothing extra (the default; setBudget does not reset it).
    void setExPostBudget(double expostBudget);
    bool showsExPost() const { return m_expostBudget > 0.0; }
    /// Whether each request's point is marked (paths of at most kMarkedPoints points).
    bool marksRequests() const;
    bool showsOdometer() const { return !std::isfinite(m_epsilonBudget); }
    /// Replaces the whole path (new session, opened transcript).
    void setPath(std::span<const PathPoint> points);
    /// Adds the point for the next request.
    void appendPoint(const PathPoint &point);

    /// Describes request `number` (from 1, as on the x axis) for the tooltip shown when a point is
    /// hovered, e.g. "Q3: count of rows"; without one the tooltip gives the request number only.
    void setRequestDescriber(std::function<QString(int number)> describe)
    {
        m_describe = std::move(describe);
    }
    /// The hover tooltip's line for the point at request `number` (from 1): "Request 3: …",
    /// "(refused)" for a refused request; empty for 0 or beyond the path.
    QString requestLabel(int number) const;

    /// Number of request points currently drawn (the origin at request 0 not counted). Lags
    /// setPath/appendPoint by up to one coalescing interval; see flush().
    int pointCount() const;
    /// Number of refused-request markers currently drawn.
    int refusedCount() const;

    /// The compact form: the legend with short names ("━ ε  ╍ ρ  ┅ budget  ■ refused"; the full
    /// ones in its tooltip), the x axis without its title and a view 20 px lower. So when the
    /// frame's room (its height, less what its dock's scroll area hides) is lower than the view's
    /// minimum and the full legend together: at 1024×708 in presentation mode with the lessons
    /// above the path the full form made the dock scroll and cut the legend.
    bool showsCompactLegend() const { return m_compactLegendShown; }
    /// Pixels of height the frame would need less with the compact legend than with the one it
    /// shows (0 when it shows the compact one): what a layout may take from it before it scrolls.
    int compactLegendSaving() const;

protected:
    void rebuild() override;
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

public:
    /// Paths of at most this many points (requests + the origin) mark each request.
    static constexpr qsizetype kMarkedPoints = 32;

private:
    /// Names, axes and legend of an odometer session (showsOdometer()).
    void nameOdometerSeries();
    /// The full or the compact legend, for the room the frame has (showsCompactLegend).
    void fitLegend();

private:
    QLineSeries *m_epsilonSeries = nullptr;
    QLineSeries *m_nativeSeries = nullptr;
    QLineSeries *m_budgetSeries = nullptr;
    QLineSeries *m_expostSeries = nullptr;
    QLineSeries *m_expostBudgetSeries = nullptr;
    QScatterSeries *m_refusedSeries = nullptr;
    QValueAxis *m_axisX = nullptr;
    QValueAxis *m_axisEpsilon = nullptr;
    QValueAxis *m_axisNative = nullptr;

    std::vector<PathPoint> m_points;
    std::function<QString(int)> m_describe;
    double m_epsilonBudget = 1.0;
    double m_nativeBudget = 1.0;
    double m_delta = 0.0;
    double m_expostBudget = 0.0;
    QString m_unit = QStringLiteral("ε");
    bool m_budgetDirty = true;
    QStringList m_fullLegend;    ///< the legend's entries with the series' names
    QStringList m_compactLegend; ///< the same with short names
    bool m_compactLegendShown = false;
    QPointer<QAbstractScrollArea> m_scroll; ///< the dock's scroll area the frame lies in, if any
};

} // namespace pbx::ui
