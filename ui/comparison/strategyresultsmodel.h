// SPDX-License-Identifier: MIT
// The comparison table: one row per composition strategy with its ε at δ (or δ at ε), a detail
// (optimal order, ρ, PLD interval and optimistic bound; for the per-step (ε, δ) view the δ the
// steps charge), or the reason it does not apply — a strategy that does not apply never shows a
// number. Numbers are rounded up (boundformat.h), as every chart caption prints them.
#pragma once

#include "ui/comparison/comparisonjob.h"

#include <QAbstractTableModel>

#include <vector>

namespace pbx::ui {

class StrategyResultsModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        Strategy, ///< "Basic composition", with the strategy's colour
        Value,    ///< ε at δ, or δ at ε; "—" when not applicable
        Detail,   ///< optimal order, ρ, interval and bracket; or "not applicable: …"
        ColumnCount
    };
    Q_ENUM(Column)

    enum Role {
        /// Value: double (ε or δ; +∞ allowed), invalid when not applicable. Strategy: the core's
        /// name ("basic" …). Detail: the plain text.
        RawValueRole = Qt::UserRole,
        ApplicableRole, ///< bool
        NameRole,       ///< QString: "basic" …
    };

    explicit StrategyResultsModel(QObject *parent = nullptr);

    /// The six rows with nothing computed yet ("…").
    void clear();
    /// Shows a computation's results (the Summary stage is enough).
    void setResults(const std::vector<StrategyOutcome> &outcomes, bool epsilonAtDelta, double delta,
                    double epsilon);
    /// Marks the shown numbers as out of date while a new computation runs (drawn greyed).
    void setStale(bool stale);
    bool isStale() const { return m_stale; }
    /// Marks the shown numbers as a preview on a coarse grid (drawn in italics, not greyed: they
    /// are upper bounds for the current input, refined when the chosen grid's results arrive).
    /// setResults and clear end it.
    void setPreview(bool preview);
    bool isPreview() const { return m_preview; }

    const StrategyOutcome *outcome(int row) const;
    /// Row of a strategy by its core name, or −1.
    int rowOf(const QString &name) const;
    bool epsilonAtDelta() const { return m_epsilonAtDelta; }

    /// "ρ = 0.12; simple bound ε = 2.4", "order α = 14", … (plain text).
    static QString detailText(const StrategyOutcome &outcome, bool epsilonAtDelta);
    /// For a row on the per-step (ε, δ) view: the per-step δ and the total δ the strategy claims,
    /// split into the steps' Σδᵢ and the composition's own share (empty otherwise).
    static QString perStepText(const StrategyOutcome &outcome, bool epsilonAtDelta);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<StrategyOutcome> m_outcomes; ///< empty: nothing computed yet
    bool m_epsilonAtDelta = true;
    double m_delta = 1e-5;
    double m_epsilon = 1.0;
    bool m_stale = false;
    bool m_preview = false;
};

} // namespace pbx::ui
