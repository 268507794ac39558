// SPDX-License-Identifier: MIT
// A small line chart for the Output-DP lab: named curves over a shared x axis, optional markers,
// plain data in (the lab's computations live in core/odp).
#pragma once

#include "ui/charts/chartframe.h"

#include <QColor>
#include <QPointF>
#include <QString>

#include <vector>

namespace pbx::ui {

class OdpLineChart final : public ChartFrame
{
    Q_OBJECT
public:
    struct Curve
    {
        QString name;
        QColor colour;
        Qt::PenStyle style = Qt::SolidLine;
        std::vector<double> x;
        std::vector<double> y;
        bool markers = false;
        bool scatter = false;    ///< points only (e.g. ⊤/⊥ marks), no line
        double markerSize = 9.0; ///< scatter only, in pixels
        bool rightAxis = false;  ///< against the secondary (right) axis, a probability in [0, 1]
    };

    explicit OdpLineChart(QWidget *parent = nullptr);
    void setTitles(const QString &title, const QString &xTitle, const QString &yTitle);
    /// Title of the secondary axis (right, fixed at 0 … 1) used by curves with rightAxis.
    void setSecondaryTitle(const QString &title) { m_y2Title = title; }
    void setCurves(const std::vector<Curve> &curves);
    /// What the chart says while it has nothing to draw (before its first curves, or when they
    /// have no finite point), e.g. "Nothing to draw yet: press Compute."
    void setEmptyMessage(const QString &whatToDo);
    /// Fixes the y range of the next setCurves() (a probability: 0 … 1) instead of a nice range
    /// around the data; the x range then also stays at the data's.
    void setFixedYRange(double min, double max);
    int curveCount() const;
    /// Number of points of curve `index`.
    int pointCount(int index) const;
    /// Point `point` of curve `index` as drawn ((NaN, NaN) when out of range).
    QPointF point(int index, int point) const;
    /// The name of curve `index` as shown in the legend.
    QString curveName(int index) const;

private:
    QString m_xTitle;
    QString m_yTitle;
    QString m_y2Title;
    QString m_empty;
    bool m_fixedY = false;
    double m_yMin = 0.0;
    double m_yMax = 1.0;
};

} // namespace pbx::ui
