// SPDX-License-Identifier: MIT
#include "ui/comparison/plancommands.h"

#include "ui/comparison/planmodel.h"
#include "ui/util/numberformat.h"

#include <QCoreApplication>

namespace pbx::ui {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("pbx::ui::PlanCommands", text);
}

QString relationText(accounting::Neighbouring relation)
{
    return relation == accounting::Neighbouring::AddRemove ? tr("add/remove one row") : tr("replace one row");
}

} // namespace

AddPlanEventCommand::AddPlanEventCommand(PlanModel *model, int row, const accounting::PrivacyEvent &event,
                                         QUndoCommand *parent)
    : QUndoCommand(parent), m_model(model), m_row(row), m_event(event)
{
    setText(tr("Add %1 event").arg(PlanModel::mechanismTitle(event.mechanism)));
}

void AddPlanEventCommand::redo()
{
    m_model->insertEventRaw(m_row, m_event);
}

void AddPlanEventCommand::undo()
{
    m_model->removeEventRaw(m_row);
}

RemovePlanEventCommand::RemovePlanEventCommand(PlanModel *model, int row, QUndoCommand *parent)
    : QUndoCommand(parent), m_model(model), m_row(row), m_event(model->event(row))
{
    setText(tr("Remove event %1 (%2)").arg(row + 1).arg(PlanModel::mechanismTitle(m_event.mechanism)));
}

void RemovePlanEventCommand::redo()
{
    m_event = m_model->removeEventRaw(m_row);
}

void RemovePlanEventCommand::undo()
{
    m_model->insertEventRaw(m_row, m_event);
}

MovePlanEventCommand::MovePlanEventCommand(PlanModel *model, int from, int to, QUndoCommand *parent)
    : QUndoCommand(parent), m_model(model), m_from(from), m_to(to)
{
    setText(to < from ? tr("Move event %1 up").arg(from + 1) : tr("Move event %1 down").arg(from + 1));
}

void MovePlanEventCommand::redo()
{
    m_model->moveEventRaw(m_from, m_to);
}

void MovePlanEventCommand::undo()
{
    m_model->moveEventRaw(m_to, m_from);
}

EditPlanEventCommand::EditPlanEventCommand(PlanModel *model, int row, int column,
                                           const accounting::PrivacyEvent &before,
                                           const accounting::PrivacyEvent &after, QUndoCommand *parent)
    : QUndoCommand(parent), m_model(model), m_row(row), m_column(column), m_before(before), m_after(after)
{
    updateText();
}

void EditPlanEventCommand::updateText()
{
    const int n = m_row + 1;
    switch (m_column) {
    case PlanModel::Mechanism:
        setText(tr("Make event %1 %2").arg(n).arg(PlanModel::mechanismTitle(m_after.mechanism)));
        break;
    case PlanModel::Parameter:
        setText(tr("Set %1 of event %2 to %3")
                    .arg(PlanModel::parameterSymbol(m_after.mechanism))
                    .arg(n)
                    .arg(formatNumber(PlanModel::parameterValue(m_after))));
        break;
    case PlanModel::Sensitivity:
        setText(tr("Set Δ of event %1 to %2").arg(n).arg(formatNumber(m_after.sensitivity)));
        break;
    case PlanModel::Delta:
        setText(tr("Set δ of event %1 to %2").arg(n).arg(formatNumber(m_after.delta)));
        break;
    case PlanModel::Count:
        setText(tr("Set count of event %1 to %2").arg(n).arg(m_after.count));
        break;
    case PlanModel::Sampling:
        setText(
            tr("Set sampling of event %1 to %2").arg(n).arg(PlanModel::samplingTitle(m_after.sampling.kind)));
        break;
    case PlanModel::Rate:
        setText(tr("Set q of event %1 to %2").arg(n).arg(formatNumber(m_after.sampling.rate)));
        break;
    default:
        setText(tr("Edit event %1").arg(n));
        break;
    }
}

void EditPlanEventCommand::redo()
{
    m_model->setEventRaw(m_row, m_after);
}

void EditPlanEventCommand::undo()
{
    m_model->setEventRaw(m_row, m_before);
}

bool EditPlanEventCommand::mergeWith(const QUndoCommand *other)
{
    const auto *edit = static_cast<const EditPlanEventCommand *>(other);
    if (edit->m_model != m_model || edit->m_row != m_row || edit->m_column != m_column)
        return false;
    m_after = edit->m_after;
    updateText();
    setObsolete(PlanModel::sameEvent(m_before, m_after));
    return true;
}

ReplacePlanCommand::ReplacePlanCommand(PlanModel *model, const accounting::Ledger &after, const QString &text,
                                       QUndoCommand *parent)
    : QUndoCommand(text, parent), m_model(model), m_before(model->ledger()), m_after(after)
{}

void ReplacePlanCommand::redo()
{
    m_model->setLedgerRaw(m_after);
}

void ReplacePlanCommand::undo()
{
    m_model->setLedgerRaw(m_before);
}

SetPlanNeighboursCommand::SetPlanNeighboursCommand(PlanModel *model, accounting::Neighbouring after,
                                                   QUndoCommand *parent)
    : QUndoCommand(parent), m_model(model), m_before(model->ledger().neighbours), m_after(after)
{
    setText(tr("Use %1 neighbours").arg(relationText(after)));
}

void SetPlanNeighboursCommand::redo()
{
    m_model->setNeighboursRaw(m_after);
}

void SetPlanNeighboursCommand::undo()
{
    m_model->setNeighboursRaw(m_before);
}

} // namespace pbx::ui
