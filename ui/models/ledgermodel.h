// SPDX-License-Identifier: MIT
// The session ledger as a table: one row per request, released or refused, in ledger order.
// Append-only, like the ledger itself: rows are added with beginInsertRows/endInsertRows and only
// a new session resets the model.
#pragma once

#include "core/session/ledger_event.h"

#include <QAbstractTableModel>

#include <vector>

namespace pbx::ui {

class LedgerModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        Number,       ///< 1-based request number
        Id,           ///< the request's label ("q1", …)
        Query,        ///< "mean(wage) where region == "south""
        Target,       ///< "±50 @ 95 %" or "±5 % @ 95 %"
        Status,       ///< released / refused
        Answer,       ///< noisy answer (released only)
        ErrorBound,   ///< ± half-width at the requested confidence (released only)
        Mechanism,    ///< laplace, gaussian, doubling-…
        Attempts,     ///< number of attempts (doubling levels)
        Cost,         ///< cost of this request in the unit it was charged in (event.costKind)
        Spent,        ///< cumulative native spend after it
        ExPostSpent,  ///< the unified filter's ex-post spend after it (hidden for other filters)
        EpsilonSpent, ///< ε-equivalent of the cumulative spend at the session δ
        Accounting,   ///< how the cost was accounted (ex-post boundary, zCDP step, …)
        Reason,       ///< why refused, or a note on a release
        ColumnCount
    };
    Q_ENUM(Column)

    enum Role {
        /// Unformatted value: double for numeric columns (Number, Answer, ErrorBound, Attempts,
        /// Cost, Spent, ExPostSpent, EpsilonSpent); QString for the others. Answer and ErrorBound
        /// are invalid QVariants for refused rows (nothing was released).
        RawValueRole = Qt::UserRole,
        /// bool: true when the row is a refusal.
        RefusedRole,
        /// Cost column: the unit the cost was charged in ("ε", "ρ" or "ex-post ε").
        CostUnitRole,
        /// Cost column: the ex-post δ charged (double, 0 when none).
        CostDeltaRole,
    };

    explicit LedgerModel(QObject *parent = nullptr);

    /// Unit symbol of the filter ("ε" or "ρ"), used in headers. A cost charged in another unit
    /// (a Laplace release in a zCDP filter, noise reduction on the unified filter's ex-post side)
    /// carries its unit in the cell.
    void setUnitSymbol(const QString &symbol);
    QString unitSymbol() const { return m_unit; }

    /// Replaces every row (new session, opened transcript).
    void setEvents(std::vector<session::LedgerEvent> events);
    /// Appends one row.
    void appendEvent(const session::LedgerEvent &event);
    void clear();

    const session::LedgerEvent &event(int row) const { return m_events.at(static_cast<std::size_t>(row)); }
    const std::vector<session::LedgerEvent> &events() const { return m_events; }

    /// "count", "mean(wage) where region == \"south\"" (report::describeQuery).
    static QString describeQuery(const data::QuerySpec &query);
    /// The request in one line (report::requestLine): a strategy, output-DP or growing request by
    /// its own description ("sparse vector(education) ≥ 500, c = 3, ε = 1"), any other by
    /// describeQuery().
    static QString describeRequest(const session::QueryRequest &request);
    /// "±50 @ 95 %" or "±5 % @ 95 %" (report::targetLine).
    static QString describeTarget(const session::AccuracyTarget &target);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

private:
    QVariant displayValue(const session::LedgerEvent &event, int column) const;
    QVariant rawValue(const session::LedgerEvent &event, int column) const;
    QString toolTip(const session::LedgerEvent &event, int column) const;

    std::vector<session::LedgerEvent> m_events;
    QString m_unit = QStringLiteral("ε");
};

} // namespace pbx::ui
