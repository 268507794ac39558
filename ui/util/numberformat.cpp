// SPDX-License-Identifier: MIT
#include "ui/util/numberformat.h"

#include <QLocale>

#include <algorithm>
#include <cmath>

namespace pbx::ui {

namespace {

QString stripTrailingZeros(QString text, QChar decimalPoint)
{
    if (!text.contains(decimalPoint))
        return text;
    qsizetype end = text.size();
    while (end > 0 && text.at(end - 1) == u'0')
        --end;
    if (end > 0 && text.at(end - 1) == decimalPoint)
        --end;
    text.truncate(end);
    return text;
}

QString scientific(double value, int significant)
{
    // "1.500000e-07" → "1.5e-7"
    QString text = QString::number(value, 'e', std::max(0, significant - 1));
    const qsizetype e = text.indexOf(u'e');
    QString mantissa = stripTrailingZeros(text.left(e), u'.');
    QString exponent = text.mid(e + 1);
    QChar sign = exponent.at(0);
    exponent.remove(0, 1);
    while (exponent.size() > 1 && exponent.at(0) == u'0')
        exponent.remove(0, 1);
    return mantissa + u'e' + (sign == u'-' ? QStringLiteral("-") : QString()) + exponent;
}

QString format(double value, int significant, bool grouped)
{
    if (std::isnan(value))
        return QStringLiteral("NaN");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("∞") : QStringLiteral("−∞");
    if (value == 0.0)
        return QStringLiteral("0");
    significant = std::clamp(significant, 1, 17);
    const double magnitude = std::fabs(value);
    if (magnitude < 1e-4 || magnitude >= 1e9)
        return scientific(value, significant);
    const int exponent = static_cast<int>(std::floor(std::log10(magnitude)));
    const int decimals = std::max(0, significant - 1 - exponent);
    if (grouped) {
        static const QLocale locale(QLocale::English, QLocale::UnitedStates);
        return stripTrailingZeros(locale.toString(value, 'f', decimals), locale.decimalPoint().at(0));
    }
    return stripTrailingZeros(QString::number(value, 'f', decimals), u'.');
}

} // namespace

QString formatNumber(double value, int significant)
{
    return format(value, significant, true);
}

QString formatPlain(double value, int significant)
{
    return format(value, significant, false);
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
