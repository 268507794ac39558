// SPDX-License-Identifier: MIT
#include "ui/charts/axisticks.h"

#include <QValueAxis>

#include <algorithm>
#include <cmath>

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

} // namespace pbx::ui
