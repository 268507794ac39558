// SPDX-License-Identifier: MIT
// Number and text formatting shared by every view, so the ledger, the result card, the gauge and
// the chart print the same value the same way.
#pragma once

#include <QString>

#include <string>
#include <string_view>

namespace pbx::ui {

/// `value` with `significant` significant digits: plain notation with thousands separators for
/// 1e-4 ≤ |v| < 1e9 ("28,155", "0.03386"), scientific otherwise ("1e-6", "2.5e10"); trailing
/// zeros dropped; "∞" for infinities.
QString formatNumber(double value, int significant = 4);

/// Like formatNumber but without thousands separators, for editable fields and file names.
QString formatPlain(double value, int significant = 6);

/// A count with its noun in the right number: "1 request", "0 requests", "10,000 requests"
/// (thousands separators as formatNumber). Pass translated nouns (tr("request"), tr("requests")).
QString formatCount(qint64 count, const QString &singular, const QString &plural);

/// A fraction (0.374) as a percentage ("37.4 %") with `decimals` decimals, more (up to three more)
/// when rounding would show a fraction below 1 as "100 %" or one above 0 as "0 %"; beyond that
/// "> 99.999 %" / "< 0.001 %".
QString formatPercent(double fraction, int decimals = 1);

/// A confidence level (0.95) as "95 %": four significant digits, more when fewer would round a
/// level below 1 up to "100 %" (0.99999 → "99.999 %").
QString formatConfidence(double confidence);

inline QString toQString(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

inline std::string toStdString(const QString &text)
{
    return text.toStdString();
}

} // namespace pbx::ui
