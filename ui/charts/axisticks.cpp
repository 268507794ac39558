// SPDX-License-Identifier: MIT
#include "ui/charts/axisticks.h"

#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <vector>

namespace pbx::ui {

double niceStep(double raw)
{
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    for (double step : {1.0, 2.0, 2.5, 5.0, 10.0}) {
        if (step * power >= raw * (1 - 1e-12))
            return step * power;
    }
    return 10.0 * power;
}

double niceIntegerInterval(double range, int targetTicks)
{
    const double raw = std::max(1.0, range / std::max(1, targetTicks));
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    for (double step : {1.0, 2.0, 5.0, 10.0}) {
        if (step * power >= raw)
            return step * power;
    }
    return 10.0 * power;
}

void refreshLabelWidth(QValueAxis *axis)
{
    const QString format = axis->labelFormat();
    axis->setLabelFormat(QString());
    axis->setLabelFormat(format);
}

void setNiceRange(QValueAxis *axis, double max, int intervals)
{
    if (!(max > 0.0) || !std::isfinite(max))
        max = 1.0;
    const double step = niceStep(max / intervals);
    const int ticks = std::max(1, static_cast<int>(std::ceil(max / step - 1e-9)));
    axis->setTickCount(ticks + 1);
    axis->setRange(0.0, ticks * step);
    refreshLabelWidth(axis);
}

void setNiceTicks(QValueAxis *axis, double min, double max, int targetTicks)
{
    const double step = niceStep(std::max(max - min, 1e-12) / targetTicks);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0.0);
    // Interval before range: Qt 6.4 lays the ticks out again on a range change only.
    axis->setTickInterval(step);
    axis->setRange(min, max);
    refreshLabelWidth(axis);
}

void setIntegerTicks(QValueAxis *axis, double min, double max, int targetTicks, bool roundOut)
{
    if (!(max > min))
        max = min + 1.0;
    const double interval = niceIntegerInterval(max - min, targetTicks);
    if (roundOut) {
        min = std::floor(min / interval + 1e-9) * interval;
        max = std::ceil(max / interval - 1e-9) * interval;
    }
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0.0);
    // Interval before range: Qt 6.4 lays the ticks out again on a range change only.
    axis->setTickInterval(interval);
    axis->setRange(min, max);
    axis->setLabelFormat(QStringLiteral("%.0f"));
    refreshLabelWidth(axis);
}

bool wholeNumbers(const QList<double> &values)
{
    bool any = false;
    for (double v : values) {
        if (!std::isfinite(v))
            continue;
        if (v != std::floor(v))
            return false;
        any = true;
    }
    return any;
}

bool wholeTicks(const QList<double> &values)
{
    if (values.isEmpty())
        return false;
    for (double v : values) {
        // Ticks min + i·step carry the step's round-off: whole within 1e-9 of the value.
        const double nearest = std::round(v);
        if (!std::isfinite(v) || std::abs(v - nearest) > 1e-9 * std::max(1.0, std::abs(v))
            || std::abs(nearest) >= 1e7)
            return false;
    }
    return true;
}

QList<double> tickValues(const QValueAxis *axis)
{
    QList<double> values;
    const double min = axis->min(), max = axis->max();
    if (!(max > min) || !std::isfinite(min) || !std::isfinite(max))
        return values;
    if (axis->tickType() == QValueAxis::TicksDynamic) {
        const double interval = axis->tickInterval();
        if (!(interval > 0.0))
            return values;
        const double anchor = axis->tickAnchor();
        const double first = anchor + std::ceil((min - anchor) / interval - 1e-9) * interval;
        for (double v = first; v <= max + interval * 1e-9 && values.size() < 1000; v += interval)
            values << v;
        return values;
    }
    const int count = std::max(2, axis->tickCount());
    for (int i = 0; i < count; ++i)
        values << min + i * (max - min) / (count - 1);
    return values;
}

