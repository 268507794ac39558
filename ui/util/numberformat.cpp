// SPDX-License-Identifier: MIT
#include "ui/util/numberformat.h"

#include "core/util/number_format.h"

#include <algorithm>
#include <cmath>

namespace pbx::ui {

QString formatNumber(double value, int significant)
{
    return toQString(formatDisplay(value, Rounding::Nearest, significant, true));
}

QString formatPlain(double value, int significant)
{
    return toQString(formatDisplay(value, Rounding::Nearest, significant, false));
}

QString formatPercent(double fraction, int decimals)
{
    // Rounding must not change meaning: 99.96 % is not "100 %", and 0.04 % is not "0 %". Add up to
    // three decimals; beyond that, say "> 99.999 %" / "< 0.001 %".
    const double percent = fraction * 100.0;
    const auto roundsAway = [&](const QString &text) {
        const double shown = text.toDouble();
        return (fraction < 1.0 && shown >= 100.0) || (fraction > 0.0 && shown <= 0.0);
    };
    for (int d = std::max(decimals, 0); d <= std::max(decimals, 0) + 3; ++d) {
        const QString text = QString::number(percent, 'f', d);
        if (!roundsAway(text) || !std::isfinite(percent))
            return QStringLiteral("%1 %").arg(text);
    }
    const int d = std::max(decimals, 0) + 3;
    const double step = std::pow(10.0, -d);
    return fraction > 0.5 ? QStringLiteral("> %1 %").arg(QString::number(100.0 - step, 'f', d))
                          : QStringLiteral("< %1 %").arg(QString::number(step, 'f', d));
}

QString formatConfidence(double confidence)
{
    // Four significant digits, more when they would round 99.999 % up to "100 %".
    for (int significant = 4; significant <= 9; ++significant) {
        const QString text = formatPlain(confidence * 100.0, significant);
        if (confidence >= 1.0 || text.toDouble() < 100.0)
            return text + QStringLiteral(" %");
    }
    return QStringLiteral("> 99.9999999 %");
}

QString formatCount(qint64 count, const QString &singular, const QString &plural)
{
    return formatNumber(static_cast<double>(count), 17) + u' ' + (count == 1 ? singular : plural);
}

} // namespace pbx::ui
