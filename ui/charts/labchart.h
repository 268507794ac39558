// SPDX-License-Identifier: MIT
// The relative-error lab's chart: counts answered against budget spent, one named curve per
// method × filter (both axes averaged over repetitions, after each query), with the spread over
// repetitions as a ±1 sd error bar on each curve's final point. Plain data in; the series are
// created once per curve slot and updated with replace(); updates coalesce on the ChartFrame's
// timer.
#pragma once

#include "ui/charts/chartframe.h"

#include <QColor>
#include <QString>
#include <QStringList>

#include <span>
#include <vector>

QT_FORWARD_DECLARE_CLASS(QLineSeries)
QT_FORWARD_DECLARE_CLASS(QValueAxis)

namespace pbx::ui {

class LabChart final : public ChartFrame
{
    Q_OBJECT
public:
    struct Curve
    {
        QString name; ///< "Brownian NR · brownian-zCDP"
        QColor colour;
        Qt::PenStyle style = Qt::SolidLine;
        std::vector<double> epsilon;  ///< x: ε spent after each query
        std::vector<double> answered; ///< y: counts answered after each query
        double finalSd = 0.0;         ///< spread of the final count over repetitions
    };

    explicit LabChart(QWidget *parent = nullptr);
    ~LabChart() override;

    void setCurves(std::span<const Curve> curves);
    void clear();

    /// Curves currently drawn (with points).
    int curveCount() const;
    QStringList curveNames() const;
    /// Points of curve `index` currently drawn.
    int pointCount(int index) const;
    int errorBarCount() const;

protected:
    void rebuild() override;

private:
    QValueAxis *m_axisX = nullptr;
    QValueAxis *m_axisY = nullptr;
    QList<QLineSeries *> m_series; ///< created on first need, then reused
    std::vector<Curve> m_curves;
};

} // namespace pbx::ui
