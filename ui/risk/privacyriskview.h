// SPDX-License-Identifier: MIT
// View ▸ Privacy risk: what a session's (ε, δ) means for one person. The best membership test's
// true-positive rate against its false-positive rate (the (ε, δ) trade-off curve, with the pure ε
// curve and random guessing for comparison), and the largest posterior belief in membership for
// each prior, with one sentence for the prior the user picks. Formulas: docs/privacy-risk.md.
#pragma once

#include <QDialog>

QT_FORWARD_DECLARE_CLASS(QDoubleSpinBox)
QT_FORWARD_DECLARE_CLASS(QLabel)

namespace pbx::ui {

class ScientificSpinBox;
class UnitSquareChart;

class PrivacyRiskView final : public QDialog
{
    Q_OBJECT

public:
    explicit PrivacyRiskView(QWidget *parent = nullptr);

    /// Shows the risk of an (ε, δ) guarantee (ε ≥ 0, 0 ≤ δ < 1; other values are clamped by the
    /// fields and said so in the sentence).
    void setGuarantee(double epsilon, double delta);

    double epsilon() const;
    double delta() const;
    /// The sentence under the charts ("If you were 10 % sure …").
    QString sentence() const;
    /// Points of the (ε, δ) trade-off curve, the pure-ε curve and the posterior curve.
    int tradeoffPointCount() const;
    int posteriorPointCount() const;
    /// The adversary's best true-positive rate at `fpr` on the drawn (ε, δ) curve.
    double drawnTruePositiveRate(double fpr) const;

private:
    void createWidgets();
    void createLayout();
    /// 760×520 times presentation mode's font scale, within the screen.
    void fitToFonts();
    void recompute();

    ScientificSpinBox *m_epsilon = nullptr;
    ScientificSpinBox *m_delta = nullptr;
    QDoubleSpinBox *m_prior = nullptr;
    UnitSquareChart *m_tradeoffChart = nullptr;
    int m_tradeoff = -1; ///< curves of m_tradeoffChart
    int m_pure = -1;
    int m_guessing = -1;
    UnitSquareChart *m_posteriorChart = nullptr;
    int m_posterior = -1; ///< curves of m_posteriorChart
    int m_noChange = -1;
    QLabel *m_sentence = nullptr;
};

} // namespace pbx::ui
