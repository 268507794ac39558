// SPDX-License-Identifier: MIT
#include "ui/comparison/planeditor.h"

#include "ui/comparison/exampleplans.h"
#include "ui/comparison/planmodel.h"
#include "ui/widgets/scientificspinbox.h"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMenu>
#include <QSpinBox>
#include <QTableView>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

#include <limits>

namespace pbx::ui {

using accounting::MechanismKind;
using accounting::SamplingKind;

namespace {

constexpr MechanismKind kKinds[]
    = {MechanismKind::Gaussian,       MechanismKind::Laplace,     MechanismKind::PureDp,
       MechanismKind::ApproxDp,       MechanismKind::Zcdp,        MechanismKind::RandomizedResponse,
       MechanismKind::PostProcessing, MechanismKind::BoundedRange};

} // namespace

PlanItemDelegate::PlanItemDelegate(QObject *parent) : QStyledItemDelegate(parent) {}

QWidget *PlanItemDelegate::createEditor(QWidget *parent, const QStyleOptionViewItem &option,
                                        const QModelIndex &index) const
{
    const auto commitNow = [this](QWidget *editor) {
        // const_cast: commitData is a signal of this (const) delegate's non-const self.
        Q_EMIT const_cast<PlanItemDelegate *>(this)->commitData(editor);
    };
    switch (index.column()) {
    case PlanModel::Mechanism: {
        auto *box = new QComboBox(parent);
        for (MechanismKind kind : kKinds)
            box->addItem(PlanModel::mechanismTitle(kind), static_cast<int>(kind));
        connect(box, &QComboBox::activated, box, [box, commitNow] { commitNow(box); });
        return box;
    }
    case PlanModel::Sampling: {
        auto *box = new QComboBox(parent);
        for (SamplingKind kind :
             {SamplingKind::None, SamplingKind::Poisson, SamplingKind::WithoutReplacement})
            box->addItem(PlanModel::samplingTitle(kind), static_cast<int>(kind));
        connect(box, &QComboBox::activated, box, [box, commitNow] { commitNow(box); });
        return box;
    }
    case PlanModel::Count: {
        auto *spin = new QSpinBox(parent);
        spin->setRange(1, std::numeric_limits<int>::max());
        spin->setAccelerated(true);
        connect(spin, &QSpinBox::valueChanged, spin, [spin, commitNow] { commitNow(spin); });
        return spin;
    }
    case PlanModel::Parameter:
    case PlanModel::Sensitivity:
    case PlanModel::Delta:
    case PlanModel::Rate: {
        auto *spin = new ScientificSpinBox(parent);
        switch (index.column()) {
        case PlanModel::Delta:
            spin->setRange(0.0, 0.5);
            spin->setMultiplicativeStep(10.0);
            break;
        case PlanModel::Rate:
            spin->setRange(1e-6, 1.0);
            spin->setSingleStep(0.001);
            break;
        default:
            spin->setRange(1e-6, 1e6);
            spin->setSingleStep(0.1);
            break;
        }
        connect(spin, &QDoubleSpinBox::valueChanged, spin, [spin, commitNow] { commitNow(spin); });
        return spin;
    }
    default:
        return QStyledItemDelegate::createEditor(parent, option, index);
    }
}

void PlanItemDelegate::setEditorData(QWidget *editor, const QModelIndex &index) const
{
    const QVariant value = index.data(PlanModel::RawValueRole);
    if (auto *box = qobject_cast<QComboBox *>(editor)) {
        const int i = box->findData(value.toInt());
        if (i >= 0 && i != box->currentIndex())
            box->setCurrentIndex(i);
    } else if (auto *spin = qobject_cast<QSpinBox *>(editor)) {
        const int v
            = static_cast<int>(std::min<qlonglong>(value.toLongLong(), std::numeric_limits<int>::max()));
        if (spin->value() != v) {
            const QSignalBlocker block(spin);
            spin->setValue(v);
        }
    } else if (auto *dspin = qobject_cast<QDoubleSpinBox *>(editor)) {
        if (dspin->value() != value.toDouble()) {
            const QSignalBlocker block(dspin);
            dspin->setValue(value.toDouble());
        }
    } else {
        QStyledItemDelegate::setEditorData(editor, index);
    }
}

void PlanItemDelegate::setModelData(QWidget *editor, QAbstractItemModel *model,
                                    const QModelIndex &index) const
{
    QVariant value;
    if (auto *box = qobject_cast<QComboBox *>(editor))
        value = box->currentData();
    else if (auto *spin = qobject_cast<QSpinBox *>(editor))
        value = static_cast<qlonglong>(spin->value());
    else if (auto *dspin = qobject_cast<QDoubleSpinBox *>(editor))
        value = dspin->value();
    else
        return QStyledItemDelegate::setModelData(editor, model, index);
    if (value != index.data(PlanModel::RawValueRole))
        model->setData(index, value, Qt::EditRole);
}

// ---------------------------------------------------------------------------------------------

PlanEditor::PlanEditor(PlanModel *model, QUndoStack *stack, QWidget *parent)
    : QWidget(parent), m_model(model), m_stack(stack)
{
    createWidgets();
    createLayout();
    connectSignals();
    syncNeighbours();
    updateActions();
}

void PlanEditor::createWidgets()
{
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("planTable"));
    m_table->setModel(m_model);
    m_table->setItemDelegate(new PlanItemDelegate(m_table));
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed
                             | QAbstractItemView::AnyKeyPressed);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setHighlightSections(false);
    const QFontMetrics metrics(m_table->font());
    const auto width = [&](const QString &sample) { return metrics.horizontalAdvance(sample) + 14; };
    m_table->setColumnWidth(PlanModel::Mechanism, width(QStringLiteral("randomized resp")));
    m_table->setColumnWidth(PlanModel::Parameter, width(QStringLiteral("σ = 1,234.5")));
    m_table->setColumnWidth(PlanModel::Sensitivity, width(QStringLiteral("1,000")));
    m_table->setColumnWidth(PlanModel::Delta, width(QStringLiteral("1e-7")));
    m_table->setColumnWidth(PlanModel::Count, width(QStringLiteral("10,000")));
    m_table->setColumnWidth(PlanModel::Sampling, width(QStringLiteral("Poisson")));
    m_table->setColumnWidth(PlanModel::Rate, width(QStringLiteral("0.01")));
    m_table->setTextElideMode(Qt::ElideRight);

    // Actions, shortcuts scoped to the editor (the main window has its own).
    const auto makeAction = [this](const QString &text, const QKeySequence &key, const QString &tip) {
        auto *action = new QAction(text, this);
        action->setShortcut(key);
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        action->setToolTip(tip);
        addAction(action);
        return action;
    };
    m_remove = makeAction(tr("Remove"), QKeySequence::Delete, tr("Remove the selected event (Del)"));
    m_moveUp
        = makeAction(tr("↑"), QKeySequence(Qt::ALT | Qt::Key_Up), tr("Move the selected event up (Alt+Up)"));
    m_moveDown = makeAction(tr("↓"), QKeySequence(Qt::ALT | Qt::Key_Down),
                            tr("Move the selected event down (Alt+Down)"));
    // Own undo/redo actions rather than createUndoAction(): the button keeps a short label and
    // the command's text goes to the tooltip (a long "Undo Load plan …" would widen the bar).
    m_undo = makeAction(tr("Undo"), QKeySequence::Undo, {});
    m_redo = makeAction(tr("Redo"), QKeySequence::Redo, {});
    // The platform's Redo keys plus Ctrl+Shift+Z where the platform lacks it (e.g. Ctrl+Y only):
    // each sequence once, or Qt reports an "ambiguous shortcut overload" and runs neither.
    QList<QKeySequence> redoKeys = QKeySequence::keyBindings(QKeySequence::Redo);
    if (const QKeySequence ctrlShiftZ(Qt::CTRL | Qt::SHIFT | Qt::Key_Z); !redoKeys.contains(ctrlShiftZ))
        redoKeys.append(ctrlShiftZ);
    m_redo->setShortcuts(redoKeys);

    m_add = new QToolButton(this);
    m_add->setText(tr("Add"));
    m_add->setToolTip(tr("Add a planned event"));
    m_add->setPopupMode(QToolButton::InstantPopup);
    auto *addMenu = new QMenu(m_add);
    for (MechanismKind kind : kKinds)
        addMenu->addAction(PlanModel::mechanismTitle(kind), this, [this, kind] { addEvent(kind); });
    m_add->setMenu(addMenu);
    m_examples = new QToolButton(this);
    m_examples->setText(tr("Examples"));
    m_examples->setToolTip(tr("Load a ready-made workload (undoable)"));
    m_examples->setPopupMode(QToolButton::InstantPopup);
    auto *examplesMenu = new QMenu(m_examples);
    const auto plans = examplePlans();
    for (int i = 0; i < plans.size(); ++i) {
        QAction *action = examplesMenu->addAction(plans.at(i).name, this, [this, i] { loadExample(i); });
        action->setToolTip(plans.at(i).description);
    }
    examplesMenu->setToolTipsVisible(true);
    m_examples->setMenu(examplesMenu);
    m_neighbours = new QComboBox(this);
    m_neighbours->addItem(tr("add/remove one row"), static_cast<int>(accounting::Neighbouring::AddRemove));
    m_neighbours->addItem(tr("replace one row"), static_cast<int>(accounting::Neighbouring::Replace));
    m_neighbours->setToolTip(tr("Neighbouring relation of the plan: Poisson subsampling amplifies "
                                "under add/remove, sampling without replacement under replace."));
}

