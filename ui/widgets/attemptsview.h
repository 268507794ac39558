// SPDX-License-Identifier: MIT
// The attempts behind one ledger event: for a doubling mechanism, each noise level tried, with
// its released noisy values, estimate, error bound and cost; for a single release, the one
// attempt. Everything shown was released (and paid for); no private value appears.
#pragma once

#include "core/session/ledger_event.h"

#include <QTreeWidget>

namespace pbx::ui {

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
    /// Each column but the last at least as wide as its header's title.
    void fitHeaders();
};

} // namespace pbx::ui
