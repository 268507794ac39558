// SPDX-License-Identifier: MIT
// The growing-database lab's chart (docs/growing-databases.md): curves over time t (log or linear
// axis), epochs as alternately shaded bands, an optional right-hand axis for quantities on a
// different scale (BBImprover's per-step ρ_t), and a vertical time cursor the lab's animation
// moves without redrawing the rest. Plain data in; the numbers come from the lab's document.
#pragma once

#include "ui/charts/chartframe.h"

#include <QColor>
#include <QPointF>
#include <QString>

#include <utility>
#include <vector>

QT_FORWARD_DECLARE_CLASS(QAbstractAxis)
QT_FORWARD_DECLARE_CLASS(QAbstractSeries)
QT_FORWARD_DECLARE_CLASS(QValueAxis)

namespace pbx::ui {

class GrowingChart final : public ChartFrame
{
    Q_OBJECT
public:
    enum class Kind {
        Line,    ///< points joined as given
        Step,    ///< (x_i, y_i) held until x_{i+1}; the last point is held to `stepEnd`
        Scatter, ///< markers only
        Band,    ///< the area between `lower` and `points` (e.g. a Monte Carlo's 5–95 % band), translucent
    };
    struct Series
    {
        QString id;   ///< stable key for points() (tests, the cursor read-out)
        QString name; ///< legend text
        QColor colour;
        Kind kind = Kind::Line;
        Qt::PenStyle style = Qt::SolidLine;
        std::vector<QPointF> points;
        double stepEnd = 0.0;   ///< Step: where the last value ends; Band: stepped when > 0
        bool rightAxis = false; ///< drawn against the right-hand axis
        double width = 2.0;
        std::vector<QPointF> lower = {}; ///< Band: the lower edge, at the same x as `points`
    };
    /// An epoch [from, to) on the x axis.
    struct Band
    {
        double from = 0.0;
        double to = 0.0;
    };

    explicit GrowingChart(QWidget *parent = nullptr);

    void setTitles(const QString &title, const QString &xTitle, const QString &yTitle,
                   const QString &rightTitle = QString());
    void setLogX(bool logX);
    /// What the bands are called in the legend ("epochs" unless set; the ATG panel's are rounds).
    void setBandName(const QString &name) { m_bandName = name; }
    /// Replaces everything drawn (the x range is [xMin, xMax]; the left axis starts at 0).
    void setData(double xMin, double xMax, std::vector<Band> bands, std::vector<Series> series);
    /// Draws nothing — no series, no axes, no legend — and shows `message` over the plot.
    void clear(const QString &message);
    /// Moves the vertical cursor to x (NaN hides it). Immediate.
    void setCursor(double x);
    double cursor() const { return m_cursor; }

    /// The drawn points of series `id` (as in the chart, after flush(); steps expanded; a band's
    /// upper edge), or empty.
    std::vector<QPointF> points(const QString &id) const;
    /// The drawn lower edge of band `id` (after flush()), or empty.
    std::vector<QPointF> lowerPoints(const QString &id) const;
    /// The drawn axes' titles, bottom then left (then right); empty when cleared (after flush()).
    QStringList axisTitles() const;
    /// The chart's title as drawn.
    QString title() const;
    /// The stored value of series `id` at x (Step: the value held at x; Line: the last point with
    /// x_i ≤ x), or NaN.
    double valueAt(const QString &id, double x) const;
    int bandCount() const { return static_cast<int>(m_bands.size()); }
    bool hasSeries(const QString &id) const;

protected:
    void rebuild() override;

private:
    /// The axes rebuild() draws on (right is null when no series uses it).
    struct Axes
    {
        QAbstractAxis *x = nullptr;
        QValueAxis *y = nullptr;
        QValueAxis *right = nullptr;
    };
    /// The x axis (log or integer ticks), widened by 3 % on a side where a marker would be cut.
    QAbstractAxis *buildXAxis();
    /// The left axis's range: integer ticks when every value is whole, below 0 for noisy values.
    void fitLeftAxis(QValueAxis *y);
    /// The right axis, or null when no series is drawn against it.
    QValueAxis *buildRightAxis();
    void attach(QAbstractSeries *series, const Axes &axes, bool onRight);
    /// Alternate epochs shaded over the full height, and their legend entry.
    void addBands(const Axes &axes, QStringList &legend);
    /// Every series (bands, scatter, lines) and their legend entries.
    void addSeries(const Axes &axes, QStringList &legend);

    QString m_xTitle;
    QString m_yTitle;
    QString m_rightTitle;
    QString m_bandName;
    bool m_logX = true;
    double m_xMin = 1.0;
    double m_xMax = 10.0;
    double m_yTop = 1.0;
    double m_cursor;
    std::vector<Band> m_bands;
    std::vector<Series> m_series;
};

/// A few named bars side by side on one value axis (PMWG's realised against worst-case privacy, its
/// error against the Laplace baseline).
class GrowingBarChart final : public ChartFrame
{
    Q_OBJECT
public:
    struct Bar
    {
        QString label;
        double value = 0.0;
        QColor colour;
    };

    explicit GrowingBarChart(QWidget *parent = nullptr);
    void setBars(const QString &title, const QString &yTitle, const std::vector<Bar> &bars);
    /// Draws nothing and shows `message` over the plot.
    void clear(const QString &message);
    /// The drawn value of the bar labelled `label` (NaN if none).
    double value(const QString &label) const;
    int barCount() const;
    /// The value axis' title (the unit drawn, e.g. "ρ"); empty when nothing is drawn.
    QString yTitle() const;
};

} // namespace pbx::ui
