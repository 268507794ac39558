// SPDX-License-Identifier: MIT
// Plan editing through the undo stack, LabPlot-style: do, check; undo, check; redo, check; and
// QUndoStack::count() unchanged by undo/redo. A drag of 10 steps (model edits, and a real spin
// box in the table's editor) merges into one undo step; editing back to the start drops it.
#include "ui/comparison/exampleplans.h"
#include "ui/comparison/plancommands.h"
#include "ui/comparison/planeditor.h"
#include "ui/comparison/planmodel.h"
#include "ui/widgets/scientificspinbox.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QSignalSpy>
#include <QTableView>
#include <QUndoStack>
#include <QtTest/QtTest>

using namespace pbx;
using accounting::MechanismKind;
using pbx::ui::PlanModel;

namespace {

accounting::PrivacyEvent laplace(double scale, std::int64_t count = 1)
{
    auto e = PlanModel::defaultEvent(MechanismKind::Laplace);
    e.scale = scale;
    e.count = count;
    return e;
}

std::vector<double> scales(const PlanModel &model)
{
    std::vector<double> out;
    for (const auto &e : model.ledger().events)
        out.push_back(PlanModel::parameterValue(e));
    return out;
}

} // namespace

class TestPlanCommands : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void addRemoveMoveUndoRedo()
    {
        PlanModel model;
        QUndoStack stack;
        model.setUndoStack(&stack);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy changed(&model, &PlanModel::planChanged);

        QVERIFY(model.addEvent(laplace(10.0)));
        QVERIFY(model.addEvent(laplace(20.0)));
        QVERIFY(model.addEvent(laplace(30.0), 0)); // inserted at the top
        QCOMPARE(scales(model), (std::vector<double>{30.0, 10.0, 20.0}));
        QCOMPARE(stack.count(), 3);
        QCOMPARE(changed.count(), 3);

        // Remove the middle one; undo puts the same event back in the same place.
        QVERIFY(model.removeEvent(1));
        QCOMPARE(scales(model), (std::vector<double>{30.0, 20.0}));
        QCOMPARE(stack.count(), 4);
        stack.undo();
        QCOMPARE(scales(model), (std::vector<double>{30.0, 10.0, 20.0}));
        QCOMPARE(stack.count(), 4);
        stack.redo();
        QCOMPARE(scales(model), (std::vector<double>{30.0, 20.0}));
        QCOMPARE(stack.count(), 4);
        stack.undo();

        // Move down and up.
        QVERIFY(model.moveEvent(0, +1));
        QCOMPARE(scales(model), (std::vector<double>{10.0, 30.0, 20.0}));
        QVERIFY(model.moveEvent(2, -1));
        QCOMPARE(scales(model), (std::vector<double>{10.0, 20.0, 30.0}));
        QVERIFY(!model.moveEvent(0, -1)); // nothing above the first row
        QVERIFY(!model.moveEvent(2, +1));
        const int count = stack.count();
        QCOMPARE(stack.undoText(), QStringLiteral("Move event 3 up"));
        stack.undo();
        stack.undo();
        QCOMPARE(scales(model), (std::vector<double>{30.0, 10.0, 20.0}));
        QCOMPARE(stack.count(), count);
        stack.redo();
        stack.redo();
        QCOMPARE(scales(model), (std::vector<double>{10.0, 20.0, 30.0}));
        QCOMPARE(stack.count(), count);

        // Undo everything: the plan is empty again; redo everything: back.
        while (stack.canUndo())
            stack.undo();
        QCOMPARE(model.rowCount(), 0);
        while (stack.canRedo())
            stack.redo();
        QCOMPARE(scales(model), (std::vector<double>{10.0, 20.0, 30.0}));
        QCOMPARE(stack.count(), count);
    }

    void invalidEditsAreRefused()
    {
        PlanModel model;
        QUndoStack stack;
        model.setUndoStack(&stack);
        QVERIFY(model.addEvent(laplace(10.0)));
        QVERIFY(!model.setField(0, PlanModel::Parameter, 0.0));  // b must be > 0
        QVERIFY(!model.setField(0, PlanModel::Count, 0));        // count ≥ 1
        QVERIFY(!model.setField(0, PlanModel::Delta, 1e-6));     // a Laplace event has no δ
        QVERIFY(!model.setField(0, PlanModel::Parameter, 10.0)); // no change, no command
        QVERIFY(!model.setField(3, PlanModel::Parameter, 1.0));  // no such row
        QCOMPARE(stack.count(), 1);

        PlanModel readOnly;
        readOnly.setLedgerRaw(model.ledger());
        readOnly.setReadOnly(true);
        QVERIFY(!readOnly.setField(0, PlanModel::Parameter, 5.0));
        QVERIFY(!readOnly.removeEvent(0));
        QVERIFY(!(readOnly.flags(readOnly.index(0, PlanModel::Parameter)) & Qt::ItemIsEditable));
    }

    void dragOfTenEditsIsOneStep()
    {
        PlanModel model;
        QUndoStack stack;
        model.setUndoStack(&stack);
        QVERIFY(model.addEvent(PlanModel::defaultEvent(MechanismKind::Gaussian))); // σ = 1
        const int before = stack.count();
        for (int i = 1; i <= 10; ++i)
            QVERIFY(model.setField(0, PlanModel::Parameter, 1.0 + 0.1 * i));
        QCOMPARE(stack.count(), before + 1);
        QCOMPARE(model.event(0).sigma, 2.0);
        QCOMPARE(stack.undoText(), QStringLiteral("Set σ of event 1 to 2"));
        stack.undo();
        QCOMPARE(model.event(0).sigma, 1.0);
        QCOMPARE(stack.count(), before + 1);
        stack.redo();
        QCOMPARE(model.event(0).sigma, 2.0);

        // Another field, or another row, is a new step.
        QVERIFY(model.setField(0, PlanModel::Count, 100));
        QCOMPARE(stack.count(), before + 2);
        QVERIFY(model.addEvent(PlanModel::defaultEvent(MechanismKind::Gaussian)));
        QVERIFY(model.setField(1, PlanModel::Parameter, 3.0));
        QCOMPARE(stack.count(), before + 4);

        // A drag that ends where it started leaves no step behind.
        QVERIFY(model.setField(1, PlanModel::Sensitivity, 2.0));
        QCOMPARE(stack.count(), before + 5);
        QVERIFY(model.setField(1, PlanModel::Sensitivity, 1.0));
        QCOMPARE(stack.count(), before + 4);
        QCOMPARE(model.event(1).sensitivity, 1.0);
    }

    void spinBoxDragInTheTableIsOneStep()
    {
        PlanModel model;
        QUndoStack stack;
        model.setUndoStack(&stack);
        ui::PlanEditor editor(&model, &stack);
        editor.resize(700, 300);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        QVERIFY(model.addEvent(laplace(10.0)));
        const int before = stack.count();

        QTableView *table = editor.tableView();
        const QModelIndex cell = model.index(0, PlanModel::Parameter);
        table->setCurrentIndex(cell);
        table->edit(cell);
        auto *spin = table->indexWidget(cell)
                         ? qobject_cast<ui::ScientificSpinBox *>(table->indexWidget(cell))
                         : table->findChild<ui::ScientificSpinBox *>();
        QVERIFY(spin);
        for (int i = 0; i < 10; ++i)
            spin->stepBy(1); // arrow key / wheel: each step commits at once
        QCOMPARE(stack.count(), before + 1);
        QCOMPARE(model.event(0).scale, spin->value());
        QVERIFY(model.event(0).scale > 10.0);
        editor.undoAction()->trigger();
        QCOMPARE(model.event(0).scale, 10.0);
        QCOMPARE(stack.count(), before + 1);
        editor.redoAction()->trigger();
        QCOMPARE(model.event(0).scale, spin->value());
    }

    void mechanismChangeUndoesExactly()
    {
        PlanModel model;
        QUndoStack stack;
        model.setUndoStack(&stack);
        auto e = laplace(4.0, 25);
        e.sensitivity = 2.0;
        e.sampling = {accounting::SamplingKind::Poisson, 0.1};
        QVERIFY(model.addEvent(e));
        QVERIFY(model.setField(0, PlanModel::Mechanism, static_cast<int>(MechanismKind::Gaussian)));
        const auto &g = model.event(0);
        QCOMPARE(g.mechanism, MechanismKind::Gaussian);
        QCOMPARE(g.count, std::int64_t{25}); // kept
        QCOMPARE(g.sensitivity, 2.0);        // kept
        QCOMPARE(g.sampling.rate, 0.1);      // kept
        stack.undo();
        QVERIFY(PlanModel::sameEvent(model.event(0), e));
    }

    void examplesAndNeighbours()
    {
        PlanModel model;
        QUndoStack stack;
        model.setUndoStack(&stack);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const auto plans = ui::examplePlans();
        QVERIFY(plans.size() >= 3);
        for (const auto &plan : plans)
            QVERIFY2(accounting::validateLedger(plan.ledger).ok(), qPrintable(plan.name));

        QVERIFY(model.addEvent(laplace(10.0)));
        QVERIFY(model.replacePlan(plans.front().ledger, plans.front().name));
        QCOMPARE(model.rowCount(), static_cast<int>(plans.front().ledger.events.size()));
        QVERIFY(stack.undoText().contains(plans.front().name));
        stack.undo();
        QCOMPARE(scales(model), (std::vector<double>{10.0}));
        stack.redo();
        QCOMPARE(model.totalSteps(), std::int64_t{1000}); // DP-SGD: 1000 steps

        QVERIFY(model.setNeighbours(accounting::Neighbouring::Replace));
        QCOMPARE(model.ledger().neighbours, accounting::Neighbouring::Replace);
        // Poisson sampling is not amplified under replace-one: the per-step text says so.
        const int before = stack.count();
        stack.undo();
        QCOMPARE(model.ledger().neighbours, accounting::Neighbouring::AddRemove);
        QCOMPARE(stack.count(), before);
    }

    void editorActionsFollowTheSelection()
    {
        PlanModel model;
        QUndoStack stack;
        model.setUndoStack(&stack);
        ui::PlanEditor editor(&model, &stack);
        editor.loadExample(4); // mixed: 4 events
        QCOMPARE(model.rowCount(), 4);
        QVERIFY(!editor.removeAction()->isEnabled());
        editor.tableView()->selectRow(0);
        QVERIFY(editor.removeAction()->isEnabled());
        QVERIFY(!editor.moveUpAction()->isEnabled());
        QVERIFY(editor.moveDownAction()->isEnabled());
        const auto first = model.event(0);
        editor.moveDownAction()->trigger();
        QVERIFY(PlanModel::sameEvent(model.event(1), first));
        QCOMPARE(editor.selectedRow(), 1);
        editor.removeAction()->trigger();
        QCOMPARE(model.rowCount(), 3);
        editor.undoAction()->trigger();
        editor.undoAction()->trigger();
        QVERIFY(PlanModel::sameEvent(model.event(0), first));
        QCOMPARE(editor.undoAction()->shortcut(), QKeySequence(QKeySequence::Undo));
        editor.addEvent(MechanismKind::RandomizedResponse);
        QCOMPARE(model.rowCount(), 5);
    }
};

QTEST_MAIN(TestPlanCommands)
#include "tst_plancommands.moc"
