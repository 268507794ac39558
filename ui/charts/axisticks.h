// SPDX-License-Identifier: MIT
// Nice axis ranges and ticks shared by every chart (1, 2, 2.5, 5 × 10^k steps).
#pragma once

#include <QFont>
#include <QFontMetricsF>
#include <QList>
#include <QString>

class QValueAxis;

namespace pbx::ui {

/// The smallest of 1, 2, 2.5, 5 × 10^k that is ≥ `raw` (raw > 0).
double niceStep(double raw);

/// 1, 2 or 5 × 10^k, at least 1, so that about `targetTicks` ticks cover `range` (integer axes:
/// steps, requests).
double niceIntegerInterval(double range, int targetTicks);

/// Qt 6.4 caches a value axis's label width across range changes, eliding new labels to "0.0…";
/// re-setting the label format makes it measure them again.
void refreshLabelWidth(QValueAxis *axis);

/// The axis from 0 to the first nice multiple ≥ `max`, with about `intervals` intervals
/// (applyNiceNumbers() tends to overshoot by half the range). A non-positive max becomes 1.
void setNiceRange(QValueAxis *axis, double max, int intervals = 5);

/// Dynamic ticks every nice step, anchored at 0, over [min, max] (a signed value axis).
void setNiceTicks(QValueAxis *axis, double min, double max, int targetTicks);

/// The axis of an integer quantity (requests, steps, rows, entries, range lengths, counts) over
/// [min, max] (which may reach a little past whole numbers, e.g. to keep end markers whole):
/// dynamic ticks every 1, 2 or 5 × 10^k, at least 1 (niceIntegerInterval), anchored at 0 and
/// labelled "%.0f" — never a fractional step ("0.5"), a decimal ("25.0") or an exponent
/// ("8e+03"). fitTicks only thins such ticks to multiples of the interval.
/// With `roundOut` the range itself is widened to the nearest ticks outside it (as setNiceRange
/// does for a real quantity).
void setIntegerTicks(QValueAxis *axis, double min, double max, int targetTicks, bool roundOut = false);

/// True when every finite value is a whole number (and there is at least one): the data of an
/// integer quantity, for setIntegerTicks.
bool wholeNumbers(const QList<double> &values);

/// True when every tick value is a whole number of at most 7 digits: such ticks are labelled as
/// integers ("25", "8000"), whatever the chart's own format (fitTicks).
bool wholeTicks(const QList<double> &values);

/// The tick values Qt 6.4 labels on `axis` (fixed: tickCount values from min to max; dynamic:
/// every tickInterval from tickAnchor inside the range). Empty for an empty range.
QList<double> tickValues(const QValueAxis *axis);

/// The text Qt Charts draws for `value` with the printf `format` (integer conversions %d and %i
/// take the value truncated to an integer, as Qt does); an empty format is Qt's default "%.2f"-like
/// fixed notation with as many decimals as the tick step needs.
QString tickLabel(const QString &format, double value);

/// Room a value axis's tick labels have: `length` is the axis' pixel length (the plot's width for
/// a horizontal axis, its height for a vertical one); a vertical axis' labels are at most
/// `labelWidth` pixels wide (the share of the chart's width Qt Charts gives the axis, less its
/// title). `metrics` are the labels' font metrics.
struct AxisRoom
{
    Qt::Orientation orientation = Qt::Horizontal;
    double length = 0.0;
    double labelWidth = 0.0;
    QFontMetricsF metrics{QFont()};
};

/// What fitTicks chose: the label format and the ticks (fixed: `tickCount`; dynamic: `interval`).
struct TickFit
{
    QString format;
    int tickCount = 0;
    double interval = 0.0;
    /// True when every label fits its room; false when even the sparsest, shortest choice does
    /// not (the best one is still returned).
    bool fits = false;
};

/// The one mechanism every chart's value axes go through (ChartFrame calls it
/// after each layout): picks the densest ticks, no denser than the chart asked for (`preferred`),
/// and the most precise format — the chart's own `preferred.format`, then %.3g, %.2g, fixed
/// decimals for the step, scientific %.1e, %.0e — whose labels are distinct and fit `room`;
/// ticks that are all whole numbers (wholeTicks) are labelled "%.0f" only, fewer of them rather
/// than "25.0" or "8e+03";
/// horizontally each label (plus a gap) within the spacing of the ticks; vertically each label
/// within room.labelWidth and the line height within the spacing. Fixed ticks are thinned to a
/// subset (tickCount − 1 divisible by the new count − 1), dynamic ones to a multiple of the
/// interval, so the remaining ticks keep their places. Reads `axis`'s range and tick type only.
TickFit fitTicks(const QValueAxis *axis, const TickFit &preferred, const AxisRoom &room);

} // namespace pbx::ui
