// SPDX-License-Identifier: MIT
#include "ui/widgets/scientificspinbox.h"

#include "ui/util/numberformat.h"

#include <QRegularExpression>

#include <cmath>

namespace pbx::ui {

namespace {

QString stripAffixes(const QString &text, const QString &prefix, const QString &suffix)
{
    QString body = text;
    if (!prefix.isEmpty() && body.startsWith(prefix))
        body.remove(0, prefix.size());
    if (!suffix.isEmpty() && body.endsWith(suffix))
        body.chop(suffix.size());
    return body.trimmed();
}

} // namespace

ScientificSpinBox::ScientificSpinBox(QWidget *parent) : QDoubleSpinBox(parent)
{
    // Decimals only bound the internal rounding; the text comes from textFromValue().
    setDecimals(30);
    setKeyboardTracking(false);
    setAccelerated(true);
    setCorrectionMode(QAbstractSpinBox::CorrectToNearestValue);
}

QString ScientificSpinBox::textFromValue(double value) const
{
    return formatPlain(value, 6);
}

double ScientificSpinBox::valueFromText(const QString &text) const
{
    bool ok = false;
    const double value = stripAffixes(text, prefix(), suffix()).toDouble(&ok);
    return ok ? value : this->value();
}

QValidator::State ScientificSpinBox::validate(QString &input, int &pos) const
{
    Q_UNUSED(pos);
    const QString body = stripAffixes(input, prefix(), suffix());
    if (body.isEmpty())
        return QValidator::Intermediate;
    static const QRegularExpression partial(QStringLiteral("^[+-]?(\\d+\\.?\\d*|\\.\\d*)?([eE][+-]?\\d*)?$"));
    if (!partial.match(body).hasMatch())
        return QValidator::Invalid;
    bool ok = false;
    const double value = body.toDouble(&ok);
    if (!ok || !std::isfinite(value))
        return QValidator::Intermediate;
    if (value < minimum() || value > maximum())
        return QValidator::Intermediate;
    return QValidator::Acceptable;
}

void ScientificSpinBox::fixup(QString &input) const
{
    bool ok = false;
    const double value = stripAffixes(input, prefix(), suffix()).toDouble(&ok);
    if (ok && std::isfinite(value))
        input = prefix() + textFromValue(std::clamp(value, minimum(), maximum())) + suffix();
}

void ScientificSpinBox::stepBy(int steps)
{
    if (m_factor <= 1.0) {
        QDoubleSpinBox::stepBy(steps);
        return;
    }
    double current = value();
    if (current <= 0.0)
        current = std::max(minimum(), singleStep());
    setValue(std::clamp(current * std::pow(m_factor, steps), minimum(), maximum()));
    selectAll();
}

} // namespace pbx::ui
