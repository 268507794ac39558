// SPDX-License-Identifier: MIT
// A planned workload (or a session's ledger, read-only) as a table of privacy events: mechanism,
// its parameter, sensitivity, δ, count and sampling. Planning spends nothing: edits only change
// the plan. With an undo stack set, every edit (setData included) is a QUndoCommand on it, so
// the table, the editor's buttons and tests share one undoable path.
#pragma once

#include "core/accounting/event.h"

#include <QAbstractTableModel>

#include <cstdint>

QT_FORWARD_DECLARE_CLASS(QUndoCommand)
QT_FORWARD_DECLARE_CLASS(QUndoStack)

namespace pbx::ui {

class PlanModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        Mechanism,   ///< gaussian, laplace, pure ε, (ε, δ), zCDP, randomized response, …
        Parameter,   ///< σ (Gaussian), b (Laplace), ε (pure, (ε, δ), RR) or ρ (zCDP)
        Sensitivity, ///< Δ (Gaussian and Laplace only)
        Delta,       ///< δ ((ε, δ) events only)
        Count,       ///< identical steps
        Sampling,    ///< none, Poisson, without replacement
        Rate,        ///< sampling rate q (sampled events only)
        PerStep,     ///< what one step costs (read-only)
        ColumnCount
    };
    Q_ENUM(Column)

    enum Role {
        /// Unformatted value: double (Parameter, Sensitivity, Delta, Rate), qlonglong (Count), int
        /// (Mechanism: accounting::MechanismKind; Sampling: accounting::SamplingKind), QString
        /// (PerStep). Invalid for a field the event does not have.
        RawValueRole = Qt::UserRole,
    };

    explicit PlanModel(QObject *parent = nullptr);

    /// Edits go through this stack (not owned). Without one they apply directly, not undoable.
    void setUndoStack(QUndoStack *stack) { m_stack = stack; }
    QUndoStack *undoStack() const { return m_stack; }
    /// A read-only model (the session's ledger) refuses every edit.
    void setReadOnly(bool readOnly) { m_readOnly = readOnly; }
    bool isReadOnly() const { return m_readOnly; }

    const accounting::Ledger &ledger() const { return m_ledger; }
    const accounting::PrivacyEvent &event(int row) const;
    /// Σ count: the number of steps the plan composes.
    std::int64_t totalSteps() const;

    // Edits: undoable through the stack when one is set. They return false (and change nothing)
    // for a read-only model, a bad row, or a value the event would not accept.
    bool addEvent(const accounting::PrivacyEvent &event, int row = -1);
    bool removeEvent(int row);
    /// Moves row `row` by `offset` (−1: up, +1: down).
    bool moveEvent(int row, int offset);
    /// Sets one field; Mechanism and Sampling take an int (the enum), Count an integer, the others
    /// a double. A mechanism change keeps count, sampling and Δ and resets the parameter.
    bool setField(int row, int column, const QVariant &value);
    /// Replaces the whole plan (an example), as one undoable step named `name`.
    bool replacePlan(const accounting::Ledger &ledger, const QString &name);
    bool setNeighbours(accounting::Neighbouring neighbours);

    // Raw changes, no undo: for the commands, and for a read-only model's owner.
    void insertEventRaw(int row, const accounting::PrivacyEvent &event);
    accounting::PrivacyEvent removeEventRaw(int row);
    void moveEventRaw(int from, int to);
    void setEventRaw(int row, const accounting::PrivacyEvent &event);
    void setLedgerRaw(const accounting::Ledger &ledger);
    void setNeighboursRaw(accounting::Neighbouring neighbours);

    /// "Gaussian", "Laplace", "pure ε", "(ε, δ)", "zCDP (ρ)", "randomized response", …
    static QString mechanismTitle(accounting::MechanismKind kind);
    static QString samplingTitle(accounting::SamplingKind kind);
    /// "σ", "b", "ε", "ρ" or "" (post-processing).
    static QString parameterSymbol(accounting::MechanismKind kind);
    static double parameterValue(const accounting::PrivacyEvent &event);
    static void setParameterValue(accounting::PrivacyEvent &event, double value);
    /// A sensible new event of `kind` (σ = 1, b = 10, ε = 0.1, ρ = 0.01; Δ = 1; count 1).
    static accounting::PrivacyEvent defaultEvent(accounting::MechanismKind kind);
    /// What one step guarantees, e.g. "ε = 0.1", "ρ = 0.413", "ε = 0.0105 after sampling".
    static QString perStepText(const accounting::PrivacyEvent &event, accounting::Neighbouring neighbours);
    /// "σ = 1.1, q = 0.01 × 1000", for undo texts and summaries.
    static QString describeEvent(const accounting::PrivacyEvent &event);
    static bool sameEvent(const accounting::PrivacyEvent &a, const accounting::PrivacyEvent &b);
    /// Does the event have this field (is the cell editable, shown)?
    static bool hasField(const accounting::PrivacyEvent &event, int column);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    /// Anything in the plan changed (events or relation): recompute.
    void planChanged();

private:
    bool validRow(int row) const { return row >= 0 && row < rowCount(); }
    QVariant displayValue(const accounting::PrivacyEvent &event, int column) const;
    QVariant rawValue(const accounting::PrivacyEvent &event, int column) const;
    void push(QUndoCommand *command);

    accounting::Ledger m_ledger;
    QUndoStack *m_stack = nullptr;
    bool m_readOnly = false;
};

} // namespace pbx::ui
