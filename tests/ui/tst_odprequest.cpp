// SPDX-License-Identifier: MIT
// Query ▸ Sparse vector (output DP) end to end on CPS1988 with seeded noise: the action is enabled
// only under the odp filter (its tooltip says why otherwise); a request issued from the dialog is
// recorded with its reservation, realised cell and settled ε, exactly as the core session records
// the same request with the same seed; the result card and the ledger show them; the transcript
// keeps them.
#include "core/session/odp/odp_release.h"
#include "core/session/session.h"
#include "tests/ui/uitestutils.h"
#include "ui/charts/odpcellchart.h"
#include "ui/mainwindow.h"
#include "ui/models/ledgermodel.h"
#include "ui/odp/odptext.h"
#include "ui/odp/svtrequestdialog.h"
#include "ui/sessiondocument.h"
#include "ui/util/boundformat.h"
#include "ui/util/numberformat.h"
#include "ui/widgets/budgetgauge.h"
#include "ui/widgets/resultcard.h"

#include <QAction>
#include <QFile>
#include <QPushButton>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using namespace pbx;
using namespace pbx::ui;

namespace {

constexpr std::uint64_t kOdpRequestSeed = 20261126;

session::SessionSettings odpSettings()
{
    session::SessionSettings s;
    s.epsilon = 2.0;
    s.delta = 1e-6;
    s.filter = filters::FilterKind::Odp;
    s.seed = kOdpRequestSeed;
    return s;
}

} // namespace

class TestOdpRequest : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void enabledOnlyUnderOdp();
    void issuesSparseVectorOnCps1988();
    void otherMechanismsReadAsWhatTheyReleased();
};

void TestOdpRequest::enabledOnlyUnderOdp()
{
    MainWindow w;
    auto *action = w.findChild<QAction *>(QStringLiteral("svtRequestAction"));
    QVERIFY(action);
    QVERIFY(!action->isEnabled()); // no session
    QVERIFY(action->toolTip().contains(QStringLiteral("odp filter")));
    QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
    session::SessionSettings zcdp;
    zcdp.seed = kOdpRequestSeed;
    QVERIFY(w.startNewSession(zcdp).ok());
    QVERIFY(!action->isEnabled());
    QVERIFY(action->toolTip().contains(QStringLiteral("Needs a session under the odp filter")));
    QVERIFY(w.startNewSession(odpSettings()).ok());
    QVERIFY(action->isEnabled());
}

