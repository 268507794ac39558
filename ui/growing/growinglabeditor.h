// SPDX-License-Identifier: MIT
// The growing-database lab's schedule editor: the algorithm, the stream (dataset, start size n,
// horizon, arrival order), the schedule (γ with the optimal γ*, or the decay a), the budget (ε, ρ or
// (ε, δ) via zCDP), β, each algorithm's own fields and the Monte Carlo's repetitions and seed. It
// shows only the chosen algorithm's rows, keeps the schedule in the budget's unit, and writes its
// input as a "pbx-growing-lab" document (docs/growing-databases.md) for the core to read; the core
// decides what is valid.
#pragma once

#include "core/io/json_fields.h"

#include <QWidget>

QT_FORWARD_DECLARE_CLASS(QCheckBox)
QT_FORWARD_DECLARE_CLASS(QComboBox)
QT_FORWARD_DECLARE_CLASS(QDoubleSpinBox)
QT_FORWARD_DECLARE_CLASS(QFormLayout)
QT_FORWARD_DECLARE_CLASS(QPushButton)
QT_FORWARD_DECLARE_CLASS(QSpinBox)

namespace pbx::ui {

class ScientificSpinBox;

class GrowingLabEditor final : public QWidget
{
    Q_OBJECT
public:
    explicit GrowingLabEditor(QWidget *parent = nullptr);

    QComboBox *algorithmCombo() const { return m_algorithm; }
    QSpinBox *startSizeSpin() const { return m_startSize; }
    QSpinBox *horizonSpin() const { return m_horizon; }
    QCheckBox *sortedCheck() const { return m_sorted; }
    QDoubleSpinBox *gammaSpin() const { return m_gamma; }
    QPushButton *optimalGammaButton() const { return m_optimalGamma; }
    QComboBox *budgetKindCombo() const { return m_budgetKind; }
    QDoubleSpinBox *epsilonSpin() const { return m_epsilon; }
    QDoubleSpinBox *betaSpin() const { return m_beta; }
    QSpinBox *queriesSpin() const { return m_queries; }
    QComboBox *boxCombo() const { return m_box; }
    QSpinBox *smallDbSizeSpin() const { return m_smallDbM; }
    QDoubleSpinBox *nsgCapSpin() const { return m_nsgC0; }
    QDoubleSpinBox *nsgThresholdSpin() const { return m_nsgThreshold; }
    QSpinBox *ermEverySpin() const { return m_every; }
    QSpinBox *repetitionsSpin() const { return m_repetitions; }
    QSpinBox *seedSpin() const { return m_seed; }

    /// The ten counting queries on cps1988 of the Monte Carlo in docs/growing-databases.md; the lab
    /// asks the first k.
    static QStringList predicates();
    /// "bbscheduler", "bbimprover", "pmwg", "nsg" or "ermg".
    QString algorithm() const;
    /// BBScheduler with the SmallDB box (SmallDBG).
    bool isSmallDb() const;
    /// The horizon + 1: where the charts' x axis ends.
    double horizonEnd() const;
    /// The editor's input as a "pbx-growing-lab" document; `simulate` fills the predicates (the
    /// Monte Carlo caps the end at the dataset's rows).
    io::json::Json configDocument(bool simulate) const;
    /// Shows the chosen algorithm's rows only.
    void updateVisibility();
    /// What the chosen algorithm does (plain text, shown under the editor).
    QString explanation() const;
    /// Recomputes the optimal γ* from the rest of the input (BBScheduler; so it can repair an invalid γ)
    /// and offers it on the button.
    void updateOptimalGamma();

Q_SIGNALS:
    /// The algorithm, schedule, dataset, box or budget changed: the rows shown may change too.
    void kindChanged();
    /// A value changed.
    void valueChanged();

private:
    void createWidgets();
    void createLayout();
    void connectSignals();

    QFormLayout *m_form = nullptr;
    QComboBox *m_algorithm = nullptr;
    QComboBox *m_dataset = nullptr;
    QSpinBox *m_startSize = nullptr;
    QSpinBox *m_horizon = nullptr;
    QCheckBox *m_sorted = nullptr;
    QComboBox *m_schedule = nullptr;
    QDoubleSpinBox *m_gamma = nullptr;
    QPushButton *m_optimalGamma = nullptr;
    QWidget *m_gammaRow = nullptr;
    QDoubleSpinBox *m_decay = nullptr;
    QComboBox *m_budgetKind = nullptr;
    QDoubleSpinBox *m_epsilon = nullptr;
    QDoubleSpinBox *m_rho = nullptr;
    ScientificSpinBox *m_delta = nullptr;
    QDoubleSpinBox *m_beta = nullptr;
    QSpinBox *m_queries = nullptr;
    QComboBox *m_box = nullptr;
    QSpinBox *m_smallDbM = nullptr;
    QDoubleSpinBox *m_nsgC0 = nullptr;
    QDoubleSpinBox *m_nsgThreshold = nullptr;
    QSpinBox *m_every = nullptr;
    QSpinBox *m_repetitions = nullptr;
    QSpinBox *m_seed = nullptr;
    double m_optimalGammaValue = 0.0;
};

} // namespace pbx::ui
