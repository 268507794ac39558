// SPDX-License-Identifier: MIT
// A QDoubleSpinBox that shows values with significant digits ("1e-6", "0.0339", "5000") instead
// of a fixed number of decimals, and accepts scientific notation as input.
#pragma once

#include <QDoubleSpinBox>

namespace pbx::ui {

class ScientificSpinBox final : public QDoubleSpinBox
{
    Q_OBJECT
public:
    explicit ScientificSpinBox(QWidget *parent = nullptr);

    /// Arrow keys multiply/divide by `factor` (e.g. 10 for δ) instead of adding singleStep().
    void setMultiplicativeStep(double factor) { m_factor = factor; }
    double multiplicativeStep() const { return m_factor; }

    QString textFromValue(double value) const override;
    double valueFromText(const QString &text) const override;
    QValidator::State validate(QString &input, int &pos) const override;
    void fixup(QString &input) const override;
    void stepBy(int steps) override;

private:
    double m_factor = 0.0;
};

} // namespace pbx::ui
