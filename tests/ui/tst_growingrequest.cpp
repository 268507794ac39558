// SPDX-License-Identifier: MIT
// Query ▸ Growing-database stream… end to end on CPS1988 with seeded noise: the action is enabled
// only for a replace-one session; a stream issued from the dialog is charged epoch by epoch exactly
// as a core session with the same seed charges the same request; the ledger, the attempts and the
// result card describe the epochs ("BBScheduler epoch 3 of 5: t = 8000, ε = 0.03125").
#include "core/session/growing_release.h"
#include "core/session/session.h"
#include "tests/ui/uitestutils.h"
#include "ui/growing/growingrequestdialog.h"
#include "ui/mainwindow.h"
#include "ui/models/ledgermodel.h"
#include "ui/sessiondocument.h"
#include "ui/widgets/resultcard.h"

#include <QAction>
#include <QPushButton>
#include <QStandardPaths>
#include <QtTest/QtTest>

using namespace pbx;
using namespace pbx::ui;

namespace {

constexpr std::uint64_t kSeed = 20261126;

session::SessionSettings basicReplace(double epsilon)
{
    session::SessionSettings s;
    s.epsilon = epsilon;
    s.filter = filters::FilterKind::Basic;
    s.neighbours = data::Neighbouring::Replace;
    s.seed = kSeed;
    return s;
}

} // namespace

class TestGrowingRequest : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void enabledOnlyForReplaceOne();
    void issuesStreamOnCps1988();
};

void TestGrowingRequest::enabledOnlyForReplaceOne()
{
    MainWindow w;
    auto *action = w.findChild<QAction *>(QStringLiteral("growingRequestAction"));
    QVERIFY(action);
    QVERIFY(!action->isEnabled());
    QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
    session::SessionSettings addRemove = basicReplace(1.0);
    addRemove.neighbours = data::Neighbouring::AddRemove;
    QVERIFY(w.startNewSession(addRemove).ok());
    QVERIFY(!action->isEnabled());
    QVERIFY(action->toolTip().contains(QStringLiteral("replace-one")));
    QVERIFY(w.startNewSession(basicReplace(1.0)).ok());
    QVERIFY(action->isEnabled());
}

void TestGrowingRequest::issuesStreamOnCps1988()
{
    MainWindow w;
    w.resize(1400, 900);
    QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
    QVERIFY(w.startNewSession(basicReplace(1.0)).ok());
    auto *action = w.findChild<QAction *>(QStringLiteral("growingRequestAction"));
    QVERIFY(action && action->isEnabled());
    action->trigger();
    auto *dialog = w.findChild<GrowingRequestDialog *>(QStringLiteral("growingRequestDialog"));
    QVERIFY(dialog);
    dialog->setStartSize(1000);
    dialog->setEnd(0); // every row: 28,155
    dialog->setSeed(7);
    dialog->setBudget(QStringLiteral("pure"), 1.0);
    dialog->setSchedule(QStringLiteral("geometric"), 1.0);
    dialog->setQueries({QStringLiteral("region == \"south\""), QStringLiteral("education >= 16")});
    QVERIFY2(dialog->askButton()->isEnabled(), qPrintable(dialog->planText()));
    QVERIFY2(dialog->planText().startsWith(QStringLiteral("5 epochs")), qPrintable(dialog->planText()));
    QVERIFY(dialog->planText().contains(QStringLiteral("epoch 3: t = 8000 … 15999, ε = 0.0625")));
    auto request = dialog->request();
    QVERIFY(request.ok());

    QTest::mouseClick(dialog->askButton(), Qt::LeftButton);
    const auto &events = w.document()->session().events();
    QCOMPARE(events.size(), std::size_t{1});
    const session::LedgerEvent event = events.front();
    QVERIFY(event.growingRecord);
    QCOMPARE(event.growingRecord->epochs.size(), std::size_t{5});

    // The same request on a core session with the same seed charges and answers the same.
    auto table = SessionDocument::loadTable(QStringLiteral("cps1988"));
    QVERIFY(table.ok());
    auto core = session::Session::create(*table, basicReplace(1.0));
    QVERIFY(core.ok());
    auto expected = (*core)->ask(*request);
    QVERIFY(expected.ok());
    QCOMPARE(event.cost, expected->cost);
    QVERIFY(std::abs(event.cost - 0.96875) < 1e-12); // ε (1 − 2⁻⁵)
    for (std::size_t i = 0; i < 5; ++i) {
        QCOMPARE(event.attempts[i].cost, expected->attempts[i].cost);
        QCOMPARE(event.growingRecord->epochs[i].answers, expected->growingRecord->epochs[i].answers);
    }
    QCOMPARE(w.document()->session().filter().spent(), expected->cost);

    // Ledger row, result card and dialog describe the epochs.
    auto *model = w.ledgerModel();
    QCOMPARE(model->rowCount(), 1);
    QCOMPARE(model->index(0, LedgerModel::Cost).data(LedgerModel::RawValueRole).toDouble(), event.cost);
    QVERIFY(model->index(0, LedgerModel::Query)
                .data()
                .toString()
                .startsWith(QStringLiteral("BBScheduler stream")));
    QCOMPARE(w.resultCard()->headline(), QStringLiteral("5 of 5 epochs released"));
    QVERIFY2(
        w.resultCard()->details().contains(QStringLiteral("BBScheduler epoch 3 of 5: t = 8000, ε = 0.0625")),
        qPrintable(w.resultCard()->details()));
    QVERIFY(
        dialog->resultText().contains(QStringLiteral("BBScheduler epoch 4 of 5: t = 16000, ε = 0.03125")));
    QVERIFY(!pbx::test::saveScreenshot(*dialog, QStringLiteral("growing-request")).isEmpty());

    // A second stream does not fit what is left (0.03125): refused at its first epoch, nothing charged.
    QTest::mouseClick(dialog->askButton(), Qt::LeftButton);
    QCOMPARE(events.size(), std::size_t{2});
    QCOMPARE(events.back().status, session::EventStatus::Refused);
    QCOMPARE(w.document()->session().filter().spent(), event.cost);
    QVERIFY(dialog->resultText().contains(QStringLiteral("refused")));
}

QTEST_MAIN(TestGrowingRequest)
#include "tst_growingrequest.moc"
