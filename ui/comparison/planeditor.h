// SPDX-License-Identifier: MIT
// The plan editor: a table of planned privacy events with add / remove / move up / move down,
// undo / redo (Ctrl+Z, Ctrl+Shift+Z) and ready-made example plans. Every edit is a command on the
// plan's undo stack; spin-box edits commit as they change and merge into one undo step.
#pragma once

#include "core/accounting/event.h"

#include <QStyledItemDelegate>
#include <QWidget>

QT_FORWARD_DECLARE_CLASS(QAction)
QT_FORWARD_DECLARE_CLASS(QComboBox)
QT_FORWARD_DECLARE_CLASS(QMenu)
QT_FORWARD_DECLARE_CLASS(QTableView)
QT_FORWARD_DECLARE_CLASS(QToolButton)
QT_FORWARD_DECLARE_CLASS(QUndoStack)

namespace pbx::ui {

class PlanModel;

/// Editors for the plan table: combo boxes for mechanism and sampling, spin boxes (committing on
/// every change, so a drag is live and merges into one undo step) for the numbers.
class PlanItemDelegate final : public QStyledItemDelegate
{
    Q_OBJECT
public:
    explicit PlanItemDelegate(QObject *parent = nullptr);

    QWidget *createEditor(QWidget *parent, const QStyleOptionViewItem &option,
                          const QModelIndex &index) const override;
    void setEditorData(QWidget *editor, const QModelIndex &index) const override;
    void setModelData(QWidget *editor, QAbstractItemModel *model, const QModelIndex &index) const override;
};

class PlanEditor final : public QWidget
{
    Q_OBJECT
public:
    PlanEditor(PlanModel *model, QUndoStack *stack, QWidget *parent = nullptr);

    QTableView *tableView() const { return m_table; }
    QAction *undoAction() const { return m_undo; }
    QAction *redoAction() const { return m_redo; }
    QAction *removeAction() const { return m_remove; }
    QAction *moveUpAction() const { return m_moveUp; }
    QAction *moveDownAction() const { return m_moveDown; }
    QComboBox *neighboursBox() const { return m_neighbours; }

    /// Appends (or inserts below the selection) a default event of `kind`.
    void addEvent(accounting::MechanismKind kind);
    void removeSelected();
    void moveSelected(int offset);
    /// Loads examplePlans()[index] as one undoable step.
    void loadExample(int index);
    int selectedRow() const;

private:
    void createWidgets();
    void createLayout();
    void connectSignals();
    void updateActions();
    void syncNeighbours();

    PlanModel *m_model;
    QUndoStack *m_stack;
    QTableView *m_table = nullptr;
    QComboBox *m_neighbours = nullptr;
    QToolButton *m_add = nullptr;      ///< menu: one planned event per mechanism
    QToolButton *m_examples = nullptr; ///< menu: the example workloads
    QAction *m_remove = nullptr;
    QAction *m_moveUp = nullptr;
    QAction *m_moveDown = nullptr;
    QAction *m_undo = nullptr;
    QAction *m_redo = nullptr;
};

} // namespace pbx::ui