void PlanEditor::createLayout()
{
    const auto toolButton = [this](QAction *action) {
        auto *button = new QToolButton(this);
        button->setDefaultAction(action);
        button->setToolButtonStyle(Qt::ToolButtonTextOnly);
        button->setAutoRaise(false);
        return button;
    };
    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->setSpacing(4);
    bar->addWidget(m_add);
    bar->addWidget(toolButton(m_remove));
    bar->addWidget(toolButton(m_moveUp));
    bar->addWidget(toolButton(m_moveDown));
    bar->addSpacing(8);
    bar->addWidget(toolButton(m_undo));
    bar->addWidget(toolButton(m_redo));
    bar->addSpacing(8);
    bar->addWidget(m_examples);
    bar->addStretch(1);
    bar->addWidget(new QLabel(tr("Neighbours:"), this));
    bar->addWidget(m_neighbours);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addLayout(bar);
    layout->addWidget(m_table, 1);
}

void PlanEditor::connectSignals()
{
    connect(m_undo, &QAction::triggered, m_stack, &QUndoStack::undo);
    connect(m_redo, &QAction::triggered, m_stack, &QUndoStack::redo);
    const auto syncUndo = [this] {
        m_undo->setEnabled(m_stack->canUndo());
        m_redo->setEnabled(m_stack->canRedo());
        m_undo->setToolTip(m_stack->canUndo() ? tr("Undo: %1 (Ctrl+Z)").arg(m_stack->undoText())
                                              : tr("Nothing to undo"));
        m_redo->setToolTip(m_stack->canRedo() ? tr("Redo: %1 (Ctrl+Shift+Z)").arg(m_stack->redoText())
                                              : tr("Nothing to redo"));
    };
    connect(m_stack, &QUndoStack::indexChanged, this, syncUndo);
    connect(m_stack, &QUndoStack::cleanChanged, this, syncUndo);
    syncUndo();
    connect(m_remove, &QAction::triggered, this, &PlanEditor::removeSelected);
    connect(m_moveUp, &QAction::triggered, this, [this] { moveSelected(-1); });
    connect(m_moveDown, &QAction::triggered, this, [this] { moveSelected(1); });
    connect(m_neighbours, &QComboBox::activated, this, [this] {
        m_model->setNeighbours(static_cast<accounting::Neighbouring>(m_neighbours->currentData().toInt()));
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &PlanEditor::updateActions);
    connect(m_model, &PlanModel::planChanged, this, [this] {
        syncNeighbours();
        updateActions();
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, &PlanEditor::updateActions);
}

int PlanEditor::selectedRow() const
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    return rows.isEmpty() ? -1 : rows.first().row();
}

void PlanEditor::addEvent(MechanismKind kind)
{
    const int selected = selectedRow();
    const int row = selected >= 0 ? selected + 1 : m_model->rowCount();
    if (m_model->addEvent(PlanModel::defaultEvent(kind), row))
        m_table->selectRow(row);
}

void PlanEditor::removeSelected()
{
    const int row = selectedRow();
    if (row < 0 || !m_model->removeEvent(row))
        return;
    if (m_model->rowCount() > 0)
        m_table->selectRow(std::min(row, m_model->rowCount() - 1));
}

void PlanEditor::moveSelected(int offset)
{
    const int row = selectedRow();
    if (row >= 0 && m_model->moveEvent(row, offset))
        m_table->selectRow(row + offset);
}

void PlanEditor::loadExample(int index)
{
    const auto plans = examplePlans();
    if (index < 0 || index >= plans.size())
        return;
    m_model->replacePlan(plans.at(index).ledger, plans.at(index).name);
}

void PlanEditor::updateActions()
{
    const int row = selectedRow();
    m_remove->setEnabled(row >= 0);
    m_moveUp->setEnabled(row > 0);
    m_moveDown->setEnabled(row >= 0 && row + 1 < m_model->rowCount());
}

void PlanEditor::syncNeighbours()
{
    const int i = m_neighbours->findData(static_cast<int>(m_model->ledger().neighbours));
    if (i >= 0 && i != m_neighbours->currentIndex()) {
        const QSignalBlocker block(m_neighbours);
        m_neighbours->setCurrentIndex(i);
    }
}

} // namespace pbx::ui