void TestOdpRequest::issuesSparseVectorOnCps1988()
{
    MainWindow w;
    w.resize(1400, 900);
    QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
    QVERIFY(w.startNewSession(odpSettings()).ok());
    auto *action = w.findChild<QAction *>(QStringLiteral("svtRequestAction"));
    QVERIFY(action && action->isEnabled());
    action->trigger();
    auto *dialog = w.findChild<SvtRequestDialog *>(QStringLiteral("svtRequestDialog"));
    QVERIFY(dialog);
    // Region counts scanned in order; only one region (south) is above 7000 in CPS1988.
    dialog->setColumn(QStringLiteral("region"));
    dialog->setThreshold(7000);
    dialog->setCutoff(2);
    dialog->setEpsilon(0.5);
    dialog->setSvtShare(0.5);
    QVERIFY(dialog->askButton()->isEnabled());
    // Before asking: the cells j = 0, 1, 2 of the request, the worst one reserved.
    auto request = dialog->request();
    QVERIFY(request.ok());
    const auto guarantee = session::svtRequestGuarantee(request->odp()->svt);
    QVERIFY(guarantee.ok());
    QCOMPARE(dialog->cellChart()->barCount(), 3);
    for (int j = 0; j < 3; ++j)
        QCOMPARE(dialog->cellChart()->barValue(j), guarantee->cells[static_cast<std::size_t>(j)].epsilon);
    QCOMPARE(dialog->cellChart()->worstCase(), guarantee->worstEpsilon());
    QVERIFY(!dialog->cellChart()->realised());

    QTest::mouseClick(dialog->askButton(), Qt::LeftButton);
    const auto &events = w.document()->session().events();
    QCOMPARE(events.size(), std::size_t{1});
    const session::LedgerEvent event = events.front(); // a copy: the ledger grows below
    QVERIFY(event.odpRecord() && event.odpRecord()->cell);

    // The same request on a core session with the same seed records the same numbers.
    auto table = SessionDocument::loadTable(QStringLiteral("cps1988"));
    QVERIFY(table.ok());
    auto core = session::Session::create(*table, odpSettings());
    QVERIFY(core.ok());
    session::QueryRequest same = *request;
    auto expected = (*core)->ask(same);
    QVERIFY(expected.ok());
    QVERIFY(expected->odpRecord() && expected->odpRecord()->cell);
    const int j = *expected->odpRecord()->cell;
    QCOMPARE(*event.odpRecord()->cell, j);
    QCOMPARE(j, 1); // south only
    QCOMPARE(event.odpRecord()->reservedEpsilon, guarantee->worstEpsilon());
    QCOMPARE(event.odpRecord()->settledEpsilon, guarantee->cell(j)->epsilon);
    QCOMPARE(event.odpRecord()->settledEpsilon, expected->odpRecord()->settledEpsilon);
    QCOMPARE(event.cost, expected->cost);
    QCOMPARE(event.odpRecord()->releases.size(), std::size_t{1});
    QCOMPARE(event.odpRecord()->releases.front().label, std::string("south"));
    QCOMPARE(event.odpRecord()->releases.front().value, expected->odpRecord()->releases.front().value);
    // With j ≥ 1 the flagged counts are released with what the sparse vector did not use (scale
    // jΔ/(ε − ε₁ − jε₂/c)): the cell costs ε up to rounding, and the return is a smaller noise.
    const double returned = guarantee->worstEpsilon() - guarantee->cell(j)->epsilon;
    QVERIFY(returned >= 0.0 && returned < 1e-9);
    QVERIFY(std::abs(event.odpRecord()->settledEpsilon - 0.5) < 1e-9);
    QCOMPARE(odpReturnedEpsilon(event), returned);
    QCOMPARE(w.document()->session().filter().spent(), event.cost);

    // The ledger row and the result card show the reservation, the cell, the settled ε and the return.
    auto *model = w.ledgerModel();
    QCOMPARE(model->rowCount(), 1);
    QCOMPARE(model->index(0, LedgerModel::Cost).data(LedgerModel::RawValueRole).toDouble(), event.cost);
    QVERIFY(model->index(0, LedgerModel::Query)
                .data()
                .toString()
                .startsWith(QStringLiteral("sparse vector(region)")));
    QVERIFY(model->index(0, LedgerModel::Accounting)
                .data()
                .toString()
                .contains(QStringLiteral("settled in cell 1")));
    QCOMPARE(w.resultCard()->headline(), QStringLiteral("j = 1 of c = 2 flagged"));
    QVERIFY(w.resultCard()->details().contains(QStringLiteral("realised cell j = 1 of c = 2")));
    QVERIFY(w.resultCard()->details().contains(QStringLiteral("returned")));
    QVERIFY(w.resultCard()->note().contains(QStringLiteral("south: ")));
    // The dialog highlights the realised cell and annotates the return.
    QCOMPARE(dialog->cellChart()->realised(), std::optional<int>(1));
    QVERIFY(std::abs(*dialog->cellChart()->returned() - returned) < 1e-12);
    QVERIFY(dialog->resultText().contains(QStringLiteral("⊤")));
    dialog->resize(640, 700);
    QVERIFY(!pbx::test::saveScreenshot(*dialog, QStringLiteral("odp-svt-request")).isEmpty());
    QVERIFY(!pbx::test::saveScreenshot(w, QStringLiteral("odp-svt-mainwindow")).isEmpty());

    // A threshold no region reaches: j = 0, only ε₁ is charged and the rest is returned.
    dialog->setThreshold(20000);
    QTest::mouseClick(dialog->askButton(), Qt::LeftButton);
    QCOMPARE(events.size(), std::size_t{2});
    const session::LedgerEvent none = events.back();
    QCOMPARE(none.odpRecord()->cell, std::optional<int>(0));
    QCOMPARE(none.cost, guarantee->cell(0)->epsilon);
    QCOMPARE(none.cost, none.odpRecord()->epsilon1);
    QVERIFY(none.odpRecord()->epsilon1 < 0.1); // Lyu et al.'s split gives ε₁ the smaller part
    const double returnedNone = guarantee->worstEpsilon() - guarantee->cell(0)->epsilon;
    QVERIFY(returnedNone > 0.4);
    QCOMPARE(odpReturnedEpsilon(none), returnedNone);
    QCOMPARE(w.document()->session().filter().spent(), event.cost + none.cost);
    QCOMPARE(w.resultCard()->headline(), QStringLiteral("j = 0 of c = 2 flagged"));
    QVERIFY(w.resultCard()->details().contains(
        QStringLiteral("returned %1").arg(formatLowerBound(returnedNone))));
    QCOMPARE(dialog->cellChart()->realised(), std::optional<int>(0));
    QVERIFY(std::abs(*dialog->cellChart()->returned() - returnedNone) < 1e-12);
    QCOMPARE(model->rowCount(), 2);
    QVERIFY(!pbx::test::saveScreenshot(*dialog, QStringLiteral("odp-svt-request-none")).isEmpty());

    // The transcript keeps the request: reopened, the session has spent the same.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("svt.json"));
    QVERIFY(w.saveSessionTo(path).ok());
    // The first window still holds the journal (locked): reopen a copy of the saved files.
    const QString copy = dir.filePath(QStringLiteral("svt-copy.json"));
    for (const QString &suffix : {QString(), QStringLiteral(".journal"), QStringLiteral(".journal.tail")})
        if (QFile::exists(path + suffix))
            QVERIFY(QFile::copy(path + suffix, copy + suffix));
    MainWindow reopened;
    auto opened = reopened.openSessionFile(copy);
    QVERIFY2(opened.ok(), opened.ok() ? "" : opened.error().message.c_str());
    const auto &restored = reopened.document()->session();
    QCOMPARE(restored.events().size(), std::size_t{2});
    QCOMPARE(restored.filter().spent(), event.cost + none.cost);
    QCOMPARE(*restored.events().front().odpRecord()->cell, 1);
    QCOMPARE(reopened.resultCard()->headline(), QStringLiteral("j = 0 of c = 2 flagged"));
}

