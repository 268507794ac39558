// SPDX-License-Identifier: MIT
// The flow of the two-discretisation propose-test-release mechanism (Hartmann, Bindschaedler,
// Bentkamp & West 2023, Lemma 10; docs/output-dp.md §4.3): M₁'s test, on ⊥ M₂'s test, and the
// three cases it ends in, each with its cost under several accountings. The realised path is
// highlighted. Plain data in; painted with QPainter (no Qt Charts).
#pragma once

#include <QStringList>
#include <QWidget>

namespace pbx::ui {

class PtrFlowDiagram final : public QWidget
{
    Q_OBJECT
public:
    explicit PtrFlowDiagram(QWidget *parent = nullptr);

    /// `costs[k]`: the lines shown in case k + 1's box (e.g. "Lemma 10: 3ε"), k = 0, 1, 2.
    /// `realised`: the case the run ended in (0, 1 or 2), −1 for none.
    void setCases(const QStringList costs[3], int realised);

    int realisedCase() const { return m_realised; }
    /// The lines of case k's box (k = 0, 1, 2), empty when out of range.
    QStringList caseLines(int k) const;

    QSize sizeHint() const override { return {380, 320}; }
    QSize minimumSizeHint() const override { return {330, 300}; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QStringList m_costs[3];
    int m_realised = -1;
};

} // namespace pbx::ui
