// SPDX-License-Identifier: MIT
// A table that does not scroll sideways: optional columns give way, least important first, while
// the columns are wider than the view; the header's context menu shows or hides any of them.
#pragma once

#include <QList>
#include <QObject>
#include <QSet>

#include <functional>

QT_FORWARD_DECLARE_CLASS(QAbstractItemView)
QT_FORWARD_DECLARE_CLASS(QHeaderView)
QT_FORWARD_DECLARE_CLASS(QPoint)
QT_FORWARD_DECLARE_CLASS(QTableView)
QT_FORWARD_DECLARE_CLASS(QTimer)
QT_FORWARD_DECLARE_CLASS(QTreeView)

namespace pbx::ui {

/// Installed on a table or tree view (and owned by it). While the visible columns are wider than the
/// viewport, hides the `optional` columns in the order given (least important first); when the
/// view widens it shows them again, in reverse order, as long as they fit. Columns it did not hide
/// (hidden by the application, e.g. a column that does not apply) are never shown by it. The
/// header's context menu lists the optional columns: one the user ticks or unticks stays that way
/// (the user's choice wins over fitting, so a chosen column may scroll).
class ColumnFitter final : public QObject
{
    Q_OBJECT
public:
    /// `optional`: logical column indices, least important first.
    static ColumnFitter *install(QTableView *view, QList<int> optional);
    static ColumnFitter *install(QTreeView *view, QList<int> optional);

    /// The columns hidden to fit, in the order hidden.
    QList<int> fittedAway() const { return m_fittedAway; }
    /// Lets `column` (a long text, elided) narrow down to `minimumWidth` when hiding every
    /// optional column is not enough; it gets its own width back when there is room.
    void setElastic(int column, int minimumWidth);
    /// Sizes each of `columns` to its contents (the widest value among the rows the view measures,
    /// never narrower than its header's title) at every refit, and refits when the model's rows
    /// or values change: a value longer than the width the application guessed ("0.01845 ex-post
    /// ε" under a column sized for "0.0007531") is shown whole, and a column of short values
    /// ("8,756" where "12,345,678" was guessed) gives its room to the others.
    void setFitToContents(QList<int> columns);
    /// Shows or hides an optional column by the user's choice (as the header's menu does).
    void choose(int column, bool shown);
    /// Hides or shows `column` for the application (a column that does not apply), then fits
    /// anew; an optional column hidden so is never shown by fitting.
    void setColumnHidden(int column, bool hidden);
    /// Recomputes which optional columns fit (after column widths change).
    void refit();
    /// Runs `resize`, which gives the columns their natural widths, with every column it hid
    /// shown (a width given to a hidden column was lost: one came back 47 px wide under a 119-px
    /// title), then fits anew.
    void resizeColumns(const std::function<void()> &resize);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    ColumnFitter(QAbstractItemView *view, QHeaderView *header, QList<int> optional);
    static ColumnFitter *attach(QAbstractItemView *view, QHeaderView *header, QList<int> optional);
    int visibleWidth() const;
    void showMenu(const QPoint &at);
    void onSectionResized(int column, int newSize);
    void sizeToContents();

    QAbstractItemView *m_view;
    QHeaderView *m_header;
    QList<int> m_optional;
    QList<int> m_fittedAway;
    QList<int> m_contentSized;
    QTimer *m_refitTimer;    ///< refits once control returns to the event loop (model changes)
    QSet<int> m_chosenShown; ///< shown by the user's choice: never fitted away
    bool m_fitting = false;
    bool m_resizing = false; ///< inside resizeColumns: no fitting until it is done
    int m_elastic = -1;
    int m_elasticMinimum = 0;
    int m_elasticNatural = 0; ///< the width the application gave it
};

} // namespace pbx::ui
