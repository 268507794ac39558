// SPDX-License-Identifier: MIT
// Query ▸ Growing-database stream… end to end on CPS1988 with seeded noise: the action is enabled
// only for a replace-one session; a stream issued from the dialog is charged epoch by epoch exactly
// as a core session with the same seed charges the same request; the ledger, the attempts and the
// result card describe the epochs ("BBScheduler epoch 3 of 5: t = 8000, ε = 0.03125").
#include "core/session/growing/growing_release.h"
#include "core/session/session.h"
#include "tests/ui/uitestutils.h"
#include "ui/growing/growingrequestdialog.h"
#include "ui/growing/pmwgfields.h"
#include "ui/mainwindow.h"
#include "ui/models/ledgermodel.h"
#include "ui/sessiondocument.h"
#include "ui/widgets/attemptsview.h"
#include "ui/widgets/resultcard.h"

#include <QAction>
#include <QPushButton>
#include <QStandardPaths>
#include <QtTest/QtTest>

using namespace pbx;
using namespace pbx::ui;

namespace {

constexpr std::uint64_t kGrowingRequestSeed = 20261126;

session::SessionSettings basicReplace(double epsilon)
{
    session::SessionSettings s;
    s.epsilon = epsilon;
    s.filter = filters::FilterKind::Basic;
    s.neighbours = data::Neighbouring::Replace;
    s.seed = kGrowingRequestSeed;
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
    void issuesImproverStream();
    void issuesNsgStream();
    void issuesPmwgStream();
    void issuesErmgStream();
    void issuesSmallDbStream();
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
    QVERIFY(event.growingRecord());
    QCOMPARE(event.growingRecord()->epochs.size(), std::size_t{5});

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
        QCOMPARE(event.growingRecord()->epochs[i].answers, expected->growingRecord()->epochs[i].answers);
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

void TestGrowingRequest::issuesImproverStream()
{
    // BBImprover from the same dialog: a ρ_t charge per run, the core session's numbers bit for bit.
    session::SessionSettings settings = basicReplace(10.0);
    settings.filter = filters::FilterKind::Zcdp;
    MainWindow w;
    w.resize(1400, 900);
    QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
    QVERIFY(w.startNewSession(settings).ok());
    auto *action = w.findChild<QAction *>(QStringLiteral("growingRequestAction"));
    QVERIFY(action && action->isEnabled());
    action->trigger();
    auto *dialog = w.findChild<GrowingRequestDialog *>(QStringLiteral("growingRequestDialog"));
    QVERIFY(dialog);
    dialog->setStartSize(1000);
    dialog->setEnd(0);
    dialog->setSeed(7);
    dialog->setAlgorithm(QStringLiteral("bbimprover"));
    dialog->setBudget(QStringLiteral("zcdp"), 0.5);
    dialog->setImproverSchedule(0.1, 100);
    dialog->setQueries({QStringLiteral("region == \"south\""), QStringLiteral("education >= 16")});
    QVERIFY2(dialog->askButton()->isEnabled(), qPrintable(dialog->planText()));
    QVERIFY2(dialog->planText().startsWith(QStringLiteral("272 runs")), qPrintable(dialog->planText()));
    QVERIFY2(dialog->planText().contains(QStringLiteral("together ρ = 0.1396")),
             qPrintable(dialog->planText()));
    QVERIFY(dialog->planText().contains(QStringLiteral("run 0: t = 1000 … 1099, ρ = 0.004506")));
    QVERIFY(dialog->planText().contains(QStringLiteral("… 266 more, the last at t = 28100")));
    auto request = dialog->request();
    QVERIFY(request.ok());
    QCOMPARE(request->growing()->algorithm, session::GrowingAlgorithm::BBImprover);
    QCOMPARE(request->growing()->every, std::uint64_t{100});
    // Every row would be 27,156 runs: the dialog names the field and Ask is off.
    dialog->setImproverSchedule(0.1, 1);
    QVERIFY(!dialog->askButton()->isEnabled());
    QVERIFY2(dialog->planText().contains(QStringLiteral("INVALID_CONFIG: schedule.every")),
             qPrintable(dialog->planText()));
    dialog->setImproverSchedule(0.1, 100);
    QVERIFY(dialog->askButton()->isEnabled());

    QTest::mouseClick(dialog->askButton(), Qt::LeftButton);
    const auto &events = w.document()->session().events();
    QCOMPARE(events.size(), std::size_t{1});
    const session::LedgerEvent event = events.front();
    QCOMPARE(event.costKind, filters::ChargeKind::Rho);
    QCOMPARE(event.growingRecord()->epochs.size(), std::size_t{272});
    auto table = SessionDocument::loadTable(QStringLiteral("cps1988"));
    QVERIFY(table.ok());
    auto core = session::Session::create(*table, settings);
    QVERIFY(core.ok());
    auto expected = (*core)->ask(*request);
    QVERIFY(expected.ok());
    QCOMPARE(event.cost, expected->cost);
    QVERIFY(std::abs(event.cost - 0.13959) < 1e-5);
    for (std::size_t i = 0; i < 272; i += 30) {
        QCOMPARE(event.attempts[i].cost, expected->attempts[i].cost);
        QCOMPARE(event.growingRecord()->epochs[i].answers, expected->growingRecord()->epochs[i].answers);
    }
    QVERIFY(std::abs(w.document()->session().filter().spent() - expected->cost) < 1e-12);
    QVERIFY(w.ledgerModel()
                ->index(0, LedgerModel::Query)
                .data()
                .toString()
                .startsWith(QStringLiteral(
                    "BBImprover stream, t = 1000 … all rows, a = 0.1, every 100 rows, ρ ≤ 0.5")));
    QCOMPARE(w.resultCard()->headline(), QStringLiteral("272 of 272 runs released"));
    QVERIFY2(w.resultCard()->details().contains(QStringLiteral("BBImprover run 271 of 272: t = 28100")),
             qPrintable(w.resultCard()->details()));
    QVERIFY(w.resultCard()->details().contains(QStringLiteral("… 260 more")));
    QVERIFY(dialog->resultText().contains(QStringLiteral("BBImprover run 2 of 272: t = 1200")));
    QVERIFY(!dialog->resultText().contains(QStringLiteral("BBImprover run 3 of 272")));
    QVERIFY(dialog->resultText().contains(QStringLiteral("… 266 more")));
    QVERIFY(!pbx::test::saveScreenshot(*dialog, QStringLiteral("growing-request-improver")).isEmpty());
    for (const QSize size : {QSize(1024, 700), QSize(1600, 1000)}) {
        w.resize(size);
        QVERIFY(
            !pbx::test::saveScreenshot(w, QStringLiteral("growing-improver-%1").arg(size.width())).isEmpty());
    }
}

void TestGrowingRequest::issuesNsgStream()
{
    // NSG from the dialog: rounds charged when they open, the core session's numbers bit for bit.
    session::SessionSettings settings = basicReplace(10.0);
    MainWindow w;
    w.resize(1400, 900);
    QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
    QVERIFY(w.startNewSession(settings).ok());
    w.findChild<QAction *>(QStringLiteral("growingRequestAction"))->trigger();
    auto *dialog = w.findChild<GrowingRequestDialog *>(QStringLiteral("growingRequestDialog"));
    QVERIFY(dialog);
    dialog->setStartSize(1000);
    dialog->setEnd(0);
    dialog->setSeed(7);
    dialog->setAlgorithm(QStringLiteral("nsg"));
    dialog->setBudget(QStringLiteral("pure"), 1.0);
    dialog->setNsg(0.5, 0.3, QStringLiteral("time"), 10.0, 40);
    dialog->setQueries({QStringLiteral("region == \"south\""), QStringLiteral("ethnicity == \"afam\"")});
    QVERIFY2(dialog->askButton()->isEnabled(), qPrintable(dialog->planText()));
    QVERIFY2(dialog->planText().startsWith(QStringLiteral("40 checkpoints from t = 1000 to 28155")),
             qPrintable(dialog->planText()));
    // (7/3)f(1000) = (7/3)/(1000 σ_n), σ_n = 0.071·217/213; worst case the budget ε = 1; H(28155) = 43.
    QVERIFY2(dialog->planText().contains(QStringLiteral("the first ε = 0.03226")),
             qPrintable(dialog->planText()));
    QVERIFY(dialog->planText().contains(QStringLiteral("At most 43 ⊤ answers")));
    QVERIFY(dialog->planText().contains(QStringLiteral("worst case over all transcripts is ε = 1.")));
    auto request = dialog->request();
    QVERIFY(request.ok());
    QCOMPARE(request->growing()->algorithm, session::GrowingAlgorithm::Nsg);
    QTest::mouseClick(dialog->askButton(), Qt::LeftButton);
    const auto &events = w.document()->session().events();
    QCOMPARE(events.size(), std::size_t{1});
    const session::LedgerEvent event = events.front();
    QVERIFY(event.growingRecord() && event.growingRecord()->nsg);
    auto table = SessionDocument::loadTable(QStringLiteral("cps1988"));
    auto core = session::Session::create(*table, settings);
    auto expected = (*core)->ask(*request);
    QVERIFY(expected.ok());
    QCOMPARE(event.cost, expected->cost);
    QCOMPARE(event.growingRecord()->nsg->rounds.size(), expected->growingRecord()->nsg->rounds.size());
    QCOMPARE(event.growingRecord()->nsg->hard.back().answer,
             expected->growingRecord()->nsg->hard.back().answer);
    QCOMPARE(w.document()->session().filter().spent(), event.cost);
    const auto &nsg = *event.growingRecord()->nsg;
    QCOMPARE(w.resultCard()->headline(),
             QStringLiteral("%1 ⊤ answers in %2 rounds").arg(nsg.hard.size()).arg(nsg.rounds.size()));
    QVERIFY2(w.resultCard()->details().contains(QStringLiteral("NSG round 0: opened at t = 1000, ⊤ at t = ")),
             qPrintable(w.resultCard()->details()));
    QVERIFY(w.ledgerModel()
                ->index(0, LedgerModel::Query)
                .data()
                .toString()
                .startsWith(QStringLiteral(
                    "NSG stream, t = 1000 … all rows, p = 0.5, T = 0.3, time cap c₀ = 10, 40 checkpoints")));
    QVERIFY(dialog->resultText().contains(QStringLiteral("NSG round 0: opened at t = 1000")));
    QVERIFY(!pbx::test::saveScreenshot(*dialog, QStringLiteral("growing-request-nsg")).isEmpty());
    w.resize(1024, 700);
    QVERIFY(!pbx::test::saveScreenshot(w, QStringLiteral("growing-nsg-1024")).isEmpty());
}

void TestGrowingRequest::issuesPmwgStream()
{
    // PMWG from the dialog (the lab's defaults: n = 14000, small universe, p = ½, c₀ = 40, T = 0.05,
    // η = 0.3, 40 × 25 conjunctions, pure ε = 1): rounds charged when they open, the core session's
    // numbers bit for bit.
    session::SessionSettings settings = basicReplace(10.0);
    MainWindow w;
    w.resize(1400, 900);
    QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
    QVERIFY(w.startNewSession(settings).ok());
    w.findChild<QAction *>(QStringLiteral("growingRequestAction"))->trigger();
    auto *dialog = w.findChild<GrowingRequestDialog *>(QStringLiteral("growingRequestDialog"));
    QVERIFY(dialog);
    dialog->setStartSize(14000);
    dialog->setEnd(0);
    dialog->setSeed(7);
    dialog->setAlgorithm(QStringLiteral("pmwg"));
    dialog->setBudget(QStringLiteral("pure"), 1.0);
    dialog->pmwgFields()->set(QStringLiteral("small"), QStringLiteral("practical"), 0.5, 40.0, 0.05, 0.3, 40,
                              25);
    QVERIFY2(dialog->askButton()->isEnabled(), qPrintable(dialog->planText()));
    QVERIFY2(dialog->planText().startsWith(
                 QStringLiteral("40 checkpoints × 25 random conjunctions from t = 14000 to 28155")),
             qPrintable(dialog->planText()));
    // (7/3)f(14000) = (7/3)/(14000 σ_n), σ_n = 0.0201667; worst case ε = 1; H(28155) = 67.
    QVERIFY2(dialog->planText().contains(QStringLiteral("the first ε = 0.008264")),
             qPrintable(dialog->planText()));
    QVERIFY(dialog->planText().contains(QStringLiteral("At most 67 hard queries")));
    QVERIFY(dialog->planText().contains(QStringLiteral("worst case over all transcripts is ε = 1.")));
    QVERIFY(!pbx::test::saveScreenshot(*dialog, QStringLiteral("growing-request-pmwg")).isEmpty());
    auto request = dialog->request();
    QVERIFY(request.ok());
    QCOMPARE(request->growing()->algorithm, session::GrowingAlgorithm::Pmwg);
    QCOMPARE(request->growing()->pmwg.perCheckpoint, std::uint64_t{25});
    QTest::mouseClick(dialog->askButton(), Qt::LeftButton);
    const auto &events = w.document()->session().events();
    QCOMPARE(events.size(), std::size_t{1});
    const session::LedgerEvent event = events.front();
    QVERIFY(event.growingRecord() && event.growingRecord()->pmwg);
    auto table = SessionDocument::loadTable(QStringLiteral("cps1988"));
    auto core = session::Session::create(*table, settings);
    auto expected = (*core)->ask(*request);
    QVERIFY(expected.ok());
    QCOMPARE(event.cost, expected->cost);
    const auto &pmwg = *event.growingRecord()->pmwg;
    QCOMPARE(pmwg.rounds.size(), expected->growingRecord()->pmwg->rounds.size());
    QCOMPARE(pmwg.hard.back().answer, expected->growingRecord()->pmwg->hard.back().answer);
    QCOMPARE(pmwg.hard.size(), std::size_t{67}); // the cap binds, as in the lab
    QCOMPARE(w.document()->session().filter().spent(), event.cost);
    QCOMPARE(w.resultCard()->headline(),
             QStringLiteral("%1 hard queries in %2 rounds").arg(pmwg.hard.size()).arg(pmwg.rounds.size()));
    QVERIFY2(
        w.resultCard()->details().contains(QStringLiteral("PMWG round 0: opened at t = 14000, ⊤ at t = ")),
        qPrintable(w.resultCard()->details()));
    QVERIFY(w.resultCard()->details().contains(QStringLiteral("1000 answers at 40 checkpoints, 67 hard")));
    QVERIFY(
        w.ledgerModel()
            ->index(0, LedgerModel::Query)
            .data()
            .toString()
            .startsWith(QStringLiteral("PMWG stream, t = 14000 … all rows, universe small (N = 160), "
                                       "practical T = 0.05, η = 0.3, c₀ = 40, p = 0.5, 40 × 25 queries")));
    QVERIFY(dialog->resultText().contains(QStringLiteral("PMWG round 0: opened at t = 14000")));
    QVERIFY(!pbx::test::saveScreenshot(*dialog, QStringLiteral("growing-request-pmwg-after")).isEmpty());
    for (const QSize size : {QSize(1024, 700), QSize(1600, 1000)}) {
        w.resize(size);
        dialog->resize(std::min(size.width(), 640), std::min(size.height(), 760));
        QVERIFY(!pbx::test::saveScreenshot(w, QStringLiteral("growing-pmwg-%1").arg(size.width())).isEmpty());
        QVERIFY(
            !pbx::test::saveScreenshot(*dialog, QStringLiteral("growing-request-pmwg-%1").arg(size.width()))
                 .isEmpty());
    }
}

void TestGrowingRequest::issuesErmgStream()
{
    // ERMG from the dialog: a zCDP session; 28 releases charged ρ_t each, the core's numbers bit for bit.
    session::SessionSettings settings = basicReplace(10.0);
    settings.filter = filters::FilterKind::Zcdp;
    settings.delta = 1e-6;
    MainWindow w;
    w.resize(1600, 1000);
    QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
    QVERIFY(w.startNewSession(settings).ok());
    w.findChild<QAction *>(QStringLiteral("growingRequestAction"))->trigger();
    auto *dialog = w.findChild<GrowingRequestDialog *>(QStringLiteral("growingRequestDialog"));
    QVERIFY(dialog);
    dialog->setStartSize(1000);
    dialog->setEnd(0);
    dialog->setSeed(7);
    dialog->setAlgorithm(QStringLiteral("ermg"));
    dialog->setBudget(QStringLiteral("zcdp"), 0.5);
    dialog->setErm(QStringLiteral("improver"), 0.01, 1e-10);
    dialog->setImproverSchedule(0.1, 1000);
    QVERIFY2(dialog->askButton()->isEnabled(), qPrintable(dialog->planText()));
    QVERIFY2(dialog->planText().startsWith(QStringLiteral("28 releases, each charged to the filter")),
             qPrintable(dialog->planText()));
    QVERIFY2(dialog->planText().contains(QStringLiteral("together ρ = 0.1228")),
             qPrintable(dialog->planText()));
    QVERIFY(dialog->planText().contains(QStringLiteral("release 0: t = 1000 … 1999, ρ = ")));
    auto request = dialog->request();
    QVERIFY(request.ok());
    QCOMPARE(request->growing()->algorithm, session::GrowingAlgorithm::Ermg);
    QCOMPARE(request->growing()->ermLambda, 0.01);
    // A pure budget is refused naming the field, and Ask is disabled.
    dialog->setBudget(QStringLiteral("pure"), 0.5);
    QVERIFY(!dialog->askButton()->isEnabled());
    QVERIFY(!dialog->request().ok());
    QVERIFY(
        QString::fromStdString(dialog->request().error().message).contains(QStringLiteral("budget.kind")));
    dialog->setBudget(QStringLiteral("zcdp"), 0.5);
    QVERIFY(!pbx::test::saveScreenshot(*dialog, QStringLiteral("growing-request-ermg")).isEmpty());
    QTest::mouseClick(dialog->askButton(), Qt::LeftButton);
    const auto &events = w.document()->session().events();
    QCOMPARE(events.size(), std::size_t{1});
    const session::LedgerEvent event = events.front();
    auto table = SessionDocument::loadTable(QStringLiteral("cps1988"));
    auto core = session::Session::create(*table, settings);
    auto expected = (*core)->ask(*request);
    QVERIFY(expected.ok());
    QCOMPARE(event.cost, expected->cost);
    QCOMPARE(event.growingRecord()->epochs.size(), std::size_t{28});
    QCOMPARE(event.growingRecord()->epochs.back().answers, expected->growingRecord()->epochs.back().answers);
    QCOMPARE(w.document()->session().filter().spent(), event.cost);
    QCOMPARE(w.resultCard()->headline(), QStringLiteral("28 of 28 models released"));
    QVERIFY2(w.resultCard()->details().contains(QStringLiteral("ERMG release 0 of 28: t = 1000, ρ = ")),
             qPrintable(w.resultCard()->details()));
    QVERIFY(w.resultCard()->details().contains(QStringLiteral("θ = ")));
    QVERIFY(w.ledgerModel()
                ->index(0, LedgerModel::Query)
                .data()
                .toString()
                .startsWith(
                    QStringLiteral("ERMG stream, t = 1000 … all rows, improver a = 0.1, every 1000 rows")));
    auto *attempts = w.attemptsView();
    QCOMPARE(attempts->topLevelItemCount(), 28);
    QVERIFY(attempts->topLevelItem(0)
                ->text(AttemptsView::StepColumn)
                .startsWith(QStringLiteral("ERMG release 0")));
    QCOMPARE(attempts->topLevelItem(0)->childCount(), 9);
    QCOMPARE(attempts->topLevelItem(0)->child(0)->text(AttemptsView::StepColumn), QStringLiteral("θ_0"));
    QVERIFY(dialog->resultText().contains(QStringLiteral("ERMG release 27 of 28: t = 28000")));
    QVERIFY(!pbx::test::saveScreenshot(w, QStringLiteral("growing-ermg-1600")).isEmpty());
    w.resize(1024, 700);
    QVERIFY(!pbx::test::saveScreenshot(w, QStringLiteral("growing-ermg-1024")).isEmpty());
    dialog->resize(dialog->width(), 680);
    QVERIFY(!pbx::test::saveScreenshot(*dialog, QStringLiteral("growing-request-ermg-700")).isEmpty());
}

void TestGrowingRequest::issuesSmallDbStream()
{
    // SmallDBG from the dialog: five epochs, each charged ε_i before its draw; m = 12 is refused.
    session::SessionSettings settings = basicReplace(10.0);
    MainWindow w;
    w.resize(1600, 1000);
    QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
    QVERIFY(w.startNewSession(settings).ok());
    w.findChild<QAction *>(QStringLiteral("growingRequestAction"))->trigger();
    auto *dialog = w.findChild<GrowingRequestDialog *>(QStringLiteral("growingRequestDialog"));
    QVERIFY(dialog);
    dialog->setStartSize(1000);
    dialog->setEnd(0);
    dialog->setSeed(7);
    dialog->setAlgorithm(QStringLiteral("smalldb"));
    dialog->setBudget(QStringLiteral("pure"), 1.0);
    dialog->setSchedule(QStringLiteral("geometric"), 1.0);
    dialog->setSmallDbSize(12);
    QVERIFY(!dialog->askButton()->isEnabled());
    QVERIFY2(dialog->planText().contains(QStringLiteral("SMALLDB_TOO_LARGE: black_box.m")),
             qPrintable(dialog->planText()));
    dialog->setSmallDbSize(8);
    QVERIFY2(dialog->askButton()->isEnabled(), qPrintable(dialog->planText()));
    QVERIFY2(dialog->planText().startsWith(QStringLiteral("5 epochs, each charged to the filter")),
             qPrintable(dialog->planText()));
    QVERIFY2(dialog->planText().contains(QStringLiteral("together ε = 0.9688")),
             qPrintable(dialog->planText()));
    auto request = dialog->request();
    QVERIFY(request.ok());
    QCOMPARE(request->growing()->smallDbSize, std::uint64_t{8});
    QVERIFY(!pbx::test::saveScreenshot(*dialog, QStringLiteral("growing-request-smalldb")).isEmpty());
    QTest::mouseClick(dialog->askButton(), Qt::LeftButton);
    const auto &events = w.document()->session().events();
    QCOMPARE(events.size(), std::size_t{1});
    const session::LedgerEvent event = events.front();
    auto table = SessionDocument::loadTable(QStringLiteral("cps1988"));
    auto core = session::Session::create(*table, settings);
    auto expected = (*core)->ask(*request);
    QVERIFY(expected.ok());
    QCOMPARE(event.cost, expected->cost);
    QCOMPARE(event.growingRecord()->epochs.back().cells, expected->growingRecord()->epochs.back().cells);
    QCOMPARE(w.resultCard()->headline(), QStringLiteral("5 of 5 epochs released"));
    QVERIFY2(
        w.resultCard()->details().contains(QStringLiteral("SmallDBG epoch 4 of 5: t = 16000, ε = 0.03125")),
        qPrintable(w.resultCard()->details()));
    QVERIFY(w.resultCard()->details().contains(QStringLiteral("m = 8 rows (region, smsa, parttime)")));
    auto *attempts = w.attemptsView();
    QCOMPARE(attempts->topLevelItemCount(), 5);
    QCOMPARE(attempts->topLevelItem(4)->childCount(), 28);
    QCOMPARE(attempts->topLevelItem(4)->child(0)->text(AttemptsView::ScaleColumn), QStringLiteral("—"));
    QVERIFY(dialog->resultText().contains(
        QStringLiteral("SmallDBG epoch 0 of 5: t = 1000, ε = 0.5 — m = 8 rows")));
    QVERIFY(!pbx::test::saveScreenshot(w, QStringLiteral("growing-smalldb-1600")).isEmpty());
    w.resize(1024, 700);
    QVERIFY(!pbx::test::saveScreenshot(w, QStringLiteral("growing-smalldb-1024")).isEmpty());
    dialog->resize(dialog->width(), 680);
    QVERIFY(!pbx::test::saveScreenshot(*dialog, QStringLiteral("growing-request-smalldb-700")).isEmpty());
}

QTEST_MAIN(TestGrowingRequest)
#include "tst_growingrequest.moc"
