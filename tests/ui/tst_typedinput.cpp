// SPDX-License-Identifier: MIT
// What you type is what you ask. A number box holds the text being typed and
// the value it last committed; Ctrl+Return used to read the value without committing the text, so
// typing 20 over 50 and pressing Ctrl+Return released the answer at ±50. Every trigger (Ctrl+Return,
// the Ask button, Enter in the predicate, Query ▸ Ask, Enter in a dialog) now asks what the boxes
// show, or refuses naming the field whose text is not a value it accepts — nothing spent.
#include "core/session/cost_preview.h"
#include "core/session/planned_cap.h"
#include "tests/testutils.h"
#include "ui/appsettings.h"
#include "ui/growing/growingrequestdialog.h"
#include "ui/mainwindow.h"
#include "ui/odp/svtrequestdialog.h"
#include "ui/panels/querybuilder.h"
#include "ui/panels/sessionpanel.h"
#include "ui/sessiondocument.h"
#include "ui/widgets/resultcard.h"
#include "ui/widgets/typedinput.h"

#include <QAbstractSpinBox>
#include <QAction>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QtTest/QtTest>

using namespace pbx;
using pbx::ui::MainWindow;
using pbx::ui::TypedInput;

namespace {

constexpr std::uint64_t kTypedInputSeed = 20240601;

QAbstractSpinBox *field(QWidget &root, const QString &name)
{
    for (QAbstractSpinBox *box : root.findChildren<QAbstractSpinBox *>())
        if (TypedInput::fieldName(box) == name)
            return box;
    return nullptr;
}

/// Replaces the box's text by `text` as a user does (focus, select all, type), without Enter.
void typeInto(QAbstractSpinBox *box, const QString &text)
{
    box->setFocus(Qt::MouseFocusReason);
    box->selectAll();
    QTest::keyClicks(box, text);
}

std::unique_ptr<MainWindow> makeTypedInputWindow(session::SessionSettings settings = {})
{
    auto w = std::make_unique<MainWindow>();
    w->resize(1400, 900);
    if (!w->openDataset(QStringLiteral("cps1988")).ok())
        qFatal("cannot open cps1988");
    settings.seed = kTypedInputSeed;
    if (!w->startNewSession(settings).ok())
        qFatal("cannot start a session");
    w->show();
    if (!QTest::qWaitForWindowActive(w.get()))
        qFatal("the window did not become active");
    return w;
}

} // namespace

class TestTypedInput : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        // Every request here is asked at once: the confirmation of expensive requests has its own
        // test (ui.mainwindow).
        ui::AppSettings::setConfirmCostShare(1.0);
    }
    void everyTriggerAsksTheTypedTarget_data();
    void everyTriggerAsksTheTypedTarget();
    void costPreviewFollowsTheKeys();
    void unacceptableTextIsRefusedNamingTheField();
    void textReplacedWhenFocusLeftIsRefused();
    void typedBudgetIsTheSessionsBudget();
    void sparseVectorDialogAsksTheTypedEpsilon();
    void growingDialogAsksTheTypedBudget();
};

void TestTypedInput::everyTriggerAsksTheTypedTarget_data()
{
    QTest::addColumn<QString>("trigger");
    QTest::newRow("Ctrl+Return") << QStringLiteral("shortcut");
    QTest::newRow("Ask button") << QStringLiteral("button");
    QTest::newRow("Enter in Where") << QStringLiteral("where");
    QTest::newRow("Query > Ask") << QStringLiteral("action");
}

void TestTypedInput::everyTriggerAsksTheTypedTarget()
{
    QFETCH(QString, trigger);
    auto w = makeTypedInputWindow();
    QAbstractSpinBox *target = field(*w->queryBuilder(), QStringLiteral("Accuracy target"));
    QVERIFY(target);
    auto *value = qobject_cast<QDoubleSpinBox *>(target);
    value->setValue(500.0);
    typeInto(target, QStringLiteral("200"));
    if (trigger == QStringLiteral("shortcut")) {
        // The key goes to the focused box; the window's shortcut takes it before the box does.
        QTest::keyClick(target, Qt::Key_Return, Qt::ControlModifier);
    } else if (trigger == QStringLiteral("button")) {
        QTest::mouseClick(w->queryBuilder()->askButton(), Qt::LeftButton);
    } else if (trigger == QStringLiteral("where")) {
        QLineEdit *where = w->queryBuilder()->whereEdit();
        where->setFocus(Qt::MouseFocusReason);
        QTest::keyClick(where, Qt::Key_Return);
    } else {
        auto *ask = w->findChild<QAction *>(QStringLiteral("askAction")); // Query ▸ Ask
        QVERIFY(ask);
        ask->trigger();
    }
    const auto &events = w->document()->session().events();
    QVERIFY2(events.size() == 1, qPrintable(w->resultCard()->headline() + u' ' + w->resultCard()->details()));
    QCOMPARE(events.back().request.target.error, 200.0);
    QCOMPARE(value->value(), 200.0);
}

