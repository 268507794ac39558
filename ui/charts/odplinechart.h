// SPDX-License-Identifier: MIT
// A small line chart for the Output-DP lab: named curves over a shared x axis, optional markers,
// plain data in (the lab's computations live in core/odp).
#pragma once

#include "ui/charts/chartframe.h"

#include <QColor>
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
    };

    explicit OdpLineChart(QWidget *parent = nullptr);
    void setTitles(const QString &title, const QString &xTitle, const QString &yTitle);
    void setCurves(const std::vector<Curve> &curves);
    int curveCount() const;
    /// Number of points of curve `index`.
    int pointCount(int index) const;

private:
    QString m_xTitle;
    QString m_yTitle;
};

} // namespace pbx::ui
