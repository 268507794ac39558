// SPDX-License-Identifier: MIT
// Inside one request: the released estimate at each noise level, noisiest first (x = the level's
// noise scale σ or b on a reversed log scale, so noise shrinks to the right; the axis is a
// category axis over log10(scale) so its labels are round scales, not only powers of ten), with its error bar
// (± half-width), the acceptance threshold w(1+α)/α for a relative target (docs/accuracy-first.md
// §5.2), and the stopping level highlighted. Only released values and public scales are plotted:
// never the true answer (§6.1 rule 2). Built once; updates replace() the points and are coalesced
// by the ChartFrame's timer.
#pragma once

#include "ui/charts/chartframe.h"

#include <QPointF>
#include <QString>
#include <QStringList>

#include <optional>
#include <span>
#include <vector>

QT_FORWARD_DECLARE_CLASS(QLineSeries)
QT_FORWARD_DECLARE_CLASS(QScatterSeries)
QT_FORWARD_DECLARE_CLASS(QCategoryAxis)
QT_FORWARD_DECLARE_CLASS(QValueAxis)

namespace pbx::ui {

class NoiseReductionChart final : public ChartFrame
{
    Q_OBJECT
public:
    /// One released level.
    struct Level
    {
        double scale = 0.0;     ///< noise scale of the level (σ or b), > 0
        double estimate = 0.0;  ///< the released estimate
        double halfWidth = 0.0; ///< its error bound (+∞: none)
        bool accepted = false;  ///< it proved the target
    };

    explicit NoiseReductionChart(QWidget *parent = nullptr);
    ~NoiseReductionChart() override;

    /// The levels in release order (noisiest first); the last one is where the mechanism
    /// stopped. `scaleName` labels the x axis ("σ" or "b"); `relativeAlpha` set: draw the
    /// acceptance threshold w(1+α)/α of a relative target. `absoluteTarget` set: the target's
    /// ±a, named in the legend (the check is on the half-width, not on the estimate).
    void setLevels(std::span<const Level> levels, const QString &scaleName,
                   std::optional<double> relativeAlpha, std::optional<double> absoluteTarget = {});
    void clear();

    /// Points currently drawn (lags setLevels by one coalescing interval; see flush()).
    int pointCount() const;
    /// Error bars currently drawn.
    int errorBarCount() const;
    /// Threshold points currently drawn (0 without a relative target).
    int thresholdPointCount() const;
    /// The highlighted stopping point (x = scale, y = estimate); nullopt when none is drawn.
    std::optional<QPointF> stopPoint() const;
    /// The names of the visible series.
    QStringList seriesNames() const;

protected:
    void rebuild() override;
    /// The x axis' labelled scales for the plot's current width (placeTicks).
    void placeTicks();

private:
    QLineSeries *m_estimateSeries = nullptr;
    QLineSeries *m_thresholdSeries = nullptr;
    QScatterSeries *m_stopSeries = nullptr;
    QCategoryAxis *m_axisX = nullptr;
    QValueAxis *m_axisY = nullptr;

    std::vector<Level> m_levels;
    QString m_scaleName = QStringLiteral("σ");
    std::optional<double> m_alpha;
    std::optional<double> m_absoluteTarget;
    std::optional<QPointF> m_stopPoint;             ///< as drawn: (scale, estimate)
    static constexpr double kStopMarkerSize = 13.0; ///< px, the stopping level's marker
    double m_dataLogMin = 0.0, m_dataLogMax = 1.0;  ///< log10 of the extreme levels' scales
    double m_logMin = 0.0, m_logMax = 1.0;          ///< the x axis' range, log10 of the noise scale
    QList<double> m_ticks;                          ///< the noise scales labelled on the x axis
};

} // namespace pbx::ui
