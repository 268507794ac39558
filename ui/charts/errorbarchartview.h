// SPDX-License-Identifier: MIT
// A QChartView that draws vertical error bars over its chart: Qt Charts has no error-bar series.
// Bars are given in data coordinates of one series (so log axes work) and painted in the view's
// foreground, clipped to the plot area; a bar cut by the plot edge loses its cap on that side.
#pragma once

#include <QChartView>
#include <QColor>
#include <QList>

QT_FORWARD_DECLARE_CLASS(QAbstractSeries)

namespace pbx::ui {

class ErrorBarChartView final : public QChartView
{
    Q_OBJECT
public:
    struct Bar
    {
        double x = 0.0;
        double low = 0.0;
        double high = 0.0;
        QColor colour;
        QAbstractSeries *series = nullptr; ///< whose axes map the bar
        double width = 1.4;                ///< pen width
        double offset = 0.0;               ///< horizontal shift in pixels (bars at one x)
    };

    explicit ErrorBarChartView(QChart *chart, QWidget *parent = nullptr);

    void setBars(QList<Bar> bars);
    int barCount() const { return static_cast<int>(m_bars.size()); }
    const QList<Bar> &bars() const { return m_bars; }

protected:
    void drawForeground(QPainter *painter, const QRectF &rect) override;

private:
    QList<Bar> m_bars;
};

} // namespace pbx::ui