QTEST_MAIN(TestOdpRequest)
// The run-file mechanisms ptr-iqr, early-stop and recover, asked on a GUI session (as a lesson or a
// reopened transcript does): the ledger row names the mechanism, the result card says what the
// realised cell released, and the attempts view does not claim that nothing was released.
void TestOdpRequest::otherMechanismsReadAsWhatTheyReleased()
{
    MainWindow w;
    QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
    auto settings = odpSettings();
    settings.epsilon = 10.0;
    settings.neighbours = data::Neighbouring::Replace;
    QVERIFY(w.startNewSession(settings).ok());

    session::QueryRequest ptr;
    ptr.id = "p";
    ptr.spec = session::OdpRequestSpec{};
    ptr.odp()->mechanism = session::OdpMechanism::PtrIqr;
    ptr.odp()->ptrIqr.column = "wage";
    ptr.odp()->ptrIqr.epsilon = 0.5;
    ptr.odp()->ptrIqr.medianEpsilon = 0.2;
    QVERIFY(w.document()->ask(ptr).ok());
    const session::LedgerEvent p = w.document()->session().events().back();
    QVERIFY(p.odpRecord() && p.odpRecord()->cell && p.odpRecord()->ptrIqr);
    QVERIFY(w.ledgerModel()
                ->index(0, LedgerModel::Query)
                .data()
                .toString()
                .startsWith(QStringLiteral("PTR interquartile range(wage)")));
    QVERIFY2(w.resultCard()->details().contains(QStringLiteral("PTR case %1 of 3").arg(*p.odpRecord()->cell)),
             qPrintable(w.resultCard()->details()));
    if (p.odpRecord()->ptrIqr->iqr)
        QVERIFY(w.resultCard()->headline().startsWith(
            QStringLiteral("IQR ≈ %1").arg(formatNumber(*p.odpRecord()->ptrIqr->iqr, 4))));
    else
        QCOMPARE(w.resultCard()->headline(), QStringLiteral("PTR: both tests failed (⊥)"));

    session::QueryRequest stop;
    stop.id = "e";
    stop.spec = session::OdpRequestSpec{};
    stop.odp()->mechanism = session::OdpMechanism::EarlyStop;
    stop.odp()->earlyStop.column = "wage";
    stop.odp()->earlyStop.stepEpsilon = 0.01;
    stop.odp()->earlyStop.stops = {5, 10, 20, 40, 80};
    stop.odp()->earlyStop.delta = 1e-7;
    stop.odp()->earlyStop.tolerance = 0.02;
    QVERIFY(w.document()->ask(stop).ok());
    const session::LedgerEvent e = w.document()->session().events().back();
    QVERIFY(e.odpRecord() && e.odpRecord()->earlyStop);
    const auto steps = e.odpRecord()->earlyStop->iterates.size();
    QCOMPARE(static_cast<std::int64_t>(steps),
             stop.odp()->earlyStop.stops[static_cast<std::size_t>(*e.odpRecord()->cell)]);
    QCOMPARE(w.resultCard()->headline(), QStringLiteral("mean ≈ %1 after %2 steps")
                                             .arg(formatNumber(e.odpRecord()->earlyStop->estimate, 6))
                                             .arg(steps));
    QVERIFY(w.resultCard()->details().contains(QStringLiteral("stopped after %1 steps").arg(steps)));
    QVERIFY(w.resultCard()->details().contains(
        QStringLiteral("returned %1").arg(formatNumber(odpReturnedEpsilon(e), 4))));

    session::QueryRequest recover;
    recover.id = "r";
    recover.spec = session::OdpRequestSpec{};
    recover.odp()->mechanism = session::OdpMechanism::Recover;
    recover.odp()->recover.labelThreshold = 600;
    recover.odp()->recover.features = {"education", "experience", "ethnicity", "smsa", "region", "parttime"};
    QVERIFY(w.document()->ask(recover).ok());
    const session::LedgerEvent r = w.document()->session().events().back();
    QVERIFY(r.odpRecord() && r.odpRecord()->recovery);
    const QString error = formatNumber(r.odpRecord()->recovery->noisyError, 4);
    QCOMPARE(w.resultCard()->headline(),
             r.odpRecord()->recovery->released
                 ? QStringLiteral("model released (noisy test error %1)").arg(error)
                 : QStringLiteral("model withheld: noisy test error %1").arg(error));
    QVERIFY(w.ledgerModel()
                ->index(2, LedgerModel::Query)
                .data()
                .toString()
                .startsWith(QStringLiteral("logistic regression(wage > 600)")));
    QCOMPARE(w.document()->session().filter().spent(), p.cost + e.cost + r.cost);
    // δ is debited in full at admission (2δ_f for ptr-iqr, the plan's δ for early-stop): the gauge
    // says so instead of calling δ unused.
    const double deltaSpent = w.document()->session().filter().deltaSpent();
    QVERIFY(std::abs(deltaSpent - 3e-7) < 1e-15);
    QCOMPARE(w.budgetGauge()->note(),
             QStringLiteral("δ debited %1 of %2").arg(formatNumber(deltaSpent, 2), formatNumber(1e-6, 2)));
}

#include "tst_odprequest.moc"