void TestTypedInput::costPreviewFollowsTheKeys()
{
    auto w = makeTypedInputWindow();
    QAbstractSpinBox *target = field(*w->queryBuilder(), QStringLiteral("Accuracy target"));
    qobject_cast<QDoubleSpinBox *>(target)->setValue(500.0);
    typeInto(target, QStringLiteral("200"));
    // Before any commit, the preview is already about ±200: the request Ask will send.
    session::QueryRequest sent = w->queryBuilder()->request();
    QCOMPARE(sent.target.error, 200.0);
    sent = session::withPlannedCap(sent, w->document()->session().filter(),
                                   static_cast<std::size_t>(w->queryBuilder()->plannedQueries()));
    const auto preview = session::previewCost(w->document()->session(), sent);
    QVERIFY(preview);
    QVERIFY(!w->queryBuilder()->costPreview().isEmpty());
    QTest::keyClick(target, Qt::Key_Return, Qt::ControlModifier);
    QCOMPARE(w->document()->session().events().size(), std::size_t{1});
    QVERIFY(preview->exact);
    QCOMPARE(w->document()->session().events().back().cost, *preview->exact);
}

void TestTypedInput::unacceptableTextIsRefusedNamingTheField()
{
    auto w = makeTypedInputWindow();
    QAbstractSpinBox *target = field(*w->queryBuilder(), QStringLiteral("Accuracy target"));
    qobject_cast<QDoubleSpinBox *>(target)->setValue(50.0);
    typeInto(target, QStringLiteral("0")); // the box accepts 1e-09 to 1e+15
    QTest::keyClick(target, Qt::Key_Return, Qt::ControlModifier);
    QCOMPARE(w->document()->session().events().size(), std::size_t{0});
    const QString refusal = QStringLiteral("Accuracy target: '0' is not a value it accepts "
                                           "(1e-09 to 1e+15); nothing was asked");
    const QString card = w->resultCard()->headline() + w->resultCard()->details();
    QVERIFY2(card.contains(refusal), qPrintable(card));
    QCOMPARE(w->queryBuilder()->commitTypedInput(), refusal); // still refused: nothing changed
    QCOMPARE(target->text(), QStringLiteral("0"));            // kept for the user to correct
    // Corrected, the same shortcut asks it.
    typeInto(target, QStringLiteral("300"));
    QTest::keyClick(target, Qt::Key_Return, Qt::ControlModifier);
    QCOMPARE(w->document()->session().events().size(), std::size_t{1});
    QCOMPARE(w->document()->session().events().back().request.target.error, 300.0);
}

void TestTypedInput::textReplacedWhenFocusLeftIsRefused()
{
    auto w = makeTypedInputWindow();
    QAbstractSpinBox *confidence = field(*w->queryBuilder(), QStringLiteral("Confidence"));
    QVERIFY(confidence);
    typeInto(confidence, QStringLiteral("100")); // 50 to 99.999: Qt would ask at 99.999
    // Clicking Ask takes the focus first; Qt replaces the text by the nearest value it accepts.
    QTest::mouseClick(w->queryBuilder()->askButton(), Qt::LeftButton);
    QCOMPARE(w->document()->session().events().size(), std::size_t{0});
    QCOMPARE(confidence->text(), QStringLiteral("100 %")); // what was typed, shown again
    typeInto(confidence, QStringLiteral("99"));
    QTest::mouseClick(w->queryBuilder()->askButton(), Qt::LeftButton);
    QCOMPARE(w->document()->session().events().size(), std::size_t{1});
    QCOMPARE(w->document()->session().events().back().request.target.confidence, 0.99);
}

