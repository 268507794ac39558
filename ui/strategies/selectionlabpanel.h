// SPDX-License-Identifier: MIT
// Labs ▸ Strategies & inference ▸ Mode (selection): on a public dataset's categorical column, the
// exact probabilities with which the exponential mechanism and report-noisy-max pick each category
// as the mode, what a pick costs (ε; a zCDP filter's ε²/8 or ε²/2) and the count-gap bound
// (docs/selection.md). Simulation: the true counts are shown because the data is public.
#pragma once

#include "core/data/table.h"
#include "core/simulation/strategies_lab_result.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QTableWidget;

namespace pbx::ui {

class SelectionLabPanel : public QWidget
{
    Q_OBJECT

public:
    explicit SelectionLabPanel(QWidget *parent = nullptr);

    /// Offers the table's categorical columns with at least two declared categories.
    void setTable(const std::shared_ptr<const data::Table> &table);
    /// The configuration the Run button asks for (experiment "selection").
    strategies::LabConfig config() const;
    /// Shows a finished run: one row per category, one probability column per mechanism.
    void showResult(const strategies::SelectionLabResult &result);

    QTableWidget *table() const { return m_table; }
    QString summaryText() const;

Q_SIGNALS:
    void runRequested();

private:
    QComboBox *m_column = nullptr;
    QDoubleSpinBox *m_epsilon = nullptr;
    QComboBox *m_neighbours = nullptr;
    QTableWidget *m_table = nullptr;
    QLabel *m_summary = nullptr;
};

} // namespace pbx::ui
