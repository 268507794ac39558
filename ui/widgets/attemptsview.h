// SPDX-License-Identifier: MIT
// The attempts behind one ledger event: for a doubling mechanism, each noise level tried, with
// its released noisy values, estimate, error bound and cost; for a single release, the one
// attempt. Everything shown was released (and paid for); no private value appears. It does not
// scroll sideways: in a narrow view (a 1024-px projector in presentation mode) the noise scale, then
// the accepted mark give way (the header's menu brings them back) and the first column's labels are
// elided; each row's tooltip lists all its values.
#pragma once

#include "core/session/ledger_event.h"

#include <QTreeWidget>

namespace pbx::ui {

class ColumnFitter;

class AttemptsView final : public QTreeWidget
{
    Q_OBJECT
public:
    enum Column {
        StepColumn,
        EstimateColumn,
        HalfWidthColumn,
        ScaleColumn,
        CostColumn,
        AcceptedColumn,
        ColumnCount
    };

    explicit AttemptsView(QWidget *parent = nullptr);

    /// Shows `event`'s attempts (nullptr: none). `unitSymbol` labels the cost column.
    void setEvent(const session::LedgerEvent *event, const QString &unitSymbol);

protected:
    /// A new font (presentation mode) widens the columns to their headers again.
    void changeEvent(QEvent *event) override;

private:
    /// Each column as wide as its contents (every row, folded or not) and its header's title;
    /// the rows that were unfolded stay so.
    void sizeColumns();
    /// Each row's values, named by their columns, as the tooltip of every cell of the row.
    void setRowToolTips();

    ColumnFitter *m_fitter = nullptr;
};

} // namespace pbx::ui
