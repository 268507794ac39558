// SPDX-License-Identifier: MIT
// Charts of the strategies & inference layer: a histogram as bars with error bars (a released
// histogram, or any labelled values with intervals), and named curves over a common x (predicted
// error by range length, the exponential mechanism's probabilities, the smooth-sensitivity curve).
#pragma once

#include "ui/charts/chartframe.h"

#include <QColor>
#include <QString>
#include <QStringList>

#include <vector>

QT_FORWARD_DECLARE_CLASS(QBarCategoryAxis)

namespace pbx::ui {

class BarErrorChart final : public ChartFrame
{
    Q_OBJECT
public:
    /// `whatToDo`: shown until the first bars are drawn (e.g. "Nothing to draw yet: press Run.").
    explicit BarErrorChart(QWidget *parent = nullptr,
                           const QString &whatToDo = tr("Nothing to draw yet: press the button above to run "
                                                        "this experiment."));
    /// One bar per label with the interval [low_i, high_i] drawn over it (empty lows: no bars).
    void setBars(const QString &title, const QStringList &labels, const std::vector<double> &values,
                 const std::vector<double> &lows, const std::vector<double> &highs,
                 const QString &valueTitle);
    int barCount() const { return m_bars; }
    int errorBarCount() const;

private:
    /// Fits the category labels to the plot's width: horizontal when the widest fits its slot,
    /// else rotated upright, and when even the rotated labels' line height exceeds a slot only
    /// every k-th label is shown, so no label is elided or overlaps its neighbour.
    void fitLabels();

    QStringList m_labels;
    QBarCategoryAxis *m_categoryAxis = nullptr;
    int m_labelStride = 0; ///< 1: all labels; 0: not yet fitted
    bool m_labelsRotated = false;
    int m_bars = 0;
};

class CurvesChart final : public ChartFrame
{
    Q_OBJECT
public:
    /// How a markers curve draws its points. Curves whose points may coincide (a run's error
    /// before and after a projection that moved nothing) take different shapes and sizes: a ring
    /// and a diamond are hollow, so a smaller marker at the same place shows inside them.
    enum class Marker { Dot, Ring, Diamond };
    struct Curve
    {
        QString name;
        std::vector<double> x;
        std::vector<double> y;
        bool markers = false; ///< points instead of a line
        Marker marker = Marker::Dot;
        double markerSize = 6.0; ///< pixels (presentation mode scales it)
        /// Dot: the theme's white rim around each dot (it separates dots that overlap); off, a
        /// plain dot in the curve's colour, e.g. dots drawn over a wider line (the rims of 255
        /// dots left a white halo and a speck of colour each).
        bool rim = true;
        /// A line's pen: curves that may coincide (the first run's true values and their
        /// projection) take a wide solid line under a narrow dashed one, so both stay visible
        /// where they meet. Width 0: the theme's pen.
        Qt::PenStyle lineStyle = Qt::SolidLine;
        double lineWidth = 0.0; ///< pixels (presentation mode scales it)
        /// Index of an earlier curve this one measures (e.g. markers over a predicted line): drawn
        /// in that curve's colour and named by its legend entry ("━● name"); -1: its own entry.
        int pairedWith = -1;
    };
    explicit CurvesChart(QWidget *parent = nullptr);
    /// Replaces the curves (named in a legend below the plot that wraps instead of truncating); `logY` plots
    /// log10 of positive values on a linear axis (non-positive points skipped).
    void setCurves(const QString &title, const std::vector<Curve> &curves, const QString &xTitle,
                   const QString &yTitle, bool logY = false);
    int curveCount() const { return m_curves; }
    /// Removes the curves and shows `whatToDo` in their place (e.g. while new ones are computed).
    void clear(const QString &whatToDo);
    /// The colour curve `index` is drawn in (its line, or its markers' fill or outline).
    QColor curveColour(int index) const;

private:
    int m_curves = 0;
    std::vector<QColor> m_colours;
};

} // namespace pbx::ui