namespace {

bool integerFormat(const QString &format)
{
    const qsizetype percent = format.indexOf(u'%');
    if (percent < 0)
        return false;
    for (qsizetype i = percent + 1; i < format.size(); ++i) {
        const QChar c = format.at(i);
        if (c.isLetter())
            return c == u'd' || c == u'i';
    }
    return false;
}

/// Decimals Qt's default (empty) format shows for ticks `step` apart.
int defaultDecimals(double step)
{
    return step > 0.0 ? std::max(static_cast<int>(-std::floor(std::log10(step))), 0) + 1 : 2;
}

/// Decimals a fixed format needs so ticks `step` apart read distinctly (2.5 × 10^k needs one more).
int fixedDecimals(double step)
{
    if (!(step > 0.0))
        return 0;
    int decimals = std::max(0, static_cast<int>(std::ceil(-std::log10(step) - 1e-9)));
    const double scaled = step * std::pow(10.0, decimals);
    if (std::abs(scaled - std::round(scaled)) > 1e-6 * scaled)
        ++decimals;
    return std::min(decimals, 12);
}

QStringList labelsFor(const QString &format, const QList<double> &values)
{
    QStringList labels;
    if (format.isEmpty()) {
        const int decimals = values.size() > 1 ? defaultDecimals(values[1] - values[0]) : 2;
        for (double v : values)
            labels << QString::number(v, 'f', decimals);
        return labels;
    }
    for (double v : values)
        labels << tickLabel(format, v);
    return labels;
}

bool distinct(const QStringList &labels)
{
    return std::set<QString>(labels.begin(), labels.end()).size() == static_cast<std::size_t>(labels.size());
}

double widest(const QStringList &labels, const QFontMetricsF &metrics)
{
    double width = 0.0;
    for (const QString &label : labels)
        width = std::max(width, metrics.horizontalAdvance(label));
    return width;
}

} // namespace

QString tickLabel(const QString &format, double value)
{
    const QByteArray latin = format.toLatin1();
    if (integerFormat(format))
        return QString::asprintf(latin.constData(), static_cast<qint64>(value));
    return QString::asprintf(latin.constData(), value);
}

TickFit fitTicks(const QValueAxis *axis, const TickFit &preferred, const AxisRoom &room)
{
    TickFit best = preferred;
    best.fits = false;
    const double min = axis->min(), max = axis->max();
    if (!(max > min) || !(room.length > 0.0))
        return best;
    const bool dynamic = axis->tickType() == QValueAxis::TicksDynamic;
    // Qt pads each label's text by its document margin (4 px a side); labels need a gap.
    const double gap = 12.0;
    const double lineHeight = room.metrics.height() * 1.3;

    // Tick plans from the chart's own down to two ticks: fixed counts whose intervals are a
    // multiple of the preferred one, or dynamic intervals 1, 2, 5, 10, … times it.
    struct Plan
    {
        int count;
        double interval;
    };
    std::vector<Plan> plans;
    if (dynamic) {
        for (double factor : {1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0})
            if (factor == 1.0 || preferred.interval * factor <= (max - min) * 1.000001)
                plans.push_back({0, preferred.interval * factor});
    } else {
        const int intervals = std::max(1, preferred.tickCount - 1);
        for (int k = intervals; k >= 1; --k)
            if (intervals % k == 0)
                plans.push_back({k + 1, 0.0});
    }

    for (const Plan &plan : plans) {
        QList<double> values;
        double step = 0.0;
        if (dynamic) {
            step = plan.interval;
            const double anchor = axis->tickAnchor();
            const double first = anchor + std::ceil((min - anchor) / step - 1e-9) * step;
            for (double v = first; v <= max + step * 1e-9 && values.size() < 1000; v += step)
                values << v;
        } else {
            step = (max - min) / (plan.count - 1);
            for (int i = 0; i < plan.count; ++i)
                values << min + i * step;
        }
        const double spacing = room.length * step / (max - min);
        const int decimals = fixedDecimals(step);
        QStringList formats{preferred.format,       QStringLiteral("%.3g"),
                            QStringLiteral("%.2g"), QStringLiteral("%.%1f").arg(decimals),
                            QStringLiteral("%.1e"), QStringLiteral("%.0e")};
        // An integer axis keeps integer labels; whole ticks read as integers ("25", not "25.0";
        // "8000", not "8e+03").
        if (integerFormat(preferred.format))
            formats = {preferred.format};
        else if (wholeTicks(values))
            formats = {QStringLiteral("%.0f")};
        for (const QString &format : std::as_const(formats)) {
            const QStringList labels = labelsFor(format, values);
            if (format != preferred.format && !distinct(labels))
                continue;
            const double width = widest(labels, room.metrics);
            const bool fits = room.orientation == Qt::Horizontal
                                  ? width + gap <= spacing || values.size() <= 1
                                  : width <= room.labelWidth && (lineHeight <= spacing || values.size() <= 1);
            TickFit candidate{format, plan.count, plan.interval, fits};
            if (fits)
                return candidate;
        }
        // Nothing fits with this plan: remember the sparsest plan's shortest format as the fallback.
        double shortest = std::numeric_limits<double>::infinity();
        for (const QString &format : std::as_const(formats)) {
            const QStringList labels = labelsFor(format, values);
            if (format != preferred.format && !distinct(labels))
                continue;
            const double width = widest(labels, room.metrics);
            if (width < shortest) {
                shortest = width;
                best = TickFit{format, plan.count, plan.interval, false};
            }
        }
    }
    return best;
}

} // namespace pbx::ui