void TestTypedInput::typedBudgetIsTheSessionsBudget()
{
    auto w = makeTypedInputWindow();
    QAbstractSpinBox *epsilon = field(*w->sessionPanel(), QStringLiteral("ε (epsilon)"));
    QVERIFY2(epsilon, "no field named ε in the session panel");
    QCOMPARE(w->document()->settings().epsilon, 1.0);
    typeInto(epsilon, QStringLiteral("0.5"));
    QAbstractSpinBox *target = field(*w->queryBuilder(), QStringLiteral("Accuracy target"));
    target->setFocus(Qt::TabFocusReason); // leaving the ε box commits it (Enter would too)
    QTest::keyClick(target, Qt::Key_Return, Qt::ControlModifier);
    QCOMPARE(w->document()->settings().epsilon, 0.5);
    QCOMPARE(w->document()->session().events().size(), std::size_t{1});

    // The same without leaving the box: Ctrl+Return commits the budget before the query.
    auto v = makeTypedInputWindow();
    QAbstractSpinBox *epsilon2 = field(*v->sessionPanel(), QStringLiteral("ε (epsilon)"));
    typeInto(epsilon2, QStringLiteral("0.25"));
    QTest::keyClick(epsilon2, Qt::Key_Return, Qt::ControlModifier);
    QCOMPARE(v->document()->settings().epsilon, 0.25);
    QCOMPARE(v->document()->session().events().size(), std::size_t{1});
}

void TestTypedInput::sparseVectorDialogAsksTheTypedEpsilon()
{
    session::SessionSettings odp;
    odp.filter = filters::FilterKind::Odp;
    odp.epsilon = 5.0;
    auto w = makeTypedInputWindow(odp);
    w->findChild<QAction *>(QStringLiteral("svtRequestAction"))->trigger();
    auto *dialog = w->findChild<ui::SvtRequestDialog *>(QStringLiteral("svtRequestDialog"));
    QVERIFY(dialog);
    dialog->setColumn(QStringLiteral("region"));
    dialog->setThreshold(7000);
    dialog->setEpsilon(0.5);
    QVERIFY(QTest::qWaitForWindowActive(dialog));
    QAbstractSpinBox *epsilon = field(*dialog, QStringLiteral("ε"));
    QVERIFY(epsilon);
    typeInto(epsilon, QStringLiteral("0.8"));
    QTest::keyClick(epsilon, Qt::Key_Return); // Enter: the dialog's default button, Ask
    const auto &events = w->document()->session().events();
    QCOMPARE(events.size(), std::size_t{1});
    QVERIFY(events.back().request.odp());
    QCOMPARE(events.back().request.odp()->svt.epsilon, 0.8);

    // Out of range: refused in the dialog, naming the field, nothing spent.
    typeInto(epsilon, QStringLiteral("0"));
    QTest::keyClick(epsilon, Qt::Key_Return);
    QCOMPARE(events.size(), std::size_t{1});
    QVERIFY(epsilon->text().startsWith(u'0'));
}

void TestTypedInput::growingDialogAsksTheTypedBudget()
{
    session::SessionSettings replace;
    replace.filter = filters::FilterKind::Basic;
    replace.neighbours = data::Neighbouring::Replace;
    auto w = makeTypedInputWindow(replace);
    w->findChild<QAction *>(QStringLiteral("growingRequestAction"))->trigger();
    auto *dialog = w->findChild<ui::GrowingRequestDialog *>(QStringLiteral("growingRequestDialog"));
    QVERIFY(dialog);
    dialog->setStartSize(1000);
    dialog->setEnd(0);
    dialog->setSeed(7);
    dialog->setBudget(QStringLiteral("pure"), 1.0);
    dialog->setSchedule(QStringLiteral("geometric"), 1.0);
    dialog->setQueries({QStringLiteral("region == \"south\"")});
    QVERIFY(QTest::qWaitForWindowActive(dialog));
    QAbstractSpinBox *budget = field(*dialog, QStringLiteral("Series budget"));
    QVERIFY(budget);
    typeInto(budget, QStringLiteral("0.5"));
    QTest::mouseClick(dialog->askButton(), Qt::LeftButton);
    const auto &events = w->document()->session().events();
    QCOMPARE(events.size(), std::size_t{1});
    QVERIFY(events.back().request.growing());
    QCOMPARE(events.back().request.growing()->epsilon, 0.5);
}

QTEST_MAIN(TestTypedInput)
#include "tst_typedinput.moc"
