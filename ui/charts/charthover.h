// SPDX-License-Identifier: MIT
// Hover a point on a chart to read its values: every ChartFrame installs one ChartHover on its
// view. Near a point of a visible, named series (line, scatter, the bounds of an area band, or
// inside a bar of a bar series) a tooltip names the series, gives the x and y values in the
// axes' number style, and, where the chart knows it, what the point belongs to (the privacy-loss
// path: the request and its description; see setPointLabel). Qt Charts stays inside ui/charts:
// this header only forward-declares its classes.
#pragma once

#include <QHash>
#include <QObject>
#include <QPoint>
#include <QPointF>
#include <QString>

#include <functional>
#include <optional>

QT_FORWARD_DECLARE_CLASS(QAbstractAxis)
QT_FORWARD_DECLARE_CLASS(QAbstractSeries)
QT_FORWARD_DECLARE_CLASS(QChartView)

namespace pbx::ui {

class ChartHover final : public QObject
{
    Q_OBJECT
public:
    /// What the pointer is on.
    struct Hit
    {
        const QAbstractSeries *series = nullptr; ///< the series hit (an area band, not its bounds)
        int index = -1;                          ///< the point's index in its series (bars: in the set)
        QPointF value;                           ///< in data coordinates (bars: category index, value)
        QString seriesName;    ///< plain text ("lower bound of …" for an area's lower edge)
        QString x;             ///< formatted as the x axis formats it
        QString y;             ///< formatted as the y axis formats it
        QString label;         ///< setPointLabel's text for the point; may be empty
        double distance = 0.0; ///< pixels from the pointer to the point (bars: 0)
    };

    /// Text describing what a point belongs to (plain text; empty for nothing), e.g. the request
    /// a point of the privacy-loss path stands for. `index` is the point's index in `series`.
    using PointLabel = std::function<QString(const QAbstractSeries *series, int index, QPointF value)>;
    /// A value as an axis shows it (for axes whose coordinates are not the value shown, e.g. a
    /// category axis over log10 of the scale).
    using AxisFormat = std::function<QString(double value)>;

    /// Pixels from a point within which the pointer is on it.
    static constexpr double hitRadius = 10.0;

    /// Installs the hover on `view` (mouse tracking on its viewport) and returns it; the view owns
    /// it. Called once by ChartFrame for every chart.
    static ChartHover *install(QChartView *view);
    /// The hover installed on `view`, or on the first chart view inside `widget`; nullptr if none.
    static ChartHover *of(const QWidget *widget);

    void setPointLabel(PointLabel label) { m_label = std::move(label); }
    void setAxisFormat(const QAbstractAxis *axis, AxisFormat format)
    {
        m_axisFormats.insert(axis, std::move(format));
    }
    /// Leaves `series` out (decorations: cursor lines, guides).
    void ignore(const QAbstractSeries *series) { m_ignored.insert(series, true); }

    /// The point nearest to `viewportPos` (pixels in the view's viewport) within hitRadius, if any.
    std::optional<Hit> hitAt(QPoint viewportPos) const;
    /// The tooltip's rich text for `hit`.
    QString tooltipText(const Hit &hit) const;
    /// The tooltip currently shown by the hover (rich text; empty when none).
    QString shownText() const { return m_shown; }

    /// `value` as `axis` labels it: the category's name on a bar-category axis, a whole number on
    /// an axis whose label format is an integer conversion ("%d"), otherwise formatNumber() with
    /// at least as many significant digits as the axis's "%.Ng" / "%.Nf" format shows (at least 4).
    QString formatValue(const QAbstractAxis *axis, double value) const;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    explicit ChartHover(QChartView *view);
    void showAt(QPoint viewportPos);
    void hide();

    QChartView *m_view = nullptr;
    PointLabel m_label;
    QHash<const QAbstractAxis *, AxisFormat> m_axisFormats;
    QHash<const QAbstractSeries *, bool> m_ignored;
    QString m_shown;
};

} // namespace pbx::ui
