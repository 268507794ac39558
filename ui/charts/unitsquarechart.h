// SPDX-License-Identifier: MIT
// Named curves on the unit square [0, 1]² with the legend below: the privacy-risk view's
// membership-test trade-off and posterior-belief charts. Plain points in; each curve is a series
// created once by addCurve() and redrawn by setPoints().
#pragma once

#include "ui/charts/chartframe.h"

#include <QColor>
#include <QList>
#include <QPointF>
#include <QString>

QT_FORWARD_DECLARE_CLASS(QLineSeries)

namespace pbx::ui {

class UnitSquareChart final : public ChartFrame
{
    Q_OBJECT
public:
    UnitSquareChart(const QString &title, const QString &xTitle, const QString &yTitle,
                    QWidget *parent = nullptr);

    /// Adds a curve named `name` (legend), solid lines drawn heavier; returns its index for
    /// setPoints() and the accessors.
    int addCurve(const QString &name, const QColor &colour, Qt::PenStyle style);
    /// Replaces curve `curve`'s points (x, y in [0, 1]; points outside are clipped by the axes).
    void setPoints(int curve, const QList<QPointF> &points);
    /// Points of curve `curve` currently drawn (0 for an unknown index).
    int pointCount(int curve) const;
    /// Point `i` of curve `curve` (0 ≤ i < pointCount(curve)).
    QPointF point(int curve, int i) const;

private:
    QList<QLineSeries *> m_series;
    QStringList m_legend; ///< the wrapping legend's entries, one per curve
};

} // namespace pbx::ui
