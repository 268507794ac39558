// SPDX-License-Identifier: MIT
// Undoable edits of a planned workload (Qt's undo framework): add, remove, move and edit events,
// load a whole plan, switch the neighbouring relation. Planning spends nothing, so all of it can
// honestly be undone; the session's ledger is append-only and never goes through here.
// Consecutive edits of the same field of the same event (a spin-box drag, typing) merge into one
// undo step through id() and mergeWith().
#pragma once

#include "core/accounting/event.h"

#include <QUndoCommand>

namespace pbx::ui {

class PlanModel;

class AddPlanEventCommand final : public QUndoCommand
{
public:
    AddPlanEventCommand(PlanModel *model, int row, const accounting::PrivacyEvent &event,
                        QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    PlanModel *m_model;
    int m_row;
    accounting::PrivacyEvent m_event;
};

class RemovePlanEventCommand final : public QUndoCommand
{
public:
    RemovePlanEventCommand(PlanModel *model, int row, QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    PlanModel *m_model;
    int m_row;
    accounting::PrivacyEvent m_event;
};

class MovePlanEventCommand final : public QUndoCommand
{
public:
    MovePlanEventCommand(PlanModel *model, int from, int to, QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    PlanModel *m_model;
    int m_from;
    int m_to;
};

/// One field of one event, from `before` to `after` (whole events, so a mechanism change that
/// resets the parameter undoes exactly).
class EditPlanEventCommand final : public QUndoCommand
{
public:
    static constexpr int kId = 0x504c4e31; // "PLN1"

    EditPlanEventCommand(PlanModel *model, int row, int column, const accounting::PrivacyEvent &before,
                         const accounting::PrivacyEvent &after, QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;
    int id() const override { return kId; }
    /// Merges a later edit of the same field of the same event; an edit that returns to the
    /// original value makes the command obsolete (the stack drops it).
    bool mergeWith(const QUndoCommand *other) override;

    int row() const { return m_row; }
    int column() const { return m_column; }

private:
    void updateText();

    PlanModel *m_model;
    int m_row;
    int m_column;
    accounting::PrivacyEvent m_before;
    accounting::PrivacyEvent m_after;
};

/// Replaces the whole plan (an example plan, or clearing it).
class ReplacePlanCommand final : public QUndoCommand
{
public:
    ReplacePlanCommand(PlanModel *model, const accounting::Ledger &after, const QString &text,
                       QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    PlanModel *m_model;
    accounting::Ledger m_before;
    accounting::Ledger m_after;
};

class SetPlanNeighboursCommand final : public QUndoCommand
{
public:
    SetPlanNeighboursCommand(PlanModel *model, accounting::Neighbouring after,
                             QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    PlanModel *m_model;
    accounting::Neighbouring m_before;
    accounting::Neighbouring m_after;
};

} // namespace pbx::ui
